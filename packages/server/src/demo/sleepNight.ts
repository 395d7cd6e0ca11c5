/**
 * One synthetic night of a demo resident, as a `rooms/{roomId}/sleeps/{day}` record: per-minute
 * epochs from going to bed to getting up, and the sleep-day metrics computed from those epochs
 * (so the numbers always agree with the timeline the sleep screen draws).
 *
 * The night follows the textbook shape of adult sleep: a latency, ~90-minute cycles with deep sleep
 * concentrated in the first cycles and REM growing towards morning, brief awakenings, and toilet
 * trips out of bed (frequent in the elderly). Rates follow the state: lower and steadier in deep
 * sleep, irregular in REM, higher awake. Epoch `i` is the minute starting at `bedTime + i` minutes.
 */
import type { EpochState as AnalysisEpochState, SleepRecord as SleepRecordFields } from '@nemuri/analysis/sleep';
import type { Random } from '@nemuri/simulator/random';
import { tokyoInstant, tokyoIso, type Day } from './tokyoTime.ts';

/** The record shape is the analysis's (what a real night produces); a demo night has no unknown minutes. */
export type EpochState = Exclude<AnalysisEpochState, 'unknown'>;

/** How one resident sleeps: means around which each night varies. */
export interface SleeperProfile {
  /** Usual bedtime, minutes after midnight of the sleep day (e.g. 21:15 = 1275). */
  bedTime: number;
  /** Usual final wake, minutes after midnight of the next morning. */
  wakeTime: number;
  /** Mean minutes to fall asleep. */
  latency: number;
  /** Mean brief awakenings a night (in bed). */
  awakenings: number;
  /** Mean trips out of bed a night (toilet). */
  toiletTrips: number;
  /** Chance per night of one long time out of bed (wandering, 12-40 minutes). */
  longTrip: number;
  respirationRate: number;
  heartRate: number;
  /** Apnea events per hour of sleep. */
  apneaIndex: number;
  /** Activity multiplier (1: average). */
  restlessness: number;
}

export type SleepEpoch = SleepRecordFields['epochs'][number] & { state: EpochState; activity: number };

/** A demo night always has its times: the resident went to bed and got up. */
export type SleepRecord = Omit<SleepRecordFields, 'bedTime' | 'sleepOnset' | 'finalWake' | 'outOfBedTime' | 'epochs'> & {
  bedTime: string;
  sleepOnset: string;
  finalWake: string;
  outOfBedTime: string;
  epochs: SleepEpoch[];
};

/** A period of the night, for alerts made from the same night (ms since the epoch). */
export interface NightEvent {
  type: 'outOfBed' | 'apnea';
  startedAt: number;
  endedAt: number;
}

export interface Night {
  record: SleepRecord;
  events: NightEvent[];
}

const clamp = (value: number, low: number, high: number): number => Math.min(high, Math.max(low, value));
const round1 = (value: number): number => Math.round(value * 10) / 10;

function poisson(random: Random, mean: number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  let p = random.next();
  while (p > limit) {
    k++;
    p *= random.next();
  }
  return k;
}

function stat(values: readonly number[]): SleepRecordFields['heartRate'] {
  if (values.length === 0) return { avg: null, min: null, max: null };
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const value of values) {
    sum += value;
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return { avg: round1(sum / values.length), min, max };
}

/** The stage of a minute `t` after sleep onset, from the cycle it falls in. */
function stageAt(t: number, cycleLengths: readonly number[]): EpochState {
  let start = 0;
  for (let k = 0; k < cycleLengths.length; k++) {
    const length = cycleLengths[k] as number;
    if (t < start + length) {
      const p = (t - start) / length;
      const deep = Math.max(0.04, 0.42 - 0.11 * k);
      const rem = Math.min(0.38, 0.1 + 0.07 * k);
      if (p < 0.15) return 'light';
      if (p < 0.15 + deep) return 'deep';
      if (p < 1 - rem) return 'light';
      return 'rem';
    }
    start += length;
  }
  return 'light';
}

export function generateNight(profile: SleeperProfile, day: Day, random: Random): Night {
  const bed = Math.round(clamp(profile.bedTime + random.gaussian() * 20, 20 * 60 + 30, 22 * 60 + 30));
  const latency = Math.round(clamp(profile.latency * Math.exp(0.45 * random.gaussian()), 2, 95));
  const onset = bed + latency;
  const finalWake = Math.round(Math.max(onset + 300, 24 * 60 + profile.wakeTime + random.gaussian() * 25));
  const up = finalWake + Math.round(clamp(5 + random.exponential(10), 5, 45));
  const length = up - bed;
  const sleepStart = latency;
  const sleepEnd = finalWake - bed;

  const states: EpochState[] = new Array<EpochState>(length).fill('awake');
  const cycles: number[] = [];
  for (let total = 0; total < sleepEnd - sleepStart;) {
    const cycle = Math.round(clamp(90 + random.gaussian() * 10, 70, 115));
    cycles.push(cycle);
    total += cycle;
  }
  for (let i = sleepStart; i < sleepEnd; i++) {
    let state = stageAt(i - sleepStart, cycles);
    // Stage boundaries are not clean: some minutes of deep or REM score as light.
    if (state !== 'light' && random.next() < 0.08) state = 'light';
    states[i] = state;
  }
  const somewhereAsleep = (): number => sleepStart + 10 + Math.floor(random.next() * Math.max(1, sleepEnd - sleepStart - 30));
  // One night in eight is a bad one (pain, noise, a worry): twice the awakenings.
  const awakenings = poisson(random, profile.awakenings * (random.next() < 0.125 ? 2 : 1));
  for (let n = 0; n < awakenings; n++) {
    const at = somewhereAsleep();
    const minutes = Math.round(clamp(2 + random.exponential(6 * profile.restlessness), 2, 30));
    for (let i = at; i < Math.min(sleepEnd, at + minutes); i++) states[i] = 'awake';
  }
  const trips = poisson(random, profile.toiletTrips) + (random.next() < profile.longTrip ? 1 : 0);
  const longTripIndex = random.next() < profile.longTrip ? trips - 1 : -1;
  for (let n = 0; n < trips; n++) {
    const at = somewhereAsleep();
    const away = n === longTripIndex ? Math.round(random.uniform(12, 40)) : Math.round(clamp(3 + random.exponential(3), 3, 12));
    // Waking up, getting out of bed, coming back and lying awake a little.
    for (let i = at; i < Math.min(sleepEnd, at + 2 + away + 3); i++) states[i] = i >= at + 2 && i < at + 2 + away ? 'outOfBed' : 'awake';
  }

  const sleepMinutes = states.reduce((n, state) => n + (state === 'light' || state === 'deep' || state === 'rem' ? 1 : 0), 0);
  const apneaEvents = poisson(random, (profile.apneaIndex * sleepMinutes) / 60);
  const apneaMinutes = new Map<number, number>();
  const events: NightEvent[] = [];
  for (let n = 0; n < apneaEvents; n++) {
    let at = somewhereAsleep();
    for (let tries = 0; tries < 20 && (states[at] === 'awake' || states[at] === 'outOfBed'); tries++) at = somewhereAsleep();
    apneaMinutes.set(at, (apneaMinutes.get(at) ?? 0) + 1);
    const startedAt = tokyoInstant(day, bed + at) + Math.floor(random.next() * 40_000);
    events.push({ type: 'apnea', startedAt, endedAt: startedAt + Math.round(random.uniform(11, 40)) * 1000 });
  }

  // Rates differ from night to night too (a cold, the room's temperature, medication).
  const nightRespiration = profile.respirationRate + random.gaussian() * 0.8;
  const nightHeart = profile.heartRate + random.gaussian() * 2.5;
  const epochs: SleepEpoch[] = [];
  const respiration: number[] = [];
  const heart: number[] = [];
  let activitySum = 0;
  let inBed = 0;
  let wasoMin = 0;
  let awakeRuns = 0;
  let outOfBedCount = 0;
  let outOfBedMin = 0;
  for (let i = 0; i < length; i++) {
    const state = states[i] as EpochState;
    const previous = i === 0 ? null : states[i - 1];
    const drift = -3 * (i / length);
    if (state === 'outOfBed') {
      outOfBedMin++;
      if (previous !== 'outOfBed') {
        outOfBedCount++;
        let end = i;
        while (states[end] === 'outOfBed') end++;
        events.push({ type: 'outOfBed', startedAt: tokyoInstant(day, bed + i), endedAt: tokyoInstant(day, bed + end) });
      }
      epochs.push({ state, respirationRate: null, heartRate: null, activity: 0 });
      continue;
    }
    inBed++;
    const asleepPeriod = i >= sleepStart && i < sleepEnd;
    if (asleepPeriod && state === 'awake') {
      wasoMin++;
      if (previous !== 'awake' && previous !== 'outOfBed') awakeRuns++;
    }
    const rrOffset = state === 'awake' ? 1.5 : state === 'deep' ? -1 : state === 'rem' ? 0.8 + random.gaussian() * 1.1 : 0;
    const hrOffset = state === 'awake' ? 7 : state === 'deep' ? -5 : state === 'rem' ? 3 + random.gaussian() * 2 : 0;
    const rr = round1(clamp(nightRespiration + rrOffset + random.gaussian() * 0.6 - (apneaMinutes.has(i) ? 2.5 : 0), 8, 25));
    const hr = Math.round(clamp(nightHeart + hrOffset + drift + random.gaussian() * 1.5, 45, 110));
    const base =
      state === 'awake'
        ? 12 + random.exponential(14)
        : state === 'light'
          ? 2 + random.exponential(3)
          : state === 'rem'
            ? 1 + random.exponential(1.5)
            : random.exponential(0.6);
    const activity = Math.round(clamp(base * profile.restlessness, 0, 100));
    activitySum += activity;
    if (state !== 'awake') {
      respiration.push(rr);
      heart.push(hr);
    }
    const pauses = apneaMinutes.get(i);
    epochs.push(
      pauses === undefined ? { state, respirationRate: rr, heartRate: hr, activity } : { state, respirationRate: rr, heartRate: hr, activity, pauses },
    );
  }

  const timeInBedMin = length - outOfBedMin;
  const sleepHours = sleepMinutes / 60;
  return {
    record: {
      bedTime: tokyoIso(tokyoInstant(day, bed)),
      sleepOnset: tokyoIso(tokyoInstant(day, onset)),
      finalWake: tokyoIso(tokyoInstant(day, finalWake)),
      outOfBedTime: tokyoIso(tokyoInstant(day, up)),
      timeInBedMin,
      // Every demo minute in bed has a state.
      scoredMin: timeInBedMin,
      totalSleepMin: sleepMinutes,
      sleepEfficiency: round1((100 * sleepMinutes) / timeInBedMin),
      sleepLatencyMin: latency,
      wasoMin,
      awakenings: awakeRuns,
      outOfBedCount,
      outOfBedMin,
      respirationRate: stat(respiration),
      heartRate: stat(heart),
      apneaEvents,
      apneaIndex: sleepHours > 0 ? round1(apneaEvents / sleepHours) : 0,
      movementIndex: round1(inBed > 0 ? activitySum / inBed : 0),
      epochStart: tokyoIso(tokyoInstant(day, bed)),
      epochs,
      source: 'demo',
    },
    events,
  };
}
