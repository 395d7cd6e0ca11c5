/**
 * The raw stored signals of one minute of a night: read from `GET /api/devices/:serial/signals`
 * (docs/device-protocol.md, "Reading signals"), decoded in the browser by the WebAssembly parser, and
 * reduced to a min/max envelope per pixel column so a minute of 250 Hz ECG draws as a few hundred
 * points. Works on the frames' typed arrays; no object per sample.
 */
import type { SmfFrame, SmfSampleChannel, SmfSampleFrame } from '@nemuri/parser/smf';
import { loadDeviceParser } from '../../lib/deviceParser.ts';
import { ApiError } from '../../lib/http/apiError.ts';
import { fetchStoredSignals } from '../../lib/storedSignals.ts';

export const RAW_CHANNELS = ['respiAxl', 'ecg'] as const satisfies readonly SmfSampleChannel[];
export type RawChannel = (typeof RAW_CHANNELS)[number];

export type ChannelSignals = { status: 'frames'; frames: SmfSampleFrame[] } | { status: 'none' } | { status: 'forbidden' } | { status: 'failed' };

/** The frames of a channel that start in [fromMs, toMs), in time order; the answer's status otherwise. */
export async function readStoredSignals(serial: string, channel: RawChannel, fromMs: number, toMs: number, signal?: AbortSignal): Promise<ChannelSignals> {
  let bytes: Uint8Array;
  try {
    bytes = await fetchStoredSignals(serial, channel, new Date(fromMs), new Date(toMs), signal);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // A device out of the user's scope (403) and one the user's level may not read (404) both mean "not yours".
    return { status: error.status === 403 || error.status === 404 || error.status === 401 ? 'forbidden' : 'failed' };
  }
  if (bytes.length === 0) return { status: 'none' };
  const parser = await loadDeviceParser();
  const frames = sampleFrames(parser.decodeSmfStream(bytes), channel);
  return frames.length === 0 ? { status: 'none' } : { status: 'frames', frames };
}

/** The sample frames of one channel (multi frames opened), in time order. */
export function sampleFrames(frames: readonly SmfFrame[], channel: RawChannel): SmfSampleFrame[] {
  const out: SmfSampleFrame[] = [];
  for (const frame of frames) {
    if (frame.channel === 'multi') {
      for (const inner of frame.frames) if (inner.channel === channel) out.push(inner);
    } else if (frame.channel === channel) out.push(frame);
  }
  return out.sort((a, b) => a.startTimeUs - b.startTimeUs);
}

export interface Envelope {
  min: Float32Array;
  max: Float32Array;
  /** Lowest and highest value drawn, or null when no sample fell in the window. */
  range: [number, number] | null;
}

/**
 * Min and max of component `component` per column of the window [fromMs, toMs); NaN in columns
 * without a sample (a gap in the recording stays a gap).
 */
export function envelope(frames: readonly SmfSampleFrame[], component: number, fromMs: number, toMs: number, columns: number): Envelope {
  const min = new Float32Array(columns).fill(Number.NaN);
  const max = new Float32Array(columns).fill(Number.NaN);
  let low = Infinity;
  let high = -Infinity;
  const span = toMs - fromMs;
  for (const frame of frames) {
    if (component >= frame.width) continue;
    const startMs = frame.startTimeUs / 1000;
    const stepMs = 1000 / frame.sampleRate;
    for (let i = 0; i < frame.sampleCount; i++) {
      const t = startMs + i * stepMs;
      if (t < fromMs || t >= toMs) continue;
      const value = frame.values[i * frame.width + component] as number;
      if (!Number.isFinite(value)) continue;
      const column = Math.floor(((t - fromMs) / span) * columns);
      if (!(value >= (min[column] as number))) min[column] = value;
      if (!(value <= (max[column] as number))) max[column] = value;
      if (value < low) low = value;
      if (value > high) high = value;
    }
  }
  return { min, max, range: low <= high ? [low, high] : null };
}

/**
 * An SVG path of the envelope: a vertical stroke per column from its min to its max, joined to the
 * next column, so both a slow breath and a sharp R-peak keep their shape when reduced.
 */
export function envelopePath(env: Envelope, width: number, height: number, range: [number, number]): string {
  const columns = env.min.length;
  const [low, high] = range;
  const scale = high > low ? height / (high - low) : 0;
  const y = (value: number) => (high > low ? height - (value - low) * scale : height / 2);
  const parts: string[] = [];
  let drawing = false;
  for (let c = 0; c < columns; c++) {
    const lo = env.min[c] as number;
    const hi = env.max[c] as number;
    if (Number.isNaN(lo)) {
      drawing = false;
      continue;
    }
    const x = ((c + 0.5) * width) / columns;
    parts.push(`${drawing ? 'L' : 'M'}${x.toFixed(1)} ${y(hi).toFixed(1)} L${x.toFixed(1)} ${y(lo).toFixed(1)}`);
    drawing = true;
  }
  return parts.join(' ');
}
