import { describe, expect, it } from 'vitest';
import { detectQrs, estimateHeartRate, heartRateFromPeaks } from './heartRate.ts';
import { isBeat, readAnnotations, readRecord } from './testing/wfdb.ts';

/** Beat-by-beat comparison as in ANSI/AAMI EC57: each reference beat matches at most one detection within the window. */
function compare(reference: Int32Array, detected: Int32Array, window: number): { truePositives: number; sensitivity: number; positivePredictivity: number } {
  const used = new Uint8Array(detected.length);
  let truePositives = 0;
  let j = 0;
  for (const beat of reference) {
    while (j < detected.length && detected[j]! < beat - window) j++;
    for (let k = j; k < detected.length && detected[k]! <= beat + window; k++) {
      if (!used[k]) {
        used[k] = 1;
        truePositives++;
        break;
      }
    }
  }
  return { truePositives, sensitivity: truePositives / reference.length, positivePredictivity: truePositives / detected.length };
}

describe('Pan–Tompkins QRS detection on MIT-BIH record 100', () => {
  const record = readRecord('100');
  const annotations = readAnnotations('100');
  const reference = annotations.samples.filter((_, i) => isBeat(annotations.codes[i]!));

  it('reads the 2,273 reference beats (2,239 N, 33 A, 1 V) of 2,274 annotations', () => {
    expect(annotations.samples.length).toBe(2274);
    expect(reference.length).toBe(2273);
  });

  it('finds the beats of MLII over all 30 min with sensitivity and positive predictivity ≥ 99.5 % (150 ms window)', () => {
    const { peaks } = detectQrs(record.signals[0]!, record.header.sampleRate);
    const result = compare(reference, peaks, Math.round(0.15 * record.header.sampleRate));
    // Measured: 2,273 of 2,273 beats, no false detections.
    expect(result.sensitivity).toBeGreaterThanOrEqual(0.995);
    expect(result.positivePredictivity).toBeGreaterThanOrEqual(0.995);
  });
});

describe('heart rate', () => {
  it('PhysioNet/CinC 2015 v102s: 103 ± 3 bpm each minute on lead V', () => {
    // Lead II of this file exceeds format 212's 12-bit range: its R waves wrap around (the decoding
    // matches the header checksums), which puts their energy far above the 5–15 Hz band. Lead V is intact.
    const ecg = readRecord('v102s').signals[1]!;
    for (let start = 0; start < 300; start += 60) {
      const { rate } = estimateHeartRate(ecg.subarray(start * 250, (start + 60) * 250), 250);
      expect(Math.abs(rate - 103)).toBeLessThan(3);
    }
  });

  it.each([0, 1, 4, 100])('copes with %i samples', (n) => {
    expect(detectQrs(new Float32Array(n), 250).peaks).toHaveLength(0);
    expect(estimateHeartRate(new Float32Array(n), 250).rate).toBeNaN();
  });

  it('uses the median RR interval', () => {
    expect(heartRateFromPeaks(Int32Array.from([0, 250, 500, 600, 750, 1000]), 250)).toBeCloseTo(60, 5);
  });

  it('tells noise from a heartbeat by prominence', () => {
    let seed = 1;
    const noise = new Float32Array(2500).map(() => {
      seed = (seed * 16807) % 2147483647;
      return 0.02 * (seed / 2147483647 - 0.5);
    });
    expect(detectQrs(noise, 250).prominence).toBeLessThan(2.5);
    const record = readRecord('100');
    expect(detectQrs(record.signals[0]!.subarray(0, 3600), 360).prominence).toBeGreaterThan(10);
  });
});
