// EIT frames: a 16-electrode adjacent-drive model of a breathing chest (208 values a frame, from the finite-element
// forward model of @nemuri/analysis/eit), or a replay of a real recording.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { discSensitivity, ellipseElements, linearisedChange } from '@nemuri/analysis/eit/sensitivity';

export const EIT_ELECTRODES = 16;
/** 16 drive pairs × 13 measuring pairs that do not touch the driving electrodes. */
export const EIT_MODEL_WIDTH = 208;
export const EIT_MODEL_RATE = 20;
export const EIT_REPLAY_WIDTH = 256;
export const EIT_REPLAY_RATE = 13;

/** The repository's shared data folder: `../shared/data` next to the repository root. */
export const SHARED_DATA_DIR = fileURLToPath(new URL('../../../../shared/data/', import.meta.url));
export const EIT_REPLAY_FILE = `${SHARED_DATA_DIR}eit/P04P-1016.get`;

/**
 * The 208 measurements of a simulated chest, in the protocol order of @nemuri/analysis/eit/protocol:
 * frame = baseline · (1 + breathing · b(t) + cardiac · c(t)), b the breathing waveform (positive =
 * inspiration), c the cardiac pulse (0…1).
 */
export interface EitModel {
  baseline: Float32Array;
  /** Relative change of each measurement per unit of b(t). */
  breathing: Float32Array;
  /** Relative change of each measurement per unit of c(t). */
  cardiac: Float32Array;
}

/** Largest baseline value (next to the drive), in the device's volts-ish units. */
const EIT_BASELINE_PEAK = 1.75;
/** Relative conductivity change of the lungs per unit of b(t): air makes them less conductive. */
const LUNG_CHANGE = -0.12;
/** Relative conductivity change of the heart at the peak of the pulse: blood leaves it in systole. */
const HEART_CHANGE = -0.1;

/**
 * Regions in image coordinates of the unit disc (x to the image's right = the patient's left, y up =
 * anterior; electrode 1 at the top, see packages/analysis/src/eit/README.md): two lungs, lateral and a
 * little posterior, the left one smaller where the heart is; the heart anterior-left.
 */
const RIGHT_LUNG = { x: -0.48, y: -0.08, rx: 0.3, ry: 0.46 };
const LEFT_LUNG = { x: 0.5, y: -0.12, rx: 0.27, ry: 0.42 };
const HEART = { x: 0.18, y: 0.32, rx: 0.17, ry: 0.17 };

let model: EitModel | undefined;

/**
 * The homogeneous disc's measurements and the Jacobian applied to the lung and heart regions (the
 * linearised forward model of @nemuri/analysis/eit). Computed once (~0.1 s) and shared, read-only, by
 * every simulated device.
 */
export function createEitModel(): EitModel {
  if (model) return model;
  const sensitivity = discSensitivity();
  const lungs = ellipseElements(sensitivity, RIGHT_LUNG.x, RIGHT_LUNG.y, RIGHT_LUNG.rx, RIGHT_LUNG.ry, LUNG_CHANGE);
  ellipseElements(sensitivity, LEFT_LUNG.x, LEFT_LUNG.y, LEFT_LUNG.rx, LEFT_LUNG.ry, LUNG_CHANGE, lungs);
  const heart = ellipseElements(sensitivity, HEART.x, HEART.y, HEART.rx, HEART.ry, HEART_CHANGE);
  const breathingChange = linearisedChange(sensitivity, lungs);
  const cardiacChange = linearisedChange(sensitivity, heart);
  const homogeneous = sensitivity.measurements;
  const scale = EIT_BASELINE_PEAK / Math.max(...homogeneous);
  const baseline = new Float32Array(EIT_MODEL_WIDTH);
  const breathing = new Float32Array(EIT_MODEL_WIDTH);
  const cardiac = new Float32Array(EIT_MODEL_WIDTH);
  for (let k = 0; k < EIT_MODEL_WIDTH; k++) {
    baseline[k] = scale * homogeneous[k]!;
    breathing[k] = breathingChange[k]! / homogeneous[k]!;
    cardiac[k] = cardiacChange[k]! / homogeneous[k]!;
  }
  model = { baseline, breathing, cardiac };
  return model;
}

/** The recording to replay: frames of 256 little-endian float32 values, 13 frames/s. */
export interface EitRecording {
  frames: number;
  width: number;
  sampleRate: number;
  values: Float32Array;
}

let cached: EitRecording | undefined;

export function loadEitRecording(path = EIT_REPLAY_FILE): EitRecording {
  if (path === EIT_REPLAY_FILE && cached) return cached;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new Error(
      `EIT replay: cannot read ${path} (the shared data folder is expected at ../shared/data next to the repository root): ${(error as Error).message}`,
      { cause: error },
    );
  }
  const frameBytes = EIT_REPLAY_WIDTH * 4;
  if (bytes.length === 0 || bytes.length % frameBytes !== 0) {
    throw new Error(`EIT replay: ${path} has ${bytes.length} bytes, not a whole number of ${EIT_REPLAY_WIDTH}-value float32 frames`);
  }
  const values = new Float32Array(bytes.length / 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < values.length; i++) values[i] = view.getFloat32(i * 4, true);
  const recording = { frames: bytes.length / frameBytes, width: EIT_REPLAY_WIDTH, sampleRate: EIT_REPLAY_RATE, values };
  if (path === EIT_REPLAY_FILE) cached = recording;
  return recording;
}
