/**
 * Maps the page's clock to the devices' clock for smooth sweeping. Frames arrive a second of samples at
 * a time with network jitter; the display plays them back a fixed delay behind the newest data, at
 * the page's frame rate. The offset is the smallest (page time − device time of a frame's last sample)
 * seen, creeping up slowly so that a device clock that drifts, or a network path that gets slower,
 * is followed instead of starving the display.
 */

/** How far behind the freshest data the cursor runs: one frame (1 s) plus jitter. */
export const PLAYBACK_DELAY_MS = 1_500;
/** How fast the offset may grow between observations (ms per observation). */
const CREEP_MS = 2;

export class PlaybackClock {
  #offsetMs: number | null = null;

  /** A frame whose last sample is at device time `deviceEndMs` arrived at page time `pageNowMs`. */
  observe(deviceEndMs: number, pageNowMs: number): void {
    const offset = pageNowMs - deviceEndMs;
    this.#offsetMs = this.#offsetMs === null ? offset : Math.min(this.#offsetMs + CREEP_MS, offset);
  }

  /** Device time (ms) the cursor is at for page time `pageNowMs`, or null before any frame. */
  deviceTimeMs(pageNowMs: number): number | null {
    return this.#offsetMs === null ? null : pageNowMs - this.#offsetMs - PLAYBACK_DELAY_MS;
  }

  reset(): void {
    this.#offsetMs = null;
  }
}
