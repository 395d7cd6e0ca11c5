import dayjs from 'dayjs';
import 'dayjs/locale/ja';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import updateLocale from 'dayjs/plugin/updateLocale';
import { DATE_FORMAT, DATE_TIME_FORMAT, DEFAULT_TIME_ZONE, FIRST_DAY_OF_WEEK, TIME_FORMAT, type Language } from '@nemuri/shared/constants';

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(updateLocale);
// Both locales start weeks on Sunday, as the specification asks (English defaults to it already).
dayjs.updateLocale('ja', { weekStart: FIRST_DAY_OF_WEEK });
dayjs.updateLocale('en', { weekStart: FIRST_DAY_OF_WEEK });

export function setDateLocale(language: Language): void {
  dayjs.locale(language);
}

type DateInput = string | number | Date | dayjs.Dayjs;

export function formatDate(value: DateInput, timeZone: string = DEFAULT_TIME_ZONE): string {
  return dayjs(value).tz(timeZone).format(DATE_FORMAT);
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
