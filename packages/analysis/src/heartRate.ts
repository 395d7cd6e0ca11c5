// QRS detection and heart rate from an ECG lead.
// Features: J. Pan and W. J. Tompkins, "A real-time QRS detection algorithm", IEEE Trans Biomed Eng
// 32(3):230–236, 1985 — band-pass 5–15 Hz, five-point derivative, squaring, 150 ms moving-window
// integration. Filtering here is zero-phase (the window is processed as a whole), so the fiducial points
// need no delay correction.
// Decisions: P. S. Hamilton, "Open Source ECG Analysis", Computers in Cardiology 29:101–104, 2002 (after
// Hamilton & Tompkins, IEEE TBME 33(12), 1986) — threshold between the medians of the last 8 QRS and
// noise peaks, search-back after 1.5 median RR intervals, relearning after 8 s without a beat — with
// Pan–Tompkins' 200 ms refractory period and T-wave test by slope within 360 ms. The README's "QRS
// detection" section gives the reasons and the accuracy measured (`npm run bench:accuracy`).
import { bandPass, filterZeroPhase, median, medianInPlace } from './filters.ts';

const REFRACTORY_S = 0.2;
const T_WAVE_WINDOW_S = 0.36;
const INTEGRATION_S = 0.15;
/** Threshold between the noise and QRS levels (Hamilton & Tompkins 1986; Hamilton 2002: 0.3125). */
const THRESHOLD_FRACTION = 0.3125;
/** How many QRS peaks, noise peaks and RR intervals the levels are the medians of. */
const LEVELS = 8;
/** Search-back after this many median RR intervals without a beat (Hamilton: 1.5). */
const SEARCH_BACK_RR = 1.5;
const SEARCH_BACK_START_S = 1.5;
/**
 * Search-back accepts the largest candidate above this fraction of the threshold (Pan–Tompkins and
 * Hamilton: 0.5). Lower here: a QRS that shrinks by a factor of ten within a few beats (lead V5 of MIT-BIH
 * 104) is otherwise lost until the levels catch up; the candidate still has to be the largest of a gap
 * 1.5 RR intervals long, which noise between beats rarely is.
 */
const SEARCH_BACK_FRACTION = 0.3;
/**
 * ... but never below 1.5 times the noise level: a lowered threshold under the noise peaks would turn the
 * noise after the leads come off into beats, and an empty bed into a heartbeat.
 */
const SEARCH_BACK_OVER_NOISE = 1.5;
/**
 * Artefact test (noise as large as the QRS complexes, MIT-BIH 105 and 108): a candidate earlier than 80 % of
 * the median RR interval, below the QRS level, whose band-passed shape correlates under 0.3 with the
 * running QRS template, is noise. Template matching as in Hamilton's open-source beat classifier. Any
 * correlation bound from 0 to 0.7 and an early bound of 0.8–0.9 give the same figures on the annotated
 * records (and lose no beat there).
 */
const EARLY_RR = 0.8;
const TEMPLATE_MIN_CORRELATION = 0.3;
const TEMPLATE_UPDATE_CORRELATION = 0.8;
const TEMPLATE_MIN_BEATS = 4;
/**
 * How far (in integrated-signal height) a candidate must stand above the median candidate of a long gap to
 * be taken as a beat whatever the levels. Any value from 5 to 20 gives the same figures on the annotated
 * records and on the tests' shrinking and asystole windows.
 */
const GAP_PROMINENCE = 10;
/** No beat for this long: the levels are learned again from the last seconds. */
const RELEARN_S = 8;

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

/** Median of the first `n` values of `source`, sorted in `scratch` (both short: the 8-entry level buffers). */
function smallMedian(source: Float64Array, scratch: Float64Array, n = source.length): number {
  for (let i = 0; i < n; i++) {
    const v = source[i]!;
    let j = i - 1;
    while (j >= 0 && scratch[j]! > v) {
      scratch[j + 1] = scratch[j]!;
      j--;
    }
    scratch[j + 1] = v;
  }
  return n % 2 === 1 ? scratch[n >> 1]! : 0.5 * (scratch[(n >> 1) - 1]! + scratch[n >> 1]!);
}

export function detectQrs(ecg: ArrayLike<number>, sampleRate: number): QrsDetection {
  const { filtered, integrated } = qrsFeatures(ecg, sampleRate, detectScratch);
  const n = integrated.length;
  const refractory = Math.round(REFRACTORY_S * sampleRate);
  const tWave = Math.round(T_WAVE_WINDOW_S * sampleRate);
  const qrsHalf = Math.round(0.075 * sampleRate);
  const second = Math.max(1, Math.round(sampleRate));
  const relearnAfter = Math.round(RELEARN_S * sampleRate);

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

  // Levels as in Hamilton's detector: the medians of the last 8 QRS peaks and of the last 8 noise peaks.
  // A median, unlike Pan–Tompkins' running means, ignores one tall ectopic beat, so it cannot hold the
  // threshold above the normal beats that follow.
  const qrsLevels = new Float64Array(LEVELS);
  const noiseLevels = new Float64Array(LEVELS);
  const rrs = new Float64Array(LEVELS);
  const sorted = new Float64Array(LEVELS);
  let qrsAt = 0;
  let noiseAt = 0;
  let rrCount = 0;
  let qrsLevel = 0;
  let noiseLevel = 0;
  let rrMedian = 0;

  /**
   * Learns the QRS level from the seconds before `end` (at most 8, from `from`): the third largest of the
   * per-second maxima, so that seconds without a beat (the end of a window after the leads came off, a
   * pause) and up to two seconds of tall artefact do not set it. All 8 QRS levels start at that value.
   */
  const learn = (from: number, end: number): void => {
    let count = 0;
    for (let s = Math.max(from, end - LEVELS * second); s < end && count < LEVELS; s += second) {
      let max = 0;
      for (let i = s; i < Math.min(end, s + second); i++) if (integrated[i]! > max) max = integrated[i]!;
      qrsLevels[count++] = max;
    }
    if (count === 0) return;
    smallMedian(qrsLevels, sorted, count);
    qrsLevel = sorted[Math.max(0, count - 3)]!;
    qrsLevels.fill(qrsLevel);
  };
  learn(0, Math.min(n, LEVELS * second));
  // The background of the first seconds stands in for the noise peaks not seen yet.
  {
    const span = Math.min(n, LEVELS * second);
    const copy = detectScratch.take('median', Math.max(1, span));
    copy.set(integrated.subarray(0, span));
    noiseLevels.fill(span > 0 ? medianInPlace(copy, span) : 0);
    noiseLevel = noiseLevels[0]!;
  }

  const threshold = (): number => noiseLevel + THRESHOLD_FRACTION * (qrsLevel - noiseLevel);
  const noise = (value: number): void => {
    noiseLevels[noiseAt++ % LEVELS] = value;
    noiseLevel = smallMedian(noiseLevels, sorted);
  };

  const peaks = new Int32Array(candidateCount);
  const marks = new Int32Array(candidateCount);
  let beats = 0;
  let lastMark = -1;
  let lastSlope = 0;

  /** Within 360 ms of the previous beat, a complex with under half its steepest slope is its T wave. */
  const isTWave = (c: number): boolean => lastMark >= 0 && c - lastMark < tWave && maxSlope(filtered, c - qrsHalf, c + qrsHalf) < 0.5 * lastSlope;

  // Running QRS template (band-passed, ±50 ms around the R peak), for the early-candidate test below.
  const templateHalf = Math.round(0.05 * sampleRate);
  const template = new Float64Array(2 * templateHalf + 1);
  let templateBeats = 0;
  /** Pearson correlation of the band-passed signal around sample r with the template. */
  const likeTemplate = (r: number): number => {
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    const m = template.length;
    for (let i = 0; i < m; i++) {
      const x = filtered[Math.min(n - 1, Math.max(0, r - templateHalf + i))]!;
      const y = template[i]!;
      sx += x;
      sy += y;
      sxx += x * x;
      syy += y * y;
      sxy += x * y;
    }
    const vx = sxx - (sx * sx) / m;
    const vy = syy - (sy * sy) / m;
    return vx > 0 && vy > 0 ? (sxy - (sx * sy) / m) / Math.sqrt(vx * vy) : 0;
  };
  /** R peak of the complex around an integrated-signal candidate. */
  const rPeak = (c: number): number => argMaxAbs(filtered, c - qrsHalf, c + qrsHalf + 1);
  /**
   * Early, smaller than the usual QRS and shaped like none of them: an artefact. An ectopic beat is either
   * of the usual shape (supraventricular) or, as a rule, taller (ventricular), so it passes.
   */
  const isArtefact = (c: number): boolean =>
    templateBeats >= TEMPLATE_MIN_BEATS && rrMedian > 0 && lastMark >= 0 && c - lastMark < EARLY_RR * rrMedian && integrated[c]! < qrsLevel && likeTemplate(rPeak(c)) < TEMPLATE_MIN_CORRELATION;

  const accept = (c: number): void => {
    const r = rPeak(c);
    // The template follows the beats that resemble it (the first beats build it), not ectopic ones.
    if (templateBeats === 0 || likeTemplate(r) > TEMPLATE_UPDATE_CORRELATION) {
      const weight = Math.max(1 / (templateBeats + 1), 1 / LEVELS);
      for (let i = 0; i < template.length; i++) template[i] = (1 - weight) * template[i]! + weight * filtered[Math.min(n - 1, Math.max(0, r - templateHalf + i))]!;
      templateBeats++;
    }
    qrsLevels[qrsAt++ % LEVELS] = integrated[c]!;
    qrsLevel = smallMedian(qrsLevels, sorted);
    if (lastMark >= 0) {
      rrs[rrCount++ % LEVELS] = c - lastMark;
      rrMedian = smallMedian(rrs, sorted, Math.min(rrCount, LEVELS));
    }
    lastSlope = maxSlope(filtered, c - qrsHalf, c + qrsHalf);
    lastMark = c;
    marks[beats] = c;
    peaks[beats++] = r;
  };

  let firstAfterBeat = 0;
  const gapHeights = new Float64Array(LEVELS * 8);
  /**
   * After 2 RR intervals without a beat: the largest candidate where the next beat was due (0.6–1.5 RR
   * after the last), if it stands 10 times above the median candidate of the gap, is a beat even when the
   * levels are far above it (the QRS shrank tenfold: an electrode coming loose). Noise with no heart
   * behind it (asystole, leads off) has no candidate standing out so far from the others.
   */
  const prominentInGap = (k: number): number => {
    let count = 0;
    let best = -1;
    for (let j = firstAfterBeat; j < k && count < gapHeights.length; j++) {
      const m = candidates[j]!;
      if (m - lastMark < refractory) continue;
      gapHeights[count++] = integrated[m]!;
      if (m - lastMark >= 0.6 * rrMedian && m - lastMark <= SEARCH_BACK_RR * rrMedian && (best < 0 || integrated[m]! > integrated[best]!)) best = m;
    }
    if (best < 0 || count < 4) return -1;
    const typical = medianInPlace(gapHeights, count);
    return integrated[best]! > GAP_PROMINENCE * typical && !isTWave(best) ? best : -1;
  };
  for (let k = 0; k < candidateCount; k++) {
    const c = candidates[k]!;
    // Search-back (Pan–Tompkins; Hamilton): no beat for 1.5 RR intervals means one was missed. Take the
    // largest candidate of the gap above the lowered threshold, then look again after it, so that a run of
    // beats below the threshold is recovered one by one rather than only its largest.
    const limit = rrMedian > 0 ? SEARCH_BACK_RR * rrMedian : SEARCH_BACK_START_S * sampleRate;
    // Only the last 8 s are searched: a long stretch without beats (leads off) costs no more per candidate.
    while (firstAfterBeat < k && candidates[firstAfterBeat]! < c - relearnAfter) firstAfterBeat++;
    while (c - (lastMark >= 0 ? lastMark : 0) > limit) {
      const lower = Math.max(SEARCH_BACK_FRACTION * threshold(), SEARCH_BACK_OVER_NOISE * noiseLevel);
      let best = -1;
      for (let j = firstAfterBeat; j < k; j++) {
        const m = candidates[j]!;
        if (lastMark >= 0 && m - lastMark < refractory) continue;
        if (integrated[m]! > lower && (best < 0 || integrated[m]! > integrated[best]!) && !isTWave(m)) best = m;
      }
      if (best < 0 && rrMedian > 0 && c - lastMark > 2 * rrMedian) best = prominentInGap(k);
      if (best < 0) break;
      accept(best);
      while (firstAfterBeat < k && candidates[firstAfterBeat]! <= best) firstAfterBeat++;
    }
    // Nothing accepted for 8 s: the levels are stale (a tall artefact, a lead change); learn them again
    // from the last 8 s, as Hamilton's detector does.
    if (c - (lastMark >= 0 ? lastMark : 0) > relearnAfter) learn(Math.max(0, lastMark + refractory), c);
    if (lastMark >= 0 && c - lastMark < refractory) continue;
    const peak = integrated[c]!;
    if (peak > threshold() && !isTWave(c) && !isArtefact(c)) {
      accept(c);
      firstAfterBeat = k + 1;
    } else noise(peak);
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
