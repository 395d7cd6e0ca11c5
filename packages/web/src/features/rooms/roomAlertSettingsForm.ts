/**
 * The room form's alert settings (shared/roomAlertSettings.ts) as inputs hold them — every type on
 * or off, each number as typed ('' for the domain's), the night's ends ('' for the domain's) — and
 * the record field they become: only what differs from the domain, null when nothing does.
 */
import { ALERT_TYPE_NAMES, type AlertTypeName } from '@nemuri/shared/monitoring';
import { ROOM_ALERT_NUMBER_KEYS, type RoomAlertNumberKey, type RoomAlertSettings } from '@nemuri/shared/roomAlertSettings';

export interface AlertSettingsValues {
  /** The types the room raises. */
  enabledTypes: AlertTypeName[];
  numbers: Record<RoomAlertNumberKey, number | string>;
  nightStart: string;
  nightEnd: string;
}

export function alertSettingsValuesOf(settings: RoomAlertSettings | null | undefined): AlertSettingsValues {
  const disabled = new Set<string>(settings?.disabledTypes ?? []);
  const numbers = Object.fromEntries(ROOM_ALERT_NUMBER_KEYS.map((key) => [key, settings?.numbers?.[key] ?? ''])) as Record<RoomAlertNumberKey, number | string>;
  return {
    enabledTypes: ALERT_TYPE_NAMES.filter((type) => !disabled.has(type)),
    numbers,
    nightStart: settings?.nightStart ?? '',
    nightEnd: settings?.nightEnd ?? '',
  };
}

function numberOf(value: number | string): number | null {
  if (typeof value === 'number') return value;
  const trimmed = value.trim();
  // Typed text that is no number stays NaN, which the schema refuses.
  return trimmed === '' ? null : Number(trimmed);
}

/** The `alertSettings` field: the room's differences from its domain, or null. */
export function alertSettingsFieldOf(values: AlertSettingsValues): RoomAlertSettings | null {
  const settings: RoomAlertSettings = {};
  const disabledTypes = ALERT_TYPE_NAMES.filter((type) => !values.enabledTypes.includes(type));
  if (disabledTypes.length > 0) settings.disabledTypes = disabledTypes;
  const numbers: NonNullable<RoomAlertSettings['numbers']> = {};
  for (const key of ROOM_ALERT_NUMBER_KEYS) {
    const value = numberOf(values.numbers[key]);
    if (value !== null) numbers[key] = value;
  }
  if (Object.keys(numbers).length > 0) settings.numbers = numbers;
  if (values.nightStart.trim() !== '') settings.nightStart = values.nightStart.trim();
  if (values.nightEnd.trim() !== '') settings.nightEnd = values.nightEnd.trim();
  return Object.keys(settings).length === 0 ? null : settings;
}

/** How many settings the room sets itself (shown on the collapsed section). */
export function overrideCount(values: AlertSettingsValues): number {
  const field = alertSettingsFieldOf(values);
  if (field === null) return 0;
  return (
    (field.disabledTypes?.length ?? 0) +
    Object.keys(field.numbers ?? {}).length +
    (field.nightStart === undefined ? 0 : 1) +
    (field.nightEnd === undefined ? 0 : 1)
  );
}
