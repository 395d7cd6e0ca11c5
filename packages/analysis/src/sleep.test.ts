import { describe, expect, it } from 'vitest';
import { collectionByName } from '@nemuri/shared/documents/collections';
import type { TimedRoomState } from './roomState.ts';
import { EPOCH_MS, EpochRecorder, PRESENCE_IN_BED, PRESENCE_OUT_OF_BED, analyzeSleepDay, createNightEpochs, scoreSleep, type NightEpochs } from './sleep.ts';

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
