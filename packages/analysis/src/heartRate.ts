// QRS detection and heart rate from an ECG lead.
// Method: J. Pan and W. J. Tompkins, "A real-time QRS detection algorithm", IEEE Trans Biomed Eng
// 32(3):230–236, 1985 — band-pass 5–15 Hz, five-point derivative, squaring, 150 ms moving-window
// integration, then dual adaptive thresholds (signal and noise peak levels, on the integrated and the
// band-passed signals), a 200 ms refractory period, search-back at 166 % of the mean RR interval and
// T-wave discrimination by slope within 360 ms. Filtering here is zero-phase (the window is processed as
// a whole), so the fiducial points need no delay correction.
import { bandPass, filterZeroPhase, median, medianInPlace } from './filters.ts';

const REFRACTORY_S = 0.2;
const T_WAVE_WINDOW_S = 0.36;
const INTEGRATION_S = 0.15;
const LEARNING_S = 2;

export interface QrsDetection {
  /** Sample index of each R peak (the largest band-passed excursion of the complex). */
  peaks: Int32Array;
  /**
   * Median integrated-signal height at the detected beats over the median of the integrated signal:
   * real QRS complexes stand far above the background (tens to hundreds); noise alone does not (< ~8).
   */
  prominence: number;
}

/** Pan–Tompkins preprocessing: the band-passed signal and the moving-window integral of its squared slope. */
export function qrsFeatures(ecg: ArrayLike<number>, sampleRate: number, scratch?: QrsScratch): { filtered: Float64Array; integrated: Float64Array } {
  const n = ecg.length;
  // detectQrs runs every live second on the same window length: its arrays are reused, not reallocated.
  const filtered = scratch ? scratch.take('filtered', n) : new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += ecg[i]!;
  const offset = n > 0 ? sum / n : 0;
  for (let i = 0; i < n; i++) filtered[i] = ecg[i]! - offset;
  filterZeroPhase(filtered, bandPass(5, Math.min(15, sampleRate * 0.4), sampleRate));
  // Five-point derivative, centred: (−x[n−2] − 2x[n−1] + 2x[n+1] + x[n+2]) / 8, then squared.
  const squared = scratch ? scratch.take('squared', n) : new Float64Array(n);
  squared[0] = squared[1] = squared[n - 2] = squared[n - 1] = 0;
  for (let i = 2; i < n - 2; i++) {
    const slope = (-filtered[i - 2]! - 2 * filtered[i - 1]! + 2 * filtered[i + 1]! + filtered[i + 2]!) / 8;
    squared[i] = slope * slope;
  }
  // Centred 150 ms moving-window integration by a running sum.
  const width = Math.max(1, Math.round(INTEGRATION_S * sampleRate));
  const half = width >> 1;
  const integrated = scratch ? scratch.take('integrated', n) : new Float64Array(n);
  let running = 0;
  for (let i = 0; i < n + half; i++) {
    if (i < n) running += squared[i]!;
    if (i - width >= 0) running -= squared[i - width]!;
    if (i - half >= 0 && i - half < n) integrated[i - half] = running / width;
  }
  return { filtered, integrated };
}

/** Largest |x| in [from, to): its index. */
function argMaxAbs(x: Float64Array, from: number, to: number): number {
  let best = Math.max(0, from);
  for (let i = Math.max(0, from); i < Math.min(x.length, to); i++) if (Math.abs(x[i]!) > Math.abs(x[best]!)) best = i;
  return best;
}

/** Steepest squared slope of the band-passed signal around a complex, for T-wave discrimination. */
function maxSlope(x: Float64Array, from: number, to: number): number {
  let best = 0;
  for (let i = Math.max(1, from); i < Math.min(x.length, to); i++) best = Math.max(best, Math.abs(x[i]! - x[i - 1]!));
  return best;
}

/** Arrays qrsFeatures may reuse from one call to the next (they are overwritten by each call). */
class QrsScratch {
  readonly #arrays = new Map<string, Float64Array>();

  take(name: string, n: number): Float64Array {
    let array = this.#arrays.get(name);
    if (array === undefined || array.length < n) {
      array = new Float64Array(n);
      this.#arrays.set(name, array);
    }
    return array.subarray(0, n);
  }
}

const detectScratch = new QrsScratch();

export function detectQrs(ecg: ArrayLike<number>, sampleRate: number): QrsDetection {
  const { filtered, integrated } = qrsFeatures(ecg, sampleRate, detectScratch);
  const n = integrated.length;
  const refractory = Math.round(REFRACTORY_S * sampleRate);
  const tWave = Math.round(T_WAVE_WINDOW_S * sampleRate);
  const qrsHalf = Math.round(0.075 * sampleRate);

  // Candidate fiducial marks: local maxima of the integrated signal at least 200 ms apart.
  const candidates = new Int32Array(Math.ceil(n / Math.max(1, refractory)) * 2 + 2);
  let candidateCount = 0;
  for (let i = 1; i < n - 1; i++) {
    const v = integrated[i]!;
    if (!(v > integrated[i - 1]! && v >= integrated[i + 1]!)) continue;
    const last = candidateCount > 0 ? candidates[candidateCount - 1]! : -refractory;
    if (i - last < refractory) {
      if (v > integrated[last]!) candidates[candidateCount - 1] = i;
    } else if (candidateCount < candidates.length) candidates[candidateCount++] = i;
  }

  // Learning phase: initial thresholds from the first two seconds.
  const learning = Math.min(n, Math.round(LEARNING_S * sampleRate));
  let maxI = 0;
  let sumI = 0;
  let maxF = 0;
  let sumF = 0;
  for (let i = 0; i < learning; i++) {
    maxI = Math.max(maxI, integrated[i]!);
    sumI += integrated[i]!;
    maxF = Math.max(maxF, Math.abs(filtered[i]!));
    sumF += Math.abs(filtered[i]!);
  }
  let spki = maxI / 3;
  let npki = learning > 0 ? sumI / learning / 2 : 0;
  let spkf = maxF / 3;
  let npkf = learning > 0 ? sumF / learning / 2 : 0;

  const peaks = new Int32Array(candidateCount);
  const marks = new Int32Array(candidateCount);
  let beats = 0;
  let lastSlope = 0;
  // The two RR averages of the paper: of the last 8 beats, and of the last 8 beats within 92–116 % of it.
  const recent = new Float64Array(8);
  let recentCount = 0;
  let rrAverage = 0;
  let lastSearchedFrom = -1;

  const accept = (c: number, searchBack: boolean): void => {
    const r = argMaxAbs(filtered, c - qrsHalf, c + qrsHalf + 1);
    const peakI = integrated[c]!;
    const peakF = Math.abs(filtered[r]!);
    if (searchBack) {
      spki = 0.25 * peakI + 0.75 * spki;
      spkf = 0.25 * peakF + 0.75 * spkf;
    } else {
      spki = 0.125 * peakI + 0.875 * spki;
      spkf = 0.125 * peakF + 0.875 * spkf;
    }
    if (beats > 0) {
      const rr = c - marks[beats - 1]!;
      if (rrAverage === 0 || (rr > 0.92 * rrAverage && rr < 1.16 * rrAverage) || recentCount < 8) {
        recent[recentCount % 8] = rr;
        recentCount++;
        let total = 0;
        const used = Math.min(8, recentCount);
        for (let k = 0; k < used; k++) total += recent[k]!;
        rrAverage = total / used;
      }
    }
    lastSlope = maxSlope(filtered, c - qrsHalf, c + qrsHalf);
    marks[beats] = c;
    peaks[beats++] = r;
  };

  for (let k = 0; k < candidateCount; k++) {
    const c = candidates[k]!;
    // Search-back: no beat for 166 % of the RR average; take the largest candidate above the lower thresholds.
    if (beats > 0 && rrAverage > 0 && c - marks[beats - 1]! > 1.66 * rrAverage) {
      const from = marks[beats - 1]! + refractory;
      let best = -1;
      for (let j = k - 1; j >= 0 && candidates[j]! >= from; j--) {
        const m = candidates[j]!;
        if (m <= lastSearchedFrom) break;
        const thresholdI = 0.5 * (npki + 0.25 * (spki - npki));
        const thresholdF = 0.5 * (npkf + 0.25 * (spkf - npkf));
        const f = Math.abs(filtered[argMaxAbs(filtered, m - qrsHalf, m + qrsHalf + 1)]!);
        if (integrated[m]! > thresholdI && f > thresholdF && (best < 0 || integrated[m]! > integrated[best]!)) best = m;
      }
      lastSearchedFrom = c;
      if (best >= 0) accept(best, true);
    }
    const peakI = integrated[c]!;
    const r = argMaxAbs(filtered, c - qrsHalf, c + qrsHalf + 1);
    const peakF = Math.abs(filtered[r]!);
    const thresholdI = npki + 0.25 * (spki - npki);
    const thresholdF = npkf + 0.25 * (spkf - npkf);
    if (beats > 0 && c - marks[beats - 1]! < refractory) continue;
    if (peakI > thresholdI && peakF > thresholdF) {
      // Within 360 ms of the previous beat a complex with less than half its slope is a T wave.
      if (beats > 0 && c - marks[beats - 1]! < tWave && maxSlope(filtered, c - qrsHalf, c + qrsHalf) < 0.5 * lastSlope) {
        npki = 0.125 * peakI + 0.875 * npki;
        npkf = 0.125 * peakF + 0.875 * npkf;
        continue;
      }
      accept(c, false);
    } else {
      npki = 0.125 * peakI + 0.875 * npki;
      npkf = 0.125 * peakF + 0.875 * npkf;
    }
  }

  const heights = new Float64Array(beats);
  for (let b = 0; b < beats; b++) heights[b] = integrated[marks[b]!]!;
  const copy = detectScratch.take('median', n);
  copy.set(integrated);
  const background = medianInPlace(copy, n);
  const prominence = beats > 0 && background > 0 ? median(heights) / background : 0;
  // Search-back can add a beat before the one that triggered it: keep the peaks in time order.
  return { peaks: peaks.slice(0, beats).sort(), prominence };
}

export interface HeartRateEstimate {
  /** Beats/min from the median RR interval; NaN with fewer than two beats. */
  rate: number;
  beats: number;
  prominence: number;
  /** Sample index of the last R peak (−1 when none): how long ago the heart last beat. */
  lastPeak: number;
}

/** Heart rate from R-peak sample indices: 60 / median RR, robust to a missed or an extra beat. */
export function heartRateFromPeaks(peaks: ArrayLike<number>, sampleRate: number): number {
  if (peaks.length < 2) return Number.NaN;
  const intervals = new Float64Array(peaks.length - 1);
  for (let i = 1; i < peaks.length; i++) intervals[i - 1] = peaks[i]! - peaks[i - 1]!;
  return (60 * sampleRate) / median(intervals);
}

export function estimateHeartRate(ecg: ArrayLike<number>, sampleRate: number): HeartRateEstimate {
  const { peaks, prominence } = detectQrs(ecg, sampleRate);
  return { rate: heartRateFromPeaks(peaks, sampleRate), beats: peaks.length, prominence, lastPeak: peaks.length > 0 ? peaks[peaks.length - 1]! : -1 };
}
