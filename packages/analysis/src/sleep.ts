// Sleep/wake scoring of one sleep day from per-minute epochs, and the sleep record of PRODUCT.md
// section 5 (`rooms/{roomId}/sleeps/{day}`).
//
// Every signal the device has takes part (issue 19: scoring from movement alone called a night of heart
// rate 85 and no accelerometer 480/480 minutes asleep):
// - Movement (actigraphy): R. J. Cole, D. F. Kripke et al., "Automatic sleep/wake identification from
//   wrist activity", Sleep 15(5):461–469, 1992 — a minute is wake when D = P · Σ Wᵢ·Aᵢ (four minutes before
//   to two after, weights 404, 598, 326, 441, 1408, 508, 350) is ≥ 1. The activity unit here is the number
//   of seconds in the minute with movement above MOVING_THRESHOLD_G, and P is set so that a minute with 10
//   moving seconds and still neighbours is wake. Neighbours without movement data are left out of the sum,
//   which is scaled up to the full weight. Cole et al. report 88 % agreement with polysomnography.
// - Heart rate and its variability, after the cardiac features of O. Walch, Y. Huang, D. Forger and C.
//   Goldstein, "Sleep stage prediction with raw acceleration and photoplethysmography heart rate data
//   derived from a consumer wearable device", Sleep 42(12):zsz180, 2019 (the local variability of heart
//   rate — they take its standard deviation; 90 % of epochs, 93 % of sleep and 59.6 % of wake right with
//   motion, heart rate and a clock proxy) and the heart-rate-variability staging of SleepECG (F. Hofer, C. Brunner et al., the
//   `sleepecg` package): heart rate falls at sleep onset and rises with every arousal. A minute is wake by
//   the heart when its heart rate (median of ±2 min) stands HR_RISE_WAKE above the lowest tenth of the
//   90 minutes around it, or its median minute-to-minute change over ±5 min reaches HR_UNSTEADY_WAKE (a
//   median, not Walch's standard deviation, so that the one step of falling asleep does not blur the
//   minutes around it into wake). A night whose
//   heart rate hardly varies (tenth to ninetieth percentile under HR_MIN_SPAN) says nothing about sleep:
//   its minutes are not scored from the heart.
// - Respiration rate and regularity: breathing is slower and more regular in non-REM sleep than awake
//   (e.g. Douglas et al., Thorax 37:840, 1982): wake when the rate stands RESP_RISE_WAKE above the lowest
//   tenth of the 90 minutes around it or its variation exceeds RESP_IRREGULAR.
// Combined: where movement is known it decides, except that an unsteady heart rate that is also raised (or
// comes with breathing that says wake) turns a still minute into wake, since lying still awake is
// actigraphy's known blind spot, while a slow rise alone (a fever) does not; without movement the heart
// decides, else breathing. Without movement a fever's rise reads as wake for its first hour or so: the
// heart rate alone cannot tell it from an arousal. A minute in bed with
// none of these is unscored — never silently asleep — and the sleep metrics count scored minutes only.
// Webster's rescoring rules (Cole et al. 1992) then run over the scored minutes: after 4, 10 and 15 min of
// wake the next 1, 3 and 4 min of sleep become wake; sleep bouts of up to 6 and 10 min inside at least 10
// and 20 min of wake become wake.
// Light/deep: sleep minutes with regular breathing (breath-interval or per-second rate variation ≤ 0.1)
// and a heart rate at or below the night's lower quartile of sleeping heart rate are `deep`, other sleep is
// `light` — slow-wave sleep has the most regular breathing and the lowest heart rate (e.g. Douglas et al.,
// Thorax 37:840, 1982; Penzel et al., Physiol Meas 24:R1, 2003). This is an estimate, not a
// polysomnographic stage; REM is not scored.
import { median } from './filters.ts';
import { MOVING_THRESHOLD_G } from './movement.ts';
import type { TimedRoomState } from './roomState.ts';

export const EPOCH_MS = 60_000;
const COLE_KRIPKE_WEIGHTS = [404, 598, 326, 441, 1408, 508, 350] as const;
/** Offset of the current minute in the weights (four before it). */
const COLE_KRIPKE_CURRENT = 4;
const COLE_KRIPKE_P = 1 / (1408 * 10);
const COLE_KRIPKE_TOTAL = COLE_KRIPKE_WEIGHTS.reduce((sum, w) => sum + w, 0);
const DEEP_VARIATION = 0.1;
/** Beats/min above the lowest tenth of the surrounding 90 minutes that mark a minute awake. */
const HR_RISE_WAKE = 6;
/** Median minute-to-minute change of the heart rate over ±5 min (beats/min) that marks a minute awake. */
const HR_UNSTEADY_WAKE = 2.5;
/** A night whose heart rate spans less than this (10th to 90th percentile) cannot tell sleep from wake. */
const HR_MIN_SPAN = 5;
const RESP_RISE_WAKE = 3;
export const RESP_IRREGULAR = 0.25;
const RESP_MIN_SPAN = 1.5;
/** Minutes with a value a signal needs over the night before it scores anything. */
const MIN_MINUTES = 30;
/** Half-width (min) of the window of the level references and of the smoothed values. */
const BASELINE_HALF_MIN = 45;
const SMOOTH_HALF_MIN = 2;
const VARIABILITY_HALF_MIN = 5;

/** A minute's verdict: scored wake or sleep, or unscored (no usable signal). */
export const SCORED_WAKE = 0;
export const SCORED_SLEEP = 1;
export const UNSCORED = 2;

export const PRESENCE_UNKNOWN = 0;
export const PRESENCE_OUT_OF_BED = 1;
export const PRESENCE_IN_BED = 2;

/** One sleep day as per-minute columns (typed arrays, one entry per minute from `startMs`). */
export interface NightEpochs {
  startMs: number;
  /** PRESENCE_UNKNOWN (no data), PRESENCE_OUT_OF_BED or PRESENCE_IN_BED. */
  presence: Uint8Array;
  /** Seconds of movement in the minute (0–60); NaN when unknown. */
  activity: Float32Array;
  respirationRate: Float32Array;
  heartRate: Float32Array;
  /** Variation of breathing in the minute (coefficient of variation); NaN when unknown. */
  respirationVariation: Float32Array;
  /** No-breathing episodes that began in the minute. */
  apneaEvents: Uint16Array;
}

export function createNightEpochs(startMs: number, minutes: number): NightEpochs {
  return {
    startMs,
    presence: new Uint8Array(minutes),
    activity: new Float32Array(minutes).fill(Number.NaN),
    respirationRate: new Float32Array(minutes).fill(Number.NaN),
    heartRate: new Float32Array(minutes).fill(Number.NaN),
    respirationVariation: new Float32Array(minutes).fill(Number.NaN),
    apneaEvents: new Uint16Array(minutes),
  };
}

/**
 * Cole–Kripke from movement alone, per in-bed minute: 1 asleep, 0 awake (out-of-bed and unknown minutes
 * are 0), with Webster's rescoring. Minutes without movement data are scored as still: use
 * scoreSleepWake(), which scores them from the other signals or leaves them unscored.
 */
export function scoreSleep(epochs: NightEpochs): Uint8Array {
  const n = epochs.presence.length;
  const asleep = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (epochs.presence[i] !== PRESENCE_IN_BED) continue;
    const d = coleKripke(epochs, i, false);
    asleep[i] = d < 1 ? 1 : 0;
  }
  rescore(asleep);
  return asleep;
}

/**
 * Cole–Kripke's D for minute i. With `knownOnly`, neighbours without movement data are left out and the
 * sum scaled up to the full weight (NaN when minute i itself has none); otherwise they count as still.
 */
function coleKripke(epochs: NightEpochs, i: number, knownOnly: boolean): number {
  const n = epochs.presence.length;
  if (knownOnly && !Number.isFinite(epochs.activity[i]!)) return Number.NaN;
  let sum = 0;
  let weight = 0;
  for (let w = 0; w < COLE_KRIPKE_WEIGHTS.length; w++) {
    const j = i + w - COLE_KRIPKE_CURRENT;
    if (j < 0 || j >= n) continue;
    // Out of bed counts as fully active: getting up is waking.
    const activity = epochs.presence[j] === PRESENCE_OUT_OF_BED ? 60 : epochs.activity[j]!;
    if (!Number.isFinite(activity)) continue;
    sum += COLE_KRIPKE_WEIGHTS[w]! * activity;
    weight += COLE_KRIPKE_WEIGHTS[w]!;
  }
  if (knownOnly && weight > 0) sum *= COLE_KRIPKE_TOTAL / weight;
  return COLE_KRIPKE_P * sum;
}

/** The p-quantile of the finite values among `values[from..to)` where `include` holds; NaN when none. */
function quantileOf(values: Float32Array, from: number, to: number, p: number, include: (i: number) => boolean, scratch: Float64Array): number {
  let count = 0;
  for (let i = Math.max(0, from); i < Math.min(values.length, to); i++) if (include(i) && Number.isFinite(values[i]!)) scratch[count++] = values[i]!;
  if (count === 0) return Number.NaN;
  const sorted = scratch.subarray(0, count).sort();
  return sorted[Math.min(count - 1, Math.floor(p * count))]!;
}

/**
 * Median absolute minute-to-minute change of the values in [from, to) (both minutes known and included):
 * the local unsteadiness of a rate. Unlike a standard deviation, one step (falling asleep) does not raise
 * it for the minutes around; a restless stretch does. NaN with fewer than three changes.
 */
function unsteadinessOf(values: Float32Array, from: number, to: number, include: (i: number) => boolean, scratch: Float64Array): number {
  let count = 0;
  for (let i = Math.max(1, from); i < Math.min(values.length, to); i++) {
    if (!include(i) || !include(i - 1) || !Number.isFinite(values[i]!) || !Number.isFinite(values[i - 1]!)) continue;
    scratch[count++] = Math.abs(values[i]! - values[i - 1]!);
  }
  if (count < 3) return Number.NaN;
  const sorted = scratch.subarray(0, count).sort();
  return count % 2 === 1 ? sorted[count >> 1]! : 0.5 * (sorted[(count >> 1) - 1]! + sorted[count >> 1]!);
}

/** Per in-bed minute: +1 wake, −1 sleep, 0 no verdict, from one level signal (heart or respiration rate). */
interface LevelRule {
  values: Float32Array;
  rise: number;
  minSpan: number;
  /** The unsteadiness (median minute-to-minute change over ±5 min) that marks wake by itself (heart rate only). */
  unsteady?: number;
  /** Per-minute variation (coefficient of variation) above which a minute is wake (respiration only). */
  variation?: { values: Float32Array; above: number };
}

function levelVerdicts(epochs: NightEpochs, rule: LevelRule, inBed: (i: number) => boolean): { verdict: Int8Array; raised: Uint8Array; unsteady: Uint8Array } {
  const n = epochs.presence.length;
  const verdict = new Int8Array(n);
  const raised = new Uint8Array(n);
  const unsteady = new Uint8Array(n);
  const scratch = new Float64Array(n);
  let known = 0;
  for (let i = 0; i < n; i++) if (inBed(i) && Number.isFinite(rule.values[i]!)) known++;
  if (known < MIN_MINUTES) return { verdict, raised, unsteady };
  const span = quantileOf(rule.values, 0, n, 0.9, inBed, scratch) - quantileOf(rule.values, 0, n, 0.1, inBed, scratch);
  if (!(span >= rule.minSpan)) return { verdict, raised, unsteady };
  for (let i = 0; i < n; i++) {
    if (!inBed(i)) continue;
    const level = quantileOf(rule.values, i - SMOOTH_HALF_MIN, i + SMOOTH_HALF_MIN + 1, 0.5, inBed, scratch);
    if (!Number.isFinite(level)) continue;
    const baseline = quantileOf(rule.values, i - BASELINE_HALF_MIN, i + BASELINE_HALF_MIN + 1, 0.1, inBed, scratch);
    raised[i] = level - baseline >= rule.rise ? 1 : 0;
    if (rule.unsteady !== undefined)
      unsteady[i] = unsteadinessOf(rule.values, i - VARIABILITY_HALF_MIN, i + VARIABILITY_HALF_MIN + 1, inBed, scratch) >= rule.unsteady ? 1 : 0;
    let irregular = false;
    if (rule.variation) irregular = quantileOf(rule.variation.values, i - SMOOTH_HALF_MIN, i + SMOOTH_HALF_MIN + 1, 0.5, inBed, scratch) > rule.variation.above;
    verdict[i] = raised[i] === 1 || unsteady[i] === 1 || irregular ? 1 : -1;
  }
  return { verdict, raised, unsteady };
}

/**
 * Sleep/wake per minute from every signal (see the header): SCORED_SLEEP, SCORED_WAKE, or UNSCORED (in
 * bed without a usable signal, and every minute not in bed).
 */
export function scoreSleepWake(epochs: NightEpochs): Uint8Array {
  const n = epochs.presence.length;
  const inBed = (i: number): boolean => epochs.presence[i] === PRESENCE_IN_BED;
  const heart = levelVerdicts(epochs, { values: epochs.heartRate, rise: HR_RISE_WAKE, minSpan: HR_MIN_SPAN, unsteady: HR_UNSTEADY_WAKE }, inBed);
  const breathing = levelVerdicts(
    epochs,
    { values: epochs.respirationRate, rise: RESP_RISE_WAKE, minSpan: RESP_MIN_SPAN, variation: { values: epochs.respirationVariation, above: RESP_IRREGULAR } },
    inBed,
  );
  const verdict = new Uint8Array(n).fill(UNSCORED);
  for (let i = 0; i < n; i++) {
    if (!inBed(i)) continue;
    const d = coleKripke(epochs, i, true);
    const cardiac = heart.verdict[i]!;
    const respiratory = breathing.verdict[i]!;
    let wake: boolean;
    if (Number.isFinite(d)) {
      // A still minute is wake when the heart is unsteady and raised, or unsteady while breathing says
      // wake: a slow rise alone (a fever, the night's drift) does not overrule the stillness.
      wake = d >= 1 || (heart.unsteady[i] === 1 && (heart.raised[i] === 1 || respiratory > 0));
    } else if (cardiac !== 0) wake = cardiac > 0;
    else if (respiratory !== 0) wake = respiratory > 0;
    else continue;
    verdict[i] = wake ? SCORED_WAKE : SCORED_SLEEP;
  }
  // Webster's rules over the scored minutes and the minutes out of bed (wake: getting up is waking), in
  // order; an unscored stretch neither breaks nor lengthens a run.
  const sequence: number[] = [];
  for (let i = 0; i < n; i++) if (verdict[i] !== UNSCORED || epochs.presence[i] === PRESENCE_OUT_OF_BED) sequence.push(i);
  const asleep = Uint8Array.from(sequence, (i) => (verdict[i] === SCORED_SLEEP ? 1 : 0));
  rescore(asleep);
  sequence.forEach((i, k) => {
    if (verdict[i] !== UNSCORED) verdict[i] = asleep[k] === 1 ? SCORED_SLEEP : SCORED_WAKE;
  });
  return verdict;
}

/** Runs of equal values: [start, end) pairs. */
function runsOf(values: Uint8Array): [number, number][] {
  const runs: [number, number][] = [];
  for (let i = 0; i < values.length;) {
    let j = i;
    while (j < values.length && values[j] === values[i]) j++;
    runs.push([i, j]);
    i = j;
  }
  return runs;
}

/** Webster's rescoring rules (Cole et al. 1992), applied in place. */
function rescore(asleep: Uint8Array): void {
  // a–c: after a wake run of ≥ 4, ≥ 10, ≥ 15 min, the first 1, 3, 4 min of the following sleep are wake.
  // Runs come from the scoring before rescoring, so a rescored minute does not lengthen the next wake run.
  const original = runsOf(asleep);
  for (let r = 1; r < original.length; r++) {
    const [start, end] = original[r]!;
    if (asleep[start] !== 1) continue;
    const wake = original[r - 1]![1] - original[r - 1]![0];
    const extend = wake >= 15 ? 4 : wake >= 10 ? 3 : wake >= 4 ? 1 : 0;
    asleep.fill(0, start, Math.min(end, start + extend));
  }
  // d–e: sleep runs of ≤ 6 min between ≥ 10 min of wake, and of ≤ 10 min between ≥ 20 min of wake, are wake.
  const runs = runsOf(asleep);
  for (let r = 1; r < runs.length - 1; r++) {
    const [start, end] = runs[r]!;
    if (asleep[start] !== 1) continue;
    const before = runs[r - 1]![1] - runs[r - 1]![0];
    const after = runs[r + 1]![1] - runs[r + 1]![0];
    const length = end - start;
    if ((length <= 6 && before >= 10 && after >= 10) || (length <= 10 && before >= 20 && after >= 20)) asleep.fill(0, start, end);
  }
}

export type EpochState = 'awake' | 'light' | 'deep' | 'rem' | 'outOfBed' | 'unknown';

export interface SleepStat {
  avg: number | null;
  min: number | null;
  max: number | null;
}

/** The fields of a `sleeps` document (timestamps as ISO 8601 strings). */
export interface SleepRecord {
  bedTime: string | null;
  sleepOnset: string | null;
  finalWake: string | null;
  outOfBedTime: string | null;
  timeInBedMin: number;
  /** Minutes in bed scored sleep or wake; the rest had no usable signal (their epochs read `unknown`). */
  scoredMin: number;
  totalSleepMin: number;
  sleepEfficiency: number;
  sleepLatencyMin: number;
  wasoMin: number;
  awakenings: number;
  outOfBedCount: number;
  outOfBedMin: number;
  respirationRate: SleepStat;
  heartRate: SleepStat;
  apneaEvents: number;
  apneaIndex: number;
  movementIndex: number;
  /** When epoch 0 begins: epoch `i` is the minute from `epochStart + i` minutes. */
  epochStart: string;
  /** `pauses`: breathing pauses that began in the minute, present only when there were any. */
  epochs: { state: EpochState; respirationRate: number | null; heartRate: number | null; activity: number | null; pauses?: number }[];
  source: string;
}

function stat(values: Float32Array, include: (i: number) => boolean): SleepStat {
  let sum = 0;
  let n = 0;
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!include(i) || !Number.isFinite(v) || v <= 0) continue;
    sum += v;
    n++;
    low = Math.min(low, v);
    high = Math.max(high, v);
  }
  const round = (v: number): number => Math.round(v * 10) / 10;
  return n === 0 ? { avg: null, min: null, max: null } : { avg: round(sum / n), min: round(low), max: round(high) };
}

const iso = (ms: number): string => new Date(ms).toISOString();
const orNull = (v: number): number | null => (Number.isFinite(v) ? Math.round(v * 10) / 10 : null);

/**
 * Minutes scored by a person or by the file itself (a hypnogram, a CSV with states): they replace the
 * activity-based scoring. null: not scored, left to the activity-based scoring.
 */
export type ScoredStates = readonly (EpochState | null)[];

const SLEEP_STATES: ReadonlySet<EpochState> = new Set(['light', 'deep', 'rem']);

/** Scores the night and computes the sleep record. `source` is `live` or the upload id. */
export function analyzeSleepDay(epochs: NightEpochs, source: string, scored?: ScoredStates): SleepRecord {
  const n = epochs.presence.length;
  const verdict = scoreSleepWake(epochs);
  if (scored !== undefined) {
    for (let i = 0; i < n; i++) {
      const state = scored[i];
      if (state !== null && state !== undefined && state !== 'unknown' && epochs.presence[i] === PRESENCE_IN_BED)
        verdict[i] = SLEEP_STATES.has(state) ? SCORED_SLEEP : SCORED_WAKE;
    }
  }
  const inBed = (i: number): boolean => epochs.presence[i] === PRESENCE_IN_BED;
  const at = (i: number): number => epochs.startMs + i * EPOCH_MS;

  let firstInBed = -1;
  let lastInBed = -1;
  let firstSleep = -1;
  let lastSleep = -1;
  for (let i = 0; i < n; i++) {
    if (inBed(i)) {
      if (firstInBed < 0) firstInBed = i;
      lastInBed = i;
    }
    if (verdict[i] === SCORED_SLEEP) {
      if (firstSleep < 0) firstSleep = i;
      lastSleep = i;
    }
  }

  // The sleep metrics count scored minutes only: an unscored minute is neither sleep nor wake.
  let timeInBed = 0;
  let scoredMin = 0;
  let totalSleep = 0;
  /** Unscored minutes in bed before sleep onset: left out of the latency. */
  let unscoredBeforeOnset = 0;
  let waso = 0;
  let awakenings = 0;
  let outOfBedCount = 0;
  let outOfBedMin = 0;
  let moving = 0;
  let movementKnown = 0;
  let apneaEvents = 0;
  let previousScored: number = UNSCORED;
  for (let i = 0; i < n; i++) {
    apneaEvents += epochs.apneaEvents[i]!;
    if (inBed(i)) {
      timeInBed++;
      if (verdict[i] !== UNSCORED) scoredMin++;
      if (verdict[i] === SCORED_SLEEP) totalSleep++;
      if (Number.isFinite(epochs.activity[i]!)) {
        movementKnown++;
        if (epochs.activity[i]! > 0) moving++;
      }
      if (verdict[i] === UNSCORED && i < firstSleep) unscoredBeforeOnset++;
    }
    if (firstSleep >= 0 && i > firstSleep && i <= lastSleep) {
      if (inBed(i) && verdict[i] === SCORED_WAKE) waso++;
      if (verdict[i] === SCORED_WAKE && previousScored === SCORED_SLEEP) awakenings++;
    }
    if (verdict[i] !== UNSCORED) previousScored = verdict[i]!;
    if (firstInBed >= 0 && i > firstInBed && i < lastInBed && epochs.presence[i] === PRESENCE_OUT_OF_BED) {
      outOfBedMin++;
      if (epochs.presence[i - 1] !== PRESENCE_OUT_OF_BED) outOfBedCount++;
    }
  }
  // Deep: regular breathing and a heart rate in the lowest quarter of the night's sleeping heart rates.
  const sleepingHeart = new Float64Array(totalSleep);
  let k = 0;
  for (let i = 0; i < n; i++) if (verdict[i] === SCORED_SLEEP) sleepingHeart[k++] = epochs.heartRate[i]!;
  const finite = sleepingHeart.filter(Number.isFinite).sort();
  const lowerQuartile = finite.length > 0 ? finite[Math.floor((finite.length - 1) / 4)]! : Number.NaN;
  const epochList: SleepRecord['epochs'] = [];
  for (let i = 0; i < n; i++) {
    let state: EpochState = 'unknown';
    if (epochs.presence[i] === PRESENCE_OUT_OF_BED) state = 'outOfBed';
    else if (inBed(i)) {
      const regular = epochs.respirationVariation[i]! <= DEEP_VARIATION;
      const lowHeart = !(epochs.heartRate[i]! > lowerQuartile);
      const given = scored?.[i];
      // An unscored minute in bed reads `unknown` (no usable signal), as a minute without data does.
      if (given !== null && given !== undefined && given !== 'outOfBed' && given !== 'unknown') state = given;
      else if (verdict[i] === SCORED_WAKE) state = 'awake';
      else if (verdict[i] === SCORED_SLEEP) state = regular && lowHeart ? 'deep' : 'light';
    }
    const epoch: SleepRecord['epochs'][number] = {
      state,
      respirationRate: orNull(epochs.respirationRate[i]!),
      heartRate: orNull(epochs.heartRate[i]!),
      activity: orNull(epochs.activity[i]!),
    };
    if (epochs.apneaEvents[i]! > 0) epoch.pauses = epochs.apneaEvents[i]!;
    epochList.push(epoch);
  }

  const sleepHours = totalSleep / 60;
  return {
    bedTime: firstInBed >= 0 ? iso(at(firstInBed)) : null,
    sleepOnset: firstSleep >= 0 ? iso(at(firstSleep)) : null,
    finalWake: lastSleep >= 0 ? iso(at(lastSleep + 1)) : null,
    outOfBedTime: lastInBed >= 0 ? iso(at(lastInBed + 1)) : null,
    timeInBedMin: timeInBed,
    totalSleepMin: totalSleep,
    scoredMin,
    sleepEfficiency: scoredMin > 0 ? Math.round((1000 * totalSleep) / scoredMin) / 10 : 0,
    sleepLatencyMin: firstSleep >= 0 && firstInBed >= 0 ? firstSleep - firstInBed - unscoredBeforeOnset : 0,
    wasoMin: waso,
    awakenings,
    outOfBedCount,
    outOfBedMin,
    respirationRate: stat(epochs.respirationRate, inBed),
    heartRate: stat(epochs.heartRate, inBed),
    apneaEvents,
    apneaIndex: sleepHours > 0 ? Math.round((10 * apneaEvents) / sleepHours) / 10 : 0,
    movementIndex: movementKnown > 0 ? Math.round((1000 * moving) / movementKnown) / 10 : 0,
    epochStart: iso(epochs.startMs),
    epochs: epochList,
    source,
  };
}

/**
 * Builds per-minute epochs from the live estimator's per-second states (evaluated once a second):
 * presence by majority of the known seconds, activity as seconds of movement, median rates, the
 * variation of the per-second respiration rate, and no-breathing episodes by their start.
 */
export class EpochRecorder {
  readonly epochs: NightEpochs;
  readonly #minutes: number;
  #minute = -1;
  #moving = 0;
  #known = 0;
  readonly #respiration = new Float64Array(60);
  readonly #heart = new Float64Array(60);
  #respirationCount = 0;
  #heartCount = 0;
  #inBedSeconds = 0;
  #outSeconds = 0;
  #previousState = '';

  constructor(startMs: number, minutes: number) {
    this.#minutes = minutes;
    this.epochs = createNightEpochs(startMs, minutes);
  }

  add(state: TimedRoomState): void {
    const minute = Math.floor((state.at - this.epochs.startMs) / EPOCH_MS);
    if (minute < 0 || minute >= this.#minutes) return;
    if (minute !== this.#minute) {
      this.finish();
      this.#minute = minute;
    }
    const inBed = state.state === 'sittingUp' || state.state === 'awake' || state.state === 'asleep' || state.state === 'noBreathing';
    if (inBed) this.#inBedSeconds++;
    else if (state.state === 'outOfBed') this.#outSeconds++;
    if (state.movement !== null) {
      this.#known++;
      if (state.movement > MOVING_THRESHOLD_G) this.#moving++;
    }
    if (state.respirationRate !== null && state.respirationRate > 0 && this.#respirationCount < 60)
      this.#respiration[this.#respirationCount++] = state.respirationRate;
    if (state.heartRate !== null && this.#heartCount < 60) this.#heart[this.#heartCount++] = state.heartRate;
    if (state.state === 'noBreathing' && this.#previousState !== 'noBreathing') this.epochs.apneaEvents[minute] = this.epochs.apneaEvents[minute]! + 1;
    this.#previousState = state.state;
  }

  /** Closes the current minute (call once after the last state). */
  finish(): void {
    const i = this.#minute;
    if (i >= 0) {
      const e = this.epochs;
      e.presence[i] =
        this.#inBedSeconds + this.#outSeconds === 0 ? PRESENCE_UNKNOWN : this.#inBedSeconds >= this.#outSeconds ? PRESENCE_IN_BED : PRESENCE_OUT_OF_BED;
      e.activity[i] = this.#known > 0 ? this.#moving : Number.NaN;
      e.respirationRate[i] = median(this.#respiration, 0, this.#respirationCount);
      e.heartRate[i] = median(this.#heart, 0, this.#heartCount);
      if (this.#respirationCount >= 10) {
        let sum = 0;
        let squares = 0;
        for (let k = 0; k < this.#respirationCount; k++) {
          sum += this.#respiration[k]!;
          squares += this.#respiration[k]! ** 2;
        }
        const mean = sum / this.#respirationCount;
        e.respirationVariation[i] = Math.sqrt(Math.max(0, squares / this.#respirationCount - mean * mean)) / mean;
      }
    }
    this.#minute = -1;
    this.#moving = 0;
    this.#known = 0;
    this.#respirationCount = 0;
    this.#heartCount = 0;
    this.#inBedSeconds = 0;
    this.#outSeconds = 0;
  }
}
