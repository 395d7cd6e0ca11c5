// Sleep/wake scoring of one sleep day from per-minute epochs, and the sleep record of PRODUCT.md
// section 5 (`rooms/{roomId}/sleeps/{day}`).
//
// Scoring: R. J. Cole, D. F. Kripke et al., "Automatic sleep/wake identification from wrist activity",
// Sleep 15(5):461–469, 1992 — each minute is wake when D = P · Σ Wᵢ·Aᵢ (four minutes before to two after,
// weights 404, 598, 326, 441, 1408, 508, 350) is ≥ 1 — followed by Webster's rescoring rules from the
// same paper (after 4, 10 and 15 min of wake the next 1, 3 and 4 min of sleep become wake; sleep bouts of
// up to 6 and 10 min inside at least 10 and 20 min of wake become wake). The activity unit here is the
// number of seconds in the minute with movement above MOVING_THRESHOLD_G, and P is set so that a minute
// with 10 moving seconds and still neighbours is wake.
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
const DEEP_VARIATION = 0.1;

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

/** Sleep/wake per in-bed minute: 1 asleep, 0 awake (out-of-bed and unknown minutes are 0). */
export function scoreSleep(epochs: NightEpochs): Uint8Array {
  const n = epochs.presence.length;
  const asleep = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (epochs.presence[i] !== PRESENCE_IN_BED) continue;
    let sum = 0;
    for (let w = 0; w < COLE_KRIPKE_WEIGHTS.length; w++) {
      const j = i + w - COLE_KRIPKE_CURRENT;
      if (j < 0 || j >= n) continue;
      // Out of bed counts as fully active: getting up is waking.
      const activity = epochs.presence[j] === PRESENCE_OUT_OF_BED ? 60 : epochs.activity[j]!;
      if (Number.isFinite(activity)) sum += COLE_KRIPKE_WEIGHTS[w]! * activity;
    }
    asleep[i] = COLE_KRIPKE_P * sum < 1 ? 1 : 0;
  }
  rescore(asleep);
  return asleep;
}

/** Runs of equal values: [start, end) pairs. */
function runsOf(values: Uint8Array): [number, number][] {
  const runs: [number, number][] = [];
  for (let i = 0; i < values.length; ) {
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
  const asleep = scoreSleep(epochs);
  if (scored !== undefined) {
    for (let i = 0; i < n; i++) {
      const state = scored[i];
      if (state !== null && state !== undefined && epochs.presence[i] === PRESENCE_IN_BED) asleep[i] = SLEEP_STATES.has(state) ? 1 : 0;
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
    if (asleep[i] === 1) {
      if (firstSleep < 0) firstSleep = i;
      lastSleep = i;
    }
  }

  let timeInBed = 0;
  let totalSleep = 0;
  let waso = 0;
  let awakenings = 0;
  let outOfBedCount = 0;
  let outOfBedMin = 0;
  let moving = 0;
  let apneaEvents = 0;
  for (let i = 0; i < n; i++) {
    apneaEvents += epochs.apneaEvents[i]!;
    if (inBed(i)) {
      timeInBed++;
      if (asleep[i] === 1) totalSleep++;
      if ((epochs.activity[i] ?? 0) > 0) moving++;
    }
    if (firstSleep >= 0 && i > firstSleep && i <= lastSleep) {
      if (inBed(i) && asleep[i] === 0) waso++;
      if (asleep[i] === 0 && asleep[i - 1] === 1) awakenings++;
    }
    if (firstInBed >= 0 && i > firstInBed && i < lastInBed && epochs.presence[i] === PRESENCE_OUT_OF_BED) {
      outOfBedMin++;
      if (epochs.presence[i - 1] !== PRESENCE_OUT_OF_BED) outOfBedCount++;
    }
  }

  // Deep: regular breathing and a heart rate in the lowest quarter of the night's sleeping heart rates.
  const sleepingHeart = new Float64Array(totalSleep);
  let k = 0;
  for (let i = 0; i < n; i++) if (asleep[i] === 1) sleepingHeart[k++] = epochs.heartRate[i]!;
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
      state = given !== null && given !== undefined && given !== 'outOfBed' && given !== 'unknown' ? given : asleep[i] === 0 ? 'awake' : regular && lowHeart ? 'deep' : 'light';
    }
    const epoch: SleepRecord['epochs'][number] = { state, respirationRate: orNull(epochs.respirationRate[i]!), heartRate: orNull(epochs.heartRate[i]!), activity: orNull(epochs.activity[i]!) };
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
    sleepEfficiency: timeInBed > 0 ? Math.round((1000 * totalSleep) / timeInBed) / 10 : 0,
    sleepLatencyMin: firstSleep >= 0 && firstInBed >= 0 ? firstSleep - firstInBed : 0,
    wasoMin: waso,
    awakenings,
    outOfBedCount,
    outOfBedMin,
    respirationRate: stat(epochs.respirationRate, inBed),
    heartRate: stat(epochs.heartRate, inBed),
    apneaEvents,
    apneaIndex: sleepHours > 0 ? Math.round((10 * apneaEvents) / sleepHours) / 10 : 0,
    movementIndex: timeInBed > 0 ? Math.round((1000 * moving) / timeInBed) / 10 : 0,
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
    const inBed = state.state === 'awake' || state.state === 'asleep' || state.state === 'noBreathing';
    if (inBed) this.#inBedSeconds++;
    else if (state.state === 'outOfBed') this.#outSeconds++;
    if (state.movement !== null) {
      this.#known++;
      if (state.movement > MOVING_THRESHOLD_G) this.#moving++;
    }
    if (state.respirationRate !== null && state.respirationRate > 0 && this.#respirationCount < 60) this.#respiration[this.#respirationCount++] = state.respirationRate;
    if (state.heartRate !== null && this.#heartCount < 60) this.#heart[this.#heartCount++] = state.heartRate;
    if (state.state === 'noBreathing' && this.#previousState !== 'noBreathing') this.epochs.apneaEvents[minute] = this.epochs.apneaEvents[minute]! + 1;
    this.#previousState = state.state;
  }

  /** Closes the current minute (call once after the last state). */
  finish(): void {
    const i = this.#minute;
    if (i >= 0) {
      const e = this.epochs;
      e.presence[i] = this.#inBedSeconds + this.#outSeconds === 0 ? PRESENCE_UNKNOWN : this.#inBedSeconds >= this.#outSeconds ? PRESENCE_IN_BED : PRESENCE_OUT_OF_BED;
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
