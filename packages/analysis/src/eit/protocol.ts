// The 16-electrode adjacent protocol shared by the forward model, the reconstruction and the simulator:
// where the electrodes are, which electrodes each of the 208 measurements uses, and where those 208
// values sit in a 256-value frame.

export const EIT_ELECTRODES = 16;
/** Measuring pairs per drive that touch neither driving electrode. */
export const EIT_PAIRS_PER_DRIVE = EIT_ELECTRODES - 3;
export const EIT_MEASUREMENTS = EIT_ELECTRODES * EIT_PAIRS_PER_DRIVE;

/**
 * How a 256-value frame is laid out.
 * - `device`: the Goe-MF II `.get` layout (and so the simulator's replay): values 0–207 are the 208
 *   measurements in the 208 layout, values 208–255 are device status values that are not measurements
 *   (in P04P-1016 they are constant to 0.01 % or noise around −0.004).
 * - `matrix`: the full 16 × 16 matrix of docs/device-protocol.md: for drive d, value d·16 + a is the
 *   difference across electrodes a, a+1 (a = 0…15), including the three pairs that touch a driving
 *   electrode.
 */
export type EitFrameLayout = 'device' | 'matrix';

/**
 * Angle of electrode e (0-based; "electrode 1" is e = 0) in image coordinates, radians counter-clockwise
 * from the image's right: electrode 1 at the top (anterior, sternum), numbering clockwise on the image,
 * which is the patient seen from the feet, so electrode 5 is on the image's right = the patient's left.
 */
export function electrodeAngle(e: number): number {
  const angle = Math.PI / 2 - (2 * Math.PI * e) / EIT_ELECTRODES;
  return angle < 0 ? angle + 2 * Math.PI : angle;
}

/** Measurement m = d·13 + k: current enters at electrode d+1 and leaves at d; the voltage is U(a) − U(a+1), a = d+2+k (mod 16). */
export function measurementPair(m: number): { drive: number; first: number; second: number } {
  const drive = Math.floor(m / EIT_PAIRS_PER_DRIVE);
  const first = (drive + 2 + (m % EIT_PAIRS_PER_DRIVE)) % EIT_ELECTRODES;
  return { drive, first, second: (first + 1) % EIT_ELECTRODES };
}

/** For each of the 208 measurements, its index in a frame of `width` values laid out as `layout`. */
export function measurementIndices(width: 208 | 256, layout: EitFrameLayout = 'device'): Int32Array {
  const indices = new Int32Array(EIT_MEASUREMENTS);
  for (let m = 0; m < EIT_MEASUREMENTS; m++) {
    if (width === 208 || layout === 'device') indices[m] = m;
    else {
      const { drive, first } = measurementPair(m);
      indices[m] = drive * EIT_ELECTRODES + first;
    }
  }
  return indices;
}

export function checkFrameWidth(width: number, what: string): asserts width is 208 | 256 {
  if (width !== 208 && width !== 256) throw new RangeError(`${what}: an EIT frame has 208 or 256 values, got ${width}`);
}
