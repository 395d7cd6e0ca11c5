/**
 * The alert history (issue 18): the `alerts` records a caller may read, filtered by room, type,
 * lifecycle state and start time, newest first, with the room's name and resident and the name of
 * who acknowledged. A nurse who was away learns here what happened while they were.
 *
 * The scope is the document engine's, taken from it: the caller's level must allow listing
 * `alerts`, the rows are those of `store.scopeOf` (agency levels only their own domain's, as the
 * collection's `agencyView: 'none'` says), and every row is checked once more with the engine's
 * `visibleRow` and read with `recordOf` (schema-checked). The query itself is SQL of its own
 * because the stored `startedAt` carries any offset (`…Z` from the monitoring, `…+09:00` from
 * imports and the demo): text order is not time order, so filters and order use the instant.
 */
import { levelAllows, isAgencyLevel, type Claims, type DataScope } from '@nemuri/shared/documents/access';
import { collectionByName, type CollectionSpec } from '@nemuri/shared/documents/collections';
import { DocumentError, MESSAGES } from '@nemuri/shared/documents/errors';
import { alertStatus, type AlertStatus, type AlertTypeName } from '@nemuri/shared/monitoring';
import { severityOf, type AlertHistoryFilter, type AlertHistoryRow } from '@nemuri/shared/alertHistory';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { Data } from '@nemuri/shared/documents/update';
import type { DocumentStore } from '../documents/store.ts';
import { type Row } from '../documents/store.ts';
import { Params, scopeSql } from '../documents/sql.ts';
import { ApiError } from '../http/errors.ts';

function spec(name: string): CollectionSpec {
  const found = collectionByName(name);
  if (found === undefined) throw new Error(`no collection ${name}`);
  return found;
}
const ALERTS = spec('alerts');
const ROOMS = spec('rooms');

/**
 * `startedAt` as an instant, null for text PostgreSQL would not cast (a record can only hold a valid
 * ISO 8601 time, but a year 0000 or an offset beyond ±15:59 passes the schema and fails the cast, and
 * one failing cast would fail every tenant's query): the guard keeps the expression total.
 */
const STARTED_AT = `(case when data ->> 'startedAt' ~ '^(?!0000)\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d(:\\d\\d(\\.\\d+)?)?(Z|[+-](0\\d|1[0-5]):?\\d\\d)$' then (data ->> 'startedAt')::timestamptz end)`;

const STATE_SQL: Readonly<Record<AlertStatus, string>> = {
  activeUnacknowledged: `coalesce(data ->> 'endedAt', '') = '' and coalesce(data ->> 'acknowledgedAt', '') = ''`,
  activeAcknowledged: `coalesce(data ->> 'endedAt', '') = '' and coalesce(data ->> 'acknowledgedAt', '') <> ''`,
  endedUnacknowledged: `coalesce(data ->> 'endedAt', '') <> '' and coalesce(data ->> 'acknowledgedAt', '') = ''`,
  endedAcknowledged: `coalesce(data ->> 'endedAt', '') <> '' and coalesce(data ->> 'acknowledgedAt', '') <> ''`,
};

/** Where a page starts: after this alert's instant and path (the order's tie-breaker). */
interface PageStart {
  startedAt: string;
  path: string;
}

export interface AlertSelection {
  filter: AlertHistoryFilter;
  /** At most this many rows. */
  limit: number;
  after?: PageStart | undefined;
}

/** The caller's scope over `alerts`, as the engine reads it; a level that may not list alerts is refused. */
async function alertScope(store: DocumentStore, claims: Claims): Promise<DataScope> {
  if (!levelAllows(ALERTS, 'list', claims.accessLevel)) throw new DocumentError('permission-denied', MESSAGES.outOfScope);
  const scope = await store.scopeOf(claims, store.database, ALERTS);
  // `agencyView: 'none'`: an agency reads the alerts of its own domain only, never its partners'.
  if (ALERTS.agencyView === 'none' && isAgencyLevel(claims))
    return claims.domainId === null ? { kind: 'none' } : { kind: 'domains', domainIds: [claims.domainId], rootDomainIds: [] };
  return scope;
}

/** A room filter must name a room the caller reads: another tenant's room answers like a missing one. */
export async function checkRoomFilter(store: DocumentStore, claims: Claims, roomId: string | undefined): Promise<void> {
  if (roomId === undefined) return;
  if ((await store.get(claims, `rooms/${roomId}`)) === null) throw new ApiError(404, 'not-found', `No room ${roomId}`);
}

/** A page cursor names an alert the caller reads; any other answers 404. */
export async function pageStartOf(store: DocumentStore, claims: Claims, cursor: string | undefined): Promise<PageStart | undefined> {
  if (cursor === undefined) return undefined;
  const found = await store.get(claims, `alerts/${cursor}`);
  const startedAt = found?.document.startedAt;
  if (found === null || typeof startedAt !== 'string' || Number.isNaN(Date.parse(startedAt)))
    throw new ApiError(404, 'not-found', `No alert ${cursor} to continue after`);
  return { startedAt: new Date(startedAt).toISOString(), path: `alerts/${cursor}` };
}

/** The alert records of a selection in the caller's scope, newest first. */
export async function selectAlerts(store: DocumentStore, claims: Claims, selection: AlertSelection): Promise<{ row: Row; record: Data }[]> {
  const scope = await alertScope(store, claims);
  const params = new Params();
  const where = [`collection = 'alerts'`, scopeSql(params, ALERTS, scope, claims.accessLevel), `${STARTED_AT} is not null`];
  const { filter, after } = selection;
  if (filter.roomId !== undefined) where.push(`room_id = ${params.add(filter.roomId)}`);
  if (filter.types !== undefined) where.push(`data ->> 'type' = any(${params.add(`{${filter.types.join(',')}}`)}::text[])`);
  if (filter.state !== undefined) where.push(STATE_SQL[filter.state]);
  if (filter.from !== undefined) where.push(`${STARTED_AT} >= ${params.add(filter.from)}::timestamptz`);
  if (filter.to !== undefined) where.push(`${STARTED_AT} < ${params.add(filter.to)}::timestamptz`);
  if (after !== undefined) {
    const at = params.add(after.startedAt);
    where.push(`(${STARTED_AT} < ${at}::timestamptz or (${STARTED_AT} = ${at}::timestamptz and path < ${params.add(after.path)}::text collate "C"))`);
  }
  const { rows } = await store.database.query<{ path: string }>(
    `select path from documents where ${where.join(' and ')} order by ${STARTED_AT} desc, path collate "C" desc limit ${params.add(selection.limit)}`,
    params.values,
  );
  const byPath = new Map((await store.rowsAt(rows.map((row) => row.path))).map((row) => [row.path, row]));
  const found: { row: Row; record: Data }[] = [];
  for (const { path } of rows) {
    const row = byPath.get(path);
    // Read again by path: a record deleted in between is left out, and each is checked as the engine reads it.
    if (row === undefined || !store.visibleRow(ALERTS, claims, scope, row)) continue;
    found.push({ row, record: store.recordOf(ALERTS, row, claims) });
  }
  return found;
}

interface RoomNames {
  name: string;
  residentName: string | null;
}

/** The names of the rooms the caller reads (what their view of the room shows). */
async function roomNames(store: DocumentStore, claims: Claims, roomIds: readonly string[]): Promise<Map<string, RoomNames>> {
  const names = new Map<string, RoomNames>();
  if (roomIds.length === 0 || !levelAllows(ROOMS, 'read', claims.accessLevel)) return names;
  const scope = await store.scopeOf(claims, store.database, ROOMS);
  for (const row of await store.rowsAt(roomIds.map((id) => `rooms/${id}`))) {
    if (!store.visibleRow(ROOMS, claims, scope, row)) continue;
    const room = store.recordOf(ROOMS, row, claims);
    names.set(row.id, {
      name: typeof room.name === 'string' ? room.name : row.id,
      residentName: typeof room.residentName === 'string' && room.residentName !== '' ? room.residentName : null,
    });
  }
  return names;
}

/**
 * Who acknowledged, by name: for staff of the facility (level 2+), from the staff record of that uid
 * in the alert's own tenant (its domain or root domain). A family member (level 1) sees that it was
 * acknowledged, not by whom; a uid of another tenant is never looked up.
 */
async function acknowledgerNames(store: DocumentStore, claims: Claims, rows: readonly Row[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (claims.accessLevel < ROLE_LEVELS.generalStaff) return names;
  const uids = [...new Set(rows.map((row) => row.data.acknowledgedBy).filter((uid): uid is string => typeof uid === 'string' && uid !== ''))];
  if (uids.length === 0) return names;
  const params = new Params();
  const { rows: staff } = await store.database.query<{ id: string; domain_id: string | null; root_domain_id: string | null; name: unknown }>(
    `select id, domain_id, root_domain_id, data -> 'displayName' as name from documents where collection_group = 'staff' and ${params.anyOf('id', uids)}`,
    params.values,
  );
  for (const row of rows) {
    const uid = row.data.acknowledgedBy;
    if (typeof uid !== 'string') continue;
    const member = staff.find(
      (candidate) =>
        candidate.id === uid &&
        typeof candidate.name === 'string' &&
        (candidate.domain_id === row.domain_id || (candidate.root_domain_id !== null && candidate.root_domain_id === row.root_domain_id)),
    );
    if (member !== undefined) names.set(`${row.path} ${uid}`, member.name as string);
  }
  return names;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The rows as the history lists them; durations of alerts still active run until `at`. */
export async function historyRows(store: DocumentStore, claims: Claims, found: readonly { row: Row; record: Data }[], at: number): Promise<AlertHistoryRow[]> {
  const rooms = await roomNames(store, claims, [...new Set(found.map(({ row }) => row.room_id).filter((id): id is string => id !== null))]);
  const acknowledgers = await acknowledgerNames(
    store,
    claims,
    found.map(({ row }) => row),
  );
  return found.map(({ row, record }) => {
    const type = record.type as AlertTypeName;
    const startedAt = String(record.startedAt);
    const endedAt = text(record.endedAt);
    const acknowledgedBy = text(record.acknowledgedBy);
    const room = row.room_id === null ? undefined : rooms.get(row.room_id);
    const end = endedAt === null ? at : Date.parse(endedAt);
    return {
      id: row.id,
      domainId: String(record.domainId),
      roomId: row.room_id,
      roomName: room?.name ?? null,
      residentName: room?.residentName ?? null,
      type,
      severity: severityOf(type),
      status: alertStatus({ endedAt, acknowledgedAt: text(record.acknowledgedAt) }),
      startedAt,
      endedAt,
      durationSec: Math.max(0, Math.round((end - Date.parse(startedAt)) / 1000)),
      acknowledgedAt: text(record.acknowledgedAt),
      acknowledgedBy,
      acknowledgedByName: acknowledgedBy === null ? null : (acknowledgers.get(`${row.path} ${acknowledgedBy}`) ?? null),
    };
  });
}
