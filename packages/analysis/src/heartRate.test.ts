import { describe, expect, it } from 'vitest';
import { detectQrs, estimateHeartRate, heartRateFromPeaks } from './heartRate.ts';
import { scoreBeats } from './testing/ec57.ts';
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

describe('thresholds that recover', () => {
  const record = readRecord('100');
  const annotations = readAnnotations('100');
  const reference = annotations.samples.filter((_, i) => isBeat(annotations.codes[i]!) && annotations.samples[i]! < 120 * 360);

  // Issue 19: after one large complex Pan–Tompkins' running signal level stayed above the normal beats, and
  // nothing brought it down until a beat was accepted (the detector before it missed 110 beats here).
  it.each([10, 30])('misses no beat after one complex %i times taller than the rest', (gain) => {
    const ecg = record.signals[0]!.slice(0, 120 * 360);
    const tall = reference.find((beat) => beat > 30 * 360)!;
    for (let i = tall - 36; i < tall + 36; i++) ecg[i] = ecg[i]! * gain;
    const score = scoreBeats(reference, detectQrs(ecg, 360).peaks, 360, 5);
    expect(score.falseNegatives).toBe(0);
    expect(score.falsePositives).toBe(0);
  });

  it('finds the beats again when the QRS shrinks tenfold within a few beats', () => {
    const ecg = record.signals[0]!.slice(0, 120 * 360);
    // From 60 s the amplitude falls to a tenth over 3 s (an electrode coming loose) and stays there.
    for (let i = 60 * 360; i < ecg.length; i++) ecg[i] = ecg[i]! * Math.max(0.1, 1 - (0.9 * (i - 60 * 360)) / (3 * 360));
    const score = scoreBeats(reference, detectQrs(ecg, 360).peaks, 360, 5);
    expect(score.longestMissRun).toBeLessThan(2);
    expect(score.sensitivity).toBeGreaterThanOrEqual(0.998);
    expect(score.positivePredictivity).toBeGreaterThanOrEqual(0.998);
  });

  it('finds the beats leading up to the first one seen again after the QRS vanished (an amplifier recovering from saturation)', () => {
    const ecg = record.signals[0]!.slice(0, 120 * 360);
    // From 60 s the QRS is a hundredth of its size for 4 s, then regains it over 3 s (×10 a second).
    for (let i = 60 * 360; i < 67 * 360; i++) ecg[i] = ecg[i]! * (i < 64 * 360 ? 0.01 : Math.min(1, 0.01 * 10 ** ((i - 64 * 360) / 360)));
    const score = scoreBeats(reference, detectQrs(ecg, 360).peaks, 360, 5);
    // Beats under 3 % of their size stand no further above the rest of the gap than its T waves do
    // (measured: the 5 of the 4 s and the first of the recovery, at 2 %, are missed); from 5 % on they are
    // found, although the levels only accept a beat again once it is back near full size.
    expect(Array.from(score.missed, (beat) => beat / 360).every((second) => second >= 59.8 && second < 64.5)).toBe(true);
    expect(score.falseNegatives).toBeLessThanOrEqual(6);
    expect(score.falsePositives).toBe(0);
  });

  it('takes a spike midway between two beats of a regular rhythm for an artefact, and keeps a premature beat', () => {
    const ecg = record.signals[0]!.slice(0, 120 * 360);
    const at = (second: number): number => reference.findIndex((beat) => beat > second * 360);
    // A copy of a normal QRS (±50 ms) pasted halfway between two beats at 40 s and at 80 s: it leaves the
    // rhythm undisturbed.
    for (const second of [40, 80]) {
      const i = at(second);
      const middle = (reference[i]! + reference[i + 1]!) >> 1;
      for (let k = -18; k <= 18; k++) ecg[middle + k] = ecg[middle + k]! + ecg[reference[i]! + k]! - ecg[reference[i]! - 36]!;
    }
    const score = scoreBeats(reference, detectQrs(ecg, 360).peaks, 360, 5);
    expect(score.falsePositives).toBe(0);
    expect(score.falseNegatives).toBe(0);
    // Record 100's premature beats (33 atrial, 1 ventricular) are all kept: see the accuracy floors.
  });

  // MIT-BIH 105's electrode-motion artefact: a smooth hump taller than the QRS, 150–300 ms after it, takes
  // the QRS's place among the candidates (the larger of two maxima closer than the refractory period). The
  // detector before this rule put the beat on the hump: a false beat and a missed one each time.
  it.each([
    [2, 0.18],
    [3, 0.22],
  ])('puts the beat on the QRS, not on an artefact %f times its height %f s after it', (gain, delay) => {
    const ecg = record.signals[0]!.slice(0, 120 * 360);
    for (const second of [40, 50, 60, 70, 80, 90, 100]) {
      const r = reference[reference.findIndex((beat) => beat > second * 360)]!;
      const height = ecg[r]! - ecg[r - 36]!;
      const centre = r + Math.round(delay * 360);
      // Gaussian hump, SD 25 ms.
      for (let k = -90; k <= 90; k++) ecg[centre + k] = ecg[centre + k]! + gain * height * Math.exp(-0.5 * (k / 9) ** 2);
    }
    const score = scoreBeats(reference, detectQrs(ecg, 360).peaks, 360, 5);
    expect(score.falsePositives).toBe(0);
    expect(score.falseNegatives).toBe(0);
  });

  // MIT-BIH 116 at 16:41: the lead steps onto the ADC rail and sticks there; the step is no heartbeat.
  it('takes no beat at the edge where the lead saturates, and only misses the beats hidden on the rail', () => {
    const ecg = record.signals[0]!.slice(0, 120 * 360);
    const rail = 5.115;
    const flat: [number, number][] = [];
    for (const second of [45, 75]) {
      // 0.42 s after a beat the signal climbs to the rail in 22 ms, stays 1.2 s, then decays back (τ 0.6 s).
      const from = reference[reference.findIndex((beat) => beat > second * 360)]! + 150;
      const end = from + Math.round(1.2 * 360);
      const base = ecg[from]!;
      for (let t = from; t < from + 8; t++) ecg[t] = base + ((rail - base) * (t - from + 1)) / 8;
      for (let t = from + 8; t < end; t++) ecg[t] = rail;
      const offset = rail - ecg[end]!;
      for (let t = end; t < end + 3 * 360; t++) ecg[t] = ecg[t]! + offset * Math.exp(-(t - end) / (0.6 * 360));
      flat.push([from, end]);
    }
    const score = scoreBeats(reference, detectQrs(ecg, 360).peaks, 360, 5);
    expect(score.falsePositives).toBe(0);
    expect(score.falseNegatives).toBe(2);
    expect(Array.from(score.missed).every((beat) => flat.some(([from, end]) => beat > from && beat < end))).toBe(true);
  });

  // The other side: when the heart stops (or the leads come off) the recovery rules must not turn the
  // noise that follows into beats, or a live window would show a heartbeat that is not there.
  it.each([0.01, 0.03])('takes no noise (SD %f mV) for a beat in the first 5 s after the last real one', (sd) => {
    let seed = 7;
    const gaussian = (): number => {
      let sum = 0;
      for (let k = 0; k < 12; k++) {
        seed = (seed * 16807) % 2147483647;
        sum += seed / 2147483647;
      }
      return sum - 6;
    };
    let noiseBeats = 0;
    for (let trial = 0; trial < 10; trial++) {
      const ecg = record.signals[0]!.slice(trial * 60 * 360, (trial * 60 + 68) * 360);
      for (let i = 60 * 360; i < ecg.length; i++) ecg[i] = sd * gaussian();
      // Live 8 s windows ending 2–5 s into the noise.
      for (let t = 2; t <= 5; t++) {
        const { peaks } = detectQrs(ecg.subarray((52 + t) * 360, (60 + t) * 360), 360);
        noiseBeats += Array.from(peaks).filter((peak) => peak > (8 - t) * 360 + 90).length;
      }
    }
    expect(noiseBeats).toBe(0);
  });
});

describe('heart rate', () => {
  it('PhysioNet/CinC 2015 v102s: 103 ± 3 bpm each minute on lead V (± 5 in the faster last minute), every beat found', () => {
    // Lead II of this file exceeds format 212's 12-bit range: its R waves wrap around (the decoding
    // matches the header checksums), which puts their energy far above the 5–15 Hz band. Lead V is intact.
    const ecg = readRecord('v102s').signals[1]!;
    for (let start = 0; start < 300; start += 60) {
      const { rate, beats } = estimateHeartRate(ecg.subarray(start * 250, (start + 60) * 250), 250);
      // The rhythm has frequent premature beats (short–long pairs of ~0.44 and ~0.70 s around 0.57 s),
      // and the last minute is faster: 104 beats found there, median RR 0.56 s (107 beats/min). The
      // detector before issue 19's second round read 105 there from 72 beats, a third of them missed.
      expect(Math.abs(rate - 103)).toBeLessThan(start < 240 ? 3 : 5);
      expect(beats).toBeGreaterThanOrEqual(100);
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
