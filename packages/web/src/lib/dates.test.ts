import { describe, expect, it } from 'vitest';
import { dayjs, formatDate, formatDateTime, formatTime, setDateLocale } from './dates.ts';

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
});
