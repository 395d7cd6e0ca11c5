// EIT frames: a simple 16-electrode adjacent-drive model (208 values a frame), or a replay of a real recording.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const EIT_ELECTRODES = 16;
/** 16 drive pairs × 13 measuring pairs that do not touch the driving electrodes. */
export const EIT_MODEL_WIDTH = 208;
export const EIT_MODEL_RATE = 20;
export const EIT_REPLAY_WIDTH = 256;
export const EIT_REPLAY_RATE = 13;

/** The repository's shared data folder: `../shared/data` next to the repository root. */
export const SHARED_DATA_DIR = fileURLToPath(new URL('../../../../shared/data/', import.meta.url));
export const EIT_REPLAY_FILE = `${SHARED_DATA_DIR}eit/P04P-1016.get`;

/** Baseline voltages and breathing sensitivity of each of the 208 measurements. */
export interface EitModel {
  baseline: Float32Array;
  breathing: Float32Array;
  cardiac: Float32Array;
}

export function createEitModel(): EitModel {
  const baseline = new Float32Array(EIT_MODEL_WIDTH);
  const breathing = new Float32Array(EIT_MODEL_WIDTH);
  const cardiac = new Float32Array(EIT_MODEL_WIDTH);
  let k = 0;
  for (let drive = 0; drive < EIT_ELECTRODES; drive++) {
    for (let m = 0; m < 13; m++) {
      // Measuring pairs next to the drive see the largest voltages (the familiar U shape).
      const distance = Math.min(m, 12 - m);
      baseline[k] = 0.15 + 1.6 * Math.exp(-distance / 1.8);
      // The lungs sit left and right of the chest: drives on the sides see more of them.
      const angle = (2 * Math.PI * (drive + m / 13)) / EIT_ELECTRODES;
      breathing[k] = 0.02 + 0.03 * Math.abs(Math.sin(angle));
      cardiac[k] = 0.002 * Math.max(0, Math.cos(angle));
      k++;
    }
  }
  return { baseline, breathing, cardiac };
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
