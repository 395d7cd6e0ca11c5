import { describe, expect, it } from 'vitest';
import { globalImpedance } from './globalImpedance.ts';
import { measurementIndices } from './protocol.ts';
import { createEitReconstructor } from './reconstruct.ts';
import { referenceFrame } from './reference.ts';
import { blobs, imageMaximum, simulateInclusions } from './testing.ts';

const started = performance.now();
const reconstructor = createEitReconstructor();
const precomputeMs = performance.now() - started;
const image = new Float32Array(32 * 32);

describe('EIT reconstruction (one-step Gauss–Newton, NOSER prior)', () => {
  it('precomputes in well under a second and reconstructs a frame in about a millisecond', () => {
    // Measured on the 2-core machine: ~0.2 s for the first reconstructor (forward model included), ~0.2–0.5 ms a frame.
    expect(precomputeMs).toBeLessThan(1500);
    const { frame, reference } = simulateInclusions([{ x: 0, y: 0, radius: 0.2, conductivity: 0.5 }]);
    for (let i = 0; i < 50; i++) reconstructor.reconstruct(frame, reference, image);
    const start = performance.now();
    for (let i = 0; i < 200; i++) reconstructor.reconstruct(frame, reference, image);
    expect((performance.now() - start) / 200).toBeLessThan(5);
    expect(reconstructor.pixels).toBe(32);
    expect(reconstructor.width).toBe(208);
  });

  it('has a mask of the pixels whose centre lies in the disc', () => {
    let inside = 0;
    for (const value of reconstructor.mask) inside += value;
    expect(inside).toBeGreaterThan(0.75 * 1024);
    expect(inside).toBeLessThan(0.8 * 1024);
    expect(reconstructor.mask[0]).toBe(0);
    expect(reconstructor.mask[16 * 32 + 16]).toBe(1);
  });

  // Tolerance: the brightest pixel within 0.15 of the disc radius (2.4 pixels of 32) of the inclusion's centre.
  it.each([
    [0, 0],
    [0.5, 0],
    [-0.5, 0.3],
    [0, -0.7],
    [0.65, 0.4],
    [-0.3, -0.45],
  ])('finds a small less-conductive inclusion at (%f, %f) with 1 %% noise', (x, y) => {
    const { frame, reference } = simulateInclusions([{ x, y, radius: 0.15, conductivity: 0.5 }], 0.01, 11);
    reconstructor.reconstruct(frame, reference, image);
    const peak = imageMaximum(image, 32);
    expect(peak.value).toBeGreaterThan(0);
    expect(Math.hypot(peak.x - x, peak.y - y)).toBeLessThan(0.15);
  });

  it('shows two lungs left and right as two separate blobs, with the middle darker', () => {
    const { frame, reference } = simulateInclusions(
      [
        { x: -0.5, y: -0.05, radius: 0.3, conductivity: 0.6 },
        { x: 0.5, y: -0.05, radius: 0.3, conductivity: 0.6 },
      ],
      0.01,
      3,
    );
    reconstructor.reconstruct(frame, reference, image);
    const peak = imageMaximum(image, 32);
    const found = blobs(image, 32, 0.5 * peak.value);
    expect(found).toHaveLength(2);
    const [left, right] = [...found].sort((a, b) => a.x - b.x);
    expect(left!.x).toBeLessThan(-0.3);
    expect(right!.x).toBeGreaterThan(0.3);
    expect(Math.abs(left!.sum - right!.sum) / (left!.sum + right!.sum)).toBeLessThan(0.15);
    expect(image[16 * 32 + 16]!).toBeLessThan(0.3 * peak.value);
  });

  it('makes less conductive (air) positive and more conductive (blood) negative', () => {
    const air = simulateInclusions([{ x: 0.3, y: 0.3, radius: 0.2, conductivity: 0.5 }], 0);
    reconstructor.reconstruct(air.frame, air.reference, image);
    const airSum = image.reduce((a, b) => a + b, 0);
    expect(airSum).toBeGreaterThan(0);
    const blood = simulateInclusions([{ x: 0.3, y: 0.3, radius: 0.2, conductivity: 2 }], 0);
    reconstructor.reconstruct(blood.frame, blood.reference, image);
    const bloodSum = image.reduce((a, b) => a + b, 0);
    expect(bloodSum).toBeLessThan(0);
    // The reference itself gives an empty image.
    reconstructor.reconstruct(air.reference, air.reference, image);
    expect(image.every((value) => value === 0)).toBe(true);
  });

  it('reads 256-value frames in both layouts into the same image as the 208 values', () => {
    const { frame, reference } = simulateInclusions([{ x: -0.4, y: 0.2, radius: 0.2, conductivity: 0.5 }], 0.01, 5);
    const expected = new Float32Array(1024);
    reconstructor.reconstruct(frame, reference, expected);
    for (const layout of ['device', 'matrix'] as const) {
      const indices = measurementIndices(256, layout);
      // Unused values: the device's status values or the pairs touching a drive, filled with something absurd.
      const wide = new Float32Array(256).fill(1e6);
      const wideReference = new Float32Array(256).fill(-3);
      indices.forEach((index, m) => {
        wide[index] = frame[m]!;
        wideReference[index] = reference[m]!;
      });
      const reconstructor256 = createEitReconstructor({ width: 256, layout });
      reconstructor256.reconstruct(wide, wideReference, image);
      for (let p = 0; p < 1024; p++) expect(image[p]).toBeCloseTo(expected[p]!, 6);
      expect(globalImpedance(wide, layout)).toBeCloseTo(globalImpedance(frame), 3);
    }
  });

  it('treats NaN measurements as unchanged instead of spoiling the image', () => {
    const { frame, reference } = simulateInclusions([{ x: 0.5, y: 0, radius: 0.15, conductivity: 0.5 }], 0.01, 11);
    frame[17] = Number.NaN;
    reconstructor.reconstruct(frame, reference, image);
    expect(image.every(Number.isFinite)).toBe(true);
    expect(imageMaximum(image, 32).x).toBeGreaterThan(0.3);
  });

  it('rejects frames, references and images of the wrong size with a RangeError', () => {
    const frame = new Float32Array(208);
    expect(() => reconstructor.reconstruct(new Float32Array(207), frame, image)).toThrow(RangeError);
    expect(() => reconstructor.reconstruct(new Float32Array(256), frame, image)).toThrow(/frame has 256 values, expected 208/);
    expect(() => reconstructor.reconstruct(frame, new Float32Array(10), image)).toThrow(/reference has 10 values/);
    expect(() => reconstructor.reconstruct(frame, frame, new Float32Array(64 * 64))).toThrow(/output has 4096 values, expected 32×32/);
    expect(() => createEitReconstructor({ width: 200 as 208 })).toThrow(/208 or 256 values, got 200/);
    expect(() => createEitReconstructor({ pixels: 2 })).toThrow(RangeError);
    expect(() => createEitReconstructor({ hyperparameter: 0 })).toThrow(RangeError);
    expect(() => globalImpedance(new Float32Array(100))).toThrow(RangeError);
    expect(() => referenceFrame(new Float32Array(300), 208, new Float32Array(208))).toThrow(/not a whole number/);
    expect(() => referenceFrame(new Float32Array(416), 208, new Float32Array(256))).toThrow(RangeError);
  });
});

describe('global impedance and reference frames', () => {
  it('sums the 208 usable measurements', () => {
    const frame = new Float32Array(208).fill(0.5);
    expect(globalImpedance(frame)).toBeCloseTo(104, 5);
    const device = new Float32Array(256).fill(1);
    expect(globalImpedance(device)).toBe(208);
    const matrix = new Float32Array(256).fill(1);
    for (let d = 0; d < 16; d++) for (const a of [d - 1, d, d + 1]) matrix[d * 16 + ((a + 16) % 16)] = 100;
    expect(globalImpedance(matrix, 'matrix')).toBe(208);
  });

  it('takes end-expiration as the mean of the frames of lowest global impedance, or the mean of all', () => {
    const frames = new Float32Array(10 * 208);
    for (let f = 0; f < 10; f++) frames.fill(1 + 0.01 * Math.sin(f), f * 208, (f + 1) * 208);
    const out = new Float32Array(208);
    referenceFrame(frames, 208, out, { fraction: 0.2 });
    // sin is lowest at f = 4 (−0.757) and f = 5 (−0.959).
    expect(out[0]).toBeCloseTo(1 + 0.01 * ((Math.sin(4) + Math.sin(5)) / 2), 6);
    referenceFrame(frames, 208, out, { method: 'mean' });
    let mean = 0;
    for (let f = 0; f < 10; f++) mean += (1 + 0.01 * Math.sin(f)) / 10;
    expect(out[100]).toBeCloseTo(mean, 6);
  });
});
