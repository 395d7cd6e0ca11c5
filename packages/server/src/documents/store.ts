/**
 * The document engine over our Database (PGlite or PostgreSQL).
 *
 * Storage: one JSONB table, `documents` (migration 002), rather than a table per collection.
 * - The registry (packages/shared/src/documents) is the schema: zod validates every write, so
 *   a new field or collection needs no migration, and reads check the schema again (a record
 *   that no longer matches comes back as id and path only).
 * - Queries are on arbitrary fields with ten operators, several orderings and cursors: `data #>
 *   path` on jsonb compares like-typed values natively; per-collection tables would need the same
 *   dynamic SQL plus DDL per field.
 * - Tenancy is denormalised into plain columns (`domain_id`, `root_domain_id`, `room_id`)
 *   computed at write time from the registry's tenancy rule, so every query's scope is an indexed
 *   equality/IN on columns, never a JSON lookup or a join. Collection-group queries use
 *   `collection_group` (indexed with each tenant column).
 * - `version` counts writes (optimistic concurrency for transactions).
 * - Scale-out (PRODUCT.md section 2): the table partitions or shards by `root_domain_id`, since
 *   every scope below level 50 lies within one root domain.
 * Paths are `collate "C"` so that paging by path is byte order on both databases.
 * Hot fields can get expression indexes later (e.g. `(data #> '{startedAt}')` on alerts)
 * without changing the engine.
 */
import { randomUUID } from 'node:crypto';
import {
  dataScopeOf,
  factsNeeded,
  guardAllowsView,
  guardAllowsWrite,
  inScope,
  isAgencyLevel,
  levelAllows,
  readsWhole,
  type Claims,
  type DataScope,
  type RecordTenant,
} from '@nemuri/shared/documents/access';
import type { CollectionSpec, Operation } from '@nemuri/shared/documents/collections';
import { collectionByGroup, collectionByName } from '@nemuri/shared/documents/collections';
import { DocumentError, MESSAGES } from '@nemuri/shared/documents/errors';
import { parseCollectionPath, parseDocumentPath, type DocumentRef } from '@nemuri/shared/documents/paths';
import { parseFieldPath, validateQuery, type ValidQuery } from '@nemuri/shared/documents/query';
import { MAX_READS_PER_COMMIT, maxWritesPerCommit } from '@nemuri/shared/documents/transaction';
import { applySet, applyUpdate, changedKeys, isPlainObject, type Data } from '@nemuri/shared/documents/update';
import { assertValid, readRecord } from '@nemuri/shared/documents/validate';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { Database, Queryable } from '../database/database.ts';
import { ChangeFeed, MAX_CHANGE_KEYS, type DocumentChange } from './changeFeed.ts';
import { changesFixedField, checkRules, followRules, recordAcknowledgements, type RuleWrite } from './collectionRules.ts';
import { ScopeCache } from './scopeCache.ts';
import { cursorSql, fieldExpr, filterSql, orderSql, Params, scopeSql, type Cursor } from './sql.ts';

export interface Row {
  path: string;
  id: string;
  data: Data;
  version: number;
  domain_id: string | null;
  root_domain_id: string | null;
  room_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface Logger {
  error(object: object, message: string): void;
}

export interface DocumentStoreOptions {
  /** The server's clock (ms), for the times the engine records itself (CollectionRule `acknowledgement`); tests drive it. */
  now?: () => number;
}

/** A checked query: its collection, scope and cursor, and its SQL. */
interface Selection {
  spec: CollectionSpec;
  query: ValidQuery;
  scope: DataScope;
  cursor: Cursor | null;
  sql: string;
  params: unknown[];
  /** The rows come newest-first and are turned around (limitToLast). */
  reverse: boolean;
}

/** The fields `recordHeartbeats` may write, by collection: the server's own notes of a device's life. */
const HEARTBEAT_FIELDS: Readonly<Record<string, readonly string[]>> = { devices: ['lastSeenAt'] };

const COLUMNS = 'path, id, data, version, domain_id, root_domain_id, room_id, created_at, updated_at';

/** An audit log row's id, data (JSON), domain, root domain and room. */
type AuditParams = [string, string, string | null, string | null, string | null];

/** The insert of one audit log row from AuditParams at parameters $first…$first+4, for a write's `with` clause. */
function auditInsert(first: number): string {
  const [id, data, domain, root, room] = [0, 1, 2, 3, 4].map((offset) => `$${first + offset}`);
  return `insert into documents (path, collection, collection_group, parent_path, id, data, domain_id, root_domain_id, room_id, created_at, updated_at)
    values ('auditLogs/' || ${id}::text, 'auditLogs', 'auditLogs', '', ${id}, ${data}::jsonb, ${domain}, ${root}, ${room}, now(), now())`;
}

function tenantOf(row: Pick<Row, 'domain_id' | 'root_domain_id' | 'room_id'>): RecordTenant {
  return { domainId: row.domain_id, rootDomainId: row.root_domain_id, roomId: row.room_id };
}

function valueAt(data: Data, segments: readonly string[]): unknown {
  let value: unknown = data;
  for (const segment of segments) {
    if (!isPlainObject(value)) return undefined;
    value = value[segment];
  }
  return value;
}

/**
 * The fields a query sees in a row: its data and the server's `createdAt`/`updatedAt` (sql.ts,
 * fieldExpr), which data never holds (they cannot be written).
 */
export function queryableData(row: Pick<Row, 'data' | 'created_at' | 'updated_at'>): Data {
  return { ...row.data, createdAt: row.created_at.toISOString(), updatedAt: row.updated_at.toISOString() };
}

function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function denied(): DocumentError {
  return new DocumentError('permission-denied', MESSAGES.outOfScope);
}

/**
 * A record outside the caller's scope answers exactly like a missing one (security issue 17,
 * finding 12): otherwise 403 against 404 tells an attacker which ids exist in other tenants.
 */
function missing(path: string): DocumentError {
  return new DocumentError('not-found', MESSAGES.notFound(path));
}

/** Only the listed top-level fields of the record (data minimisation, CollectionSpec.agencyView). */
function pick(record: Data, fields: readonly string[]): Data {
  const out: Data = { documentReferenceId: record.documentReferenceId, documentPath: record.documentPath };
  for (const field of [...fields, 'createdAt', 'updatedAt']) if (Object.hasOwn(record, field)) out[field] = record[field];
  return out;
}

/** The top-level fields a query's filters and orderings read. */
function fieldsRead(query: ValidQuery): string[] {
  return [...query.where.map((filter) => filter.field[0] ?? ''), ...query.orderBy.map((ordering) => ordering.field[0] ?? '')];
}

/** Claims that server code made able to read and write server-only fields (withServerOnlyFields). */
const SERVER_ONLY_GRANTS = new WeakSet<Claims>();

/**
 * The caller's claims, allowed to read and write the collections' `serverOnlyFields` (e.g. the
 * device endpoints storing a new `credentialHash`) while keeping the caller's level and scope,
 * and the caller's uid in the audit log. Only server code can make such claims: request
 * principals never are.
 */
export function withServerOnlyFields(claims: Claims): Claims {
  const granted = { ...claims };
  SERVER_ONLY_GRANTS.add(granted);
  return granted;
}

/**
 * Whether the caller sees server-only fields: claims from withServerOnlyFields, or the server's
 * own identity (`uid: 'system'` without a domain: SYSTEM_PRINCIPAL of ingest and the demo seed;
 * Better Auth's user ids are random and users have a domain, so no signed-in user is that).
 */
export function seesServerOnly(claims: Claims): boolean {
  return SERVER_ONLY_GRANTS.has(claims) || (claims.uid === 'system' && claims.domainId === null && claims.rootDomainId === null);
}

/** Claims made by serverIdentity: only server code can make them, as for SERVER_ONLY_GRANTS. */
const SERVER_IDENTITIES = new WeakSet<Claims>();

/**
 * A service's own identity (the room-state service's `monitoring`): its writes come from data the
 * server already checked, so they skip the reference checks and the cap on writes per commit. Marked,
 * not recognised by shape: claims of a signed-in user never are, whatever their level and domain.
 */
export function serverIdentity(uid: string): Claims {
  const claims: Claims = { uid, accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
  SERVER_IDENTITIES.add(claims);
  return claims;
}

/** Who the writes that rules make follow are by (the audit log names it). */
const RULES = serverIdentity('documents:rules');

/** The server's own identities: ingest's and the demo seed's `system` (seesServerOnly), and serverIdentity's. */
function isServerIdentity(claims: Claims): boolean {
  return seesServerOnly(claims) || SERVER_IDENTITIES.has(claims);
}

function serverOnlyDenied(field: string): DocumentError {
  return new DocumentError('permission-denied', `${field} is kept by the server and cannot be read, queried or written`);
}

/** Refuses input naming a server-only field (a top-level key or a field path starting with one). */
function refuseServerOnlyKeys(spec: CollectionSpec, claims: Claims, input: Data): void {
  if (spec.serverOnlyFields === undefined || seesServerOnly(claims)) return;
  for (const key of Object.keys(input)) {
    const field = key.split('.')[0] ?? key;
    if (spec.serverOnlyFields.includes(field)) throw serverOnlyDenied(field);
  }
}

/** What one write transaction gathers until it commits (see DocumentStore#transaction). */
interface TransactionState {
  /** Changes, announced once it has committed. */
  changes: DocumentChange[];
  /**
   * Rows read to place records in their tenant or check their references (domains, parents,
   * named records), as the transaction last saw or wrote them: a commit of many writes to one room
   * reads its domain once, not once per write.
   */
  rows: Map<string, Row | null>;
  /** Paths this transaction holds the row lock of: their row in `rows` is current. */
  locked: Set<string>;
}

export class DocumentStore {
  /** The state of each open write transaction. */
  readonly #pending = new WeakMap<Queryable, TransactionState>();

  /** The looked-up part of callers' scopes, cleared by the feed's changes to rooms, links and partners. */
  readonly #scopeCache: ScopeCache;

  /**
   * The server makes one (documents/documentServices.ts, `app.documents`) with the feed every live
   * subscriber follows. A store made without a feed (a test, a tool) gets a feed of its own: its
   * writes reach only the listeners of that feed.
   */
  readonly #now: () => number;

  constructor(
    readonly database: Database,
    readonly log: Logger,
    readonly changes: ChangeFeed = new ChangeFeed(database),
    options: DocumentStoreOptions = {},
  ) {
    this.#scopeCache = new ScopeCache(changes);
    this.#now = options.now ?? Date.now;
  }

  /** A write transaction whose changes go to the change feed once it has committed. */
  async #transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    let changes: DocumentChange[] = [];
    const result = await this.database.transaction(async (tx) => {
      const state: TransactionState = { changes: [], rows: new Map(), locked: new Set() };
      changes = state.changes;
      this.#pending.set(tx, state);
      const value = await fn(tx);
      await this.changes.notify(tx, changes);
      return value;
    });
    this.changes.publish(changes);
    return result;
  }

  #changed(tx: Queryable, change: DocumentChange): void {
    this.#pending.get(tx)?.changes.push(change);
  }

  /** A row the transaction placed a record by, read once per transaction (TransactionState.rows). */
  async #knownRow(tx: Queryable, path: string): Promise<Row | null> {
    const rows = this.#pending.get(tx)?.rows;
    if (rows?.has(path) === true) return rows.get(path) ?? null;
    const row = await this.#row(tx, path);
    rows?.set(path, row);
    return row;
  }

  /**
   * The row to be written, locked for the rest of the transaction (`for update`); read once: a
   * transaction writing one record many times already holds its lock and its latest row.
   */
  async #lockedRow(tx: Queryable, path: string): Promise<Row | null> {
    const state = this.#pending.get(tx);
    if (state?.locked.has(path) === true) return state.rows.get(path) ?? null;
    const row = await this.#row(tx, path, true);
    state?.rows.set(path, row);
    state?.locked.add(path);
    return row;
  }

  #wrote(tx: Queryable, path: string, row: Row | null): void {
    this.#pending.get(tx)?.rows.set(path, row);
  }

  #signedIn(claims: Claims | null): Claims {
    if (claims === null) throw new DocumentError('unauthenticated', MESSAGES.signedOut);
    return claims;
  }

  #checkLevel(claims: Claims, spec: CollectionSpec, operation: Operation): void {
    if (!levelAllows(spec, operation, claims.accessLevel)) throw denied();
  }

  /**
   * The caller's data scope, with the agency's partners or the user's rooms looked up. With
   * `spec`, the scope for that collection (a level-1 report viewer reads the report collections
   * of the rooms they were given a link to).
   */
  async scopeOf(claims: Claims, db: Queryable = this.database, spec?: CollectionSpec): Promise<DataScope> {
    const needed = factsNeeded(claims);
    if (!needed.partners && !needed.rooms) return dataScopeOf(claims, { partnerDomainIds: [], ownedRoomIds: [], reportRoomIds: [] }, spec?.name);
    // Outside a transaction the facts may come from the cache; inside one they are read with it.
    const cache = db === this.database ? this.#scopeCache : null;
    const cached = cache?.get(claims);
    if (cached !== undefined) return dataScopeOf(claims, cached, spec?.name);
    let partnerDomainIds: string[] = [];
    let ownedRoomIds: string[] = [];
    let reportRoomIds: string[] = [];
    if (needed.partners) {
      // An ended partnership gives no scope, whoever set it to ended.
      const { rows } = await db.query<{ id: string }>(`select id from documents where collection = $1 and coalesce(data ->> 'status', 'active') = 'active'`, [
        `domains/${claims.domainId}/partners`,
      ]);
      partnerDomainIds = rows.map((row) => row.id);
    }
    if (needed.rooms) {
      // A report viewer's room counts only while a report link of theirs for it is neither expired
      // nor revoked (reportAccess, registration/reportAccessEndpoints.ts): checked on every read.
      const { rows } = await db.query<{ id: string; owner: boolean }>(
        `select id, data -> 'ownerUids' @> jsonb_build_array($1::text) as owner from documents room
          where collection = 'rooms' and (data -> 'ownerUids' @> jsonb_build_array($1::text)
            or (data -> 'reportViewerUids' @> jsonb_build_array($1::text) and exists (
              select 1 from documents link where link.collection_group = 'reportAccess' and link.room_id = room.id
                and link.data ->> 'viewerUid' = $1 and coalesce(link.data ->> 'revokedAt', '') = ''
                and (link.data ->> 'expiresAt')::timestamptz > now())))`,
        [claims.uid],
      );
      ownedRoomIds = rows.filter((row) => row.owner).map((row) => row.id);
      reportRoomIds = rows.filter((row) => !row.owner).map((row) => row.id);
    }
    cache?.set(claims, { partnerDomainIds, ownedRoomIds, reportRoomIds });
    return dataScopeOf(claims, { partnerDomainIds, ownedRoomIds, reportRoomIds }, spec?.name);
  }

  #visible(spec: CollectionSpec, claims: Claims, scope: DataScope, row: Row): boolean {
    // Writes share one scope across collections: what an agency may not read of a customer is kept out here too.
    if (spec.agencyView === 'none' && !readsWhole(claims, row.domain_id)) return false;
    return (spec.tenancy.kind === 'global' || inScope(scope, tenantOf(row))) && guardAllowsView(spec, claims, row.data);
  }

  #toRecord(spec: CollectionSpec, row: Row, claims: Claims): Data {
    const record = readRecord(spec, row.id, row.path, row.data, row.created_at.toISOString(), row.updated_at.toISOString());
    const view = this.#viewOf(spec, claims, row);
    const shown = view === null ? record : pick(record, view);
    if (spec.serverOnlyFields === undefined || seesServerOnly(claims)) return shown;
    for (const field of spec.serverOnlyFields) delete shown[field];
    return shown;
  }

  /**
   * The fields this caller reads of this record, or null for all of them: agency levels see
   * another tenant's records through CollectionSpec.agencyView, and a report viewer (level 1 who
   * does not own the room) sees CollectionSpec.reportViewerView.
   */
  #viewOf(spec: CollectionSpec, claims: Claims, row: Pick<Row, 'domain_id' | 'data'>): readonly string[] | null {
    if (Array.isArray(spec.agencyView) && !readsWhole(claims, row.domain_id)) return spec.agencyView;
    if (claims.accessLevel === ROLE_LEVELS.individualUser && spec.reportViewerView !== undefined) {
      const owners = row.data.ownerUids;
      if (!(Array.isArray(owners) && owners.includes(claims.uid))) return spec.reportViewerView;
    }
    return null;
  }

  /**
   * A query that filters or orders by a field the caller may not read of some records in its
   * scope would reveal that field's values: such a query is answered from the records the caller
   * reads whole (the agency's own domain, the rooms a level-1 user owns).
   */
  #narrowForHiddenFields(spec: CollectionSpec, claims: Claims, scope: DataScope, query: ValidQuery): DataScope {
    const read = fieldsRead(query);
    if (read.length === 0) return scope;
    if (isAgencyLevel(claims) && Array.isArray(spec.agencyView) && scope.kind === 'domains') {
      const view: readonly string[] = spec.agencyView;
      if (read.every((field) => view.includes(field))) return scope;
      return claims.domainId === null ? { kind: 'none' } : { kind: 'domains', domainIds: [claims.domainId], rootDomainIds: [] };
    }
    if (scope.kind === 'rooms' && spec.reportViewerView !== undefined && (scope.reportOnlyRoomIds?.length ?? 0) > 0) {
      const view = spec.reportViewerView;
      if (read.every((field) => view.includes(field))) return scope;
      const reportOnly = new Set(scope.reportOnlyRoomIds);
      return { kind: 'rooms', roomIds: scope.roomIds.filter((id) => !reportOnly.has(id)) };
    }
    return scope;
  }

  async #row(db: Queryable, path: string, lock = false): Promise<Row | null> {
    const { rows } = await db.query<Row>(`select ${COLUMNS} from documents where path = $1${lock ? ' for update' : ''}`, [path]);
    return rows[0] ?? null;
  }

  // ---------------------------------------------------------------- reads

  /** Read by path with its version (for transactions); null when there is no such record. */
  async get(principal: Claims | null, path: string): Promise<{ document: Data; version: number } | null> {
    const claims = this.#signedIn(principal);
    const ref = parseDocumentPath(path);
    this.#checkLevel(claims, ref.spec, 'read');
    const row = await this.#row(this.database, ref.documentPath);
    if (row === null) return null;
    if (!this.#visible(ref.spec, claims, await this.scopeOf(claims, this.database, ref.spec), row)) return null;
    return { document: this.#toRecord(ref.spec, row, claims), version: row.version };
  }

  async #select(claims: Claims, input: unknown, counting: boolean): Promise<Selection> {
    const query = validateQuery(input);
    let spec: CollectionSpec;
    const params = new Params();
    const where: string[] = [];
    if (query.collectionGroup) {
      const found = collectionByGroup(query.collection);
      if (found === undefined) throw new DocumentError('invalid-argument', MESSAGES.unknownCollection(query.collection));
      spec = found;
      where.push(`collection_group = ${params.add(spec.group)}`);
    } else {
      const ref = parseCollectionPath(query.collection);
      spec = ref.spec;
      where.push(`collection = ${params.add(ref.path)}`);
    }
    this.#checkLevel(claims, spec, 'list');
    if (spec.serverOnlyFields !== undefined && !seesServerOnly(claims)) {
      // A filter, an ordering or a cursor on a server-only field would let a caller find its value.
      for (const field of [...query.where.map((filter) => filter.field), ...query.orderBy.map((ordering) => ordering.field)]) {
        if (spec.serverOnlyFields.includes(field[0] ?? '')) throw serverOnlyDenied(field[0] ?? '');
      }
    }
    const scope = this.#narrowForHiddenFields(spec, claims, await this.scopeOf(claims, this.database, spec), query);
    where.push(scopeSql(params, spec, scope, claims.accessLevel));
    for (const filter of query.where) where.push(filterSql(params, filter.field, filter.op, filter.value));
    for (const ordering of query.orderBy) where.push(`${fieldExpr(params, ordering.field)} is not null`);
    const cursor = await this.#cursor(claims, scope, spec, query);
    if (cursor !== null) where.push(cursorSql(params, query, cursor));
    const reverse = query.fromEnd;
    const order = counting ? '' : ` order by ${orderSql(params, query, reverse)}`;
    const limit =
      counting && (input as { limit?: unknown; limitToLast?: unknown }).limit === undefined && (input as { limitToLast?: unknown }).limitToLast === undefined
        ? ''
        : ` limit ${params.add(query.limit)}`;
    const sql = `select ${COLUMNS} from documents where ${where.join(' and ')}${order}${limit}`;
    return { spec, query, scope, cursor, sql, params: params.values, reverse };
  }

  async #cursor(claims: Claims, scope: DataScope, spec: CollectionSpec, query: ValidQuery): Promise<Cursor | null> {
    if (query.startAfter === null) return null;
    if ('values' in query.startAfter) return { values: query.startAfter.values, path: null };
    const ref = parseDocumentPath(query.startAfter.document);
    const row = ref.spec === spec ? await this.#row(this.database, ref.documentPath) : null;
    if (row === null || !this.#visible(spec, claims, scope, row))
      throw new DocumentError('not-found', `No document to start after: ${query.startAfter.document}`);
    const values = query.orderBy.map((ordering) => valueAt(queryableData(row), ordering.field));
    if (values.some((value) => value === undefined))
      throw new DocumentError('invalid-argument', 'Invalid query. The startAfter() document lacks a field of the orderBy() clauses.');
    return { values, path: row.path };
  }

  /** A list query: at most `limit` records (default 50) in scope. */
  async query(principal: Claims | null, input: unknown): Promise<Data[]> {
    const claims = this.#signedIn(principal);
    const { spec, rows } = await this.queryRows(claims, input);
    return rows.map((row) => this.recordOf(spec, row, claims));
  }

  /**
   * A list query's rows in answer order, with what the query was checked and scoped to: for live
   * results, which take in later changes in memory (live/queryWindow.ts).
   */
  async queryRows(principal: Claims | null, input: unknown): Promise<Omit<Selection, 'sql' | 'params'> & { rows: Row[] }> {
    const claims = this.#signedIn(principal);
    const { sql, params, ...selection } = await this.#select(claims, input, false);
    const { rows } = await this.database.query<Row>(sql, params);
    if (selection.reverse) rows.reverse();
    return { ...selection, rows };
  }

  /** The records at these paths as stored, unchecked: for server code that checks them itself. */
  async rowsAt(paths: readonly string[]): Promise<Row[]> {
    if (paths.length === 0) return [];
    const params = new Params();
    const { rows } = await this.database.query<Row>(`select ${COLUMNS} from documents where ${params.anyOf('path', paths)}`, params.values);
    return rows;
  }

  /** Whether a caller with this scope may read the row (the scope and level-guard parts of reads). */
  visibleRow(spec: CollectionSpec, claims: Claims, scope: DataScope, row: Row): boolean {
    return this.#visible(spec, claims, scope, row);
  }

  /** The row as the caller reads it: schema-checked, server-only fields left out. */
  recordOf(spec: CollectionSpec, row: Row, claims: Claims): Data {
    return this.#toRecord(spec, row, claims);
  }

  /** How many records the query matches in scope (its limit applies only when given). */
  async count(principal: Claims | null, input: unknown): Promise<number> {
    const claims = this.#signedIn(principal);
    const { sql, params } = await this.#select(claims, input, true);
    const { rows } = await this.database.query<{ n: number }>(`select count(*)::int as n from (${sql}) as matched`, params);
    return rows[0]?.n ?? 0;
  }

  /** The first record of the collection (or group) whose field equals the value, in scope. */
  async lookup(principal: Claims | null, input: unknown): Promise<Data | null> {
    if (!isPlainObject(input) || typeof input.field !== 'string') throw new DocumentError('invalid-argument', MESSAGES.invalidData('lookup'));
    parseFieldPath(input.field);
    const [first] = await this.query(principal, {
      collection: input.collection,
      collectionGroup: input.collectionGroup === true,
      where: [[input.field, '==', input.value]],
      limit: 1,
    });
    return first ?? null;
  }

  // ---------------------------------------------------------------- writes

  /** Where a record with this data belongs (computed at write time, stored in columns). */
  async #tenantFor(db: Queryable, claims: Claims, ref: DocumentRef, data: Data): Promise<RecordTenant> {
    const rootOf = async (domainId: string | null): Promise<string | null> => {
      if (domainId === null) return null;
      const domain = await this.#knownRow(db, `domains/${domainId}`);
      if (domain !== null) return domain.root_domain_id;
      if (domainId === claims.domainId) return claims.rootDomainId;
      // A domain without a record: only the maker's levels may name its root; levels 4-5 can
      // only write under their own root anyway; others get the domain as its own root.
      if (claims.accessLevel >= ROLE_LEVELS.developer) return nonEmptyString(data.rootDomainId) ?? domainId;
      if (claims.accessLevel >= ROLE_LEVELS.privilegeAdministrator && claims.accessLevel < ROLE_LEVELS.agency) return claims.rootDomainId;
      return domainId;
    };
    const tenancy = ref.spec.tenancy;
    switch (tenancy.kind) {
      case 'global':
        return { domainId: null, rootDomainId: null, roomId: null };
      case 'domainDocument':
        return { domainId: ref.id, rootDomainId: nonEmptyString(data.rootDomainId) ?? ref.id, roomId: null };
      case 'fields': {
        const domainId = tenancy.domainFields.map((field) => nonEmptyString(data[field])).find((value) => value !== null) ?? null;
        const roomId = tenancy.isRoom === true ? ref.id : tenancy.roomField === undefined ? null : nonEmptyString(data[tenancy.roomField]);
        return { domainId, rootDomainId: await rootOf(domainId), roomId };
      }
      case 'parent': {
        const parent = await this.#knownRow(db, ref.parentPath);
        if (parent !== null) return tenantOf(parent);
        if (ref.spec.parent === 'domains') {
          const domainId = ref.parentPath.split('/')[1] ?? null;
          return { domainId, rootDomainId: await rootOf(domainId), roomId: null };
        }
        return { domainId: null, rootDomainId: null, roomId: null };
      }
      case 'roomField': {
        const roomId = nonEmptyString(data[tenancy.field]);
        const room = roomId === null ? null : await this.#knownRow(db, `rooms/${roomId}`);
        return room === null ? { domainId: null, rootDomainId: null, roomId } : { ...tenantOf(room), roomId };
      }
    }
  }

  #checkWrite(claims: Claims, scope: DataScope, spec: CollectionSpec, before: Row | null, after: { data: Data; tenant: RecordTenant } | null): void {
    if (spec.tenancy.kind === 'domainDocument' && after !== null && claims.accessLevel < ROLE_LEVELS.developer) {
      // A new domain can only be put under a root in the caller's scope (its place is then fixed: CollectionSpec.rules).
      const root = after.tenant.rootDomainId;
      if (before === null && root !== null && root !== after.tenant.domainId && !inScope(scope, { domainId: root, rootDomainId: root, roomId: null }))
        throw denied();
    }
    if (spec.tenancy.kind !== 'global') {
      if (before !== null && !inScope(scope, tenantOf(before))) throw denied();
      if (after !== null && !inScope(scope, after.tenant)) throw denied();
      // An agency reads its partners' records but writes only its own, except what it lends.
      if (isAgencyLevel(claims) && spec.partnerWrites !== true) {
        const own = (tenant: RecordTenant) => tenant.domainId !== null && tenant.domainId === claims.domainId;
        if ((before !== null && !own(tenantOf(before))) || (after !== null && !own(after.tenant))) throw denied();
      }
    }
    if (changesFixedField(spec, claims, before?.data ?? null, after?.data ?? null)) throw denied();
    if (!guardAllowsWrite(spec, claims, before?.data ?? null, after?.data ?? null)) throw denied();
  }

  /** The rules' view of a write (collectionRules.ts). */
  #ruleWrite(tx: Queryable, ref: DocumentRef, existing: Row | null, after: Data | null): RuleWrite {
    return {
      tx,
      spec: ref.spec,
      path: ref.documentPath,
      collectionPath: ref.path,
      id: ref.id,
      before: existing === null ? null : { data: existing.data, rootDomainId: existing.root_domain_id, domainId: existing.domain_id },
      after,
    };
  }

  /** A write a rule makes follow (RuleActions.follow): as the engine, in the same transaction. */
  readonly #ruleActions = {
    follow: async (tx: Queryable, path: string, fields: Data, when: (data: Data) => boolean): Promise<void> => {
      const ref = parseDocumentPath(path);
      const existing = await this.#lockedRow(tx, ref.documentPath);
      if (existing === null || !when(existing.data)) return;
      await this.#write(RULES, ref, existing, applyUpdate(existing.data, fields), 'update', tx, await this.scopeOf(RULES, tx));
    },
  };

  async #checkUnique(tx: Queryable, spec: CollectionSpec, path: string, data: Data): Promise<void> {
    for (const field of spec.unique) {
      const value = data[field];
      if (value === undefined || value === null) continue;
      await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`documents:${spec.group}:${field}`]);
      const params = new Params();
      const sql = `select 1 from documents where collection_group = ${params.add(spec.group)} and ${fieldExpr(params, [field])} = ${params.json(value)} and path <> ${params.add(path)} limit 1`;
      const { rows } = await tx.query(sql, params.values);
      if (rows.length > 0) throw new DocumentError('invalid-argument', MESSAGES.notUnique(field));
    }
  }

  /**
   * Every field naming another record (CollectionSpec.references) that a caller sets or changes
   * must name a record the caller may read, in the same domain where the reference says so. The
   * server's own writes (ingest, demo data) are trusted. Checked again when the record moves to
   * another domain, since a reference valid in the old domain need not be in the new one.
   */
  async #checkReferences(
    tx: Queryable,
    claims: Claims,
    scope: DataScope,
    spec: CollectionSpec,
    existing: Row | null,
    data: Data,
    tenant: RecordTenant,
  ): Promise<void> {
    if (spec.references === undefined || isServerIdentity(claims)) return;
    const moved = existing !== null && existing.domain_id !== tenant.domainId;
    for (const reference of spec.references) {
      const value = data[reference.field];
      if (value === undefined || value === null || value === '') continue;
      if (!moved && existing !== null && JSON.stringify(existing.data[reference.field]) === JSON.stringify(value)) continue;
      const target = collectionByName(reference.collection);
      const path = `${reference.collection}/${String(value)}`;
      const named = typeof value === 'string' && target !== undefined && !value.includes('/') ? await this.#knownRow(tx, path) : null;
      const found =
        named !== null &&
        target !== undefined &&
        this.#visible(target, claims, scope, named) &&
        (reference.sameDomain !== true || named.domain_id === tenant.domainId);
      if (!found) throw new DocumentError('invalid-argument', MESSAGES.badReference(reference.field, path));
    }
  }

  /**
   * The audit log row of one write, as the parameters of auditInsert (written by the write's own
   * statement: no round trip of its own), and its change for the change feed.
   */
  #audit(tx: Queryable, claims: Claims, path: string, operation: 'create' | 'set' | 'update' | 'delete', keys: string[], tenant: RecordTenant): AuditParams {
    const id = randomUUID();
    const data = JSON.stringify({ who: claims.uid, when: new Date().toISOString(), path, operation, changedKeys: keys });
    this.#changed(tx, { path: `auditLogs/${id}`, collection: 'auditLogs', collectionGroup: 'auditLogs', op: 'create', tenant });
    return [id, data, tenant.domainId, tenant.rootDomainId, tenant.roomId];
  }

  async #write(
    claims: Claims,
    ref: DocumentRef,
    existing: Row | null,
    written: Data,
    operation: 'set' | 'update',
    tx: Queryable,
    scope: DataScope,
  ): Promise<Data> {
    const kept = this.#keepServerOnly(ref.spec, claims, existing, written);
    const data = isServerIdentity(claims) ? kept : recordAcknowledgements(ref.spec, claims, existing?.data ?? null, kept, new Date(this.#now()).toISOString());
    assertValid(ref.spec, data);
    const tenant = await this.#tenantFor(tx, claims, ref, data);
    this.#checkWrite(claims, scope, ref.spec, existing, { data, tenant });
    await this.#checkReferences(tx, claims, scope, ref.spec, existing, data, tenant);
    await this.#checkUnique(tx, ref.spec, ref.documentPath, data);
    await checkRules(this.#ruleWrite(tx, ref, existing, data));
    const moved = existing !== null && JSON.stringify(tenantOf(existing)) !== JSON.stringify(tenant);
    const keys = changedKeys(existing?.data ?? null, data);
    this.#changed(tx, {
      path: ref.documentPath,
      collection: ref.path,
      collectionGroup: ref.spec.group,
      op: existing === null ? 'create' : operation,
      tenant,
      ...(moved ? { previousTenant: tenantOf(existing) } : {}),
      ...(keys.length <= MAX_CHANGE_KEYS ? { keys } : {}),
    });
    const audit = this.#audit(tx, claims, ref.documentPath, existing === null ? 'create' : operation, keys, tenant);
    const { rows } = await tx.query<Row>(
      `with audit as (${auditInsert(10)})
       insert into documents (path, collection, collection_group, parent_path, id, data, domain_id, root_domain_id, room_id, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, now(), now())
       on conflict (path) do update set data = excluded.data, domain_id = excluded.domain_id, root_domain_id = excluded.root_domain_id,
         room_id = excluded.room_id, updated_at = now(), version = documents.version + 1
       returning ${COLUMNS}`,
      [ref.documentPath, ref.path, ref.spec.group, ref.parentPath, ref.id, JSON.stringify(data), tenant.domainId, tenant.rootDomainId, tenant.roomId, ...audit],
    );
    const row = rows[0] as Row;
    this.#wrote(tx, ref.documentPath, row);
    await followRules(this.#ruleWrite(tx, ref, existing, data), this.#ruleActions);
    return this.#toRecord(ref.spec, row, claims);
  }

  /**
   * Server-only fields stay as stored when another caller replaces the record: that caller never
   * saw them (and refuseServerOnlyKeys has refused naming them).
   */
  #keepServerOnly(spec: CollectionSpec, claims: Claims, existing: Row | null, data: Data): Data {
    if (spec.serverOnlyFields === undefined || seesServerOnly(claims)) return data;
    const kept: Data = { ...data };
    for (const field of spec.serverOnlyFields) {
      if (existing !== null && existing.data[field] !== undefined) kept[field] = existing.data[field];
      else delete kept[field];
    }
    return kept;
  }

  async #setIn(tx: Queryable, claims: Claims, scope: DataScope, path: string, input: unknown, merge: boolean): Promise<Data> {
    const ref = parseDocumentPath(path);
    if (!isPlainObject(input)) throw new DocumentError('invalid-argument', MESSAGES.invalidData('setDoc'));
    refuseServerOnlyKeys(ref.spec, claims, input);
    const existing = await this.#lockedRow(tx, ref.documentPath);
    this.#checkLevel(claims, ref.spec, existing === null ? 'create' : 'update');
    if (existing !== null && !this.#visible(ref.spec, claims, scope, existing)) throw missing(ref.documentPath);
    return this.#write(claims, ref, existing, applySet(existing?.data ?? null, input, merge), 'set', tx, scope);
  }

  async #updateIn(tx: Queryable, claims: Claims, scope: DataScope, ref: DocumentRef, fields: unknown): Promise<Data> {
    this.#checkLevel(claims, ref.spec, 'update');
    if (!isPlainObject(fields)) throw new DocumentError('invalid-argument', MESSAGES.invalidData('updateDoc'));
    refuseServerOnlyKeys(ref.spec, claims, fields);
    const existing = await this.#lockedRow(tx, ref.documentPath);
    if (existing === null || !this.#visible(ref.spec, claims, scope, existing)) throw missing(ref.documentPath);
    return this.#write(claims, ref, existing, applyUpdate(existing.data, fields), 'update', tx, scope);
  }

  async #deleteIn(tx: Queryable, claims: Claims, scope: DataScope, path: string): Promise<void> {
    const ref = parseDocumentPath(path);
    this.#checkLevel(claims, ref.spec, 'delete');
    const existing = await this.#lockedRow(tx, ref.documentPath);
    // Deleting what the caller cannot see is deleting nothing, as for a missing record.
    if (existing === null || !this.#visible(ref.spec, claims, scope, existing)) return;
    this.#checkWrite(claims, scope, ref.spec, existing, null);
    await checkRules(this.#ruleWrite(tx, ref, existing, null));
    const tenant = tenantOf(existing);
    this.#changed(tx, { path: ref.documentPath, collection: ref.path, collectionGroup: ref.spec.group, op: 'delete', tenant });
    const audit = this.#audit(tx, claims, ref.documentPath, 'delete', changedKeys(existing.data, null), tenant);
    await tx.query(`with audit as (${auditInsert(2)}) delete from documents where path = $1`, [ref.documentPath, ...audit]);
    this.#wrote(tx, ref.documentPath, null);
    await followRules(this.#ruleWrite(tx, ref, existing, null), this.#ruleActions);
  }

  #emptyId(path: string): boolean {
    const ref = parseDocumentPath(path, { allowEmptyId: true });
    if (ref.id !== '') return false;
    this.log.error({ path }, 'update refused: the document id is empty');
    return true;
  }

  /** Create or replace; with `merge`, deep-merge into the existing record. */
  async set(principal: Claims | null, path: string, input: unknown, merge: boolean): Promise<Data> {
    const claims = this.#signedIn(principal);
    parseDocumentPath(path);
    const scope = await this.scopeOf(claims);
    return this.#transaction((tx) => this.#setIn(tx, claims, scope, path, input, merge));
  }

  /**
   * Partial update of field paths. An empty id is refused: logged, and the result is empty (null).
   * A missing record is not-found.
   */
  async update(principal: Claims | null, path: string, fields: unknown): Promise<Data | null> {
    const claims = this.#signedIn(principal);
    if (this.#emptyId(path)) return null;
    const ref = parseDocumentPath(path);
    this.#checkLevel(claims, ref.spec, 'update');
    const scope = await this.scopeOf(claims);
    return this.#transaction((tx) => this.#updateIn(tx, claims, scope, ref, fields));
  }

  /** Deletes the record; deleting a missing record succeeds (nothing to do). */
  async delete(principal: Claims | null, path: string): Promise<void> {
    const claims = this.#signedIn(principal);
    const ref = parseDocumentPath(path);
    this.#checkLevel(claims, ref.spec, 'delete');
    const scope = await this.scopeOf(claims);
    await this.#transaction((tx) => this.#deleteIn(tx, claims, scope, path));
  }

  /**
   * The server's heartbeat of many records in one statement: each record's `fields` merged into its
   * top level (a device's `lastSeenAt`), its version bumped and the change feed told which keys
   * changed, as an update would. Only the fields a collection names in {@link HEARTBEAT_FIELDS},
   * each checked against the collection's schema. No audit row: a heartbeat is the server noting a
   * device sent data, not a change anyone made, and at 3,000 devices it would be 200 audit rows a
   * second drowning the real ones. Resolves to the paths that name no record.
   *
   * Why one statement: written one update at a time (five round trips each) the heartbeats of
   * 3,000 devices held PGlite's one connection half of the time and the staging writes of their
   * frames waited behind them (bench:ingest, issue 24).
   */
  async recordHeartbeats(updates: readonly { path: string; fields: Data }[]): Promise<string[]> {
    if (updates.length === 0) return [];
    const paths: string[] = [];
    const patches: string[] = [];
    for (const { path, fields } of updates) {
      const ref = parseDocumentPath(path);
      const allowed = HEARTBEAT_FIELDS[ref.path] ?? [];
      for (const [key, value] of Object.entries(fields)) {
        const field = ref.spec.schema.shape[key] as { safeParse(value: unknown): { success: boolean } } | undefined;
        if (!allowed.includes(key) || field === undefined) throw new DocumentError('invalid-argument', `${ref.path}: ${key} is not a heartbeat field`);
        if (!field.safeParse(value).success) throw new DocumentError('invalid-argument', `${path}: ${key} is invalid`);
      }
      paths.push(ref.documentPath);
      patches.push(JSON.stringify(fields));
    }
    const found = await this.#transaction(async (tx) => {
      const { rows } = await tx.query<
        Pick<Row, 'path' | 'domain_id' | 'root_domain_id' | 'room_id'> & { collection: string; collection_group: string; patch: string }
      >(
        `update documents d set data = d.data || u.patch::jsonb, updated_at = now(), version = d.version + 1
         from unnest($1::text[], $2::text[]) as u(path, patch)
         where d.path = u.path
         returning d.path, d.collection, d.collection_group, d.domain_id, d.root_domain_id, d.room_id, u.patch`,
        [paths, patches],
      );
      for (const row of rows)
        this.#changed(tx, {
          path: row.path,
          collection: row.collection,
          collectionGroup: row.collection_group,
          op: 'update',
          tenant: tenantOf(row),
          keys: Object.keys(JSON.parse(row.patch) as Data),
        });
      return new Set(rows.map((row) => row.path));
    });
    return paths.filter((path) => !found.has(path));
  }

  /**
   * Commits a transaction's writes if none of the records it read has changed (their versions;
   * 0 for absent), all or nothing; otherwise `aborted`, and the client tries again.
   */
  async commit(principal: Claims | null, input: unknown): Promise<void> {
    const claims = this.#signedIn(principal);
    if (!isPlainObject(input) || !Array.isArray(input.reads) || !Array.isArray(input.writes))
      throw new DocumentError('invalid-argument', MESSAGES.invalidData('runTransaction'));
    const reads = input.reads as unknown[];
    const writes = input.writes as unknown[];
    // One commit holds its rows' locks until it ends: a bound keeps one tenant from holding them
    // long. The server's own batches (the demo data set) are its own to size.
    const maxWrites = isServerIdentity(claims) ? Infinity : maxWritesPerCommit(this.database.kind);
    if (writes.length > maxWrites) throw new DocumentError('invalid-argument', MESSAGES.tooManyWrites(maxWrites));
    if (reads.length > MAX_READS_PER_COMMIT) throw new DocumentError('invalid-argument', MESSAGES.tooManyReads(MAX_READS_PER_COMMIT));
    const scope = await this.scopeOf(claims);
    await this.#transaction(async (tx) => {
      for (const read of reads) {
        if (!isPlainObject(read) || typeof read.path !== 'string' || typeof read.version !== 'number')
          throw new DocumentError('invalid-argument', MESSAGES.invalidData('runTransaction'));
        const ref = parseDocumentPath(read.path);
        this.#checkLevel(claims, ref.spec, 'read');
        // Also holds records that do not exist yet: two transactions creating one record conflict.
        await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`documents:${ref.documentPath}`]);
        const stored = await this.#lockedRow(tx, ref.documentPath);
        // A record out of scope reads as absent (version 0), as it did to the transaction's get.
        const row = stored !== null && this.#visible(ref.spec, claims, scope, stored) ? stored : null;
        if ((row?.version ?? 0) !== read.version) throw new DocumentError('aborted', MESSAGES.versionMismatch(ref.documentPath));
      }
      for (const write of writes) {
        if (!isPlainObject(write) || typeof write.path !== 'string') throw new DocumentError('invalid-argument', MESSAGES.invalidData('runTransaction'));
        if (write.op === 'set') await this.#setIn(tx, claims, scope, write.path, write.data, write.merge === true);
        else if (write.op === 'update') {
          if (!this.#emptyId(write.path)) await this.#updateIn(tx, claims, scope, parseDocumentPath(write.path), write.data);
        } else if (write.op === 'delete') await this.#deleteIn(tx, claims, scope, write.path);
        else throw new DocumentError('invalid-argument', MESSAGES.invalidData('runTransaction'));
      }
    });
  }
}
