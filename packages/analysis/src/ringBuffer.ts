// A fixed-capacity ring of interleaved samples: the live window of one channel of one device.
// Allocated once; writing never allocates, reading copies the newest samples out in time order.

export class SampleRing {
  readonly width: number;
  readonly capacity: number;
  readonly #data: Float32Array;
  /** Samples (frames of `width` values) written since the last clear. */
  #written = 0;

  constructor(capacity: number, width = 1) {
    this.capacity = Math.max(1, Math.floor(capacity));
    this.width = width;
    this.#data = new Float32Array(this.capacity * width);
  }

  /** Samples held (at most the capacity). */
  get length(): number {
    return Math.min(this.#written, this.capacity);
  }

  clear(): void {
    this.#written = 0;
  }

  /** Appends whole samples of interleaved values (a trailing partial sample is ignored). */
  write(values: ArrayLike<number>): void {
    const width = this.width;
    const samples = Math.floor(values.length / width);
    // Only the newest `capacity` samples can survive.
    const skip = Math.max(0, samples - this.capacity);
    for (let s = skip; s < samples; s++) {
      const at = ((this.#written + s - skip) % this.capacity) * width;
      for (let k = 0; k < width; k++) this.#data[at + k] = values[s * width + k]!;
    }
    this.#written += samples - skip;
  }

  /** Copies the newest `count` samples (oldest first) into `out`; returns how many were copied. */
  copyLatest(count: number, out: Float32Array): number {
    const width = this.width;
    const n = Math.min(count, this.length, Math.floor(out.length / width));
    const first = this.#written - n;
    for (let s = 0; s < n; s++) {
      const at = ((first + s) % this.capacity) * width;
      for (let k = 0; k < width; k++) out[s * width + k] = this.#data[at + k]!;
    }
    return n;
  }
}
