// Helpers shared by the tests: scenario windows and simple signal analysis.
import type { DeviceSecond, DeviceSimulator } from './device.ts';
import { DEFAULT_UTC_OFFSET_MINUTES, SCENARIO_ORIGIN_HOUR, stateAt, type ScenarioState, type ScenarioTimeline } from './scenario.ts';

/** 2026-11-22 20:00 in Japan: scenario second 0 of the test night. */
export const TEST_ORIGIN_MS = Date.UTC(2026, 10, 22, SCENARIO_ORIGIN_HOUR) - DEFAULT_UTC_OFFSET_MINUTES * 60_000;
export const timeOf = (scenarioSecond: number): number => TEST_ORIGIN_MS + scenarioSecond * 1000;

export interface Recorded {
  ecg: Float32Array;
  respiAxl: Float32Array;
  impe: Float32Array;
  respiHr: Float32Array;
  states: ScenarioState[];
}

/** Generates scenario seconds [from, to) of one device and concatenates the channels. */
export function record(device: DeviceSimulator, from: number, to: number): Recorded {
  const seconds: { ecg: Float32Array; respiAxl: Float32Array; impe: Float32Array; respiHr: Float32Array; state: ScenarioState }[] = [];
  for (let t = from; t < to; t++) {
    const second: DeviceSecond | null = device.generate(timeOf(t));
    if (!second) throw new Error(`device offline at scenario second ${t}`);
    seconds.push({
      ecg: second.ecg.slice(),
      respiAxl: second.respiAxl.slice(),
      impe: second.impe.slice(),
      respiHr: second.respiHr.slice(),
      state: second.state,
    });
  }
  const join = (key: 'ecg' | 'respiAxl' | 'impe' | 'respiHr'): Float32Array => {
    const out = new Float32Array(seconds.reduce((n, s) => n + s[key].length, 0));
    let at = 0;
    for (const s of seconds) {
      out.set(s[key], at);
      at += s[key].length;
    }
    return out;
  };
  return { ecg: join('ecg'), respiAxl: join('respiAxl'), impe: join('impe'), respiHr: join('respiHr'), states: seconds.map((s) => s.state) };
}

/** The first `length`-second window from `from` on in which `accept` holds for every second. */
export function findWindow(timeline: ScenarioTimeline, from: number, length: number, accept: (state: ScenarioState) => boolean): number {
  for (let start = from; start < from + 86_400; start += 5) {
    let ok = true;
    for (let t = start; t < start + length && ok; t++) ok = accept(stateAt(timeline, t));
    if (ok) return start;
  }
  throw new Error('no such window in the scenario');
}

export const mean = (values: ArrayLike<number>): number => {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return sum / values.length;
};

export const std = (values: ArrayLike<number>): number => {
  const m = mean(values);
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += (values[i]! - m) ** 2;
  return Math.sqrt(sum / values.length);
};

/** Every `stride`-th value from `offset` (one axis of interleaved data). */
export function axis(values: Float32Array, stride: number, offset: number): Float32Array {
  const out = new Float32Array(values.length / stride);
  for (let i = 0; i < out.length; i++) out[i] = values[i * stride + offset]!;
  return out;
}

/** Heart rate from R peaks: local maxima above a threshold, 250 ms refractory period. */
export function heartRateFromEcg(ecg: Float32Array, rate: number, threshold = 0.6): number {
  const peaks: number[] = [];
  const refractory = Math.round(0.25 * rate);
  for (let i = 1; i < ecg.length - 1; i++) {
    if (ecg[i]! > threshold && ecg[i]! >= ecg[i - 1]! && ecg[i]! > ecg[i + 1]!) {
      const last = peaks.at(-1);
      if (last !== undefined && i - last < refractory) {
        if (ecg[i]! > ecg[last]!) peaks[peaks.length - 1] = i;
      } else peaks.push(i);
    }
  }
  if (peaks.length < 2) return 0;
  return (60 * (peaks.length - 1) * rate) / (peaks.at(-1)! - peaks[0]!);
}

/** Breaths/min: upward crossings of the smoothed, centred signal, with hysteresis. */
export function respirationRateFrom(signal: Float32Array, rate: number): number {
  const half = Math.round(0.25 * rate);
  const smooth = new Float32Array(signal.length);
  for (let i = 0; i < signal.length; i++) {
    let sum = 0;
    let n = 0;
    for (let j = Math.max(0, i - half); j <= Math.min(signal.length - 1, i + half); j++, n++) sum += signal[j]!;
    smooth[i] = sum / n;
  }
  const m = mean(smooth);
  const band = 0.3 * std(smooth);
  const crossings: number[] = [];
  let low = false;
  for (let i = 0; i < smooth.length; i++) {
    const v = smooth[i]! - m;
    if (v < -band) low = true;
    else if (v > band && low) {
      crossings.push(i);
      low = false;
    }
  }
  if (crossings.length < 2) return 0;
  return (60 * (crossings.length - 1) * rate) / (crossings.at(-1)! - crossings[0]!);
}
