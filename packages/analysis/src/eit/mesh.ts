// Triangular mesh of the unit disc made of concentric rings, with 16 boundary electrodes.
// Ring r (r = 1…R) carries 8r nodes at radius r/R (alternate rings offset by half a step so triangles
// stay close to equilateral); neighbouring rings are zipped together by angle. R = 12 gives 625 nodes,
// 1,152 triangles and 96 boundary nodes, 6 per electrode spacing, so every electrode centre is a node.
import { EIT_ELECTRODES, electrodeAngle } from './protocol.ts';

export interface DiscMesh {
  readonly rings: number;
  /** x, y interleaved (image coordinates: x to the image's right, y up = anterior). */
  readonly nodes: Float64Array;
  readonly nodeCount: number;
  /** Three node indices per triangle, counter-clockwise. */
  readonly elements: Uint32Array;
  readonly elementCount: number;
  /** First element of ring band r (between ring r−1 and r) at index r−1; last entry = elementCount. */
  readonly bandStart: Uint32Array;
  /** Boundary nodes under each electrode (in order along the boundary), electrode-major. */
  readonly electrodeNodes: readonly Uint32Array[];
}

export interface DiscMeshOptions {
  /** Number of rings (default 12); must be a multiple of 2 so the outer ring has a node at each electrode centre. */
  rings?: number;
  /** Boundary edges each electrode covers, an even number (default 2: a third of the perimeter is electrode). */
  electrodeEdges?: number;
}

export function createDiscMesh(options: DiscMeshOptions = {}): DiscMesh {
  const rings = options.rings ?? 12;
  const electrodeEdges = options.electrodeEdges ?? 2;
  const outer = 8 * rings;
  if (!Number.isInteger(rings) || rings < 2 || outer % EIT_ELECTRODES !== 0) throw new RangeError(`disc mesh: rings must be an even integer ≥ 2, got ${rings}`);
  const perElectrode = outer / EIT_ELECTRODES;
  if (electrodeEdges % 2 !== 0 || electrodeEdges < 0 || electrodeEdges >= perElectrode) {
    throw new RangeError(`disc mesh: electrodeEdges must be even and under ${perElectrode}, got ${electrodeEdges}`);
  }
  const ringStart = new Uint32Array(rings + 2);
  ringStart[0] = 0;
  ringStart[1] = 1;
  for (let r = 1; r <= rings; r++) ringStart[r + 1] = ringStart[r]! + 8 * r;
  const nodeCount = ringStart[rings + 1]!;
  const nodes = new Float64Array(nodeCount * 2);
  const offset = (r: number): number => (r === rings || r % 2 === 0 ? 0 : Math.PI / (8 * r));
  for (let r = 1; r <= rings; r++) {
    const count = 8 * r;
    for (let j = 0; j < count; j++) {
      const angle = offset(r) + (2 * Math.PI * j) / count;
      const index = ringStart[r]! + j;
      nodes[2 * index] = (r / rings) * Math.cos(angle);
      nodes[2 * index + 1] = (r / rings) * Math.sin(angle);
    }
  }

  const elementCount = 8 * rings * rings;
  const elements = new Uint32Array(elementCount * 3);
  const bandStart = new Uint32Array(rings + 1);
  let e = 0;
  const add = (a: number, b: number, c: number): void => {
    // Keep every triangle counter-clockwise: the stiffness formulas below use the signed area.
    const area =
      (nodes[2 * b]! - nodes[2 * a]!) * (nodes[2 * c + 1]! - nodes[2 * a + 1]!) - (nodes[2 * c]! - nodes[2 * a]!) * (nodes[2 * b + 1]! - nodes[2 * a + 1]!);
    elements[3 * e] = a;
    elements[3 * e + 1] = area > 0 ? b : c;
    elements[3 * e + 2] = area > 0 ? c : b;
    e++;
  };
  for (let r = 1; r <= rings; r++) {
    bandStart[r - 1] = e;
    const outerStart = ringStart[r]!;
    const nb = 8 * r;
    if (r === 1) {
      for (let k = 0; k < nb; k++) add(0, outerStart + k, outerStart + ((k + 1) % nb));
      continue;
    }
    const innerStart = ringStart[r - 1]!;
    const na = 8 * (r - 1);
    const offA = offset(r - 1);
    const offB = offset(r);
    let ka = 0;
    let kb = 0;
    while (ka < na || kb < nb) {
      const nextA = offA + (2 * Math.PI * (ka + 1)) / na;
      const nextB = offB + (2 * Math.PI * (kb + 1)) / nb;
      if (ka < na && (kb >= nb || nextA < nextB)) {
        add(innerStart + ka, innerStart + ((ka + 1) % na), outerStart + (kb % nb));
        ka++;
      } else {
        add(innerStart + (ka % na), outerStart + ((kb + 1) % nb), outerStart + kb);
        kb++;
      }
    }
  }
  bandStart[rings] = e;

  // Electrode e is centred on the outer-ring node at its angle and spans electrodeEdges edges.
  const outerStart = ringStart[rings]!;
  const electrodeNodes: Uint32Array[] = [];
  for (let electrode = 0; electrode < EIT_ELECTRODES; electrode++) {
    const step = (2 * Math.PI) / outer;
    const centre = Math.round(electrodeAngle(electrode) / step);
    const list = new Uint32Array(electrodeEdges + 1);
    for (let i = 0; i <= electrodeEdges; i++) list[i] = outerStart + ((((centre - electrodeEdges / 2 + i) % outer) + outer) % outer);
    electrodeNodes.push(list);
  }
  return { rings, nodes, nodeCount, elements, elementCount, bandStart, electrodeNodes };
}

/** Signed area of element `e` (positive: counter-clockwise). */
export function elementArea(mesh: DiscMesh, e: number): number {
  const { nodes, elements } = mesh;
  const a = elements[3 * e]!;
  const b = elements[3 * e + 1]!;
  const c = elements[3 * e + 2]!;
  return (
    0.5 *
    ((nodes[2 * b]! - nodes[2 * a]!) * (nodes[2 * c + 1]! - nodes[2 * a + 1]!) - (nodes[2 * c]! - nodes[2 * a]!) * (nodes[2 * b + 1]! - nodes[2 * a + 1]!))
  );
}

/** Element centroids, x, y interleaved. */
export function elementCentroids(mesh: DiscMesh): Float64Array {
  const out = new Float64Array(mesh.elementCount * 2);
  for (let e = 0; e < mesh.elementCount; e++) {
    for (let v = 0; v < 3; v++) {
      const n = mesh.elements[3 * e + v]!;
      out[2 * e] = out[2 * e]! + mesh.nodes[2 * n]! / 3;
      out[2 * e + 1] = out[2 * e + 1]! + mesh.nodes[2 * n + 1]! / 3;
    }
  }
  return out;
}

/**
 * The element containing (x, y), or the element with the nearest centroid in the point's ring band when
 * the point lies between the polygonal boundary and the unit circle.
 */
export function locateElement(mesh: DiscMesh, x: number, y: number, centroids: Float64Array): number {
  const radius = Math.hypot(x, y);
  const band = Math.min(mesh.rings, Math.max(1, Math.ceil(radius * mesh.rings)));
  const { nodes, elements } = mesh;
  for (let b = Math.max(1, band - 1); b <= Math.min(mesh.rings, band + 1); b++) {
    for (let e = mesh.bandStart[b - 1]!; e < mesh.bandStart[b]!; e++) {
      const i = elements[3 * e]!;
      const j = elements[3 * e + 1]!;
      const k = elements[3 * e + 2]!;
      const x0 = nodes[2 * i]!;
      const y0 = nodes[2 * i + 1]!;
      const d1 = (nodes[2 * j]! - x0) * (y - y0) - (nodes[2 * j + 1]! - y0) * (x - x0);
      const d2 = (nodes[2 * k]! - nodes[2 * j]!) * (y - nodes[2 * j + 1]!) - (nodes[2 * k + 1]! - nodes[2 * j + 1]!) * (x - nodes[2 * j]!);
      const d3 = (x0 - nodes[2 * k]!) * (y - nodes[2 * k + 1]!) - (y0 - nodes[2 * k + 1]!) * (x - nodes[2 * k]!);
      if (d1 >= -1e-12 && d2 >= -1e-12 && d3 >= -1e-12) return e;
    }
  }
  let best = mesh.bandStart[band - 1]!;
  let bestDistance = Infinity;
  for (let e = mesh.bandStart[band - 1]!; e < mesh.bandStart[band]!; e++) {
    const distance = (centroids[2 * e]! - x) ** 2 + (centroids[2 * e + 1]! - y) ** 2;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = e;
    }
  }
  return best;
}
