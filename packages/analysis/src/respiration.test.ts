import { describe, expect, it } from 'vitest';
import { ApneaDetector, estimateRespiration, estimateRespirationFromAcceleration } from './respiration.ts';
import { readEitFrames, readRecord } from './testing/wfdb.ts';

describe('respiration rate on real recordings', () => {
  it('PhysioNet/CinC 2015 v102s RESP: within 1 breath/min of the counted 11.5/min in each of the first three minutes', () => {
    // The data README's "about 9" is the single highest bin of a 300 s periodogram; counting the breaths
    // of the waveform (by eye, and with the simulator's independent counter in its testing.ts) gives
    // 11.2–11.8/min per minute for the first three minutes, and the breathing speeds up in the last minute.
    const resp = readRecord('v102s').signals[3]!;
    const estimate = estimateRespiration(resp.subarray(0, 180 * 250), 250);
    expect(estimate.rate).toBeGreaterThan(10);
    expect(estimate.rate).toBeLessThan(13);
    for (let start = 0; start < 180; start += 60) {
      const minute = estimateRespiration(resp.subarray(start * 250, (start + 60) * 250), 250).rate;
      // Within 1 breath/min of the reference: 11.5/min, the middle of the 11.2–11.8 counted per minute.
      expect(Math.abs(minute - 11.5)).toBeLessThan(1);
    }
  });

  it('EIT P04P-1016 global impedance (sum of 256 values, 13 frames/s): 35 ± 4 breaths/min', () => {
    const { frames, width, values } = readEitFrames();
    const global = new Float32Array(frames);
    for (let f = 0; f < frames; f++) {
      let sum = 0;
      for (let k = 0; k < width; k++) sum += values[f * width + k]!;
      global[f] = sum;
    }
    const estimate = estimateRespiration(global, 13);
    expect(Math.abs(estimate.rate - 35)).toBeLessThan(4);
  });
});

describe('respiration rate on synthetic signals', () => {
  const sine = (rate: number, seconds: number, sampleRate: number, amplitude = 1, drift = 0): Float32Array => {
    const out = new Float32Array(seconds * sampleRate);
    for (let i = 0; i < out.length; i++) out[i] = amplitude * Math.sin((2 * Math.PI * rate * i) / sampleRate / 60) + drift * i + 500;
    return out;
  };

  it.each([6, 9, 14, 20, 30, 40])('%i breaths/min at 50 Hz with a drifting baseline', (rate) => {
    const estimate = estimateRespiration(sine(rate, 60, 50, 1.5, 0.001), 50);
    expect(Math.abs(estimate.rate - rate)).toBeLessThan(0.6);
    expect(estimate.intervalVariation).toBeLessThan(0.1);
  });

  it('finds breathing on the axis it lies on, whatever the posture', () => {
    const rate = 50;
    const out = new Float32Array(60 * rate * 3);
    for (let i = 0; i < 60 * rate; i++) {
      const breath = 0.008 * Math.sin((2 * Math.PI * 15 * i) / rate / 60);
      // Lying on one side: gravity on x, chest motion split between y and z.
      out[i * 3] = 0.97;
      out[i * 3 + 1] = -0.1 + 0.6 * breath;
      out[i * 3 + 2] = 0.2 - 0.8 * breath;
    }
    expect(estimateRespirationFromAcceleration(out, 3, rate).rate).toBeCloseTo(15, 0);
  });

  it.each([0, 1, 3, 10])('copes with %i samples', (n) => {
    expect(estimateRespiration(new Float32Array(n), 50).rate).toBeNaN();
    expect(estimateRespirationFromAcceleration(new Float32Array(n * 3), 3, 50).rate).toBeNaN();
  });

  it('reports no rate for a flat signal', () => {
    expect(estimateRespiration(new Float32Array(1500).fill(3), 50).rate).toBeNaN();
  });
});

describe('ApneaDetector', () => {
  it('reports no breathing once the excursion stays below a quarter of the baseline for 10 s', () => {
    const detector = new ApneaDetector({ fraction: 0.25, minSeconds: 10 });
    for (let t = 0; t < 120; t++) detector.update(t * 1000, 2 + 0.2 * Math.sin(t), true);
    expect(detector.noBreathing).toBe(false);
    for (let t = 120; t < 129; t++) detector.update(t * 1000, 0.1, true);
    expect(detector.noBreathing).toBe(false);
    detector.update(130_000, 0.1, true);
    expect(detector.noBreathing).toBe(true);
    expect(detector.flatSinceMs).toBe(120_000);
    detector.update(131_000, 2, true);
    expect(detector.noBreathing).toBe(false);
  });

  it('does not let movement seconds count toward no breathing', () => {
    const detector = new ApneaDetector();
    for (let t = 0; t < 60; t++) detector.update(t * 1000, 1, true);
    for (let t = 60; t < 80; t++) detector.update(t * 1000, 0.05, t % 5 !== 0);
    expect(detector.noBreathing).toBe(false);
  });
});
