/**
 * Which shift is on duty at a moment (recipients.ts `shiftAt`): the night belongs to the day it
 * began, so the small hours go to the previous day's night shift; the boundaries are the domain's
 * night window, on the domain's clock.
 */
import { describe, expect, it } from 'vitest';
import { nightWindowOf } from '../monitoring/nightWindow.ts';
import { shiftAt } from './recipients.ts';

/** A moment given as Tokyo wall-clock time. */
const tokyo = (local: string) => Date.parse(`${local}+09:00`);

describe('shiftAt', () => {
  const night = nightWindowOf({ nightStart: '21:00', nightEnd: '07:00' }, 'Asia/Tokyo');

  it.each([
    ['2026-03-10T12:00:00', { day: '2026-03-10', shift: 'day' }],
    ['2026-03-10T20:59:59', { day: '2026-03-10', shift: 'day' }],
    ['2026-03-10T21:00:00', { day: '2026-03-10', shift: 'night' }],
    ['2026-03-10T23:59:59', { day: '2026-03-10', shift: 'night' }],
    ['2026-03-11T00:00:00', { day: '2026-03-10', shift: 'night' }],
    ['2026-03-11T02:00:00', { day: '2026-03-10', shift: 'night' }],
    ['2026-03-11T06:59:59', { day: '2026-03-10', shift: 'night' }],
    ['2026-03-11T07:00:00', { day: '2026-03-11', shift: 'day' }],
  ])('at %s in Tokyo is %o', (local, expected) => {
    expect(shiftAt(night, tokyo(local))).toEqual(expected);
  });

  it('gives the small hours of the first of a month and of a year to the night before', () => {
    expect(shiftAt(night, tokyo('2026-04-01T03:00:00'))).toEqual({ day: '2026-03-31', shift: 'night' });
    expect(shiftAt(night, tokyo('2027-01-01T01:30:00'))).toEqual({ day: '2026-12-31', shift: 'night' });
  });

  it('reads the clock of the domain’s time zone, not the server’s', () => {
    const london = nightWindowOf({ nightStart: '22:00', nightEnd: '06:00' }, 'Europe/London');
    // 02:00 in London (UTC in March before summer time) is 11:00 in Tokyo.
    expect(shiftAt(london, Date.parse('2026-03-11T02:00:00Z'))).toEqual({ day: '2026-03-10', shift: 'night' });
    expect(shiftAt(night, Date.parse('2026-03-11T02:00:00Z'))).toEqual({ day: '2026-03-11', shift: 'day' });
  });

  it('keeps a night that begins after midnight on its own calendar day', () => {
    const late = nightWindowOf({ nightStart: '00:30', nightEnd: '06:00' }, 'Asia/Tokyo');
    expect(shiftAt(late, tokyo('2026-03-11T00:15:00'))).toEqual({ day: '2026-03-11', shift: 'day' });
    expect(shiftAt(late, tokyo('2026-03-11T02:00:00'))).toEqual({ day: '2026-03-11', shift: 'night' });
    expect(shiftAt(late, tokyo('2026-03-11T06:00:00'))).toEqual({ day: '2026-03-11', shift: 'day' });
  });
});
