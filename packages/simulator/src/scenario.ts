// The night each simulated device lives through, as a seeded timeline of episodes.
// Times are "scenario seconds": seconds since 20:00 on the scenario's clock (default Japan, UTC+9),
// so the timeline repeats every 24 hours and a run can start at any clock time.
import { Random, hashSeed } from './random.ts';

export const DAY_SECONDS = 86_400;
/** Scenario second 0 is this clock time. */
export const SCENARIO_ORIGIN_HOUR = 20;
/** Japan Standard Time, the product's home time zone. */
export const DEFAULT_UTC_OFFSET_MINUTES = 540;

export interface Interval {
  start: number;
  end: number;
}

export type Presence = 'out-of-bed' | 'in-bed-awake' | 'asleep';

/** What the scenario asks of the signals for one second. */
export interface ScenarioState {
  presence: Presence;
  /** The device sends nothing (switched off or out of range). */
  offline: boolean;
  /** Breathing has stopped. */
  apnea: boolean;
  /** A movement burst is under way (in bed only). */
  moving: boolean;
  /** Target heart rate in beats/min before respiratory sinus arrhythmia and slow variation. */
  heartRate: number;
  /** Target respiration rate in breaths/min. */
  respirationRate: number;
  /** Target core temperature in °C (fever included). */
  bodyTemperature: number;
  buttonPressed: boolean;
  /**
   * Ventricular flutter: the heart beats too fast and irregularly to pump, the ECG shows a sine-like
   * oscillation at 240–300/min and the device computes no heart rate (the 心拍異常 alert of the demo).
   */
  flutter: boolean;
  /** Sitting on the edge of the bed (trunk upright) just before getting up: 起きあがり. */
  sittingUp: boolean;
}

export interface ScenarioTimeline {
  bedTime: number;
  sleepOnset: number;
  wakeTime: number;
  getUp: number;
  outOfBed: Interval[];
  /** After each return to bed the person lies awake for a while. */
  awakeAfterReturn: Interval[];
  apnea: Interval;
  tachycardia: Interval;
  /** Fever: rise, plateau, fall. */
  fever: { start: number; peakStart: number; peakEnd: number; end: number; rise: number };
  offline: Interval;
  button: Interval;
  /** Before each time out of bed (and getting up in the morning) the person sits up for 10–40 s. */
  sittingUp: Interval[];
  /** A self-terminating ventricular flutter episode (about one device in ten), or null. */
  flutter: Interval | null;
  movements: Interval[];
  /** Per-person baselines. */
  restingHeartRate: number;
  restingRespirationRate: number;
  tachycardiaRate: number;
  bodyTemperature: number;
}

const MINUTE = 60;
const HOUR = 3600;
/** Share of devices whose night has a flutter episode (between the apnea and the offline spell). */
const FLUTTER_SHARE = 1 / 10;
/** Clock time hh:mm as scenario seconds. */
const at = (hours: number, minutes = 0): number => ((hours - SCENARIO_ORIGIN_HOUR + 24) % 24) * HOUR + minutes * MINUTE;

function inside(intervals: readonly Interval[], t: number): boolean {
  for (const interval of intervals) if (t >= interval.start && t < interval.end) return true;
  return false;
}

/** Builds one device's night; a device's timeline depends only on the seed and its serial. */
export function createTimeline(seed: string | number, serial: string): ScenarioTimeline {
  const random = new Random(hashSeed('scenario', seed, serial));
  const span = (start: number, minDuration: number, maxDuration: number): Interval => {
    const s = Math.round(start);
    return { start: s, end: s + Math.round(random.uniform(minDuration, maxDuration)) };
  };
  const bedTime = Math.round(random.uniform(0, 40 * MINUTE));
  const sleepOnset = bedTime + Math.round(random.uniform(20 * MINUTE, 50 * MINUTE));
  const button = span(bedTime + random.uniform(5 * MINUTE, 15 * MINUTE), 2, 5);
  const tachycardia = span(random.uniform(at(22, 40), at(23, 20)), 4 * MINUTE, 6 * MINUTE);
  const firstOut = span(random.uniform(at(23, 40), at(0, 20)), 4 * MINUTE, 10 * MINUTE);
  const apnea = span(random.uniform(at(1, 0), at(1, 40)), 20, 40);
  const offline = span(random.uniform(at(2, 0), at(2, 40)), 2 * MINUTE, 5 * MINUTE);
  const feverStart = Math.round(random.uniform(at(3, 0), at(3, 30)));
  const fever = {
    start: feverStart,
    peakStart: feverStart + 40 * MINUTE,
    peakEnd: feverStart + 130 * MINUTE,
    end: feverStart + 190 * MINUTE,
    rise: random.uniform(1.4, 2.0),
  };
  const secondOut = span(random.uniform(at(4, 20), at(4, 50)), 3 * MINUTE, 8 * MINUTE);
  const wakeTime = Math.round(random.uniform(at(6, 0), at(6, 40)));
  const getUp = wakeTime + Math.round(random.uniform(5 * MINUTE, 20 * MINUTE));
  const outOfBed = [firstOut, secondOut];
  const awakeAfterReturn = outOfBed.map((interval) => span(interval.end, 5 * MINUTE, 15 * MINUTE));
  const quiet = [apnea, offline, ...outOfBed].map((i) => ({ start: i.start - 30, end: i.end + 30 }));

  // Movement bursts: every ~2 minutes while awake in bed, every ~15 minutes asleep; none near the episodes.
  const movements: Interval[] = [];
  let t = bedTime + random.exponential(2 * MINUTE);
  while (t < getUp) {
    const burst = span(t, 3, 20);
    if (!inside(quiet, burst.start) && !inside(quiet, burst.end)) movements.push(burst);
    const asleep = t >= sleepOnset && t < wakeTime && !inside(awakeAfterReturn, t);
    t = burst.end + random.exponential(asleep ? 15 * MINUTE : 2 * MINUTE);
  }

  // Drawn from a stream of its own, so that the rest of every device's night is what it was before.
  const rare = new Random(hashSeed('flutter', seed, serial));
  const flutter = rare.next() < FLUTTER_SHARE ? { start: Math.round(rare.uniform(at(1, 48), at(1, 56))), end: 0 } : null;
  if (flutter) flutter.end = flutter.start + Math.round(rare.uniform(45, 90));
  const sitting = new Random(hashSeed('sitting-up', seed, serial));
  const sittingUp = [...outOfBed.map((interval) => interval.start), getUp].map((leaving) => ({
    start: leaving - Math.round(sitting.uniform(10, 40)),
    end: leaving,
  }));

  return {
    bedTime,
    sleepOnset,
    wakeTime,
    getUp,
    outOfBed,
    awakeAfterReturn,
    apnea,
    tachycardia,
    fever,
    offline,
    button,
    flutter,
    sittingUp,
    movements,
    restingHeartRate: random.uniform(54, 66),
    restingRespirationRate: random.uniform(12, 16),
    tachycardiaRate: random.uniform(125, 140),
    bodyTemperature: random.uniform(36.2, 36.7),
  };
}

/** Scenario seconds of a moment in time (ms since the epoch) on a clock at the given UTC offset. */
export function scenarioSecond(timeMs: number, utcOffsetMinutes = DEFAULT_UTC_OFFSET_MINUTES): number {
  const local = Math.floor(timeMs / 1000) + utcOffsetMinutes * 60 - SCENARIO_ORIGIN_HOUR * HOUR;
  return ((local % DAY_SECONDS) + DAY_SECONDS) % DAY_SECONDS;
}

export function feverAt(timeline: ScenarioTimeline, t: number): number {
  const { start, peakStart, peakEnd, end, rise } = timeline.fever;
  if (t < start || t >= end) return 0;
  if (t < peakStart) return (rise * (t - start)) / (peakStart - start);
  if (t < peakEnd) return rise;
  return (rise * (end - t)) / (end - peakEnd);
}

/** The scenario's demands for scenario second t. */
export function stateAt(timeline: ScenarioTimeline, t: number): ScenarioState {
  const inBed = t >= timeline.bedTime && t < timeline.getUp && !inside(timeline.outOfBed, t);
  const asleep = inBed && t >= timeline.sleepOnset && t < timeline.wakeTime && !inside(timeline.awakeAfterReturn, t);
  const sittingUp = inBed && inside(timeline.sittingUp, t);
  const presence: Presence = !inBed ? 'out-of-bed' : asleep && !sittingUp ? 'asleep' : 'in-bed-awake';
  const fever = feverAt(timeline, t);
  const tachycardia = inBed && t >= timeline.tachycardia.start && t < timeline.tachycardia.end;
  let heartRate = timeline.restingHeartRate + (presence === 'asleep' ? 0 : 10) + 8 * fever;
  if (tachycardia) heartRate = timeline.tachycardiaRate;
  const respirationRate = timeline.restingRespirationRate + (presence === 'asleep' ? 0 : 2) + 2 * fever;
  return {
    presence,
    offline: t >= timeline.offline.start && t < timeline.offline.end,
    apnea: inBed && t >= timeline.apnea.start && t < timeline.apnea.end,
    moving: inBed && inside(timeline.movements, t),
    heartRate,
    respirationRate,
    bodyTemperature: timeline.bodyTemperature + fever,
    buttonPressed: t >= timeline.button.start && t < timeline.button.end,
    flutter: inBed && timeline.flutter !== null && t >= timeline.flutter.start && t < timeline.flutter.end,
    sittingUp,
  };
}
