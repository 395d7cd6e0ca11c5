// Test helpers: measurements of circular inclusions from a finer mesh than the reconstruction uses
// (16 rings, 2,048 triangles, nonlinear solve), so the tests do not commit the "inverse crime" of
// simulating with the model they invert; and the few image measures the tests assert on.
import { createForwardModel, type ForwardModel } from './forwardModel.ts';
import { createDiscMesh, elementCentroids } from './mesh.ts';

export interface Inclusion {
  x: number;
  y: number;
  radius: number;
  /** Conductivity inside (background 1). */
  conductivity: number;
}

let fine: { model: ForwardModel; centroids: Float64Array; homogeneous: Float64Array } | undefined;

function fineModel(): NonNullable<typeof fine> {
  if (!fine) {
    const mesh = createDiscMesh({ rings: 16 });
    const model = createForwardModel(mesh);
    fine = { model, centroids: elementCentroids(mesh), homogeneous: model.solve(1).measurements };
  }
  return fine;
}

/** Deterministic standard normal numbers (mulberry32 + Box–Muller). */
export function gaussianSource(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967297;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

/**
 * A homogeneous reference frame and a frame with the inclusions (208 values each), plus Gaussian noise
 * on the frame with an SD of `noise` × the RMS of the change the inclusions cause (0.01: "1 % noise", 40 dB).
 */
export function simulateInclusions(inclusions: readonly Inclusion[], noise = 0.01, seed = 1): { frame: Float32Array; reference: Float32Array } {
  const { model, centroids, homogeneous } = fineModel();
  const elements = model.mesh.elementCount;
  const conductivity = new Float64Array(elements).fill(1);
  for (let e = 0; e < elements; e++) {
    for (const inclusion of inclusions) {
      if (Math.hypot(centroids[2 * e]! - inclusion.x, centroids[2 * e + 1]! - inclusion.y) <= inclusion.radius) conductivity[e] = inclusion.conductivity;
    }
  }
  const measured = model.solve(conductivity).measurements;
  let rms = 0;
  for (let m = 0; m < measured.length; m++) rms += (measured[m]! - homogeneous[m]!) ** 2;
  rms = Math.sqrt(rms / measured.length);
  const gaussian = gaussianSource(seed);
  const frame = new Float32Array(measured.length);
  for (let m = 0; m < measured.length; m++) frame[m] = measured[m]! + noise * rms * gaussian();
  return { frame, reference: Float32Array.from(homogeneous) };
}

/** Centre of pixel `index` in disc coordinates (x right, y up). */
export function pixelCentre(index: number, pixels: number): { x: number; y: number } {
  const row = Math.floor(index / pixels);
  const col = index % pixels;
  return { x: -1 + ((col + 0.5) * 2) / pixels, y: 1 - ((row + 0.5) * 2) / pixels };
}

export function imageMaximum(image: Float32Array, pixels: number): { x: number; y: number; value: number } {
  let best = 0;
  for (let i = 1; i < image.length; i++) if (image[i]! > image[best]!) best = i;
  return { ...pixelCentre(best, pixels), value: image[best]! };
}

/** Connected regions (4-neighbour) of pixels above `threshold`, with their size, centroid and sum. */
export function blobs(image: Float32Array, pixels: number, threshold: number): { size: number; x: number; y: number; sum: number }[] {
  const label = new Int32Array(image.length).fill(-1);
  const found: { size: number; x: number; y: number; sum: number }[] = [];
  for (let start = 0; start < image.length; start++) {
    if (label[start] !== -1 || !(image[start]! > threshold)) continue;
    const stack = [start];
    label[start] = found.length;
    const blob = { size: 0, x: 0, y: 0, sum: 0 };
    while (stack.length > 0) {
      const index = stack.pop()!;
      const { x, y } = pixelCentre(index, pixels);
      blob.size++;
      blob.x += x;
      blob.y += y;
      blob.sum += image[index]!;
      const row = Math.floor(index / pixels);
      const col = index % pixels;
      for (const [r, c] of [
        [row - 1, col],
        [row + 1, col],
        [row, col - 1],
        [row, col + 1],
      ] as const) {
        if (r < 0 || c < 0 || r >= pixels || c >= pixels) continue;
        const next = r * pixels + c;
        if (label[next] === -1 && image[next]! > threshold) {
          label[next] = found.length;
          stack.push(next);
        }
      }
    }
    found.push({ size: blob.size, x: blob.x / blob.size, y: blob.y / blob.size, sum: blob.sum });
  }
  return found;
}
