/**
 * The raw views (PRODUCT.md section 8): each `monitoring-device/{key}` route, the channels it draws and
 * its time windows. Defined once: the web app draws from it, the demo master data's `views/{key}`
 * records are written from it, and the device-type form offers its keys. A maker's master record may
 * rename a view or pick another default window among the choices.
 */
import { ALL_ROUTES } from './routeAccess.ts';
import type { SignalChannel } from './signalChannels.ts';

export const RAW_VIEW_KEYS = ['raw-ecg', 'raw-respi-axl', 'raw-impe', 'raw-respihr', 'raw-button', 'raw-temparature', 'raw-multi', 'raw-eit'] as const;
export type RawViewKey = (typeof RAW_VIEW_KEYS)[number];

export interface RawViewDefinition {
  /** Default name (Japanese), shown unless the master record names it otherwise. */
  name: string;
  /** The channels drawn, in row order; `raw-multi` draws those of them the device sends. */
  channels: readonly SignalChannel[];
  /** Default window (seconds), one of `windowChoices`. */
  defaultWindowSec: number;
  /** The windows offered; traces are sized for the longest. */
  windowChoices: readonly number[];
  /** Drawing hints kept in the master record (rows, fixed ranges, the EIT image). */
  layout: Readonly<Record<string, unknown>>;
}

export const RAW_VIEWS: Readonly<Record<RawViewKey, RawViewDefinition>> = {
  'raw-ecg': { name: '心電図', channels: ['ecg'], defaultWindowSec: 10, windowChoices: [5, 10, 30], layout: { rows: 1, yRange: [-1.5, 2.5], gridMs: 200 } },
  'raw-respi-axl': {
    name: '呼吸・体動（加速度）',
    channels: ['respiAxl'],
    defaultWindowSec: 30,
    windowChoices: [10, 30, 60],
    layout: { rows: 3, axes: ['x', 'y', 'z'] },
  },
  'raw-impe': { name: '胸郭インピーダンス', channels: ['impe'], defaultWindowSec: 30, windowChoices: [10, 30, 60], layout: { rows: 1 } },
  'raw-respihr': {
    name: '呼吸数・心拍数の推移',
    channels: ['respiHr'],
    defaultWindowSec: 600,
    windowChoices: [60, 300, 600, 3600],
    layout: { rows: 2, yRange: [0, 120] },
  },
  'raw-button': { name: 'ボタンイベント', channels: ['button'], defaultWindowSec: 600, windowChoices: [60, 600, 3600], layout: { rows: 1, kind: 'events' } },
  'raw-temparature': {
    name: '体表温度',
    channels: ['temperature'],
    defaultWindowSec: 3600,
    windowChoices: [300, 600, 3600],
    layout: { rows: 1, yRange: [30, 40] },
  },
  'raw-multi': {
    name: 'マルチ表示',
    channels: ['ecg', 'respiAxl', 'impe', 'eit', 'respiHr', 'temperature', 'button'],
    defaultWindowSec: 30,
    windowChoices: [10, 30, 60],
    layout: { linked: true },
  },
  'raw-eit': {
    name: 'EIT 画像',
    channels: ['eit'],
    defaultWindowSec: 30,
    windowChoices: [10, 30, 60],
    layout: { image: { electrodes: 16, measurements: 208, pixels: 32 }, globalImpedance: true },
  },
};

export function isRawViewKey(value: unknown): value is RawViewKey {
  return typeof value === 'string' && (RAW_VIEW_KEYS as readonly string[]).includes(value);
}

const routesUnder = (prefix: string) => ALL_ROUTES.filter((route) => route.fullPath.startsWith(prefix) && isRawViewKey(route.fullPath.slice(prefix.length)));

/** The view each raw-view route shows, by route name (`@nemuri/shared/routeAccess`). */
export const VIEW_OF_ROUTE: Readonly<Record<string, RawViewKey>> = Object.fromEntries(
  [...routesUnder('/monitoring-device/'), ...routesUnder('/monitoring-room/')].map((route) => [
    route.name,
    route.fullPath.slice(route.fullPath.lastIndexOf('/') + 1) as RawViewKey,
  ]),
);

/** The views a room's page offers (`/monitoring-room/…`): the routes the access table declares. */
export const ROOM_VIEW_KEYS: readonly RawViewKey[] = routesUnder('/monitoring-room/').map(
  (route) => route.fullPath.slice('/monitoring-room/'.length) as RawViewKey,
);
