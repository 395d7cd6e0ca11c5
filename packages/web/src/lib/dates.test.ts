import { describe, expect, it } from 'vitest';
import { dayjs, formatDate, formatDateTime, formatDay, formatLocalDateTime, formatTime, setDateLocale } from './dates.ts';

describe('dates', () => {
  it('shows YYYY/MM/DD and 24-hour time in Asia/Tokyo unless told otherwise', () => {
    const instant = '2026-11-22T15:30:00Z';
    expect(formatDate(instant)).toBe('2026/11/23');
    expect(formatTime(instant)).toBe('00:30');
    expect(formatDateTime('2026-11-22T13:05:00Z')).toBe('2026/11/22 22:05');
    expect(formatDateTime(instant, 'UTC')).toBe('2026/11/22 15:30');
  });

  it('starts weeks on Sunday in Japanese and English', () => {
    for (const language of ['ja', 'en'] as const) {
      setDateLocale(language);
      expect(dayjs('2026-11-25').startOf('week').format('YYYY-MM-DD dddd')).toMatch(/^2026-11-22 /);
    }
    setDateLocale('ja');
    expect(dayjs('2026-11-22').format('dd')).toBe('日');
  });

  it('writes stored days and the wall-clock times files give in the same YYYY/MM/DD form', () => {
    expect(formatDay('1989-04-24')).toBe('1989/04/24');
    expect(formatDay('not a day')).toBe('not a day');
    expect(formatLocalDateTime('1989-04-24T16:13:00')).toBe('1989/04/24 16:13:00');
    expect(formatLocalDateTime('2026/11/20 22:15')).toBe('2026/11/20 22:15');
    expect(formatLocalDateTime('2026-1-2 3:04')).toBe('2026/01/02 03:04');
    expect(formatLocalDateTime('yesterday')).toBe('yesterday');
  });
});
