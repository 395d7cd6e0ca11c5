/**
 * How each channel of a raw view is drawn. Which views exist, their channels and windows are defined
 * once in `@nemuri/shared/rawViews`; the maker's `views/{routeKey}` master records may override a
 * view's name and window (`layout.secondsShown`).
 */
import type { SmfSampleChannel } from '@nemuri/parser/smf';
import { RAW_VIEWS, type RawViewKey } from '@nemuri/shared/rawViews';

export { RAW_VIEW_KEYS, ROOM_VIEW_KEYS, VIEW_OF_ROUTE, type RawViewKey } from '@nemuri/shared/rawViews';

/** One drawn row: a component of a channel. `labelKey` is under `rawView.rows`. */
export interface RowSpec {
  channel: SmfSampleChannel;
  component: number;
  labelKey: string;
  unit: string;
  color: string;
  range: readonly [number, number] | null;
  kind?: 'line' | 'step';
  digits: number;
}

/** Highest sample rate a channel's trace is sized for (a faster device still draws; the window is cut). */
export const MAX_RATE: Readonly<Record<SmfSampleChannel, number>> = { ecg: 1000, respiAxl: 200, impe: 200, eit: 50, respiHr: 1, button: 10, temperature: 1 };

// Colours readable on the dark monitoring background and on white.
export const CHANNEL_ROWS: Readonly<Record<SmfSampleChannel, readonly RowSpec[]>> = {
  ecg: [{ channel: 'ecg', component: 0, labelKey: 'ecg', unit: 'mV', color: '#2fb344', range: [-1.5, 2.5], digits: 2 }],
  respiAxl: [
    { channel: 'respiAxl', component: 0, labelKey: 'axlX', unit: 'g', color: '#1c9fd8', range: null, digits: 3 },
    { channel: 'respiAxl', component: 1, labelKey: 'axlY', unit: 'g', color: '#15aabf', range: null, digits: 3 },
    { channel: 'respiAxl', component: 2, labelKey: 'axlZ', unit: 'g', color: '#4c6ef5', range: null, digits: 3 },
  ],
  impe: [{ channel: 'impe', component: 0, labelKey: 'impe', unit: 'Ω', color: '#ae3ec9', range: null, digits: 2 }],
  respiHr: [
    { channel: 'respiHr', component: 0, labelKey: 'respirationRate', unit: '/min', color: '#1c9fd8', range: [0, 40], digits: 0 },
    { channel: 'respiHr', component: 1, labelKey: 'heartRate', unit: 'bpm', color: '#e64980', range: [30, 150], digits: 0 },
  ],
  button: [{ channel: 'button', component: 0, labelKey: 'button', unit: '', color: '#f03e3e', range: [-0.2, 1.2], kind: 'step', digits: 0 }],
  temperature: [{ channel: 'temperature', component: 0, labelKey: 'temperature', unit: '℃', color: '#f76707', range: [22, 42], digits: 1 }],
  // EIT is drawn as its global impedance (the sum of a frame's measurements) next to the image.
  eit: [{ channel: 'eit', component: 0, labelKey: 'globalImpedance', unit: '', color: '#12b886', range: null, digits: 2 }],
};

const entries = Object.entries(RAW_VIEWS) as [RawViewKey, (typeof RAW_VIEWS)[RawViewKey]][];
/** The channels each view draws, in row order; `raw-multi` draws those of them the device sends. */
export const VIEW_CHANNELS: Readonly<Record<RawViewKey, readonly SmfSampleChannel[]>> = Object.fromEntries(
  entries.map(([key, view]) => [key, view.channels]),
) as Record<RawViewKey, readonly SmfSampleChannel[]>;
/** Default window of each view (seconds), and the choices offered. */
export const DEFAULT_WINDOW_SECONDS: Readonly<Record<RawViewKey, number>> = Object.fromEntries(
  entries.map(([key, view]) => [key, view.defaultWindowSec]),
) as Record<RawViewKey, number>;
/** The windows each view offers; its traces are sized for the longest. */
export const WINDOW_CHOICES: Readonly<Record<RawViewKey, readonly number[]>> = Object.fromEntries(
  entries.map(([key, view]) => [key, view.windowChoices]),
) as Record<RawViewKey, readonly number[]>;
export const AMPLITUDE_CHOICES = ['auto', '0.5', '1', '2', '4'] as const;
export type AmplitudeChoice = (typeof AMPLITUDE_CHOICES)[number];

/** The path of a view for a device or a room. */
export function viewPath(view: RawViewKey | '', target: { serial: string } | { roomId: string }): string {
  if ('roomId' in target) return `/monitoring-room/${view}?roomId=${encodeURIComponent(target.roomId)}`;
  return `/monitoring-device/${view}?serial=${encodeURIComponent(target.serial)}`;
}
