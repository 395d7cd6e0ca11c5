/**
 * The recent samples of one signal for a sweeping display: a ring of float32 values per component
 * (1 for most channels, 3 for the accelerometer's x y z, 2 for respiHr), addressed by an absolute
 * sample index that counts from the first frame's start time. Frames are placed by their own start
 * time, so lost frames leave a gap (NaN, drawn as a break) and a repeated frame (the server's backfill
 * after a reconnect) is not drawn twice.
 */

/** Gaps longer than this restart the trace instead of filling the ring with NaN. */
const MAX_FILLED_GAP_SECONDS = 120;

export class SignalTrace {
  readonly components: number;
  readonly capacity: number;
  #rate = 0;
  #originUs = 0;
  /** Absolute index one past the newest sample; 0 when empty. */
  #end = 0;
  #started = false;
  readonly #rings: Float32Array[];

  /** `seconds`: the longest window the trace must hold, at `maxRate` samples per second. */
  constructor(components: number, seconds: number, maxRate: number) {
    this.components = components;
    this.capacity = Math.max(2, Math.ceil(seconds * maxRate));
    this.#rings = Array.from({ length: components }, () => new Float32Array(this.capacity).fill(Number.NaN));
  }

  get rate(): number {
    return this.#rate;
  }

  get empty(): boolean {
    return !this.#started;
  }

  /** Absolute index one past the newest sample. */
  get end(): number {
    return this.#end;
  }

  /** Device time (µs) of an absolute sample index. */
  timeUsOf(index: number): number {
    return this.#originUs + (index * 1e6) / this.#rate;
  }

  /** Absolute (fractional) index of a device time (µs). */
  indexOf(timeUs: number): number {
    return ((timeUs - this.#originUs) * this.#rate) / 1e6;
  }

  /** Device time (µs) just after the newest sample, or null when empty. */
  get endTimeUs(): number | null {
    return this.#started ? this.timeUsOf(this.#end) : null;
  }

  /** The value of component `component` at absolute index `index`, NaN when not held (too old, a gap, or not yet come). */
  at(index: number, component = 0): number {
    if (!this.#started || index < 0 || index >= this.#end || index < this.#end - this.capacity) return Number.NaN;
    return (this.#rings[component] as Float32Array)[index % this.capacity] as number;
  }

  /** The newest value of a component, NaN when none. */
  latest(component = 0): number {
    return this.at(this.#end - 1, component);
  }

  clear(): void {
    this.#started = false;
    this.#end = 0;
    for (const ring of this.#rings) ring.fill(Number.NaN);
  }

  /**
   * Appends `count` sample points starting at device time `startUs`, read from `values` interleaved by
   * `stride` (the frame's width) beginning at `first` (the component offset within a point).
   */
  push(startUs: number, rate: number, values: ArrayLike<number>, count: number, stride = this.components, first = 0): void {
    if (!(rate > 0) || count <= 0) return;
    if (!this.#started || rate !== this.#rate) {
      this.clear();
      this.#rate = rate;
      this.#originUs = startUs;
      this.#started = true;
    }
    let index = Math.round(this.indexOf(startUs));
    if (index > this.#end) {
      if (index - this.#end > MAX_FILLED_GAP_SECONDS * rate) {
        this.clear();
        this.push(startUs, rate, values, count, stride, first);
        return;
      }
      for (let gap = this.#end; gap < index; gap++) for (const ring of this.#rings) ring[gap % this.capacity] = Number.NaN;
      this.#end = index;
    }
    // Samples at or before the newest one already held are repeats: skip them.
    let from = 0;
    if (index < this.#end) {
      from = this.#end - index;
      index = this.#end;
    }
    if (from >= count) return;
    for (let component = 0; component < this.components; component++) {
      const ring = this.#rings[component] as Float32Array;
      let at = index % this.capacity;
      for (let point = from; point < count; point++) {
        ring[at] = values[point * stride + first + component] as number;
        at = at + 1 === this.capacity ? 0 : at + 1;
      }
    }
    this.#end = index + (count - from);
  }

  /** Smallest and largest held value of a component between two absolute indices (NaN-free), or null. */
  range(fromIndex: number, toIndex: number, component = 0): [number, number] | null {
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    const from = Math.max(Math.floor(fromIndex), this.#end - this.capacity, 0);
    const to = Math.min(Math.ceil(toIndex), this.#end);
    const ring = this.#rings[component] as Float32Array;
    for (let index = from; index < to; index++) {
      const value = ring[index % this.capacity] as number;
      if (value < min) min = value;
      if (value > max) max = value;
    }
    return min <= max ? [min, max] : null;
  }
}
