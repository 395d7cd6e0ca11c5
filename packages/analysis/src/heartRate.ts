// QRS detection and heart rate from an ECG lead.
// Features: J. Pan and W. J. Tompkins, "A real-time QRS detection algorithm", IEEE Trans Biomed Eng
// 32(3):230–236, 1985 — band-pass 5–15 Hz, five-point derivative, squaring, 150 ms moving-window
// integration. Filtering here is zero-phase (the window is processed as a whole), so the fiducial points
// need no delay correction.
// Decisions: P. S. Hamilton, "Open Source ECG Analysis", Computers in Cardiology 29:101–104, 2002 (after
// Hamilton & Tompkins, IEEE TBME 33(12), 1986) — threshold between the medians of the last 8 QRS and
// noise peaks, search-back after 1.5 median RR intervals, relearning after 8 s without a beat — with
// Pan–Tompkins' 200 ms refractory period and T-wave test by slope within 360 ms; template matching against
// artefacts (Hamilton's beat classifier), a backward search after a long gap, and extra-beat removal by the
// intervals on both sides (Lipponen & Tarvainen 2019). The README's "QRS detection" section gives the
// reasons and the accuracy measured (`npm run bench:accuracy`).
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
/**
 * A beat is placed on the complex shaped like the running template within a refractory period of the
 * candidate when the candidate's own shape correlates under this with it (an artefact merged with the QRS
 * into one integrated hump, MIT-BIH 105), and the other correlates over TEMPLATE_UPDATE_CORRELATION.
 */
const RELOCATE_OWN_CORRELATION = 0.5;
/**
 * Walking back from the first beat after a long gap, at the rhythm's interval: the walk ends after this
 * many beat slots in a row show no complex standing out (a lead recovering from saturation regains its QRS
 * over a few beats, MIT-BIH 116). 0–3 give 17–15 missed beats on 116 and nothing else changes.
 */
const BACKWARD_LOST_SLOTS = 3;
/**
 * Extra beats (the "extra" class of Lipponen & Tarvainen, J Med Eng Technol 43(3):173–181, 2019, as in
 * NeuroKit2's signal_fixpeaks): a detection whose intervals to both neighbours are short (< EARLY_RR) and
 * add up to one regular interval (0.85–1.1 of the median RR) left the rhythm undisturbed, so it did not
 * depolarise the ventricles: an artefact. A premature beat is followed by a compensatory pause (ventricular)
 * or resets the sinus rhythm (atrial), so its two intervals add up to well over one RR; an interpolated
 * ventricular beat delays the next one (concealed conduction), which the 1.1 keeps. Only judged in a
 * regular rhythm (median absolute deviation of the last 8 RR under 10 % of their median): in atrial
 * fibrillation short–short pairs are the rhythm itself. Spans of 0.75–0.85 to 1.1–1.2 give the same figures.
 */
const EXTRA_SPAN = [0.85, 1.1] as const;
const EXTRA_MAX_SPREAD = 0.1;
/**
 * The backward walk's bar (times the gap's median candidate). Lower than GAP_PROMINENCE: the walk starts
 * from a beat already found and looks only where the rhythm puts the beats before it. The last beat of
 * MIT-BIH 116's longest saturation (22:40.33) stands 4.8 times above the gap; 3–4.5 give the same figures,
 * 5 loses that beat.
 */
const BACKWARD_PROMINENCE = 4;
/**
 * A late candidate may be an artefact that closely followed the QRS (MIT-BIH 105): candidates closer than
 * the refractory period are merged in a chain, keeping the larger, so the QRS can be lost to a taller hump
 * up to 300 ms after it. When the candidate comes later than 1.1 median RR after the last beat, a complex
 * 150–300 ms before it, where the next beat was due (0.8–1.15 RR after the last), above the threshold and
 * of the template's shape is the beat instead. Lateness 1.05–1.15, due windows from 0.7–0.9 to 1.15–1.2,
 * distances 0.15–0.2 to 0.25–0.4 s and any shape bound up to 0.8 give the same figures.
 */
const MASKED_LATE_RR = 1.1;
const MASKED_DUE_RR = [0.8, 1.15] as const;
const MASKED_DISTANCE_S = [0.15, 0.3] as const;
/**
 * A lead entering saturation (the ADC rail, or an amplifier blocked by a step) makes one steep edge that
 * band-passes like a QRS (MIT-BIH 116 at 16:41.88): it is no candidate when the signal sticks to one value
 * for 100 ms from within 50 ms of the peak on, which it did not in the 300 ms before. A real beat just
 * before saturation (116 at 23:10.62 and 23:24.05) reaches the rail 130 ms after its peak; bounds of
 * 20–120 ms give the same figures.
 */
const SATURATION_FLAT_S = 0.1;
const SATURATION_ONSET_S = 0.05;
const SATURATION_BEFORE_S = 0.3;
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

  // A lead entering saturation is an edge, not a complex: such candidates are dropped before any decision.
  const flatRun = Math.max(2, Math.round(SATURATION_FLAT_S * sampleRate));
  const onset = Math.round(SATURATION_ONSET_S * sampleRate);
  const before = Math.round(SATURATION_BEFORE_S * sampleRate);
  /** Whether ecg sticks to the value of sample i for flatRun samples. */
  const flatFrom = (i: number): boolean => {
    if (i + flatRun > n) return false;
    const v = ecg[i]!;
    for (let k = 1; k < flatRun; k++) if (ecg[i + k] !== v) return false;
    return true;
  };
  const entersSaturation = (c: number): boolean => {
    const r = argMaxAbs(filtered, c - qrsHalf, c + qrsHalf + 1);
    let found = false;
    for (let i = Math.max(0, r - onset); i <= r + onset && !found; i++) found = flatFrom(i);
    if (!found) return false;
    for (let i = Math.max(0, r - onset - before); i < r - onset; i++) if (flatFrom(i)) return false;
    return true;
  };
  {
    let kept = 0;
    for (let k = 0; k < candidateCount; k++) if (!entersSaturation(candidates[k]!)) candidates[kept++] = candidates[k]!;
    candidateCount = kept;
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
    templateBeats >= TEMPLATE_MIN_BEATS &&
    rrMedian > 0 &&
    lastMark >= 0 &&
    c - lastMark < EARLY_RR * rrMedian &&
    integrated[c]! < qrsLevel &&
    likeTemplate(rPeak(c)) < TEMPLATE_MIN_CORRELATION;

  /**
   * Within a refractory period of an accepted candidate, the complex that has the patient's QRS shape
   * (when the candidate has not): an artefact next to a QRS makes one integrated hump whose maximum may be
   * the artefact's.
   */
  const relocate = (c: number): number => {
    if (templateBeats < TEMPLATE_MIN_BEATS) return c;
    const own = likeTemplate(rPeak(c));
    if (own >= RELOCATE_OWN_CORRELATION) return c;
    let best = c;
    let bestLike = TEMPLATE_UPDATE_CORRELATION;
    const from = Math.max(1, c - refractory, lastMark >= 0 ? lastMark + refractory : 0);
    for (let m = from; m < Math.min(n - 1, c + refractory); m++) {
      if (m === c || !(integrated[m]! > integrated[m - 1]! && integrated[m]! >= integrated[m + 1]!)) continue;
      if (integrated[m]! < SEARCH_BACK_FRACTION * qrsLevel) continue;
      const like = likeTemplate(rPeak(m));
      if (like > bestLike) {
        bestLike = like;
        best = m;
      }
    }
    return best;
  };
  const backHeights = new Float64Array(LEVELS * 8);
  /**
   * The first beat after a gap of more than 2 RR intervals: walk back from it at the rhythm's interval and
   * take, in each slot 0.6–1.5 RR before the beat found, the largest candidate if it stands GAP_PROMINENCE
   * times above the median candidate of the gap (the same test as prominentInGap, run backwards). The
   * forward search-back only looks where the next beat was due; a QRS that shrank fiftyfold (an amplifier
   * recovering from saturation) comes back over several beats before the levels accept one, and the beats
   * before that one are otherwise lost. Added beats do not feed the levels.
   */
  const searchBackward = (c: number): void => {
    const gapFrom = Math.max(lastMark + refractory, c - relearnAfter);
    let lo = 0;
    let hi = candidateCount;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (candidates[mid]! < gapFrom) lo = mid + 1;
      else hi = mid;
    }
    let count = 0;
    let end = lo;
    while (end < candidateCount && candidates[end]! <= c - refractory) {
      if (count < backHeights.length) backHeights[count++] = integrated[candidates[end]!]!;
      end++;
    }
    // Three candidates suffice here (the lead may sit on the rail for most of the gap, which has none).
    if (count < 3) return;
    const typical = medianInPlace(backHeights, count);
    let next = c;
    let empty = 0;
    for (;;) {
      let best = -1;
      for (let j = lo; j < end; j++) {
        const m = candidates[j]!;
        if (m > next - 0.6 * rrMedian) break;
        if (m < next - SEARCH_BACK_RR * rrMedian || m < lastMark + refractory) continue;
        if (best < 0 || integrated[m]! > integrated[best]!) best = m;
      }
      if (best < 0 || !(integrated[best]! > BACKWARD_PROMINENCE * typical)) {
        if (++empty > BACKWARD_LOST_SLOTS || next - rrMedian < lastMark + refractory) return;
        next -= rrMedian;
        continue;
      }
      empty = 0;
      if (beats >= peaks.length) return;
      marks[beats] = best;
      peaks[beats++] = rPeak(best);
      next = best;
    }
  };
  /** The complex a late candidate masked, if any (see MASKED_LATE_RR); else the candidate itself. */
  const masked = (c: number): number => {
    if (templateBeats < TEMPLATE_MIN_BEATS || lastMark < 0 || rrMedian <= 0 || c - lastMark <= MASKED_LATE_RR * rrMedian) return c;
    const from = Math.max(1, lastMark + refractory, c - Math.round(MASKED_DISTANCE_S[1] * sampleRate), lastMark + Math.round(MASKED_DUE_RR[0] * rrMedian));
    const to = Math.min(n - 2, c - Math.round(MASKED_DISTANCE_S[0] * sampleRate), lastMark + Math.round(MASKED_DUE_RR[1] * rrMedian));
    const bar = threshold();
    let best = c;
    for (let m = from; m <= to; m++) {
      if (!(integrated[m]! > integrated[m - 1]! && integrated[m]! >= integrated[m + 1]!)) continue;
      if (integrated[m]! <= bar || (best !== c && integrated[m]! <= integrated[best]!)) continue;
      if (likeTemplate(rPeak(m)) > TEMPLATE_UPDATE_CORRELATION && !isTWave(m)) best = m;
    }
    return best;
  };
  const accept = (c0: number): void => {
    const c = relocate(masked(c0));
    if (lastMark >= 0 && rrMedian > 0 && c - lastMark > 2 * rrMedian) searchBackward(c);
    const r = rPeak(c);
    // The template follows the beats that resemble it (the first beats build it), not ectopic ones.
    if (templateBeats === 0 || likeTemplate(r) > TEMPLATE_UPDATE_CORRELATION) {
      const weight = Math.max(1 / (templateBeats + 1), 1 / LEVELS);
      for (let i = 0; i < template.length; i++)
        template[i] = (1 - weight) * template[i]! + weight * filtered[Math.min(n - 1, Math.max(0, r - templateHalf + i))]!;
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
  const ordered = peaks.slice(0, beats).sort();
  return { peaks: withoutExtraBeats(ordered), prominence };
}

/**
 * Drops extra beats (see EXTRA_SPAN), judged against the median of the last 8 intervals kept. The gap a
 * removal leaves must also stay under 1.75 times the median of the detected intervals around it (a halved
 * rhythm leaves 2): kept
 * intervals alone could feed on themselves (a window that starts with missed beats would otherwise halve
 * a regular rhythm).
 */
function withoutExtraBeats(peaks: Int32Array): Int32Array {
  const kept = new Int32Array(peaks.length);
  const rrs = new Float64Array(LEVELS);
  const around = new Float64Array(2 * LEVELS);
  const sorted = new Float64Array(2 * LEVELS);
  const deviations = new Float64Array(LEVELS);
  let count = 0;
  let rrCount = 0;
  for (let i = 0; i < peaks.length; i++) {
    const p = peaks[i]!;
    if (count > 0 && i + 1 < peaks.length && rrCount >= 4) {
      const m = Math.min(rrCount, LEVELS);
      const rr = smallMedian(rrs, sorted, m);
      for (let k = 0; k < m; k++) deviations[k] = Math.abs(rrs[k]! - rr);
      const spread = smallMedian(deviations, sorted, m) / rr;
      const before = (p - kept[count - 1]!) / rr;
      const after = (peaks[i + 1]! - p) / rr;
      if (spread <= EXTRA_MAX_SPREAD && before < EARLY_RR && after < EARLY_RR && before + after >= EXTRA_SPAN[0] && before + after <= EXTRA_SPAN[1]) {
        let a = 0;
        for (let k = Math.max(1, i - LEVELS + 1); k <= Math.min(peaks.length - 1, i + LEVELS); k++) around[a++] = peaks[k]! - peaks[k - 1]!;
        if (peaks[i + 1]! - kept[count - 1]! < 1.75 * smallMedian(around, sorted, a)) continue;
      }
    }
    if (count > 0) rrs[rrCount++ % LEVELS] = p - kept[count - 1]!;
    kept[count++] = p;
  }
  return kept.slice(0, count);
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
