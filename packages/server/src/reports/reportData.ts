/**
 * What a report reads: the rooms and their sleep-day records for a period, through the document
 * engine with the caller's claims, so the caller's scope decides (a room outside it answers 404
 * like a missing one: a report does not say which rooms exist elsewhere). The numbers are built by
 * @nemuri/shared/report, the same code the /report screen renders.
 */
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError } from '@nemuri/shared/documents/errors';
import { daysOfPeriod, type ReportQuery } from '@nemuri/shared/report/period';
import type { RoomReport, SleepRecord } from '@nemuri/shared/report/roomReport';
import { DEFAULT_REPORT_DAY_RULE, type ReportDayRule } from '@nemuri/shared/report/sleepDayClock';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { DocumentStore } from '../documents/store.ts';
import { ApiError } from '../http/errors.ts';
import type { RoomRecords } from './reportThreads.ts';

/** One room's report and the records it was built from (the per-minute CSV needs the epochs). */
export interface LoadedReport {
  report: RoomReport;
  sleeps: ReadonlyMap<string, SleepRecord>;
}

/** Reads the domain's sleep-day settings only; the caller's scope has already admitted the room. */
const SETTINGS_READER: Claims = { uid: 'reports', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };

function roomNotFound(roomId: string): ApiError {
  return new ApiError(404, 'not-found', `no room ${roomId} in your scope`);
}

/** The room record, or 404 when it is missing or outside the caller's scope. */
export async function readRoom(store: DocumentStore, claims: Claims, roomId: string): Promise<Record<string, unknown>> {
  try {
    const found = await store.get(claims, `rooms/${roomId}`);
    if (found === null) throw roomNotFound(roomId);
    return found.document;
  } catch (error) {
    if (error instanceof DocumentError && (error.code === 'permission-denied' || error.code === 'invalid-argument' || error.code === 'not-found'))
      throw roomNotFound(roomId);
    throw error;
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The sleep-day rule of the room's domain (boundary hour, time zone), or the product's default. */
async function ruleOf(store: DocumentStore, domainId: string | null): Promise<ReportDayRule> {
  if (domainId === null) return DEFAULT_REPORT_DAY_RULE;
  const domain = (await store.get(SETTINGS_READER, `domains/${domainId}`))?.document;
  const dates = domain?.dates as { sleepDayBoundaryHour?: unknown } | undefined;
  const hour = dates?.sleepDayBoundaryHour;
  return {
    boundaryHour: typeof hour === 'number' ? hour : DEFAULT_REPORT_DAY_RULE.boundaryHour,
    timeZone: text(domain?.timeZone) ?? DEFAULT_REPORT_DAY_RULE.timeZone,
  };
}

/** The query's rooms, each read with the caller's claims: 404 for any outside their scope, before anything else is read. */
export async function readRooms(store: DocumentStore, claims: Claims, roomIds: readonly string[]): Promise<{ id: string; record: Record<string, unknown> }[]> {
  return Promise.all(roomIds.map(async (id) => ({ id, record: await readRoom(store, claims, id) })));
}

/**
 * The records of the rooms, a room at a time in the query's order, for the report threads to
 * build (reportThreads.ts). Records are read one sleep day at a time: a room collects a record a
 * night for years, and a month's report needs only its days. When `signal` aborts (the browser
 * gave up), reading stops before the next record with the signal's reason.
 */
export async function* roomRecords(
  store: DocumentStore,
  claims: Claims,
  query: ReportQuery,
  rooms: readonly { id: string; record: Record<string, unknown> }[],
  signal?: AbortSignal,
): AsyncGenerator<RoomRecords> {
  const days = daysOfPeriod(query.from, query.to);
  const rules = new Map<string, Promise<ReportDayRule>>();
  for (const { id, record } of rooms) {
    signal?.throwIfAborted();
    const domainId = text(record.domainId);
    let rule = rules.get(domainId ?? '');
    if (rule === undefined) {
      rule = ruleOf(store, domainId);
      rules.set(domainId ?? '', rule);
    }
    const sleeps = new Map<string, SleepRecord>();
    for (const day of days) {
      signal?.throwIfAborted();
      const found = await store.get(claims, `rooms/${id}/sleeps/${day}`);
      // A record that no longer matches the schema comes back as id and path only: no night to show.
      if (found !== null && typeof found.document.source === 'string') sleeps.set(day, found.document as unknown as SleepRecord);
    }
    const room = {
      id,
      name: text(record.name) ?? id,
      floor: text(record.floor),
      residentName: text(record.residentName),
      reportComment: text(record.reportComment),
    };
    yield { room, sleeps, rule: await rule };
  }
}
