/**
 * A device's stored raw signals, `GET /api/devices/:serial/signals` (docs/device-protocol.md,
 * "Reading signals"): the frames' bytes as stored, for the WebAssembly parser to decode. Used by the
 * raw views (their first minutes) and by a night's raw minute.
 */
import { fetchResponse } from './http/httpClient.ts';

/** The SMF frames of one channel that start in [from, to), as bytes; an ApiError for a refusal (403/404: not the user's). */
export async function fetchStoredSignals(serial: string, channel: string, from: Date, to: Date, signal?: AbortSignal): Promise<Uint8Array> {
  const query = new URLSearchParams({ channel, from: from.toISOString(), to: to.toISOString() });
  const response = await fetchResponse(`/api/devices/${encodeURIComponent(serial)}/signals?${query.toString()}`, {
    accept: 'application/octet-stream',
    ...(signal === undefined ? {} : { signal }),
  });
  return new Uint8Array(await response.arrayBuffer());
}
