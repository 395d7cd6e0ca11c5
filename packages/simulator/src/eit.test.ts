import { describe, expect, it } from 'vitest';
import { createEitReconstructor } from '@nemuri/analysis/eit/reconstruct';
import { referenceFrame } from '@nemuri/analysis/eit/reference';
import { blobs, pixelCentre } from '@nemuri/analysis/eit/testing';
import { DeviceSimulator, IMPE_RATE } from './device.ts';
import { EIT_MODEL_RATE, EIT_MODEL_WIDTH, createEitModel } from './eit.ts';
import { timeOf } from './testing.ts';

const pearson = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < a.length; i++) {
    ma += a[i]! / a.length;
    mb += b[i]! / b.length;
  }
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += (a[i]! - ma) * (b[i]! - mb);
    aa += (a[i]! - ma) ** 2;
    bb += (b[i]! - mb) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
};

describe('simulated EIT (finite-element model of two lungs and a heart)', () => {
  it('has the U-shaped baseline of adjacent measurements, scaled to ~1.75 V next to the drive', () => {
    const { baseline, breathing } = createEitModel();
    expect(Math.max(...baseline)).toBeCloseTo(1.75, 5);
    for (let d = 0; d < 16; d++) expect(baseline[d * 13]!).toBeGreaterThan(5 * baseline[d * 13 + 6]!);
    // Lungs filling with air raise the global impedance.
    let global = 0;
    let change = 0;
    for (let k = 0; k < EIT_MODEL_WIDTH; k++) {
      global += baseline[k]!;
      change += baseline[k]! * breathing[k]!;
    }
    expect(change / global).toBeGreaterThan(0.01);
  });

  it('reconstructs into two lateral blobs whose brightness follows the breathing', () => {
    const device = new DeviceSimulator({ serial: 'NM-0001', seed: 2 });
    const start = timeOf(5 * 3600 + 600);
    const seconds = 30;
    const frames = new Float32Array(seconds * EIT_MODEL_RATE * EIT_MODEL_WIDTH);
    // The thoracic impedance channel carries the same breathing waveform: the reference to follow.
    const breathing = new Float64Array(seconds * EIT_MODEL_RATE);
    for (let s = 0; s < seconds; s++) {
      const second = device.generate(start + s * 1000)!;
      expect(second.state.presence).toBe('asleep');
      expect(second.eitWidth).toBe(EIT_MODEL_WIDTH);
      frames.set(second.eit, s * EIT_MODEL_RATE * EIT_MODEL_WIDTH);
      for (let f = 0; f < EIT_MODEL_RATE; f++) breathing[s * EIT_MODEL_RATE + f] = second.impe[Math.floor((f * IMPE_RATE) / EIT_MODEL_RATE)]!;
    }
    const reconstructor = createEitReconstructor();
    const reference = referenceFrame(frames, EIT_MODEL_WIDTH, new Float32Array(EIT_MODEL_WIDTH));
    const image = new Float32Array(32 * 32);
    const left = new Float64Array(breathing.length);
    const right = new Float64Array(breathing.length);
    let fullest = 0;
    for (let f = 0; f < breathing.length; f++) {
      reconstructor.reconstruct(frames.subarray(f * EIT_MODEL_WIDTH, (f + 1) * EIT_MODEL_WIDTH), reference, image);
      for (let p = 0; p < image.length; p++) {
        const { x } = pixelCentre(p, 32);
        if (x < -0.25) left[f] = left[f]! + image[p]!;
        else if (x > 0.25) right[f] = right[f]! + image[p]!;
      }
      if (breathing[f]! > breathing[fullest]!) fullest = f;
    }
    // Measured: 0.9996 for both lungs.
    expect(pearson(left, breathing)).toBeGreaterThan(0.95);
    expect(pearson(right, breathing)).toBeGreaterThan(0.95);

    reconstructor.reconstruct(frames.subarray(fullest * EIT_MODEL_WIDTH, (fullest + 1) * EIT_MODEL_WIDTH), reference, image);
    const peak = Math.max(...image);
    expect(peak).toBeGreaterThan(0);
    const found = blobs(image, 32, 0.5 * peak).sort((a, b) => a.x - b.x);
    expect(found).toHaveLength(2);
    expect(found[0]!.x).toBeLessThan(-0.3);
    expect(found[1]!.x).toBeGreaterThan(0.3);
    expect(Math.abs(found[0]!.y)).toBeLessThan(0.3);
  });
});
