// 2D finite-element forward model of adjacent-drive EIT on the unit disc with the complete electrode
// model (Somersalo, Cheney & Isaacson, SIAM J Appl Math 52(4), 1992; FEM form as in Vauhkonen et al.,
// IEEE TMI 18(8), 1999, and EIDORS): linear triangles, piecewise-constant conductivity, electrodes of
// finite width with a contact impedance. Reference: the centre node is held at 0 V; every reported value
// is a difference of electrode voltages, so the choice does not show.
// The Jacobian uses the adjoint field: the measuring pair's field is the field of the drive pattern on
// the same adjacent pair (reciprocity), so 16 solves give all 208 × elements sensitivities.
import { choleskyInPlace, choleskySolveInPlace } from './linalg.ts';
import { elementArea, type DiscMesh } from './mesh.ts';
import { EIT_ELECTRODES, EIT_MEASUREMENTS, measurementPair } from './protocol.ts';

export interface ForwardSolution {
  /** Conductivity per element that was solved for. */
  conductivity: Float64Array;
  /** Node potentials of drive d at d·nodeCount + node. */
  potentials: Float64Array;
  /** Electrode voltages of drive d at d·16 + electrode. */
  electrodeVoltages: Float64Array;
  /** The 208 measurements in protocol order (positive for a homogeneous disc). */
  measurements: Float64Array;
}

export interface ForwardModel {
  readonly mesh: DiscMesh;
  readonly contactImpedance: number;
  /** Solves the 16 drives for a conductivity per element (one value, or one per element). */
  solve(conductivity: number | Float64Array): ForwardSolution;
  /** ∂measurement/∂σ(element), 208 rows × elementCount, row-major, at the conductivity of `solution`. */
  jacobian(solution: ForwardSolution): Float64Array;
  /** Electrode currents implied by a drive's solution (CEM boundary condition); the drive pattern injected +1 at d+1 and −1 at d. */
  electrodeCurrents(solution: ForwardSolution, drive: number): Float64Array;
}

export interface ForwardModelOptions {
  /** Contact impedance z (Ω·m² in units of a unit-conductivity unit disc); default 0.01. */
  contactImpedance?: number;
}

export function createForwardModel(mesh: DiscMesh, options: ForwardModelOptions = {}): ForwardModel {
  const z = options.contactImpedance ?? 0.01;
  const { nodes, elements, elementCount, nodeCount } = mesh;
  // Shape-function gradients of each triangle: ∇φ_i = (b_i, c_i) / (2A).
  const area = new Float64Array(elementCount);
  const gradient = new Float64Array(elementCount * 6);
  for (let e = 0; e < elementCount; e++) {
    const a = elementArea(mesh, e);
    area[e] = a;
    for (let v = 0; v < 3; v++) {
      const j = elements[3 * e + ((v + 1) % 3)]!;
      const k = elements[3 * e + ((v + 2) % 3)]!;
      gradient[6 * e + 2 * v] = (nodes[2 * j + 1]! - nodes[2 * k + 1]!) / (2 * a);
      gradient[6 * e + 2 * v + 1] = (nodes[2 * k]! - nodes[2 * j]!) / (2 * a);
    }
  }
  // Unknowns: nodes 1…N−1 (node 0, the centre, is the reference), then the 16 electrode voltages.
  const size = nodeCount - 1 + EIT_ELECTRODES;
  const nodeUnknown = (node: number): number => node - 1;
  const electrodeUnknown = (electrode: number): number => nodeCount - 1 + electrode;
  // Half-bandwidth of the system: the ring numbering keeps element neighbours close; electrode unknowns
  // come last and couple only to outer-ring nodes.
  let band = 0;
  for (let e = 0; e < elementCount; e++) {
    for (let p = 0; p < 3; p++) for (let q = 0; q < 3; q++) band = Math.max(band, nodeUnknown(elements[3 * e + p]!) - nodeUnknown(elements[3 * e + q]!));
  }
  for (let l = 0; l < EIT_ELECTRODES; l++) for (const node of mesh.electrodeNodes[l]!) band = Math.max(band, electrodeUnknown(l) - nodeUnknown(node));

  function assemble(conductivity: Float64Array): Float64Array {
    const matrix = new Float64Array(size * size);
    const addEntry = (i: number, j: number, value: number): void => {
      if (i < 0 || j < 0) return;
      matrix[i * size + j] = matrix[i * size + j]! + value;
    };
    for (let e = 0; e < elementCount; e++) {
      const weight = conductivity[e]! * area[e]!;
      for (let p = 0; p < 3; p++) {
        const row = nodeUnknown(elements[3 * e + p]!);
        for (let q = 0; q < 3; q++) {
          const dot = gradient[6 * e + 2 * p]! * gradient[6 * e + 2 * q]! + gradient[6 * e + 2 * p + 1]! * gradient[6 * e + 2 * q + 1]!;
          addEntry(row, nodeUnknown(elements[3 * e + q]!), weight * dot);
        }
      }
    }
    // Complete electrode model terms over each boundary edge under an electrode.
    for (let l = 0; l < EIT_ELECTRODES; l++) {
      const list = mesh.electrodeNodes[l]!;
      const el = electrodeUnknown(l);
      for (let s = 0; s + 1 < list.length; s++) {
        const p = list[s]!;
        const q = list[s + 1]!;
        const h = Math.hypot(nodes[2 * q]! - nodes[2 * p]!, nodes[2 * q + 1]! - nodes[2 * p + 1]!);
        const ip = nodeUnknown(p);
        const iq = nodeUnknown(q);
        addEntry(ip, ip, h / (3 * z));
        addEntry(iq, iq, h / (3 * z));
        addEntry(ip, iq, h / (6 * z));
        addEntry(iq, ip, h / (6 * z));
        addEntry(ip, el, -h / (2 * z));
        addEntry(el, ip, -h / (2 * z));
        addEntry(iq, el, -h / (2 * z));
        addEntry(el, iq, -h / (2 * z));
        addEntry(el, el, h / z);
      }
    }
    return matrix;
  }

  function solve(value: number | Float64Array): ForwardSolution {
    const conductivity = typeof value === 'number' ? new Float64Array(elementCount).fill(value) : value;
    if (conductivity.length !== elementCount) throw new RangeError(`forward model: ${conductivity.length} conductivities for ${elementCount} elements`);
    const matrix = assemble(conductivity);
    choleskyInPlace(matrix, size, band);
    const potentials = new Float64Array(EIT_ELECTRODES * nodeCount);
    const electrodeVoltages = new Float64Array(EIT_ELECTRODES * EIT_ELECTRODES);
    const rhs = new Float64Array(size);
    for (let d = 0; d < EIT_ELECTRODES; d++) {
      rhs.fill(0);
      rhs[electrodeUnknown((d + 1) % EIT_ELECTRODES)] = 1;
      rhs[electrodeUnknown(d)] = -1;
      choleskySolveInPlace(matrix, size, rhs, band);
      for (let n = 1; n < nodeCount; n++) potentials[d * nodeCount + n] = rhs[nodeUnknown(n)]!;
      for (let l = 0; l < EIT_ELECTRODES; l++) electrodeVoltages[d * EIT_ELECTRODES + l] = rhs[electrodeUnknown(l)]!;
    }
    const measurements = new Float64Array(EIT_MEASUREMENTS);
    for (let m = 0; m < EIT_MEASUREMENTS; m++) {
      const { drive, first, second } = measurementPair(m);
      measurements[m] = electrodeVoltages[drive * EIT_ELECTRODES + first]! - electrodeVoltages[drive * EIT_ELECTRODES + second]!;
    }
    return { conductivity, potentials, electrodeVoltages, measurements };
  }

  function jacobian(solution: ForwardSolution): Float64Array {
    // Field gradients of every drive in every element.
    const field = new Float64Array(EIT_ELECTRODES * elementCount * 2);
    for (let d = 0; d < EIT_ELECTRODES; d++) {
      const u = solution.potentials.subarray(d * nodeCount, (d + 1) * nodeCount);
      for (let e = 0; e < elementCount; e++) {
        let gx = 0;
        let gy = 0;
        for (let v = 0; v < 3; v++) {
          const value = u[elements[3 * e + v]!]!;
          gx += value * gradient[6 * e + 2 * v]!;
          gy += value * gradient[6 * e + 2 * v + 1]!;
        }
        field[(d * elementCount + e) * 2] = gx;
        field[(d * elementCount + e) * 2 + 1] = gy;
      }
    }
    // V(d, a) = Mᵀ K⁻¹ I_d with M = −I_a, so ∂V/∂σ_e = +∫_e ∇u_a · ∇u_d.
    const out = new Float64Array(EIT_MEASUREMENTS * elementCount);
    for (let m = 0; m < EIT_MEASUREMENTS; m++) {
      const { drive, first } = measurementPair(m);
      const fd = drive * elementCount * 2;
      const fa = first * elementCount * 2;
      const row = m * elementCount;
      for (let e = 0; e < elementCount; e++) {
        out[row + e] = area[e]! * (field[fd + 2 * e]! * field[fa + 2 * e]! + field[fd + 2 * e + 1]! * field[fa + 2 * e + 1]!);
      }
    }
    return out;
  }

  function electrodeCurrents(solution: ForwardSolution, drive: number): Float64Array {
    const currents = new Float64Array(EIT_ELECTRODES);
    const u = solution.potentials.subarray(drive * nodeCount, (drive + 1) * nodeCount);
    for (let l = 0; l < EIT_ELECTRODES; l++) {
      const list = mesh.electrodeNodes[l]!;
      const voltage = solution.electrodeVoltages[drive * EIT_ELECTRODES + l]!;
      // I_l = (1/z) ∫ (U_l − u) ds with u linear along each edge.
      let current = 0;
      for (let s = 0; s + 1 < list.length; s++) {
        const p = list[s]!;
        const q = list[s + 1]!;
        const h = Math.hypot(nodes[2 * q]! - nodes[2 * p]!, nodes[2 * q + 1]! - nodes[2 * p + 1]!);
        current += (h / z) * (voltage - (u[p]! + u[q]!) / 2);
      }
      currents[l] = current;
    }
    return currents;
  }

  return { mesh, contactImpedance: z, solve, jacobian, electrodeCurrents };
}
