/**
 * The /report screen's choice of rooms and period, as pure functions: rooms grouped by floor, the
 * period of the chosen kind, and whether the choice can be shown (the API's limits).
 */
import { MAX_REPORT_DAYS, MAX_REPORT_ROOMS, periodAround, periodLength, isReportDay, type PeriodKind } from '@nemuri/shared/report/period';

export interface RoomChoice {
  id: string;
  name: string;
  floor: string | null;
  sortOrder: number | null;
}

export interface PeriodChoice {
  kind: PeriodKind;
  /** The day in the period (day, week, month). */
  anchor: string;
  customFrom: string;
  customTo: string;
}

export type SelectionProblem = 'noRooms' | 'tooManyRooms' | 'badDates' | 'reversed' | 'tooLong' | null;

export function sortRooms(rooms: readonly RoomChoice[]): RoomChoice[] {
  return [...rooms].sort((a, b) => (a.sortOrder ?? Infinity) - (b.sortOrder ?? Infinity) || a.name.localeCompare(b.name, 'ja'));
}

/** The floors that have rooms, in the rooms' order. */
export function floorsOf(rooms: readonly RoomChoice[]): string[] {
  return [...new Set(sortRooms(rooms).flatMap((room) => (room.floor ? [room.floor] : [])))];
}

/** Adds a floor's rooms to the chosen ones, keeping the rooms' order. */
export function withFloor(rooms: readonly RoomChoice[], chosen: readonly string[], floor: string): string[] {
  const ids = new Set([...chosen, ...rooms.filter((room) => room.floor === floor).map((room) => room.id)]);
  return sortRooms(rooms)
    .filter((room) => ids.has(room.id))
    .map((room) => room.id);
}

export function periodOf(choice: PeriodChoice): { from: string; to: string } {
  return choice.kind === 'custom' ? { from: choice.customFrom, to: choice.customTo } : periodAround(choice.kind, choice.anchor);
}

export function problemOf(roomIds: readonly string[], period: { from: string; to: string }): SelectionProblem {
  if (roomIds.length === 0) return 'noRooms';
  if (roomIds.length > MAX_REPORT_ROOMS) return 'tooManyRooms';
  if (!isReportDay(period.from) || !isReportDay(period.to)) return 'badDates';
  if (period.from > period.to) return 'reversed';
  if (periodLength(period.from, period.to) > MAX_REPORT_DAYS) return 'tooLong';
  return null;
}
