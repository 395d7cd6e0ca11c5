import { describe, expect, it } from 'vitest';
import { DEFAULT_NIGHT, inNight, nightWindowOf } from './nightWindow.ts';

const tokyo = (time: string) => Date.parse(`2026-11-20T${time}:00+09:00`);

describe('the night window', () => {
  it('spans midnight by default, 21:00 to 07:00 in Tokyo', () => {
    expect(inNight(DEFAULT_NIGHT, tokyo('20:59'))).toBe(false);
    expect(inNight(DEFAULT_NIGHT, tokyo('21:00'))).toBe(true);
    expect(inNight(DEFAULT_NIGHT, tokyo('03:00'))).toBe(true);
    expect(inNight(DEFAULT_NIGHT, tokyo('06:59'))).toBe(true);
    expect(inNight(DEFAULT_NIGHT, tokyo('07:00'))).toBe(false);
    expect(inNight(DEFAULT_NIGHT, tokyo('12:00'))).toBe(false);
  });

  it("takes the domain's times and zone, and falls back on malformed ones", () => {
    const day = nightWindowOf({ nightStart: '13:00', nightEnd: '15:00' }, 'Asia/Tokyo');
    expect(inNight(day, tokyo('14:00'))).toBe(true);
    expect(inNight(day, tokyo('16:00'))).toBe(false);
    expect(nightWindowOf({ nightStart: '25:00', nightEnd: 'soon' }, 'Mars/Olympus')).toEqual(DEFAULT_NIGHT);
    const utc = nightWindowOf(undefined, 'UTC');
    // 21:00 UTC is 06:00 the next morning in Tokyo.
    expect(inNight(utc, Date.parse('2026-11-20T21:30:00Z'))).toBe(true);
    expect(inNight(utc, Date.parse('2026-11-20T12:30:00Z'))).toBe(false);
  });
});
