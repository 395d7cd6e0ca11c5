import { describe, expect, it } from 'vitest';
import { collectionByName } from '@nemuri/shared/documents/collections';
import type { TimedRoomState } from './roomState.ts';
import {
  EPOCH_MS,
  EpochRecorder,
  PRESENCE_IN_BED,
  PRESENCE_OUT_OF_BED,
  SCORED_SLEEP,
  SCORED_WAKE,
  UNSCORED,
  analyzeSleepDay,
  createNightEpochs,
  scoreSleep,
  scoreSleepWake,
  type NightEpochs,
} from './sleep.ts';

/** 21:00 in Japan. */
const START = Date.UTC(2026, 10, 22, 12);
const minutes = (n: number): number => START + n * EPOCH_MS;

interface Segment {
  minutes: number;
  presence: number;
  activity?: number;
  heartRate?: number;
  respirationRate?: number;
  variation?: number;
  apneaAt?: number[];
}

function night(...segments: Segment[]): NightEpochs {
  const total = segments.reduce((n, s) => n + s.minutes, 0);
  const epochs = createNightEpochs(START, total);
  let i = 0;
  for (const segment of segments) {
    for (let m = 0; m < segment.minutes; m++, i++) {
      epochs.presence[i] = segment.presence;
      if (segment.presence !== PRESENCE_IN_BED) continue;
      epochs.activity[i] = segment.activity ?? 0;
      epochs.heartRate[i] = segment.heartRate ?? 60;
      epochs.respirationRate[i] = segment.respirationRate ?? 14;
      epochs.respirationVariation[i] = segment.variation ?? 0.2;
      if (segment.apneaAt?.includes(m)) epochs.apneaEvents[i] = 1;
    }
  }
  return epochs;
}

const OUT = PRESENCE_OUT_OF_BED;
const IN = PRESENCE_IN_BED;

describe('Cole–Kripke scoring with Webster rescoring', () => {
  it('scores still minutes asleep and active minutes awake, with the published edge effects', () => {
    const epochs = night({ minutes: 20, presence: IN, activity: 20 }, { minutes: 60, presence: IN }, { minutes: 10, presence: IN, activity: 20 });
    const asleep = scoreSleep(epochs);
    // Still minutes 20–22 are wake through the weighted window (activity of the 4 minutes before),
    // minutes 23–26 by rule c (≥ 15 min of wake before); the last still minute by the window (+1, +2).
    expect(asleep.indexOf(1)).toBe(27);
    expect(asleep.lastIndexOf(1)).toBe(78);
    expect(asleep.reduce((n, v) => n + v, 0)).toBe(52);
  });

  it('turns a short sleep bout between long wake periods into wake (rule d)', () => {
    const epochs = night({ minutes: 30, presence: IN, activity: 30 }, { minutes: 12, presence: IN }, { minutes: 30, presence: IN, activity: 30 });
    // 12 still minutes: 3 by the window + 4 by rule c → 5 minutes, then rule d (≤ 6 between ≥ 10) removes them.
    expect(scoreSleep(epochs).reduce((n, v) => n + v, 0)).toBe(0);
  });
});

describe('sleep record of a synthetic night', () => {
  // 21:00 out of bed 30 min; in bed awake 20 min; asleep 180 min (the first 120 deep: regular breathing, low
  // heart rate); awake in bed 10 min; out of bed 15 min; asleep 200 min with three apneas; awake 10 min; up.
  const epochs = night(
    { minutes: 30, presence: OUT },
    { minutes: 20, presence: IN, activity: 20, heartRate: 70 },
    { minutes: 120, presence: IN, heartRate: 52, variation: 0.05, respirationRate: 13 },
    { minutes: 60, presence: IN, heartRate: 58 },
    { minutes: 10, presence: IN, activity: 15, heartRate: 72 },
    { minutes: 15, presence: OUT },
    { minutes: 200, presence: IN, heartRate: 56, apneaAt: [30, 90, 150] },
    { minutes: 10, presence: IN, activity: 20, heartRate: 75, respirationRate: 16 },
    { minutes: 30, presence: OUT },
  );
  const record = analyzeSleepDay(epochs, 'live');

  it('validates against the sleeps schema of the collection registry', () => {
    const result = collectionByName('rooms/sleeps')!.schema.safeParse(record);
    expect(result.success, JSON.stringify(!result.success && result.error.issues.slice(0, 3))).toBe(true);
  });

  it('computes the times', () => {
    expect(record.bedTime).toBe(new Date(minutes(30)).toISOString());
    // 20 awake minutes, then 3 window minutes and 4 rescored minutes.
    expect(record.sleepOnset).toBe(new Date(minutes(57)).toISOString());
    // The last still minute before the final activity is wake through the window (+1 and +2 minutes active).
    expect(record.finalWake).toBe(new Date(minutes(454)).toISOString());
    expect(record.outOfBedTime).toBe(new Date(minutes(465)).toISOString());
  });

  it('computes the durations and counts', () => {
    expect(record).toMatchObject({
      timeInBedMin: 420,
      // 180 − 7 (onset) + 200 − 8 (4 window + 4 rescored after 29 min of wake) − 1 (end)
      totalSleepMin: 364,
      sleepEfficiency: 86.7,
      sleepLatencyMin: 27,
      // 10 awake minutes in bed and 8 at the start of the second sleep (out-of-bed minutes apart)
      wasoMin: 18,
      awakenings: 1,
      outOfBedCount: 1,
      outOfBedMin: 15,
      apneaEvents: 3,
      apneaIndex: 0.5,
      movementIndex: 9.5,
    });
    expect(record.heartRate).toEqual({ avg: 56.6, min: 52, max: 75 });
    expect(record.respirationRate).toEqual({ avg: 13.8, min: 13, max: 16 });
  });

  it('marks epochs out of bed, awake, light and deep', () => {
    expect(record.epochs).toHaveLength(epochs.presence.length);
    const count = (state: string): number => record.epochs.filter((e) => e.state === state).length;
    expect(count('outOfBed')).toBe(75);
    expect(count('deep')).toBe(113);
    expect(count('light')).toBe(364 - 113);
    expect(count('awake')).toBe(420 - 364);
    // The pauses are kept in the minute they began, for the report's diary marks.
    expect(record.epochs.reduce((sum, e) => sum + (e.pauses ?? 0), 0)).toBe(3);
    expect(record.epochs[0]).toEqual({ state: 'outOfBed', respirationRate: null, heartRate: null, activity: null });
  });

  it('gives an empty record for a night without anyone in bed', () => {
    const empty = analyzeSleepDay(night({ minutes: 60, presence: OUT }), 'upload-1');
    expect(empty).toMatchObject({ bedTime: null, sleepOnset: null, timeInBedMin: 0, totalSleepMin: 0, sleepEfficiency: 0, apneaIndex: 0 });
    expect(collectionByName('rooms/sleeps')!.schema.safeParse(empty).success).toBe(true);
  });
});

/** A night in bed with only the given per-minute columns (the others unknown), `minutes` long. */
function signalsOnly(
  minutes: number,
  columns: { heartRate?: (m: number) => number; respirationRate?: (m: number) => number; variation?: (m: number) => number },
): NightEpochs {
  const epochs = createNightEpochs(START, minutes);
  for (let m = 0; m < minutes; m++) {
    epochs.presence[m] = IN;
    if (columns.heartRate) epochs.heartRate[m] = columns.heartRate(m);
    if (columns.respirationRate) epochs.respirationRate[m] = columns.respirationRate(m);
    if (columns.variation) epochs.respirationVariation[m] = columns.variation(m);
  }
  return epochs;
}

/** Deterministic jitter of ±1 (minute-to-minute noise of a per-minute heart or respiration rate). */
const jitter = (m: number): number => Math.sin(m * 12.9898) * 0.9;

describe('sleep/wake from every signal (issue 19)', () => {
  it('does not call a night of heart rate 85 without an accelerometer 480/480 asleep: nothing in it tells sleep from wake', () => {
    for (const heartRate of [() => 85, (m: number) => 85 + jitter(m)]) {
      const record = analyzeSleepDay(signalsOnly(480, { heartRate }), 'import-1');
      expect(record).toMatchObject({ timeInBedMin: 480, scoredMin: 0, totalSleepMin: 0, sleepEfficiency: 0, sleepLatencyMin: 0 });
      expect(record.epochs.every((epoch) => epoch.state === 'unknown')).toBe(true);
      expect(collectionByName('rooms/sleeps')!.schema.safeParse(record).success).toBe(true);
    }
  });

  it('scores a heart-rate-only per-minute night: awake at bedtime, at an arousal and in the morning', () => {
    // 30 min awake in bed at 72, asleep at 56 for 3 h, awake 20 min at 70 (restless, ±4), asleep 3 h, awake 20 min at 74.
    const segments: [number, (m: number) => number][] = [
      [30, (m) => 72 + jitter(m)],
      [180, (m) => 56 + jitter(m)],
      [20, (m) => 70 + 4 * Math.sin(m * 1.7)],
      [180, (m) => 57 + jitter(m)],
      [20, (m) => 74 + jitter(m)],
    ];
    const starts = segments.map((_, k) => segments.slice(0, k).reduce((sum, [length]) => sum + length, 0));
    const heartRate = (m: number): number => {
      let k = segments.length - 1;
      while (starts[k]! > m) k--;
      return segments[k]![1](m);
    };
    const epochs = signalsOnly(430, { heartRate });
    const verdict = scoreSleepWake(epochs);
    const wakeIn = (from: number, to: number): number => verdict.subarray(from, to).filter((v) => v === SCORED_WAKE).length;
    expect(verdict.every((v) => v !== UNSCORED)).toBe(true);
    expect(wakeIn(0, 30)).toBeGreaterThanOrEqual(25);
    expect(wakeIn(212, 228)).toBeGreaterThanOrEqual(14);
    expect(wakeIn(412, 430)).toBeGreaterThanOrEqual(15);
    expect(wakeIn(40, 200) + wakeIn(240, 400)).toBeLessThanOrEqual(10);
    const record = analyzeSleepDay(epochs, 'import-2');
    expect(Math.abs(record.sleepLatencyMin - 30)).toBeLessThanOrEqual(5);
    expect(Math.abs(record.totalSleepMin - 360)).toBeLessThanOrEqual(20);
    expect(record.awakenings).toBe(1);
  });

  it('scores minutes without movement from breathing when there is no heart rate', () => {
    // Awake: 17/min and irregular; asleep: 13/min and regular.
    const awake = (m: number): boolean => m < 30 || m >= 300;
    const epochs = signalsOnly(330, { respirationRate: (m) => (awake(m) ? 17 : 13) + 0.3 * jitter(m), variation: (m) => (awake(m) ? 0.35 : 0.08) });
    const verdict = scoreSleepWake(epochs);
    let agree = 0;
    for (let m = 0; m < 330; m++) if ((verdict[m] === SCORED_SLEEP) === !awake(m)) agree++;
    expect(agree / 330).toBeGreaterThan(0.9);
  });

  it('leaves minutes in bed without any signal unscored and counts the metrics over scored minutes only', () => {
    // Movement-scored night whose middle hour has no data at all (a sensor that slipped off, say).
    const epochs = night({ minutes: 20, presence: IN, activity: 20 }, { minutes: 200, presence: IN });
    for (let m = 100; m < 160; m++) {
      epochs.activity[m] = Number.NaN;
      epochs.heartRate[m] = Number.NaN;
      epochs.respirationRate[m] = Number.NaN;
      epochs.respirationVariation[m] = Number.NaN;
    }
    const verdict = scoreSleepWake(epochs);
    expect(verdict.subarray(100, 160).every((v) => v === UNSCORED)).toBe(true);
    const record = analyzeSleepDay(epochs, 'live');
    expect(record.timeInBedMin).toBe(220);
    expect(record.scoredMin).toBe(160);
    expect(record.totalSleepMin).toBe(verdict.filter((v) => v === SCORED_SLEEP).length);
    expect(record.sleepEfficiency).toBe(Math.round((1000 * record.totalSleepMin) / 160) / 10);
    expect(record.epochs.slice(100, 160).every((epoch) => epoch.state === 'unknown')).toBe(true);
    // Still movement scoring where movement is known: the same as Cole–Kripke there.
    const actigraphy = scoreSleep(epochs);
    for (let m = 0; m < 90; m++) expect(verdict[m] === SCORED_SLEEP ? 1 : 0).toBe(actigraphy[m]);
  });
});

describe('EpochRecorder', () => {
  it('turns per-second live states into minute epochs', () => {
    const recorder = new EpochRecorder(START, 3);
    const base = { since: START, respirationRate: 14, heartRate: 60, movement: 0, temperature: 36.5, lastButtonAt: null, postureChanges: 0 };
    for (let s = 0; s < 180; s++) {
      const at = START + s * 1000;
      let state: TimedRoomState = { ...base, at, state: 'asleep' };
      if (s < 60 && s % 6 === 0) state = { ...state, state: 'awake', movement: 0.05 };
      if (s >= 60 && s < 120) state = { ...state, state: s >= 70 && s < 85 ? 'noBreathing' : 'asleep', respirationRate: s >= 70 && s < 85 ? 0 : 12 + (s % 2) };
      if (s >= 120) state = { ...state, state: 'outOfBed', respirationRate: null, heartRate: null };
      recorder.add(state);
    }
    recorder.finish();
    const e = recorder.epochs;
    expect(Array.from(e.presence)).toEqual([IN, IN, OUT]);
    expect(Array.from(e.activity)).toEqual([10, 0, 0]);
    expect(Array.from(e.apneaEvents)).toEqual([0, 1, 0]);
    expect([12, 13]).toContain(e.respirationRate[1]);
    expect(e.heartRate[2]).toBeNaN();
  });
});
