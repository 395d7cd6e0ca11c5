// One-step linearised Gauss–Newton difference imaging with a NOSER prior (Cheney et al., Int J Imaging
// Syst Technol 2(2), 1990; as `prior_noser` + `inv_solve_diff_GN_one_step` in EIDORS, Adler & Lionheart,
// Physiol Meas 27(5), 2006), on normalised difference data y = (v − v_ref)/v_ref, which cancels the
// unknown gain of each measuring channel. Solved in data space, so only a 208 × 208 system is inverted:
//   x = P Jᵀ (J P Jᵀ + λ² I)⁻¹ y,  P = diag(JᵀJ)^(−1/2),  λ² = hyperparameter · trace(J P Jᵀ)/208,
// with J the Jacobian of the normalised measurements of the homogeneous disc. x (relative conductivity
// change per element) is sampled onto the pixel grid and precomposed, so a frame costs one
// (mask pixels × 208) matrix–vector product.
import { choleskyInPlace, choleskySolveInPlace } from './linalg.ts';
import { locateElement } from './mesh.ts';
import { EIT_MEASUREMENTS, checkFrameWidth, measurementIndices, type EitFrameLayout } from './protocol.ts';
import { discSensitivity } from './sensitivity.ts';

export interface EitReconstructor {
  /** Image side in pixels. */
  readonly pixels: number;
  /** pixels × pixels, row-major, row 0 at the top (anterior), column 0 on the image's left (the patient's right); 1 inside the disc. */
  readonly mask: Uint8Array;
  readonly width: 208 | 256;
  readonly layout: EitFrameLayout;
  /**
   * Difference image of `frame` against `reference` into `out` (pixels × pixels): the relative
   * conductivity DECREASE −Δσ/σ, so air filling the lungs is positive (bright) and blood or fluid
   * negative. 0 outside the mask. Measurements that are NaN or whose reference is 0 count as unchanged.
   */
  reconstruct(frame: Float32Array, reference: Float32Array, out: Float32Array): void;
}

export interface EitReconstructorOptions {
  width?: 208 | 256;
  /** Layout of 256-value frames (default `device`, see protocol.ts). */
  layout?: EitFrameLayout;
  /** Image side (default 32). */
  pixels?: number;
  /** λ² relative to the mean diagonal of J P Jᵀ (default 0.1; larger is smoother and less noisy). */
  hyperparameter?: number;
}

export const DEFAULT_HYPERPARAMETER = 0.1;
/** Sub-samples per pixel side when mapping elements onto pixels. */
const SUBSAMPLES = 3;

export function createEitReconstructor(options: EitReconstructorOptions = {}): EitReconstructor {
  const width = options.width ?? 208;
  checkFrameWidth(width, 'EIT reconstructor');
  const layout = options.layout ?? 'device';
  const pixels = options.pixels ?? 32;
  if (!Number.isInteger(pixels) || pixels < 4 || pixels > 256) throw new RangeError(`EIT reconstructor: pixels must be an integer 4…256, got ${pixels}`);
  const hyperparameter = options.hyperparameter ?? DEFAULT_HYPERPARAMETER;
  if (!(hyperparameter > 0)) throw new RangeError(`EIT reconstructor: hyperparameter must be > 0, got ${hyperparameter}`);

  const sensitivity = discSensitivity();
  const { mesh, measurements: v0 } = sensitivity;
  const elements = mesh.elementCount;
  const n = EIT_MEASUREMENTS;
  // Normalised Jacobian and the NOSER weights.
  const jn = new Float64Array(n * elements);
  for (let m = 0; m < n; m++) for (let e = 0; e < elements; e++) jn[m * elements + e] = sensitivity.jacobian[m * elements + e]! / v0[m]!;
  const prior = new Float64Array(elements);
  for (let m = 0; m < n; m++) for (let e = 0; e < elements; e++) prior[e] = prior[e]! + jn[m * elements + e]! ** 2;
  for (let e = 0; e < elements; e++) prior[e] = 1 / Math.sqrt(prior[e]!);
  // JP = J·P (rows of J scaled by P per column), then A = JP Jᵀ + λ² I.
  const jp = new Float64Array(n * elements);
  for (let m = 0; m < n; m++) for (let e = 0; e < elements; e++) jp[m * elements + e] = jn[m * elements + e]! * prior[e]!;
  const a = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = 0;
      const ri = i * elements;
      const rj = j * elements;
      for (let e = 0; e < elements; e++) sum += jp[ri + e]! * jn[rj + e]!;
      a[i * n + j] = sum;
      a[j * n + i] = sum;
    }
  }
  let trace = 0;
  for (let i = 0; i < n; i++) trace += a[i * n + i]!;
  const lambda2 = (hyperparameter * trace) / n;
  for (let i = 0; i < n; i++) a[i * n + i] = a[i * n + i]! + lambda2;
  choleskyInPlace(a, n);
  const inverse = new Float64Array(n * n);
  const column = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    column.fill(0);
    column[j] = 1;
    choleskySolveInPlace(a, n, column);
    for (let i = 0; i < n; i++) inverse[i * n + j] = column[i]!;
  }

  // Pixel grid over [−1, 1]²: each mask pixel averages the elements under SUBSAMPLES² points.
  const mask = new Uint8Array(pixels * pixels);
  const maskIndex: number[] = [];
  const step = 2 / pixels;
  for (let row = 0; row < pixels; row++) {
    for (let col = 0; col < pixels; col++) {
      const x = -1 + (col + 0.5) * step;
      const y = 1 - (row + 0.5) * step;
      if (x * x + y * y <= 1) {
        mask[row * pixels + col] = 1;
        maskIndex.push(row * pixels + col);
      }
    }
  }
  const inside = maskIndex.length;
  const pixelIndex = Int32Array.from(maskIndex);
  // C = (pixel sampling) · P Jᵀ, then the reconstruction rows R = −C · A⁻¹ (minus: conductivity decrease is positive).
  const c = new Float64Array(n);
  const matrix = new Float32Array(inside * n);
  for (let p = 0; p < inside; p++) {
    const index = pixelIndex[p]!;
    const row = Math.floor(index / pixels);
    const col = index % pixels;
    c.fill(0);
    const weight = 1 / (SUBSAMPLES * SUBSAMPLES);
    for (let sy = 0; sy < SUBSAMPLES; sy++) {
      for (let sx = 0; sx < SUBSAMPLES; sx++) {
        const x = -1 + (col + (sx + 0.5) / SUBSAMPLES) * step;
        const y = 1 - (row + (sy + 0.5) / SUBSAMPLES) * step;
        const r = Math.hypot(x, y);
        // Sub-samples beyond the rim take the element at the rim in the same direction.
        const scale = r > 0.999 ? 0.999 / r : 1;
        const e = locateElement(mesh, x * scale, y * scale, sensitivity.centroids);
        for (let m = 0; m < n; m++) c[m] = c[m]! + weight * jp[m * elements + e]!;
      }
    }
    for (let j = 0; j < n; j++) {
      // A⁻¹ is symmetric: read its row j, which runs along memory.
      let sum = 0;
      const rowJ = j * n;
      for (let m = 0; m < n; m++) sum += c[m]! * inverse[rowJ + m]!;
      matrix[p * n + j] = -sum;
    }
  }

  const indices = measurementIndices(width, layout);
  const y = new Float64Array(n);
  const area = pixels * pixels;
  return {
    pixels,
    mask,
    width,
    layout,
    reconstruct(frame: Float32Array, reference: Float32Array, out: Float32Array): void {
      if (frame.length !== width) throw new RangeError(`EIT reconstruct: frame has ${frame.length} values, expected ${width}`);
      if (reference.length !== width) throw new RangeError(`EIT reconstruct: reference has ${reference.length} values, expected ${width}`);
      if (out.length !== area) throw new RangeError(`EIT reconstruct: output has ${out.length} values, expected ${pixels}×${pixels} = ${area}`);
      for (let m = 0; m < n; m++) {
        const r = reference[indices[m]!]!;
        const value = (frame[indices[m]!]! - r) / r;
        y[m] = Number.isFinite(value) ? value : 0;
      }
      out.fill(0);
      for (let p = 0; p < inside; p++) {
        let sum = 0;
        const base = p * n;
        for (let m = 0; m < n; m++) sum += matrix[base + m]! * y[m]!;
        out[pixelIndex[p]!] = sum;
      }
    },
  };
}
