import { describe, expect, it } from 'vitest';
import { PlaybackClock, PLAYBACK_DELAY_MS } from './playbackClock.ts';
import { globalImpedances } from './liveTraceSet.ts';
import { SignalTrace } from './signalTrace.ts';

const SECOND_US = 1_000_000;
const T0 = 1_700_000_000 * SECOND_US;

function ramp(from: number, count: number, width = 1): Float32Array {
  return Float32Array.from({ length: count * width }, (_, i) => from + Math.floor(i / width));
}

describe('SignalTrace', () => {
  it('places frames by their start time, one after the other', () => {
    const trace = new SignalTrace(1, 10, 10);
    trace.push(T0, 10, ramp(0, 10), 10);
    trace.push(T0 + SECOND_US, 10, ramp(10, 10), 10);
    expect(trace.end).toBe(20);
    expect(trace.at(0)).toBe(0);
    expect(trace.at(19)).toBe(19);
    expect(trace.latest()).toBe(19);
    expect(trace.endTimeUs).toBe(T0 + 2 * SECOND_US);
  });

  it('leaves a gap (NaN) where frames were lost', () => {
    const trace = new SignalTrace(1, 10, 10);
    trace.push(T0, 10, ramp(0, 10), 10);
    trace.push(T0 + 3 * SECOND_US, 10, ramp(30, 10), 10);
    expect(trace.end).toBe(40);
    expect(trace.at(15)).toBeNaN();
    expect(trace.at(30)).toBe(30);
  });

  it('does not draw a repeated frame twice (the backfill after a reconnect)', () => {
    const trace = new SignalTrace(1, 10, 10);
    trace.push(T0, 10, ramp(0, 10), 10);
    trace.push(T0 + SECOND_US, 10, ramp(10, 10), 10);
    trace.push(T0 + SECOND_US, 10, ramp(99, 10), 10);
    expect(trace.end).toBe(20);
    expect(trace.at(15)).toBe(15);
  });

  it('keeps only its capacity and reads interleaved components', () => {
    const trace = new SignalTrace(3, 2, 5);
    for (let s = 0; s < 5; s++) trace.push(T0 + s * SECOND_US, 5, ramp(s * 5, 5, 3), 5);
    expect(trace.capacity).toBe(10);
    expect(trace.at(10)).toBeNaN();
    expect(trace.at(15, 2)).toBe(15);
    expect(trace.range(15, 25, 1)).toEqual([15, 24]);
  });

  it('restarts after a long silence or a new rate', () => {
    const trace = new SignalTrace(1, 10, 10);
    trace.push(T0, 10, ramp(0, 10), 10);
    trace.push(T0 + 600 * SECOND_US, 10, ramp(5, 10), 10);
    expect(trace.end).toBe(10);
    expect(trace.timeUsOf(0)).toBe(T0 + 600 * SECOND_US);
    trace.push(T0 + 601 * SECOND_US, 5, ramp(0, 5), 5);
    expect(trace.rate).toBe(5);
    expect(trace.end).toBe(5);
  });
});

describe('PlaybackClock', () => {
  it('plays a fixed delay behind the fastest arrival and follows a slower path slowly', () => {
    const clock = new PlaybackClock();
    expect(clock.deviceTimeMs(1000)).toBeNull();
    clock.observe(10_000, 10_300);
    clock.observe(11_000, 11_100);
    expect(clock.deviceTimeMs(12_000)).toBe(12_000 - 100 - PLAYBACK_DELAY_MS);
    clock.observe(12_000, 12_900);
    expect(clock.deviceTimeMs(13_000)).toBe(13_000 - 102 - PLAYBACK_DELAY_MS);
  });
});

describe('globalImpedances', () => {
  it('sums each EIT frame', () => {
    const out = new Float32Array(2);
    globalImpedances(Float32Array.of(1, 2, 3, 4, 5, 6), 2, 3, out);
    expect([...out]).toEqual([6, 15]);
  });
});
