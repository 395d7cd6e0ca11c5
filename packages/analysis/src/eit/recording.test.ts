// The real recording P04P-1016 (Goe-MF II, neonate, spontaneous breathing ~35/min; /work/shared/data).
// What it shows, stated as measured (hyperparameter 0.1): air-like (positive) change on both sides, more
// on the image's left (the patient's right if electrode 1 is at the sternum, which the recording does not
// document), in an anterior region just left of the midline and posteriorly on both sides; a strip just
// right of the midline darkens on inspiration; the centre of the disc hardly changes; some electrodes show
// edge artefacts. Not two clean lateral lungs as in a textbook, and the tests do not claim it.
import { describe, expect, it } from 'vitest';
import { estimateRespiration } from '../respiration.ts';
import { readEitFrames } from '../testing/wfdb.ts';
import { globalImpedance } from './globalImpedance.ts';
import { createEitReconstructor } from './reconstruct.ts';
import { referenceFrame } from './reference.ts';
import { pixelCentre } from './testing.ts';

const { frames, width, values } = readEitFrames();
const reconstructor = createEitReconstructor({ width: 256 });
const frameAt = (f: number): Float32Array => values.subarray(f * width, (f + 1) * width);

describe('EIT images of the real recording P04P-1016 (256-value frames)', () => {
  it('has 208 measurements and 48 status values per frame, the measurements U-shaped per drive', () => {
    expect(width).toBe(256);
    const mean = new Float64Array(width);
    for (let f = 0; f < frames; f++) for (let i = 0; i < width; i++) mean[i] = mean[i]! + values[f * width + i]! / frames;
    // Values 208–223 are one constant repeated: no measurement looks like that.
    for (let i = 209; i < 224; i++) expect(mean[i]).toBeCloseTo(mean[208]!, 2);
    for (let d = 0; d < 16; d++) {
      const ends = Math.min(mean[d * 13]!, mean[d * 13 + 12]!);
      const middle = Math.max(mean[d * 13 + 5]!, mean[d * 13 + 6]!, mean[d * 13 + 7]!);
      expect(ends).toBeGreaterThan(middle);
    }
  });

  it('gives images whose sum oscillates at 35 ± 4 breaths/min', () => {
    const reference = referenceFrame(values, width, new Float32Array(width));
    const image = new Float32Array(32 * 32);
    const sums = new Float64Array(frames);
    for (let f = 0; f < frames; f++) {
      reconstructor.reconstruct(frameAt(f), reference, image);
      sums[f] = image.reduce((a, b) => a + b, 0);
    }
    const { rate } = estimateRespiration(sums, 13);
    expect(rate).toBeGreaterThan(31);
    expect(rate).toBeLessThan(39);
    // Measured: 35.1 breaths/min.
  });

  it('shows the tidal image (end-inspiration − end-expiration) positive, on both sides, not in the centre', () => {
    const expiration = referenceFrame(values, width, new Float32Array(width), { fraction: 0.15 });
    const global = Array.from({ length: frames }, (_, f) => globalImpedance(frameAt(f)));
    const highest = Array.from(global.keys())
      .sort((a, b) => global[b]! - global[a]!)
      .slice(0, Math.round(frames * 0.15));
    const inspiration = new Float32Array(width);
    for (const f of highest) for (let i = 0; i < width; i++) inspiration[i] = inspiration[i]! + values[f * width + i]! / highest.length;
    const tidal = new Float32Array(32 * 32);
    reconstructor.reconstruct(inspiration, expiration, tidal);

    let positive = 0;
    let absolute = 0;
    let left = 0;
    let centre = 0;
    for (let p = 0; p < tidal.length; p++) {
      if (reconstructor.mask[p] !== 1) continue;
      const { x, y } = pixelCentre(p, 32);
      const value = tidal[p]!;
      absolute += Math.abs(value);
      if (value <= 0) continue;
      positive += value;
      if (x < 0) left += value;
      if (Math.hypot(x, y) < 0.35) centre += value;
    }
    // Measured: 76 % of |tidal| is positive; of that, 61 % on the image's left, 39 % on its right, 6 % within r < 0.35.
    expect(positive / absolute).toBeGreaterThan(0.65);
    expect(left / positive).toBeGreaterThan(0.3);
    expect(left / positive).toBeLessThan(0.7);
    expect(centre / positive).toBeLessThan(0.15);
  });
});
