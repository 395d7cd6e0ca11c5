/**
 * A domain's night (its `dates.nightStart`–`nightEnd`, default 21:00–07:00, in its time zone,
 * default Asia/Tokyo). Out-of-bed alerts are for the night: in the daytime residents are up, and
 * a grid full of 「離床」 would hide what matters.
 */
import { DEFAULT_NIGHT_END, DEFAULT_NIGHT_START } from '@nemuri/shared/roomAlertSettings';

export interface NightWindow {
  /** Minutes after midnight. */
  start: number;
  end: number;
  timeZone: string;
}

function minutesOf(text: unknown): number | null {
  const match = typeof text === 'string' ? /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(text) : null;
  return match === null ? null : Number(match[1]) * 60 + Number(match[2]);
}

export const DEFAULT_NIGHT: NightWindow = { start: minutesOf(DEFAULT_NIGHT_START) ?? 0, end: minutesOf(DEFAULT_NIGHT_END) ?? 0, timeZone: 'Asia/Tokyo' };

/** The window from a domain record's `dates` and `timeZone`, each part falling back to the default. */
export function nightWindowOf(dates: { nightStart?: unknown; nightEnd?: unknown } | null | undefined, timeZone: unknown): NightWindow {
  const zone = typeof timeZone === 'string' && timeZone !== '' && isTimeZone(timeZone) ? timeZone : DEFAULT_NIGHT.timeZone;
  return { start: minutesOf(dates?.nightStart) ?? DEFAULT_NIGHT.start, end: minutesOf(dates?.nightEnd) ?? DEFAULT_NIGHT.end, timeZone: zone };
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** Whether `atMs` falls in the night (which may span midnight). */
export function inNight(window: NightWindow, atMs: number): boolean {
  let format = formats.get(window.timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone: window.timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formats.set(window.timeZone, format);
  }
  const parts = format.formatToParts(new Date(atMs));
  const minute = Number(parts.find((part) => part.type === 'hour')?.value) * 60 + Number(parts.find((part) => part.type === 'minute')?.value);
  return window.start > window.end ? minute >= window.start || minute < window.end : minute >= window.start && minute < window.end;
}
