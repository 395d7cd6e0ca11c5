import dayjs from 'dayjs';
import 'dayjs/locale/ja';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import updateLocale from 'dayjs/plugin/updateLocale';
import { DATE_FORMAT, DATE_TIME_FORMAT, DEFAULT_TIME_ZONE, FIRST_DAY_OF_WEEK, TIME_FORMAT, type Language } from '@nemuri/shared/constants';
import { i18next, isLanguage } from './i18n.ts';

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(updateLocale);
// Both locales start weeks on Sunday, as the specification asks (English defaults to it already).
dayjs.updateLocale('ja', { weekStart: FIRST_DAY_OF_WEEK });
dayjs.updateLocale('en', { weekStart: FIRST_DAY_OF_WEEK });

export function setDateLocale(language: Language): void {
  dayjs.locale(language);
}

// Dates follow the interface language. This module (and dayjs with it) loads with the first screen
// that shows a date, not with the first page, so it picks up the language chosen by then and
// every later change from wherever it is made.
const followLanguage = (language: string | undefined) => {
  if (isLanguage(language)) setDateLocale(language);
};
followLanguage(i18next.language);
i18next.on('languageChanged', followLanguage);

type DateInput = string | number | Date | dayjs.Dayjs;

export function formatDate(value: DateInput, timeZone: string = DEFAULT_TIME_ZONE): string {
  return dayjs(value).tz(timeZone).format(DATE_FORMAT);
}

/**
 * A calendar day stored as `YYYY-MM-DD` (due dates, contract dates, report days) in the product's
 * form `YYYY/MM/DD`, without passing through an instant (no time zone can shift it).
 */
export function formatDay(day: string): string {
  return /^\d{4}-\d\d-\d\d$/.test(day) ? day.replaceAll('-', '/') : day;
}

export function formatTime(value: DateInput, timeZone: string = DEFAULT_TIME_ZONE): string {
  return dayjs(value).tz(timeZone).format(TIME_FORMAT);
}

export function formatDateTime(value: DateInput, timeZone: string = DEFAULT_TIME_ZONE): string {
  return dayjs(value).tz(timeZone).format(DATE_TIME_FORMAT);
}

/** A time to the second, for events that happen seconds apart (nurse-call presses). */
export function formatTimeWithSeconds(value: DateInput, timeZone: string = DEFAULT_TIME_ZONE): string {
  return dayjs(value).tz(timeZone).format(`${TIME_FORMAT}:ss`);
}

export { dayjs };

/**
 * A wall-clock date and time as a file writes it, without a zone (`1989-04-24T16:13:00`, `2026/11/20 22:15`),
 * in the product's form (`1989/04/24 16:13:00`); any other text as it is.
 */
export function formatLocalDateTime(text: string): string {
  const match = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (match === null) return text;
  const [, y, mo, d, h, mi, s] = match;
  const two = (value: string | undefined) => (value ?? '').padStart(2, '0');
  return `${y}/${two(mo)}/${two(d)} ${two(h)}:${mi}${s === undefined ? '' : `:${s}`}`;
}

/** Whole hours and remaining minutes of a duration in minutes (rounded to the minute). */
export function hoursMinutes(minutes: number): { h: number; m: number } {
  const total = Math.round(minutes);
  return { h: Math.floor(total / 60), m: total % 60 };
}
