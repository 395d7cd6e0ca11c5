/**
 * A person's quiet hours (notificationSettings.ts `inQuietHours`): start inclusive, end exclusive,
 * on the domain's clock, and a window whose start is later than its end spans midnight.
 */
import { describe, expect, it } from 'vitest';
import { inQuietHours } from './notificationSettings.ts';

const tokyo = (local: string) => Date.parse(`2026-03-10T${local}:00+09:00`);

describe('inQuietHours', () => {
  it('is never quiet without quiet hours', () => {
    expect(inQuietHours(null, tokyo('02:00'), 'Asia/Tokyo')).toBe(false);
  });

  it.each([
    ['21:59', false],
    ['22:00', true],
    ['23:59', true],
    ['00:00', true],
    ['02:00', true],
    ['05:59', true],
    ['06:00', false],
    ['12:00', false],
  ])('spans midnight (22:00–06:00): %s is quiet: %s', (local, quiet) => {
    expect(inQuietHours({ start: '22:00', end: '06:00' }, tokyo(local), 'Asia/Tokyo')).toBe(quiet);
  });

  it.each([
    ['12:59', false],
    ['13:00', true],
    ['14:30', true],
    ['15:00', false],
    ['02:00', false],
  ])('within one day (13:00–15:00): %s is quiet: %s', (local, quiet) => {
    expect(inQuietHours({ start: '13:00', end: '15:00' }, tokyo(local), 'Asia/Tokyo')).toBe(quiet);
  });

  it('reads the domain’s clock: 02:00 in Tokyo is 17:00 in UTC', () => {
    const quiet = { start: '22:00', end: '06:00' };
    expect(inQuietHours(quiet, tokyo('02:00'), 'Asia/Tokyo')).toBe(true);
    expect(inQuietHours(quiet, tokyo('02:00'), 'UTC')).toBe(false);
  });

  it('is an empty window when start and end are the same', () => {
    for (const local of ['00:00', '08:00', '08:01', '23:59']) expect(inQuietHours({ start: '08:00', end: '08:00' }, tokyo(local), 'Asia/Tokyo')).toBe(false);
  });
});
