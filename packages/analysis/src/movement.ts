// Movement level and posture from 3-axis acceleration (chest or bed sensor, in g).
// Movement: each axis is high-passed at 1 Hz (removing gravity, posture and most of the breathing, which
// lies below 0.7 Hz), the vector magnitude of the result is averaged over one-second epochs — the
// "high-pass filtered vector magnitude" activity measure of accelerometry (cf. van Hees et al., PLoS ONE
// 8(4):e61691, 2013, HFEN). Posture: the per-second mean acceleration is the gravity direction; a change
// of more than 30° between two still periods counts as a change of posture (turning in bed); the trunk
// within 45° of vertical is sitting up.
import { highPass, type Biquad } from './filters.ts';

/**
 * Sitting up (起きあがり): the trunk within this angle of vertical. The chest sensor's y axis runs along the
 * trunk (head to feet, docs/device-protocol.md), so lying in any position leaves gravity across y and
 * sitting or standing puts it along y; the trunk's inclination is the angle between gravity and ±y.
 */
export const UPRIGHT_DEGREES = 45;

/** Whether a gravity vector (x, y, z in g) says the trunk is upright (sitting or standing). */
export function trunkUpright(gravity: ArrayLike<number>): boolean {
  const magnitude = Math.hypot(gravity[0] ?? 0, gravity[1] ?? 0, gravity[2] ?? 0);
  return magnitude > 0.5 && Math.abs(gravity[1] ?? 0) / magnitude >= Math.cos((UPRIGHT_DEGREES * Math.PI) / 180);
}

/** Movement above this level (g, one-second mean of the high-passed magnitude) counts as moving. */
export const MOVING_THRESHOLD_G = 0.01;
export const POSTURE_CHANGE_DEGREES = 30;

/** Angle in degrees between two gravity vectors (x, y, z). */
export function angleBetween(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let k = 0; k < 3; k++) {
    dot += a[k]! * b[k]!;
    na += a[k]! * a[k]!;
    nb += b[k]! * b[k]!;
  }
  if (na === 0 || nb === 0) return 0;
  return (Math.acos(Math.max(-1, Math.min(1, dot / Math.sqrt(na * nb)))) * 180) / Math.PI;
}

/**
 * Streaming movement meter for one device: feed interleaved samples as they arrive (in time order);
 * each completed second is reported through `onSecond(secondStartMs, level, gravity)`. Filter state is
 * kept between calls, so frames may be of any length; a gap in time restarts the filters.
 */
export class MovementMeter {
  readonly #width: number;
  #sampleRate = 0;
  #section: Biquad = highPass(1, 50);
  readonly #z1: Float64Array;
  readonly #z2: Float64Array;
  readonly #gravitySum: Float64Array;
  readonly #gravity: Float64Array;
  #second = Number.NaN;
  #levelSum = 0;
  #count = 0;
  #expectedNextMs = Number.NaN;
  #primed = false;
  readonly #onSecond: (secondStartMs: number, level: number, gravity: Float64Array) => void;

  constructor(onSecond: (secondStartMs: number, level: number, gravity: Float64Array) => void, width = 3) {
    this.#width = width;
    this.#onSecond = onSecond;
    this.#z1 = new Float64Array(width);
    this.#z2 = new Float64Array(width);
    this.#gravitySum = new Float64Array(width);
    this.#gravity = new Float64Array(width);
  }

  push(startTimeMs: number, sampleRate: number, values: ArrayLike<number>): void {
    const width = this.#width;
    if (sampleRate !== this.#sampleRate) {
      this.#sampleRate = sampleRate;
      this.#section = highPass(Math.min(1, sampleRate * 0.2), sampleRate);
      this.#restart();
    }
    if (Number.isFinite(this.#expectedNextMs) && Math.abs(startTimeMs - this.#expectedNextMs) > 1000) this.#restart();
    const { b0, b1, b2, a1, a2 } = this.#section;
    const samples = Math.floor(values.length / width);
    for (let i = 0; i < samples; i++) {
      const timeMs = startTimeMs + (i * 1000) / sampleRate;
      const second = Math.floor(timeMs / 1000) * 1000;
      if (second !== this.#second) this.#flush(second);
      let magnitude = 0;
      for (let axis = 0; axis < width; axis++) {
        const x = values[i * width + axis]!;
        // After a restart the filter starts in the steady state of the first sample (a high-pass's output
        // for a constant is 0: z1 = −b0·x, z2 = b2·x), so gravity does not enter as a step.
        if (!this.#primed) {
          this.#z1[axis] = -b0 * x;
          this.#z2[axis] = b2 * x;
        }
        const y = b0 * x + this.#z1[axis]!;
        this.#z1[axis] = b1 * x - a1 * y + this.#z2[axis]!;
        this.#z2[axis] = b2 * x - a2 * y;
        magnitude += y * y;
        this.#gravitySum[axis] = this.#gravitySum[axis]! + x;
      }
      this.#primed = true;
      this.#levelSum += Math.sqrt(magnitude);
      this.#count++;
    }
    this.#expectedNextMs = startTimeMs + (samples * 1000) / sampleRate;
  }

  #restart(): void {
    this.#z1.fill(0);
    this.#z2.fill(0);
    this.#expectedNextMs = Number.NaN;
    this.#primed = false;
  }

  #flush(nextSecond: number): void {
    if (this.#count > 0 && Number.isFinite(this.#second)) {
      for (let axis = 0; axis < this.#width; axis++) this.#gravity[axis] = this.#gravitySum[axis]! / this.#count;
      this.#onSecond(this.#second, this.#levelSum / this.#count, this.#gravity);
    }
    this.#second = nextSecond;
    this.#levelSum = 0;
    this.#count = 0;
    this.#gravitySum.fill(0);
  }
}

/** Counts posture changes from per-second gravity vectors, only comparing still seconds. */
export class PostureTracker {
  readonly #reference = new Float64Array(3);
  #hasReference = false;
  changes = 0;
  lastChangeMs = Number.NaN;

  /** Returns true when this second completes a change of posture. */
  update(timeMs: number, gravity: ArrayLike<number>, level: number): boolean {
    if (level > MOVING_THRESHOLD_G) return false;
    if (!this.#hasReference) {
      for (let k = 0; k < 3; k++) this.#reference[k] = gravity[k] ?? 0;
      this.#hasReference = true;
      return false;
    }
    if (angleBetween(this.#reference, gravity) <= POSTURE_CHANGE_DEGREES) return false;
    for (let k = 0; k < 3; k++) this.#reference[k] = gravity[k] ?? 0;
    this.changes++;
    this.lastChangeMs = timeMs;
    return true;
  }
}

/** Batch form: the movement level of each whole second of a recording of interleaved acceleration. */
export function movementPerSecond(interleaved: ArrayLike<number>, width: number, sampleRate: number, startTimeMs = 0): Float32Array {
  const seconds = Math.floor(interleaved.length / width / sampleRate);
  const out = new Float32Array(seconds).fill(Number.NaN);
  const meter = new MovementMeter((secondStartMs, level) => {
    const index = Math.round((secondStartMs - startTimeMs) / 1000);
    if (index >= 0 && index < seconds) out[index] = level;
  }, width);
  meter.push(startTimeMs, sampleRate, interleaved);
  // One more sample's worth closes the last second.
  meter.push(startTimeMs + seconds * 1000, sampleRate, new Float32Array(width));
  return out;
}
