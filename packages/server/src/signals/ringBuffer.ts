/**
 * The last 60 seconds of one device channel's frames, for new live subscribers: a circular array of
 * frame references (the frames' bytes are kept as received, never copied per sample), trimmed by the
 * frames' own start times.
 */

/** How much signal a ring keeps, in microseconds of frame start time. */
export const RING_SPAN_US = 60_000_000;

export class FrameRing {
  #frames: (Uint8Array | undefined)[];
  #starts: Float64Array;
  /** Index of the oldest frame. */
  #head = 0;
  #size = 0;

  constructor(
    capacity = 64,
    readonly spanUs = RING_SPAN_US,
  ) {
    this.#frames = new Array<Uint8Array | undefined>(capacity);
    this.#starts = new Float64Array(capacity);
  }

  get size(): number {
    return this.#size;
  }

  push(frame: Uint8Array, startTimeUs: number): void {
    // Trim what fell out of the span, measured from the newest frame.
    const newest = this.#size > 0 ? Math.max(startTimeUs, this.#starts[(this.#head + this.#size - 1) % this.#starts.length]!) : startTimeUs;
    while (this.#size > 0 && this.#starts[this.#head]! < newest - this.spanUs) this.#dropOldest();
    if (this.#size === this.#frames.length) this.#grow();
    const at = (this.#head + this.#size) % this.#frames.length;
    this.#frames[at] = frame;
    this.#starts[at] = startTimeUs;
    this.#size++;
  }

  /** Frames starting at or after `fromUs`, oldest first. */
  since(fromUs: number): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (let i = 0; i < this.#size; i++) {
      const at = (this.#head + i) % this.#frames.length;
      if (this.#starts[at]! >= fromUs) out.push(this.#frames[at]!);
    }
    return out;
  }

  /** Start time of the newest frame, or NaN when empty. */
  get newestStartUs(): number {
    return this.#size === 0 ? Number.NaN : this.#starts[(this.#head + this.#size - 1) % this.#starts.length]!;
  }

  #dropOldest(): void {
    this.#frames[this.#head] = undefined;
    this.#head = (this.#head + 1) % this.#frames.length;
    this.#size--;
  }

  #grow(): void {
    const capacity = this.#frames.length * 2;
    const frames = new Array<Uint8Array | undefined>(capacity);
    const starts = new Float64Array(capacity);
    for (let i = 0; i < this.#size; i++) {
      const at = (this.#head + i) % this.#frames.length;
      frames[i] = this.#frames[at];
      starts[i] = this.#starts[at]!;
    }
    this.#frames = frames;
    this.#starts = starts;
    this.#head = 0;
  }
}
