/**
 * Which EDF/BDF signals the sleep analysis can use, by label and physical dimension, and the factor to
 * our units (docs/device-protocol.md channels): ECG in mV, respiration effort or flow as impedance-like
 * breathing (only its shape counts), temperature in °C, a 3-axis accelerometer in g.
 */
import type { EdfSignalHeader } from '@nemuri/parser/edf';

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
