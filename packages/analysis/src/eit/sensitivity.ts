// The homogeneous unit disc, solved once and kept: its 208 measurements and their Jacobian are what the
// reconstruction matrix and the simulator's EIT vectors are made from (~0.1 s, computed on first use).
import { createForwardModel, type ForwardModel } from './forwardModel.ts';
import { createDiscMesh, elementArea, elementCentroids, type DiscMesh } from './mesh.ts';

export interface DiscSensitivity {
  readonly mesh: DiscMesh;
  readonly model: ForwardModel;
  /** The 208 measurements of the homogeneous disc (σ = 1, 1 A drive), positive. */
  readonly measurements: Float64Array;
  /** ∂measurement/∂σ(element) at σ = 1, 208 rows × elementCount. */
  readonly jacobian: Float64Array;
  /** Element centroids, x, y interleaved (image coordinates, y up = anterior). */
  readonly centroids: Float64Array;
  readonly areas: Float64Array;
}

let cached: DiscSensitivity | undefined;

export function discSensitivity(): DiscSensitivity {
  if (cached) return cached;
  const mesh = createDiscMesh();
  const model = createForwardModel(mesh);
  const solution = model.solve(1);
  const areas = new Float64Array(mesh.elementCount);
  for (let e = 0; e < mesh.elementCount; e++) areas[e] = elementArea(mesh, e);
  cached = { mesh, model, measurements: solution.measurements, jacobian: model.jacobian(solution), centroids: elementCentroids(mesh), areas };
  return cached;
}

/** Conductivity change per element: `value` inside the ellipse centred (cx, cy) with semi-axes (rx, ry), 0 elsewhere, by element centroid. */
export function ellipseElements(
  sensitivity: DiscSensitivity,
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  value: number,
  out: Float64Array = new Float64Array(sensitivity.mesh.elementCount),
): Float64Array {
  const { centroids } = sensitivity;
  for (let e = 0; e < sensitivity.mesh.elementCount; e++) {
    const dx = (centroids[2 * e]! - cx) / rx;
    const dy = (centroids[2 * e + 1]! - cy) / ry;
    if (dx * dx + dy * dy <= 1) out[e] = out[e]! + value;
  }
  return out;
}

/** J·δσ: the linearised change of the 208 measurements for a conductivity change per element. */
export function linearisedChange(sensitivity: DiscSensitivity, change: Float64Array): Float64Array {
  const elements = sensitivity.mesh.elementCount;
  const out = new Float64Array(sensitivity.measurements.length);
  for (let m = 0; m < out.length; m++) {
    let sum = 0;
    for (let e = 0; e < elements; e++) sum += sensitivity.jacobian[m * elements + e]! * change[e]!;
    out[m] = sum;
  }
  return out;
}
