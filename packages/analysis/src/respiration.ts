// Respiration rate and breathing amplitude from a respiration-like signal: chest or bed acceleration,
// thoracic impedance, a RESP channel or EIT global impedance.
// Method: block-average to ~10 Hz, remove the linear trend, zero-phase band-pass 0.1–0.7 Hz
// (6–42 breaths/min) with Butterworth biquads, then count breaths as upward zero crossings confirmed by
// a hysteresis band (a crossing counts only after the signal went below −h and then above +h), as in
// the count-based methods reviewed by Charlton et al., "Breathing rate estimation from the
// electrocardiogram and photoplethysmogram: a review", IEEE Rev Biomed Eng 11 (2018).
import { bandPass, decimate, detrend, filterZeroPhase, median, medianInPlace } from './filters.ts';

export const BREATHING_BAND_HZ: readonly [number, number] = [0.1, 0.7];
/** Breathing needs no more than this many samples a second once band-limited below 0.7 Hz. */
const TARGET_RATE_HZ = 10;

export interface RespirationOptions {
  /** Half-width of the hysteresis band as a fraction of the signal's robust scale (default 0.3). */
  hysteresis?: number;
  band?: readonly [number, number];
}

export interface BreathingSignal {
  /** The band-passed signal at `sampleRate`. */
  signal: Float64Array;
  sampleRate: number;
  /** Multi-axis input: each band-passed axis. */
  axes?: Float64Array[];
  /** Multi-axis input: the unit direction the signal was projected on. */
  direction?: Float64Array;
}

export interface RespirationEstimate {
  /** Breaths/min; NaN when fewer than two breaths were found. */
  rate: number;
  breaths: number;
  /** Robust amplitude of the band-passed signal: 1.4826 × median |x| (≈ SD for noise, 0.75 × peak for a sine). */
  amplitude: number;
  /** Coefficient of variation of the breath-to-breath intervals (NaN with fewer than three breaths). */
  intervalVariation: number;
}

const decimationFactor = (sampleRate: number): number => Math.max(1, Math.floor(sampleRate / TARGET_RATE_HZ));

/** Decimates, detrends and band-passes one channel (optionally one column of interleaved data). */
export function breathingSignal(values: ArrayLike<number>, sampleRate: number, stride = 1, offset = 0, band = BREATHING_BAND_HZ): BreathingSignal {
  const factor = decimationFactor(sampleRate);
  const signal = decimate(values, factor, stride, offset);
  const rate = sampleRate / factor;
  detrend(signal);
  filterZeroPhase(signal, bandPass(band[0], Math.min(band[1], rate * 0.45), rate));
  return { signal, sampleRate: rate };
}

/**
 * The breathing component of multi-axis data (3-axis acceleration: x, y, z interleaved): each axis is
 * band-passed, then projected on the first principal component of the band-passed axes, which is the
 * direction the chest moves in whatever the posture. The sign of the result is arbitrary.
 */
export function principalBreathingSignal(
  interleaved: ArrayLike<number>,
  width: number,
  sampleRate: number,
  band = BREATHING_BAND_HZ,
  knownDirection?: Float64Array,
): BreathingSignal {
  const axes: Float64Array[] = [];
  let rate = sampleRate;
  for (let axis = 0; axis < width; axis++) {
    const filtered = breathingSignal(interleaved, sampleRate, width, axis, band);
    axes.push(filtered.signal);
    rate = filtered.sampleRate;
  }
  const n = axes[0]?.length ?? 0;
  // A direction found a moment ago still holds (the chest moves the same way until the posture changes).
  const vector = knownDirection?.length === width ? knownDirection : principalDirection(axes, width, n);
  const signal = new Float64Array(n);
  for (let a = 0; a < width; a++) {
    const w = vector[a]!;
    const x = axes[a]!;
    for (let i = 0; i < n; i++) signal[i] = signal[i]! + w * x[i]!;
  }
  return { signal, sampleRate: rate, axes, direction: vector };
}

/** The first principal component of the band-passed axes (a unit vector). */
function principalDirection(axes: readonly Float64Array[], width: number, n: number): Float64Array {
  // Samples of a movement burst would dominate the covariance and turn the direction toward the
  // movement; leave out every sample where an axis exceeds four times its robust amplitude.
  const limits = axes.map((x) => 4 * robustAmplitude(x));
  const calm = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    let ok = 1;
    for (let a = 0; a < width; a++) if (Math.abs(axes[a]![i]!) > limits[a]!) ok = 0;
    calm[i] = ok;
  }
  const covariance = new Float64Array(width * width);
  for (let a = 0; a < width; a++) {
    for (let b = a; b < width; b++) {
      let sum = 0;
      const x = axes[a]!;
      const y = axes[b]!;
      for (let i = 0; i < n; i++) if (calm[i] === 1) sum += x[i]! * y[i]!;
      covariance[a * width + b] = sum;
      covariance[b * width + a] = sum;
    }
  }
  // Power iteration, started on the axis with most band power so that it converges fast and never starts orthogonal.
  const vector = new Float64Array(width);
  let best = 0;
  for (let a = 1; a < width; a++) if (covariance[a * width + a]! > covariance[best * width + best]!) best = a;
  vector[best] = 1;
  const next = new Float64Array(width);
  for (let iteration = 0; iteration < 30; iteration++) {
    let norm = 0;
    for (let a = 0; a < width; a++) {
      let sum = 0;
      for (let b = 0; b < width; b++) sum += covariance[a * width + b]! * vector[b]!;
      next[a] = sum;
      norm += sum * sum;
    }
    norm = Math.sqrt(norm);
    if (norm === 0) break;
    for (let a = 0; a < width; a++) vector[a] = next[a]! / norm;
  }
  return vector;
}

/**
 * Breathing excursion over the last `seconds`: the peak-to-peak of the signal or, for multi-axis data,
 * the vector norm of the per-axis peak-to-peaks — independent of the principal direction, which a recent
 * movement can turn away from the breathing.
 */
export function breathingExcursion(breathing: BreathingSignal, seconds: number): number {
  const from = breathing.signal.length - Math.round(seconds * breathing.sampleRate);
  if (!breathing.axes) return peakToPeak(breathing.signal, from);
  let sum = 0;
  for (const axis of breathing.axes) sum += peakToPeak(axis, from) ** 2;
  return Math.sqrt(sum);
}

/** 1.4826 × median |x|: the SD of Gaussian noise, robust to a few large movement artefacts. */
export function robustAmplitude(signal: ArrayLike<number>, from = 0, to = signal.length): number {
  const n = Math.max(0, to - from);
  if (n === 0) return Number.NaN;
  // One scratch array for every call: this runs several times a live second.
  if (magnitudeScratch.length < n) magnitudeScratch = new Float64Array(n);
  for (let i = from; i < to; i++) magnitudeScratch[i - from] = Math.abs(signal[i]!);
  return 1.4826 * medianInPlace(magnitudeScratch, n);
}

let magnitudeScratch = new Float64Array(0);

/** Peak-to-peak of samples [from, to): the breathing excursion over a few seconds, for apnea detection. */
export function peakToPeak(signal: ArrayLike<number>, from = 0, to = signal.length): number {
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (let i = Math.max(0, from); i < to; i++) {
    const v = signal[i]!;
    if (v < low) low = v;
    if (v > high) high = v;
  }
  return high >= low ? high - low : Number.NaN;
}

/**
 * Breath onsets (fractional sample indices of upward zero crossings, linearly interpolated) of a
 * band-passed, zero-mean signal, written into `out`; returns how many were found.
 */
export function detectBreaths(signal: Float64Array, band: number, out: Float64Array): number {
  let count = 0;
  let armed = false;
  let crossing = Number.NaN;
  for (let i = 1; i < signal.length; i++) {
    const previous = signal[i - 1]!;
    const v = signal[i]!;
    if (v < -band) {
      armed = true;
      crossing = Number.NaN;
    } else if (armed && previous < 0 && v >= 0) crossing = i - 1 + previous / (previous - v);
    if (armed && v > band && !Number.isNaN(crossing)) {
      if (count < out.length) out[count++] = crossing;
      armed = false;
    }
  }
  return count;
}

export function estimateFromBreathingSignal({ signal, sampleRate }: BreathingSignal, options: RespirationOptions = {}): RespirationEstimate {
  const amplitude = robustAmplitude(signal);
  const onsets = new Float64Array(Math.ceil((signal.length / sampleRate) * 1.5) + 2);
  const breaths = amplitude > 0 ? detectBreaths(signal, (options.hysteresis ?? 0.3) * amplitude, onsets) : 0;
  if (breaths < 2) return { rate: Number.NaN, breaths, amplitude, intervalVariation: Number.NaN };
  const span = onsets[breaths - 1]! - onsets[0]!;
  // Mean interval over the span, unless one interval is a pause (an apnea inside the window, a missed
  // breath): then the median interval describes the breathing better.
  const intervals = new Float64Array(breaths - 1);
  for (let i = 1; i < breaths; i++) intervals[i - 1] = onsets[i]! - onsets[i - 1]!;
  const typical = median(intervals);
  let longest = 0;
  for (const interval of intervals) longest = Math.max(longest, interval);
  const rate = (60 * sampleRate) / (longest > 2 * typical ? typical : span / (breaths - 1));
  let intervalVariation = Number.NaN;
  if (breaths >= 3) {
    const meanInterval = span / (breaths - 1);
    let sum = 0;
    for (let i = 1; i < breaths; i++) sum += (onsets[i]! - onsets[i - 1]! - meanInterval) ** 2;
    intervalVariation = Math.sqrt(sum / (breaths - 1)) / meanInterval;
  }
  return { rate, breaths, amplitude, intervalVariation };
}

/** Respiration rate of a single-channel window (impedance, RESP, EIT global impedance, one axis). */
export function estimateRespiration(values: ArrayLike<number>, sampleRate: number, options: RespirationOptions = {}): RespirationEstimate {
  return estimateFromBreathingSignal(breathingSignal(values, sampleRate, 1, 0, options.band), options);
}

/** Respiration rate of interleaved multi-axis acceleration, along its principal breathing direction. */
export function estimateRespirationFromAcceleration(
  interleaved: ArrayLike<number>,
  width: number,
  sampleRate: number,
  options: RespirationOptions = {},
): RespirationEstimate {
  return estimateFromBreathingSignal(principalBreathingSignal(interleaved, width, sampleRate, options.band), options);
}

export interface ApneaOptions {
  /** Breathing counts as absent below this fraction of the baseline excursion (default 0.25). */
  fraction?: number;
  /** No breathing is reported after this long below the fraction (default 10 s, the AASM apnea duration). */
  minSeconds?: number;
  /** The baseline is the median excursion over this many seconds before the current window (default 120). */
  baselineSeconds?: number;
  /**
   * Length of the window each excursion is measured over (default 0): the first flat excursion means the
   * breathing stopped that long ago, so the flat spell is dated back by it.
   */
  windowSeconds?: number;
  /** A flat spell holds the baseline of its start for at most this long (default 120 s). */
  holdSeconds?: number;
}

/**
 * No-breathing detection from one excursion value a second (the peak-to-peak of the band-passed
 * breathing signal over the last few seconds): breathing is absent when the excursion stays below a
 * fraction of the pre-event baseline for `minSeconds` — the AASM scoring rule of a ≥ 90 % drop in the
 * respiratory signal from the pre-event baseline for ≥ 10 s, with a looser fraction because a chest or
 * bed signal does not fall to zero. The baseline is the median of the recent usable excursions (robust
 * to movement artefacts and level steps), held during a flat spell so the spell does not lower it;
 * after `holdSeconds` the hold ends, so that a baseline inflated by an artefact cannot keep a false
 * no-breathing state alive.
 */
export class ApneaDetector {
  readonly #fraction: number;
  readonly #minMs: number;
  readonly #windowMs: number;
  readonly #holdMs: number;
  readonly #excursions: Float64Array;
  readonly #stamps: Float64Array;
  readonly #scratch: Float64Array;
  #baseline = Number.NaN;
  #heldBaseline = Number.NaN;
  #flatSinceMs = Number.NaN;
  #lastMs = Number.NaN;

  constructor(options: ApneaOptions = {}) {
    this.#fraction = options.fraction ?? 0.25;
    this.#minMs = (options.minSeconds ?? 10) * 1000;
    this.#windowMs = (options.windowSeconds ?? 0) * 1000;
    this.#holdMs = (options.holdSeconds ?? 120) * 1000;
    const size = Math.max(10, Math.round(options.baselineSeconds ?? 120));
    this.#excursions = new Float64Array(size).fill(Number.NaN);
    this.#stamps = new Float64Array(size).fill(Number.NaN);
    this.#scratch = new Float64Array(size);
  }

  /** One call a second. `usable` is false while movement swamps the breathing signal. */
  update(timeMs: number, excursion: number, usable: boolean): void {
    this.#lastMs = timeMs;
    const second = Math.floor(timeMs / 1000);
    const slot = second % this.#excursions.length;
    const ok = usable && Number.isFinite(excursion);
    this.#excursions[slot] = ok ? excursion : Number.NaN;
    this.#stamps[slot] = second;
    this.#baseline = this.#medianBefore(second);
    if (!ok || Number.isNaN(this.#baseline)) {
      this.#flatSinceMs = Number.NaN;
      return;
    }
    const holding = !Number.isNaN(this.#flatSinceMs) && timeMs - this.#flatSinceMs < this.#holdMs;
    const baseline = holding ? this.#heldBaseline : this.#baseline;
    if (excursion < this.#fraction * baseline) {
      if (Number.isNaN(this.#flatSinceMs)) {
        this.#flatSinceMs = timeMs - this.#windowMs;
        this.#heldBaseline = baseline;
      }
    } else this.#flatSinceMs = Number.NaN;
  }

  /** The median usable excursion of the stored seconds older than the current window (NaN with fewer than 10). */
  #medianBefore(second: number): number {
    const newest = second - Math.ceil(this.#windowMs / 1000);
    let n = 0;
    for (let i = 0; i < this.#excursions.length; i++) {
      const stamp = this.#stamps[i]!;
      const value = this.#excursions[i]!;
      if (stamp <= newest && stamp > second - this.#excursions.length && Number.isFinite(value)) this.#scratch[n++] = value;
    }
    if (n < 10) return Number.NaN;
    const sorted = this.#scratch.subarray(0, n).sort();
    return n % 2 === 1 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
  }

  /** Forgets the history (e.g. when the person has just come back to bed). */
  reset(): void {
    this.#excursions.fill(Number.NaN);
    this.#stamps.fill(Number.NaN);
    this.#baseline = Number.NaN;
    this.#flatSinceMs = Number.NaN;
  }

  /** The current baseline excursion (NaN until ten usable seconds are known). */
  get baseline(): number {
    return this.#baseline;
  }

  /** Since when breathing has been absent (NaN while breathing). */
  get flatSinceMs(): number {
    return this.#flatSinceMs;
  }

  get noBreathing(): boolean {
    return !Number.isNaN(this.#flatSinceMs) && this.#lastMs - this.#flatSinceMs >= this.#minMs;
  }
}
