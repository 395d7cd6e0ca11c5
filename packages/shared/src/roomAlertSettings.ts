/**
 * Per-room alert settings (issue 18; 眠りSCAN offers them per resident): a room record's
 * `alertSettings` overrides its domain's numbers for that room — an alert type switched off, other
 * thresholds, another bed-exit or sitting-up delay, another night window. What a room leaves unset is the domain's.
 * The monitoring resolves them (server monitoring/roomStateService.ts), the room form edits them.
 *
 * The equipment's numbers (device offline minutes, the re-sound interval) stay the domain's: they
 * concern the station and the network, not the resident.
 */
import { z } from 'zod/v3';
import { alertNumberSpec, TIME_OF_DAY_PATTERN, type AlertNumberKey } from './domainNumbers.ts';
import { ALERT_TYPE_NAMES, type AlertTypeName } from './monitoring.ts';

/** A domain's night when its `dates` set none (server monitoring/nightWindow.ts; the forms show it). */
export const DEFAULT_NIGHT_START = '21:00';
export const DEFAULT_NIGHT_END = '07:00';

export const ROOM_ALERT_NUMBER_KEYS = [
  'respirationRateLow',
  'respirationRateHigh',
  'heartRateLow',
  'heartRateHigh',
  'outOfBedAlertMin',
  'noBreathingAlertSec',
  'sittingUpAlertSec',
  'temperatureHigh',
] as const satisfies readonly AlertNumberKey[];
export type RoomAlertNumberKey = (typeof ROOM_ALERT_NUMBER_KEYS)[number];

/** A number within the range the domain may choose from (domainNumbers.ts), or null for the domain's. */
const numberIn = (key: RoomAlertNumberKey) => {
  const spec = alertNumberSpec(key);
  return z.number().gte(spec.min).lte(spec.max).nullable().optional();
};
const timeOfDay = z.string().regex(TIME_OF_DAY_PATTERN, 'must be HH:MM').nullable().optional();

export const roomAlertSettingsSchema = z
  .object({
    /** Alert types not raised for this room. */
    disabledTypes: z.array(z.enum(ALERT_TYPE_NAMES)).max(ALERT_TYPE_NAMES.length).optional(),
    numbers: z
      .object({
        respirationRateLow: numberIn('respirationRateLow'),
        respirationRateHigh: numberIn('respirationRateHigh'),
        heartRateLow: numberIn('heartRateLow'),
        heartRateHigh: numberIn('heartRateHigh'),
        outOfBedAlertMin: numberIn('outOfBedAlertMin'),
        noBreathingAlertSec: numberIn('noBreathingAlertSec'),
        /** Seconds sitting up before the early bed-exit alert (起きあがり); 0 switches it off for the room. */
        sittingUpAlertSec: numberIn('sittingUpAlertSec'),
        temperatureHigh: numberIn('temperatureHigh'),
      })
      .strict()
      .optional(),
    /** The room's night (out-of-bed alerts are raised in it), `HH:MM` on the domain's clock. */
    nightStart: timeOfDay,
    nightEnd: timeOfDay,
  })
  .strict();

export type RoomAlertSettings = z.infer<typeof roomAlertSettingsSchema>;

/** The domain's numbers with the room's overrides put in. */
export function withRoomNumbers<T extends Record<RoomAlertNumberKey, number>>(numbers: T, settings: RoomAlertSettings | null | undefined): T {
  const overrides = settings?.numbers;
  if (overrides === undefined) return numbers;
  const resolved = { ...numbers };
  for (const key of ROOM_ALERT_NUMBER_KEYS) {
    const value = overrides[key];
    if (typeof value === 'number' && Number.isFinite(value)) resolved[key] = value;
  }
  return resolved;
}

/** Whether the room raises alerts of this type. */
export function alertTypeEnabled(settings: RoomAlertSettings | null | undefined, type: AlertTypeName): boolean {
  return !(settings?.disabledTypes ?? []).includes(type);
}

/** The room's night in minutes after midnight, each end the domain's unless the room sets it. */
export function withRoomNight<T extends { start: number; end: number }>(night: T, settings: RoomAlertSettings | null | undefined): T {
  const minutes = (text: string | null | undefined): number | null => {
    const match = typeof text === 'string' ? /^(\d\d):(\d\d)$/.exec(text) : null;
    return match === null ? null : Number(match[1]) * 60 + Number(match[2]);
  };
  const start = minutes(settings?.nightStart);
  const end = minutes(settings?.nightEnd);
  return start === null && end === null ? night : { ...night, start: start ?? night.start, end: end ?? night.end };
}

/** The room's settings as stored, or null when they do not read as settings (a record from before the field). */
export function roomAlertSettingsOf(value: unknown): RoomAlertSettings | null {
  const parsed = roomAlertSettingsSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
