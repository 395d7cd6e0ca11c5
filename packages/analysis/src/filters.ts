// Second-order IIR sections and small array helpers shared by the signal modules.
// Coefficients follow R. Bristow-Johnson's "Audio EQ Cookbook" (Butterworth when q = 1/√2);
// filtering runs in transposed direct form II in float64 for stability at low cutoff/sample-rate ratios.

/** One normalised biquad: y = (b0 + b1 z⁻¹ + b2 z⁻²) / (1 + a1 z⁻¹ + a2 z⁻²). */
export interface Biquad {
  readonly b0: number;
  readonly b1: number;
  readonly b2: number;
  readonly a1: number;
  readonly a2: number;
}

function normalise(b0: number, b1: number, b2: number, a0: number, a1: number, a2: number): Biquad {
  return { b0: b0 / a0, b1: b1 / a0, b2: b2 / a0, a1: a1 / a0, a2: a2 / a0 };
}

export function lowPass(cutoffHz: number, sampleRate: number, q = Math.SQRT1_2): Biquad {
  const w = (2 * Math.PI * cutoffHz) / sampleRate;
  const alpha = Math.sin(w) / (2 * q);
  const c = Math.cos(w);
  return normalise((1 - c) / 2, 1 - c, (1 - c) / 2, 1 + alpha, -2 * c, 1 - alpha);
}

export function highPass(cutoffHz: number, sampleRate: number, q = Math.SQRT1_2): Biquad {
  const w = (2 * Math.PI * cutoffHz) / sampleRate;
  const alpha = Math.sin(w) / (2 * q);
  const c = Math.cos(w);
  return normalise((1 + c) / 2, -(1 + c), (1 + c) / 2, 1 + alpha, -2 * c, 1 - alpha);
}

/** A band-pass as a high-pass and a low-pass section (each 2nd-order Butterworth). */
export function bandPass(lowHz: number, highHz: number, sampleRate: number): Biquad[] {
  return [highPass(lowHz, sampleRate), lowPass(highHz, sampleRate)];
}

/** Filters in place, causally, through each section in turn; the state starts at rest. */
export function filterForward(signal: Float64Array, sections: readonly Biquad[]): void {
  for (const { b0, b1, b2, a1, a2 } of sections) {
    let z1 = 0;
    let z2 = 0;
    for (let i = 0; i < signal.length; i++) {
      const x = signal[i]!;
      const y = b0 * x + z1;
      z1 = b1 * x - a1 * y + z2;
      z2 = b2 * x - a2 * y;
      signal[i] = y;
    }
  }
}

/** Zero-phase filtering (forward then backward, as MATLAB's filtfilt): peaks stay where they were. */
export function filterZeroPhase(signal: Float64Array, sections: readonly Biquad[]): void {
  filterForward(signal, sections);
  signal.reverse();
  filterForward(signal, sections);
  signal.reverse();
}

/** Removes the least-squares straight line, so that a slow drift does not ring through a high-pass. */
export function detrend(signal: Float64Array): void {
  const n = signal.length;
  if (n < 2) return;
  const tMean = (n - 1) / 2;
  let yMean = 0;
  for (let i = 0; i < n; i++) yMean += signal[i]!;
  yMean /= n;
  let covariance = 0;
  let variance = 0;
  for (let i = 0; i < n; i++) {
    covariance += (i - tMean) * (signal[i]! - yMean);
    variance += (i - tMean) * (i - tMean);
  }
  const slope = covariance / variance;
  for (let i = 0; i < n; i++) signal[i] = signal[i]! - yMean - slope * (i - tMean);
}

/**
 * Averages consecutive blocks of `factor` samples (a boxcar anti-alias filter): breathing below 1 Hz
 * needs no more than ~10 samples a second, and fewer samples keep the low-cutoff biquads well conditioned.
 */
export function decimate(signal: ArrayLike<number>, factor: number, stride = 1, offset = 0): Float64Array {
  const count = Math.floor(signal.length / stride);
  const out = new Float64Array(Math.floor(count / factor));
  for (let i = 0; i < out.length; i++) {
    let sum = 0;
    for (let k = 0; k < factor; k++) sum += signal[(i * factor + k) * stride + offset]!;
    out[i] = sum / factor;
  }
  return out;
}

export function mean(values: ArrayLike<number>, from = 0, to = values.length): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += values[i]!;
  return to > from ? sum / (to - from) : Number.NaN;
}

export function standardDeviation(values: ArrayLike<number>, from = 0, to = values.length): number {
  const m = mean(values, from, to);
  let sum = 0;
  for (let i = from; i < to; i++) sum += (values[i]! - m) ** 2;
  return to > from ? Math.sqrt(sum / (to - from)) : Number.NaN;
}

/** The median of the finite values (a copy is sorted; the input is left alone). NaN when there are none. */
export function median(values: ArrayLike<number>, from = 0, to = values.length): number {
  const finite = new Float64Array(Math.max(0, to - from));
  let n = 0;
  for (let i = from; i < to; i++) if (Number.isFinite(values[i]!)) finite[n++] = values[i]!;
  return medianInPlace(finite, n);
}

/**
 * The median of the first `n` values of `values` (finite), reordering them: quickselect, linear on
 * average, where sorting was the analysis' hottest spot (each live second takes several medians of windows).
 */
export function medianInPlace(values: Float64Array, n: number): number {
  if (n === 0) return Number.NaN;
  const middle = n >> 1;
  const upper = selectKth(values, middle, n);
  if (n % 2 === 1) return upper;
  // Everything before `middle` is now at most the upper middle: its largest is the lower middle.
  let lower = values[0]!;
  for (let i = 1; i < middle; i++) if (values[i]! > lower) lower = values[i]!;
  return (lower + upper) / 2;
}

/** Rearranges values[0, n) so that values[k] is the k-th smallest, smaller ones before it (Hoare's FIND). */
export function selectKth(values: Float64Array, k: number, n: number): number {
  let lo = 0;
  let hi = n - 1;
  while (hi > lo) {
    // Median of three as the pivot keeps sorted and reversed windows linear.
    const mid = (lo + hi) >> 1;
    const a = values[lo]!;
    const b = values[mid]!;
    const c = values[hi]!;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i] = values[j]!;
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return values[k]!;
}
