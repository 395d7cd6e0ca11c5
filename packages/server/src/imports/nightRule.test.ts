/** Which imported days make sleep days: a night's half hour with data and a minute in bed; the rest is a warning. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeSleepDay, createNightEpochs, PRESENCE_IN_BED, PRESENCE_OUT_OF_BED, type EpochState } from '@nemuri/analysis/sleep';
import { createParserSync } from '@nemuri/parser/node';
import { NIGHT_MIN_MINUTES } from '@nemuri/shared/imports';
import { SHARED_DATA_DIR } from '@nemuri/simulator/eit';
import { DEFAULT_SLEEP_DAY } from '../sleep/sleepDay.ts';
import { importRecording } from './importRecording.ts';
import { keepNights } from './nightRule.ts';

const parser = createParserSync();
const EDF_DIR = join(SHARED_DATA_DIR, 'edf');
const run = (file: string) => importRecording(parser, { path: join(EDF_DIR, file), format: 'edf', rule: DEFAULT_SLEEP_DAY, source: 'upload-1' });

/** A day with `minutes` minutes from `hour`:00 Tokyo time, asleep in bed or out of bed. */
function day(hour: number, minutes: number, state: 'light' | 'outOfBed' = 'light') {
  const epochs = createNightEpochs(Date.parse('2026-11-20T12:00:00+09:00'), 1440);
  const scored = new Array<EpochState | null>(1440).fill(null);
  for (let i = (hour - 12) * 60; i < (hour - 12) * 60 + minutes; i++) {
    epochs.presence[i] = state === 'light' ? PRESENCE_IN_BED : PRESENCE_OUT_OF_BED;
    if (state === 'light') scored[i] = 'light';
  }
  return { day: '2026-11-20', record: analyzeSleepDay(epochs, 'x', scored), stages: [] };
}

describe('too short or outside the night', () => {
  it('makes no sleep day of a 5-minute afternoon PSG excerpt (Sleep-EDF SC4001, 16:13–16:18), and says why', async () => {
    const result = await run('short_psg.edf');
    const kept = keepNights(result.days, 'Asia/Tokyo');
    expect(kept.days).toEqual([]);
    expect(kept.warnings).toEqual([expect.objectContaining({ code: 'too-short', day: '1989-04-24', nightMinutes: 0 })]);
    // Five minutes of signal touch six clock minutes (the estimator's last minute runs past 16:18).
    expect(kept.warnings[0]!.minutes).toBeLessThanOrEqual(6);
  });

  it("keeps the night of a whole-day hypnogram and leaves out the next day's afternoon", async () => {
    const result = await run('SC4001EC-Hypnogram.edf');
    const kept = keepNights(result.days, 'Asia/Tokyo');
    expect(kept.days.map((entry) => entry.day)).toEqual(['1989-04-24']);
    expect(kept.warnings).toEqual([expect.objectContaining({ code: 'outside-night', day: '1989-04-25', nightMinutes: 0 })]);
    expect(kept.warnings[0]!.minutes).toBeGreaterThanOrEqual(NIGHT_MIN_MINUTES);
  });

  it('needs half an hour of the night, and a minute in bed', () => {
    expect(keepNights([day(23, 30)], 'Asia/Tokyo').warnings).toEqual([]);
    expect(keepNights([day(23, 29)], 'Asia/Tokyo').warnings).toEqual([{ code: 'too-short', day: '2026-11-20', minutes: 29, nightMinutes: 29 }]);
    // 17:00–18:29: an hour and a half, 29 minutes of it in the night.
    expect(keepNights([day(17, 89)], 'Asia/Tokyo').warnings).toEqual([{ code: 'outside-night', day: '2026-11-20', minutes: 89, nightMinutes: 29 }]);
    expect(keepNights([day(23, 120, 'outOfBed')], 'Asia/Tokyo').warnings).toEqual([{ code: 'not-in-bed', day: '2026-11-20', minutes: 120, nightMinutes: 120 }]);
    // The night is the facility's: 23:00 in Tokyo is 14:00 UTC, outside a night in UTC.
    expect(keepNights([day(23, 60)], 'UTC').warnings).toEqual([{ code: 'outside-night', day: '2026-11-20', minutes: 60, nightMinutes: 0 }]);
  });
});
