import { describe, expect, it } from 'vitest';
import { apiFilterOf, durationParts, screenFilterOf, screenParams } from './alertHistoryFilter.ts';

describe('the history filters in the address', () => {
  it('shows the last seven days by default', () => {
    expect(screenFilterOf(new URLSearchParams(''), '2026-11-24')).toEqual({ roomId: null, types: [], state: null, fromDay: '2026-11-18', toDay: '2026-11-24' });
  });

  it('reads what it knows and drops the rest', () => {
    const filter = screenFilterOf(
      new URLSearchParams('room=r1&types=button,everything,noBreathing&state=endedUnacknowledged&from=2026-11-01&to=2026-11-02'),
      '2026-11-24',
    );
    expect(filter).toEqual({ roomId: 'r1', types: ['button', 'noBreathing'], state: 'endedUnacknowledged', fromDay: '2026-11-01', toDay: '2026-11-02' });
    expect(screenFilterOf(new URLSearchParams('state=open&from=2026-12-01&to=2026-11-02'), '2026-11-24')).toMatchObject({
      state: null,
      fromDay: '2026-10-27',
      toDay: '2026-11-02',
    });
    expect(screenParams(filter)).toEqual({ room: 'r1', types: 'button,noBreathing', state: 'endedUnacknowledged', from: '2026-11-01', to: '2026-11-02' });
  });

  it('asks the API for whole days, the last one included', () => {
    const filter = apiFilterOf({ roomId: null, types: [], state: null, fromDay: '2026-11-01', toDay: '2026-11-02' });
    expect(Date.parse(filter.to ?? '') - Date.parse(filter.from ?? '')).toBe(2 * 86_400_000);
    expect(filter).not.toHaveProperty('roomId');
  });

  it('says a duration in seconds, minutes or hours and minutes', () => {
    expect(durationParts(40)).toEqual({ key: 'seconds', values: { seconds: 40 } });
    expect(durationParts(12 * 60 + 5)).toEqual({ key: 'minutes', values: { minutes: 12 } });
    expect(durationParts(65 * 60)).toEqual({ key: 'hours', values: { hours: 1, minutes: 5 } });
  });
});
