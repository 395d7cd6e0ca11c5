/**
 * Which channels of a recording the sleep analysis uses, so that the browser's preview and the
 * server's import say the same about each (docs/imports.md). EDF/BDF signals by label and physical
 * dimension, with the factor to our units (docs/device-protocol.md channels): ECG in mV, respiration
 * effort or flow as impedance-like breathing (only its shape counts), temperature in °C, a 3-axis
 * accelerometer in g. SMF channels are the device's own; EIT is reduced to global impedance live and
 * the per-minute epochs do not need it.
 */

/** SMF channels present in recordings that the sleep analysis does not read. */
export const SMF_UNUSED_CHANNELS: ReadonlySet<string> = new Set(['eit']);

/** The parts of an EDF signal header that decide its use (the parser's EdfSignalHeader has them). */
export interface EdfSignalHeader {
  label: string;
  physicalDimension: string;
  sampleRate: number;
  isAnnotation: boolean;
}

export type EdfTarget = { channel: 'ecg' | 'impe' | 'temperature'; factor: number } | { channel: 'respiAxl'; axis: 0 | 1 | 2; factor: number };

const VOLT_FACTOR: Readonly<Record<string, number>> = { uv: 0.001, µv: 0.001, mv: 1, v: 1000 };
const G_FACTOR: Readonly<Record<string, number>> = { g: 1, mg: 0.001, 'm/s2': 1 / 9.80665, 'm/s^2': 1 / 9.80665 };

export function edfTargetOf(signal: EdfSignalHeader): EdfTarget | null {
  if (signal.isAnnotation || !(signal.sampleRate > 0)) return null;
  const label = signal.label.toLowerCase();
  const unit = signal.physicalDimension.trim().toLowerCase();
  if (/\b(ecg|ekg)/.test(label)) return { channel: 'ecg', factor: VOLT_FACTOR[unit] ?? 1 };
  const axis = /\b(acc|accel|axl)\w*[ _-]*([xyz])\b/.exec(label);
  if (axis !== null) return { channel: 'respiAxl', axis: ({ x: 0, y: 1, z: 2 } as const)[axis[2] as 'x' | 'y' | 'z'], factor: G_FACTOR[unit] ?? 1 };
  if (/resp|thor|abdo|abd\b|chest|effort|flow|imped/.test(label)) return { channel: 'impe', factor: 1 };
  if (/temp/.test(label) && /(°c|degc|^c$|deg)/.test(unit)) return { channel: 'temperature', factor: 1 };
  return null;
}
