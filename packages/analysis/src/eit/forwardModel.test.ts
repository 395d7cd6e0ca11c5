import { describe, expect, it } from 'vitest';
import { createForwardModel } from './forwardModel.ts';
import { createDiscMesh, elementArea } from './mesh.ts';
import { EIT_MEASUREMENTS, EIT_PAIRS_PER_DRIVE, electrodeAngle, measurementIndices, measurementPair } from './protocol.ts';
import { gaussianSource } from './testing.ts';

const mesh = createDiscMesh();
const model = createForwardModel(mesh);
const homogeneous = model.solve(1);

/** Index of the measurement driven on pair (d, d+1) and measured on pair (a, a+1), or −1 if that pair touches the drive. */
const measurementOf = (drive: number, first: number): number => {
  const k = (first - drive - 2 + 32) % 16;
  return k < EIT_PAIRS_PER_DRIVE ? drive * EIT_PAIRS_PER_DRIVE + k : -1;
};

describe('disc mesh', () => {
  it('has 625 nodes and 1,152 counter-clockwise triangles filling the disc, 16 electrodes of 3 nodes each', () => {
    expect(mesh.nodeCount).toBe(625);
    expect(mesh.elementCount).toBe(1152);
    let total = 0;
    for (let e = 0; e < mesh.elementCount; e++) {
      expect(elementArea(mesh, e)).toBeGreaterThan(0);
      total += elementArea(mesh, e);
    }
    // A regular 96-gon inscribed in the unit circle: (96/2)·sin(2π/96).
    expect(total).toBeCloseTo(48 * Math.sin((2 * Math.PI) / 96), 10);
    expect(mesh.electrodeNodes).toHaveLength(16);
    for (let e = 0; e < 16; e++) {
      const centre = mesh.electrodeNodes[e]![1]!;
      expect(Math.atan2(mesh.nodes[2 * centre + 1]!, mesh.nodes[2 * centre]!)).toBeCloseTo(
        Math.atan2(Math.sin(electrodeAngle(e)), Math.cos(electrodeAngle(e))),
        10,
      );
    }
    // Electrode 1 at the top (anterior), electrode 5 on the image's right (the patient's left).
    expect(electrodeAngle(0)).toBeCloseTo(Math.PI / 2);
    expect(electrodeAngle(4)).toBeCloseTo(0);
  });
});

describe('protocol', () => {
  it('measures on the 13 pairs that touch neither driving electrode, starting after the drive', () => {
    expect(measurementPair(0)).toEqual({ drive: 0, first: 2, second: 3 });
    expect(measurementPair(12)).toEqual({ drive: 0, first: 14, second: 15 });
    expect(measurementPair(207)).toEqual({ drive: 15, first: 13, second: 14 });
    const matrix = measurementIndices(256, 'matrix');
    expect(matrix[0]).toBe(2);
    expect(matrix[13]).toBe(16 + 3);
    expect(matrix[207]).toBe(15 * 16 + 13);
    expect(Array.from(measurementIndices(256, 'device'))).toEqual(Array.from({ length: 208 }, (_, i) => i));
  });
});

describe('forward model (complete electrode model)', () => {
  it('drives +1 into electrode d+1 and −1 out of d: the electrode currents of the solution sum to zero', () => {
    for (let d = 0; d < 16; d++) {
      const currents = model.electrodeCurrents(homogeneous, d);
      let sum = 0;
      for (let l = 0; l < 16; l++) {
        const expected = l === (d + 1) % 16 ? 1 : l === d ? -1 : 0;
        expect(currents[l]).toBeCloseTo(expected, 9);
        sum += currents[l]!;
      }
      expect(Math.abs(sum)).toBeLessThan(1e-9);
    }
  });

  it('is reciprocal: driving pair A and measuring on pair B equals driving B and measuring on A, also for an inhomogeneous disc', () => {
    const gaussian = gaussianSource(7);
    const conductivity = new Float64Array(mesh.elementCount).map(() => Math.exp(0.5 * gaussian()));
    const solution = model.solve(conductivity);
    let pairs = 0;
    for (let d = 0; d < 16; d++) {
      for (let a = 0; a < 16; a++) {
        const forward = measurementOf(d, a);
        const backward = measurementOf(a, d);
        if (forward < 0 || backward < 0) continue;
        expect(homogeneous.measurements[forward]).toBeCloseTo(homogeneous.measurements[backward]!, 12);
        expect(Math.abs(solution.measurements[forward]! - solution.measurements[backward]!)).toBeLessThan(
          1e-12 * Math.abs(solution.measurements[forward]!) + 1e-14,
        );
        pairs++;
      }
    }
    expect(pairs).toBe(EIT_MEASUREMENTS);
  });

  it('gives the U-shaped profile: largest next to the drive, smallest opposite, symmetric', () => {
    const v = homogeneous.measurements;
    for (let d = 0; d < 16; d++) {
      const profile = v.subarray(d * 13, d * 13 + 13);
      for (let k = 0; k < 6; k++) {
        expect(profile[k]!).toBeGreaterThan(profile[k + 1]!);
        expect(profile[12 - k]!).toBeGreaterThan(profile[11 - k]!);
        // The ring mesh is not exactly mirror-symmetric about every drive: within 1 %.
        expect(Math.abs(profile[k]! - profile[12 - k]!) / profile[k]!).toBeLessThan(0.01);
      }
      expect(profile[6]!).toBeGreaterThan(0);
      expect(profile[0]! / profile[6]!).toBeGreaterThan(5);
    }
  });

  it('has a Jacobian that matches finite differences and is negative overall (more conductive, smaller voltages)', () => {
    const jacobian = model.jacobian(homogeneous);
    const elements = mesh.elementCount;
    for (const e of [0, 200, 640, 1100]) {
      const conductivity = new Float64Array(elements).fill(1);
      conductivity[e] = 1 + 1e-4;
      const perturbed = model.solve(conductivity).measurements;
      let worst = 0;
      let scale = 0;
      for (let m = 0; m < EIT_MEASUREMENTS; m++) {
        const difference = (perturbed[m]! - homogeneous.measurements[m]!) / 1e-4;
        worst = Math.max(worst, Math.abs(difference - jacobian[m * elements + e]!));
        scale = Math.max(scale, Math.abs(jacobian[m * elements + e]!));
      }
      expect(worst / scale).toBeLessThan(1e-3);
    }
    for (let m = 0; m < EIT_MEASUREMENTS; m++) {
      let sum = 0;
      for (let e = 0; e < elements; e++) sum += jacobian[m * elements + e]!;
      expect(sum).toBeLessThan(0);
    }
  });
});
