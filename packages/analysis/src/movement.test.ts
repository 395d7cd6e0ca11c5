import { describe, expect, it } from 'vitest';
import { DeviceSimulator, stateAt } from '@nemuri/simulator/index';
import { MOVING_THRESHOLD_G, MovementMeter, PostureTracker, angleBetween, movementPerSecond } from './movement.ts';

const RATE = 50;

/** Lying still and breathing (0.008 g at 15/min on z), optionally with a movement burst in [from, to) seconds. */
function chest(seconds: number, burst?: [number, number], gravity: [number, number, number] = [0.05, -0.1, 0.99]): Float32Array {
  const out = new Float32Array(seconds * RATE * 3);
  let seed = 7;
  const noise = (): number => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647 - 0.5;
  };
  for (let i = 0; i < seconds * RATE; i++) {
    const t = i / RATE;
    const breath = 0.008 * Math.sin((2 * Math.PI * 15 * t) / 60);
    const moving = burst !== undefined && t >= burst[0] && t < burst[1];
    for (let axis = 0; axis < 3; axis++) out[i * 3 + axis] = gravity[axis]! + (axis === 2 ? breath : 0) + (moving ? 0.3 * noise() : 0) + 0.001 * noise();
  }
  return out;
}

describe('movement level', () => {
  it('stays below the threshold while breathing still, rises above it during a movement', () => {
    const levels = movementPerSecond(chest(60, [30, 35]), 3, RATE);
    for (let s = 0; s < 60; s++) {
      if (s >= 30 && s < 35) expect(levels[s]).toBeGreaterThan(MOVING_THRESHOLD_G * 3);
      else if (s < 29 || s > 36) expect(levels[s]).toBeLessThan(MOVING_THRESHOLD_G / 3);
    }
  });

  it('does not depend on how the samples are split into frames', () => {
    const data = chest(20, [8, 12]);
    const whole = movementPerSecond(data, 3, RATE);
    const pieces: number[] = [];
    const meter = new MovementMeter((_, level) => pieces.push(level));
    // Frames of 0.3 s.
    for (let i = 0; i < 20 * RATE; i += 15) meter.push((i * 1000) / RATE, RATE, data.subarray(i * 3, (i + 15) * 3));
    meter.push(20_000, RATE, new Float32Array(3));
    expect(pieces).toHaveLength(20);
    for (let s = 0; s < 20; s++) expect(pieces[s]).toBeCloseTo(whole[s]!, 6);
  });

  it('counts a turn onto the side as one posture change', () => {
    expect(angleBetween([0, 0, 1], [1, 0, 0])).toBeCloseTo(90, 6);
    const tracker = new PostureTracker();
    tracker.update(0, [0.05, -0.1, 0.99], 0.001);
    tracker.update(1000, [0.5, -0.1, 0.85], 0.2); // moving: ignored
    tracker.update(2000, [0.97, -0.08, 0.2], 0.001);
    tracker.update(3000, [0.96, -0.1, 0.22], 0.001);
    expect(tracker.changes).toBe(1);
    expect(tracker.lastChangeMs).toBe(2000);
  });

  it("finds the simulator's movement bursts second by second", () => {
    const device = new DeviceSimulator({ serial: 'NM-MOVE', seed: 'analysis-tests' });
    const { bedTime } = device.timeline;
    const origin = Date.UTC(2026, 10, 22, 11);
    let hits = 0;
    let moving = 0;
    let falseAlarms = 0;
    let still = 0;
    const levels: number[] = [];
    const meter = new MovementMeter((_, level) => levels.push(level));
    const from = bedTime + 60;
    const seconds = 3600;
    for (let t = from; t < from + seconds; t++) {
      const second = device.generate(origin + t * 1000);
      if (second) meter.push(second.startTimeMs, 50, second.respiAxl);
    }
    meter.push(origin + (from + seconds) * 1000, 50, new Float32Array(3));
    for (let i = 0; i < seconds; i++) {
      const state = stateAt(device.timeline, from + i);
      if (state.offline || state.presence === 'out-of-bed') continue;
      const detected = levels[i]! > MOVING_THRESHOLD_G;
      if (state.moving) {
        moving++;
        if (detected) hits++;
      } else {
        still++;
        if (detected) falseAlarms++;
      }
    }
    expect(moving).toBeGreaterThan(30);
    // Measured: 213 of 213 moving seconds; 21 of 3,387 still seconds, those just after a burst (filter decay).
    expect(hits / moving).toBeGreaterThan(0.95);
    expect(falseAlarms / still).toBeLessThan(0.02);
  });
});
