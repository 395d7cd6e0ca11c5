/**
 * Every device channel's ring of recent frames (ringBuffer.ts), filled by ingest as frames arrive
 * and read by the live signal socket for a new subscriber's first seconds.
 */
import type { SmfSampleChannel } from '@nemuri/parser/smf';
import { FrameRing } from './ringBuffer.ts';

export class FrameRings {
  readonly #rings = new Map<string, Map<SmfSampleChannel, FrameRing>>();

  /** The ring of one device channel, made on its first frame. */
  ring(serial: string, channel: SmfSampleChannel): FrameRing {
    let channels = this.#rings.get(serial);
    if (channels === undefined) this.#rings.set(serial, (channels = new Map()));
    let ring = channels.get(channel);
    if (ring === undefined) channels.set(channel, (ring = new FrameRing()));
    return ring;
  }

  /**
   * The device's frames of the last `seconds` (by the newest frame's time) of the given channels,
   * oldest first: what a new live subscriber gets first.
   */
  recent(serial: string, channels: readonly SmfSampleChannel[] | null, seconds: number): Uint8Array[] {
    const rings = this.#rings.get(serial);
    if (rings === undefined) return [];
    const picked = [...rings].filter(([channel]) => channels === null || channels.includes(channel));
    const newest = Math.max(...picked.map(([, ring]) => ring.newestStartUs).filter((value) => !Number.isNaN(value)));
    if (!Number.isFinite(newest)) return [];
    const frames: { startUs: number; bytes: Uint8Array }[] = [];
    for (const [, ring] of picked) {
      for (const bytes of ring.since(newest - seconds * 1_000_000)) {
        frames.push({ startUs: Number(new DataView(bytes.buffer, bytes.byteOffset + 16, 8).getBigInt64(0, true)), bytes });
      }
    }
    return frames.sort((a, b) => a.startUs - b.startUs).map((frame) => frame.bytes);
  }
}
