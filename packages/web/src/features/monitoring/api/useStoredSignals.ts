import type { SmfSampleChannel } from '@nemuri/parser/smf';
import { useEffect, useState } from 'react';
import { loadDeviceParser } from '../../../lib/deviceParser.ts';
import { ApiError } from '../../../lib/http/apiError.ts';
import { fetchStoredSignals } from '../../../lib/storedSignals.ts';
import type { LiveTraceSet } from '../raw/liveTraceSet.ts';

/** Windows up to this long fill from the live backfill alone (the server sends its last 5 s). */
const LIVE_ONLY_SECONDS = 10;

async function fillFromStorage(
  serial: string,
  channels: readonly SmfSampleChannel[],
  seconds: number,
  traces: LiveTraceSet,
  signal: AbortSignal,
): Promise<void> {
  const parser = await loadDeviceParser();
  const to = new Date();
  const from = new Date(to.getTime() - seconds * 1000);
  for (const channel of channels) {
    let bytes: Uint8Array;
    try {
      bytes = await fetchStoredSignals(serial, channel, from, to, signal);
    } catch (error) {
      // Channels that are not stored (e.g. EIT while the demo runs) or not readable simply start live.
      if (error instanceof ApiError && !error.isNetworkFailure) continue;
      throw error;
    }
    const frames = parser.decodeSmfStream(bytes);
    frames.sort((a, b) => a.startTimeUs - b.startTimeUs);
    for (const frame of frames) if (frame.channel !== 'multi') traces.frame(frame);
  }
}

/**
 * Fills the traces with the stored signals of the window before the live stream starts, so a 10-minute
 * trend opens full instead of empty. True once done (or failed: the view then starts live only).
 */
export function useStoredSignals(serial: string, channels: readonly SmfSampleChannel[], seconds: number, traces: LiveTraceSet): boolean {
  const needed = seconds > LIVE_ONLY_SECONDS;
  const [done, setDone] = useState(!needed);
  const channelKey = channels.join(',');
  useEffect(() => {
    if (!needed) return undefined;
    const abort = new AbortController();
    fillFromStorage(serial, channelKey.split(',') as SmfSampleChannel[], seconds, traces, abort.signal)
      .catch(() => undefined)
      .finally(() => {
        if (!abort.signal.aborted) setDone(true);
      });
    return () => abort.abort();
  }, [serial, channelKey, seconds, traces, needed]);
  return done;
}
