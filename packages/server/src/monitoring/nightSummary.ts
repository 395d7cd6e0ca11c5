/**
 * A room's night shift at a glance (issue 18): between the night's start and end — its domain's
 * `dates.nightStart`–`nightEnd`, or the room's own (rooms.alertSettings) — how many alerts of each
 * type started, how often and how long the resident was out of bed, and how long they slept.
 *
 * Night `D` begins on the evening of `D` (as sleep day `D` does) and is read from the stored alerts
 * and the sleep record `rooms/{roomId}/sleeps/{D}`: the minutes of its epochs that fall in the shift,
 * or the record's totals for the whole sleep day when it has no epochs. Everything is read with the
 * caller's claims, so a room, alert or sleep record the caller may not read adds nothing. Without a
 * day the latest night begun on the facility's clock is answered, never one of the caller's calendar.
 */
import { NIGHT_SUMMARY_MAX_ROOMS, type NightSummary, type NightSummaryAnswer, type NightSummaryQuery } from '@nemuri/shared/alertHistory';
import { readsWhole, type Claims } from '@nemuri/shared/documents/access';
import type { Data } from '@nemuri/shared/documents/update';
import type { AlertTypeName } from '@nemuri/shared/monitoring';
import { roomAlertSettingsOf, withRoomNight } from '@nemuri/shared/roomAlertSettings';
import type { DocumentStore } from '../documents/store.ts';
import { ApiError } from '../http/errors.ts';
import { zonedDateTime } from '../sleep/sleepDay.ts';
import { selectAlerts } from './alertHistory.ts';
import { nightWindowOf, type NightWindow } from './nightWindow.ts';

/** Alerts read for one answer at most; a night of 200 rooms rarely has a tenth of it. */
const MAX_ALERTS = 5_000;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

type EpochState = 'awake' | 'light' | 'deep' | 'rem' | 'outOfBed' | 'unknown';
const ASLEEP: ReadonlySet<string> = new Set(['light', 'deep', 'rem']);

interface SleepRecord {
  epochStart?: string | null;
  bedTime?: string | null;
  epochs?: { state: EpochState }[];
  outOfBedCount?: number;
  outOfBedMin?: number;
  totalSleepMin?: number;
}

/** When epoch 0 begins: `epochStart`, else `bedTime` less the epochs before the first in bed. */
export function epochOrigin(record: SleepRecord): number | null {
  const start = record.epochStart ? Date.parse(record.epochStart) : Number.NaN;
  if (!Number.isNaN(start)) return start;
  const bed = record.bedTime ? Date.parse(record.bedTime) : Number.NaN;
  if (Number.isNaN(bed)) return null;
  const first = (record.epochs ?? []).findIndex((epoch) => epoch.state !== 'outOfBed' && epoch.state !== 'unknown');
  return bed - Math.max(0, first) * MINUTE_MS;
}

/**
 * Out-of-bed episodes (a run of out-of-bed minutes after a minute in bed), out-of-bed minutes and
 * minutes asleep within [startMs, endMs); the record's totals without epochs; nulls without a record.
 */
export function shiftSleep(record: SleepRecord | null, startMs: number, endMs: number): Pick<NightSummary, 'outOfBedCount' | 'outOfBedMin' | 'sleepMin'> {
  if (record === null) return { outOfBedCount: null, outOfBedMin: null, sleepMin: null };
  const epochs = record.epochs ?? [];
  const origin = epochOrigin(record);
  if (epochs.length === 0 || origin === null)
    return { outOfBedCount: record.outOfBedCount ?? null, outOfBedMin: record.outOfBedMin ?? null, sleepMin: record.totalSleepMin ?? null };
  let outOfBedCount = 0;
  let outOfBedMin = 0;
  let sleepMin = 0;
  let previous: EpochState | null = null;
  for (let index = 0; index < epochs.length; index++) {
    const at = origin + index * MINUTE_MS;
    const state = epochs[index]!.state;
    if (at >= startMs && at < endMs) {
      if (state === 'outOfBed') {
        outOfBedMin++;
        if (previous !== null && previous !== 'outOfBed' && previous !== 'unknown') outOfBedCount++;
      } else if (ASLEEP.has(state)) sleepMin++;
    }
    previous = state;
  }
  return { outOfBedCount, outOfBedMin, sleepMin };
}

const clock = (minutes: number): string => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

const nextDay = (day: string): string => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/**
 * The shift of night `day` as instants. It begins on the evening of `day`, or in the small hours
 * after it when the night starts before noon (01:00–05:00), and ends the next time its end comes.
 */
export function shiftOf(day: string, night: NightWindow): { startMs: number; endMs: number } {
  const startDay = night.start < 12 * 60 ? nextDay(day) : day;
  const endDay = night.end <= night.start ? nextDay(startDay) : startDay;
  return {
    startMs: zonedDateTime(`${startDay}T${clock(night.start)}:00`, night.timeZone),
    endMs: zonedDateTime(`${endDay}T${clock(night.end)}:00`, night.timeZone),
  };
}

/** The date `atMs` falls on in `timeZone`, as `YYYY-MM-DD`. */
function wallDay(atMs: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(atMs));
}

/**
 * The latest night of this window that has begun at `nowMs`, on the facility's clock: at 20:00 in
 * Tokyo with nights from 21:00 that is yesterday's (it ended this morning), at 21:00 today's.
 */
export function latestNightOf(night: NightWindow, nowMs: number): string {
  const today = wallDay(nowMs, night.timeZone);
  for (let back = -1; back <= 2; back++) {
    const day = new Date(Date.parse(`${today}T00:00:00Z`) - back * DAY_MS).toISOString().slice(0, 10);
    if (shiftOf(day, night).startMs <= nowMs) return day;
  }
  return today;
}

interface RoomInShift {
  id: string;
  name: string;
  startMs: number;
  endMs: number;
}

/** The rooms asked for, as the caller reads them: one (404 when out of scope) or those with a device. */
async function roomsOf(store: DocumentStore, claims: Claims, roomId: string | undefined): Promise<{ rooms: Data[]; truncated: boolean }> {
  if (roomId !== undefined) {
    const found = await store.get(claims, `rooms/${roomId}`);
    if (found === null) throw new ApiError(404, 'not-found', `No room ${roomId}`);
    return { rooms: [found.document], truncated: false };
  }
  const rooms = await store.query(claims, { collection: 'rooms', where: [['deviceSerial', '>', '']], limit: NIGHT_SUMMARY_MAX_ROOMS + 1 });
  return { rooms: rooms.slice(0, NIGHT_SUMMARY_MAX_ROOMS), truncated: rooms.length > NIGHT_SUMMARY_MAX_ROOMS };
}

export async function nightSummaries(store: DocumentStore, claims: Claims, query: NightSummaryQuery, nowMs: number = Date.now()): Promise<NightSummaryAnswer> {
  const found = await roomsOf(store, claims, query.roomId);
  // An agency reads its partners' rooms, never their alerts or sleep: they have no night to sum up.
  const rooms = found.rooms.filter((room) => readsWhole(claims, typeof room.domainId === 'string' ? room.domainId : null));
  const domainIds = [...new Set(rooms.map((room) => String(room.domainId)))];
  const nights = new Map<string, NightWindow>();
  for (const row of await store.rowsAt(domainIds.map((id) => `domains/${id}`)))
    nights.set(row.id, nightWindowOf(row.data.dates as Record<string, unknown> | undefined, row.data.timeZone));
  const roomNights = rooms.map((room) => ({
    room,
    night: withRoomNight(nights.get(String(room.domainId)) ?? nightWindowOf(null, null), roomAlertSettingsOf(room.alertSettings)),
  }));
  // Unasked, the latest night begun in any of the rooms (they share a clock unless facilities differ).
  const day =
    query.day ??
    (roomNights.length === 0
      ? latestNightOf(nightWindowOf(null, null), nowMs)
      : roomNights.map(({ night }) => latestNightOf(night, nowMs)).reduce((a, b) => (a > b ? a : b)));
  const shifts: RoomInShift[] = roomNights.map(({ room, night }) => ({
    id: String(room.documentReferenceId),
    name: typeof room.name === 'string' ? room.name : String(room.documentReferenceId),
    ...shiftOf(day, night),
  }));
  if (shifts.length === 0) return { day, rooms: [], truncated: found.truncated };

  const from = Math.min(...shifts.map((shift) => shift.startMs));
  const to = Math.max(...shifts.map((shift) => shift.endMs));
  const alerts = await selectAlerts(store, claims, {
    filter: { ...(query.roomId === undefined ? {} : { roomId: query.roomId }), from: new Date(from).toISOString(), to: new Date(to).toISOString() },
    limit: MAX_ALERTS,
  });
  const alertsByRoom = new Map<string, { type: AlertTypeName; at: number }[]>();
  for (const { row, record } of alerts) {
    if (row.room_id === null) continue;
    const list = alertsByRoom.get(row.room_id) ?? [];
    list.push({ type: record.type as AlertTypeName, at: Date.parse(String(record.startedAt)) });
    alertsByRoom.set(row.room_id, list);
  }

  const summaries: NightSummary[] = [];
  for (const shift of shifts) {
    const alertsByType: Partial<Record<AlertTypeName, number>> = {};
    let alertCount = 0;
    for (const alert of alertsByRoom.get(shift.id) ?? []) {
      if (!(alert.at >= shift.startMs && alert.at < shift.endMs)) continue;
      alertsByType[alert.type] = (alertsByType[alert.type] ?? 0) + 1;
      alertCount++;
    }
    const sleep = await store.get(claims, `rooms/${shift.id}/sleeps/${day}`);
    summaries.push({
      roomId: shift.id,
      roomName: shift.name,
      start: new Date(shift.startMs).toISOString(),
      end: new Date(shift.endMs).toISOString(),
      alertsByType,
      alertCount,
      ...shiftSleep((sleep?.document as SleepRecord | undefined) ?? null, shift.startMs, shift.endMs),
    });
  }
  return { day, rooms: summaries, truncated: found.truncated };
}
