/** The /report choice: floors, adding a floor's rooms in order, periods and the API's limits. */
import { describe, expect, it } from 'vitest';
import { floorsOf, periodOf, problemOf, withFloor, type RoomChoice } from './reportSelection.ts';

const rooms: RoomChoice[] = [
  { id: 'b', name: '102号室', floor: '1F', sortOrder: 2 },
  { id: 'c', name: '201号室', floor: '2F', sortOrder: 3 },
  { id: 'a', name: '101号室', floor: '1F', sortOrder: 1 },
  { id: 'd', name: '相談室', floor: null, sortOrder: null },
];

describe('report selection', () => {
  it("lists floors and adds a floor's rooms in the rooms' order", () => {
    expect(floorsOf(rooms)).toEqual(['1F', '2F']);
    expect(withFloor(rooms, ['c'], '1F')).toEqual(['a', 'b', 'c']);
  });

  it('makes the period of each kind and checks it', () => {
    const choice = { kind: 'month' as const, anchor: '2026-11-19', customFrom: '2026-11-01', customTo: '2026-11-03' };
    expect(periodOf(choice)).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(periodOf({ ...choice, kind: 'day' })).toEqual({ from: '2026-11-19', to: '2026-11-19' });
    expect(periodOf({ ...choice, kind: 'custom' })).toEqual({ from: '2026-11-01', to: '2026-11-03' });
    expect(problemOf([], { from: '2026-11-01', to: '2026-11-30' })).toBe('noRooms');
    expect(problemOf(['a'], { from: '2026-11-30', to: '2026-11-01' })).toBe('reversed');
    expect(problemOf(['a'], { from: '', to: '2026-11-01' })).toBe('badDates');
    expect(problemOf(['a'], { from: '2025-01-01', to: '2026-11-01' })).toBe('tooLong');
    expect(problemOf(['a'], { from: '2026-11-01', to: '2026-11-30' })).toBeNull();
  });
});
