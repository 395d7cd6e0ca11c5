/**
 * Reading the audit log (docs/api.md "Audit log"; shared/auditLog.ts): the `auditLogs` records the
 * document engine writes with every change (who, when, path, operation, changed keys), stored with
 * the changed record's tenant columns. Read here with plain SQL rather than an engine query because
 * the filters need the path's collection and a keyset on the write instant, which the engine's
 * query language does not express; the scope is still the engine's (scopeSql).
 *
 * Who reads what:
 * - below privilege administrator (4): nothing (403);
 * - 4-5: their root domain's entries (the corporation and every facility under it);
 * - agency levels (50-51): their own agency's entries only, never their customers' (readsWhole:
 *   an agency sees its customers minimised, and who changed a resident's record is not its business);
 * - the maker's developers (100+): every entry.
 * A domain filter outside that scope answers 404 like a domain that does not exist.
 */
import type { AuditLogFilter, AuditLogRow, AuditOperation } from '@nemuri/shared/auditLog';
import { isAgencyLevel, type Claims, type DataScope } from '@nemuri/shared/documents/access';
import { collectionByName } from '@nemuri/shared/documents/collections';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { Database } from '../database/database.ts';
import { Params, scopeSql } from '../documents/sql.ts';
import { ApiError } from '../http/errors.ts';

const AUDIT_SPEC = collectionByName('auditLogs');
const STAFF_SPEC = collectionByName('domains/staff');
const DOMAIN_SPEC = collectionByName('domains');

/** The audit scope of the caller (see the header); refuses levels below 4. */
export function auditScopeOf(claims: Claims): DataScope {
  if (claims.accessLevel < ROLE_LEVELS.privilegeAdministrator)
    throw new ApiError(403, 'permission-denied', 'The audit log needs a privilege administrator (level 4) or above');
  if (claims.accessLevel >= ROLE_LEVELS.developer) return { kind: 'all' };
  if (isAgencyLevel(claims)) return claims.domainId === null ? { kind: 'none' } : { kind: 'domains', domainIds: [claims.domainId], rootDomainIds: [] };
  return claims.rootDomainId === null ? { kind: 'none' } : { kind: 'domains', domainIds: [], rootDomainIds: [claims.rootDomainId] };
}

/** The domain filter checked against the scope: a domain the caller may not read answers like a missing one. */
export async function checkDomainFilter(database: Database, scope: DataScope, domainId: string | undefined): Promise<void> {
  if (domainId === undefined || scope.kind === 'all') return;
  const { rows } = await database.query<{ domain_id: string | null; root_domain_id: string | null }>(
    `select domain_id, root_domain_id from documents where path = $1`,
    [`domains/${domainId}`],
  );
  const row = rows[0];
  const inScope =
    row !== undefined &&
    scope.kind === 'domains' &&
    ((row.domain_id !== null && scope.domainIds.includes(row.domain_id)) || (row.root_domain_id !== null && scope.rootDomainIds.includes(row.root_domain_id)));
  if (!inScope) throw new ApiError(404, 'not-found', `No domain ${domainId}`);
}

/** Where a page starts: after this entry (microseconds since the epoch of its write, and its path). */
export interface AuditCursor {
  atUs: string;
  path: string;
}

export function parseCursor(cursor: string | undefined): AuditCursor | null {
  if (cursor === undefined) return null;
  const colon = cursor.indexOf(':');
  return { atUs: cursor.slice(0, colon), path: cursor.slice(colon + 1) };
}

interface EntryRow {
  id: string;
  path: string;
  at_us: string;
  domain_id: string | null;
  data: { who?: unknown; when?: unknown; path?: unknown; operation?: unknown; changedKeys?: unknown };
  collection: string;
}

export interface AuditEntry {
  row: AuditLogRow;
  cursor: string;
}

/**
 * The registry name of a document path's collection: `rooms/r1/sleeps/2026-11-01` → `rooms/sleeps`
 * (every other segment). The same rule in SQL for the filter.
 */
const COLLECTION_OF_PATH_SQL = `regexp_replace(data ->> 'path', '([^/]+)/[^/]+', '\\1', 'g')`;

/** The caller's entries matching the filter, newest first, `limit` of them after `after`. */
export async function selectEntries(
  database: Database,
  claims: Claims,
  scope: DataScope,
  filter: AuditLogFilter,
  limit: number,
  after: AuditCursor | null,
): Promise<AuditEntry[]> {
  if (AUDIT_SPEC === undefined) throw new Error('auditLogs is not in the registry');
  const params = new Params();
  const where = [`collection = 'auditLogs'`, scopeSql(params, AUDIT_SPEC, scope, claims.accessLevel)];
  if (filter.domainId !== undefined) where.push(`domain_id = ${params.add(filter.domainId)}`);
  if (filter.who !== undefined) where.push(`data ->> 'who' = ${params.add(filter.who)}`);
  if (filter.operation !== undefined) where.push(`data ->> 'operation' = ${params.add(filter.operation)}`);
  if (filter.collection !== undefined) where.push(`${COLLECTION_OF_PATH_SQL} = ${params.add(filter.collection)}`);
  if (filter.from !== undefined) where.push(`created_at >= ${params.add(filter.from)}::timestamptz`);
  if (filter.to !== undefined) where.push(`created_at < ${params.add(filter.to)}::timestamptz`);
  if (after !== null) {
    // The keyset: strictly older, or as old and before in path order (the tie-breaker).
    // Microseconds added to the epoch: exact, where a float seconds value would round.
    const at = `(timestamptz '1970-01-01 00:00:00+00' + ${params.add(after.atUs)}::bigint * interval '1 microsecond')`;
    where.push(`(created_at < ${at} or (created_at = ${at} and path < ${params.add(after.path)}))`);
  }
  const { rows } = await database.query<EntryRow>(
    `select id, path, domain_id, data, ${COLLECTION_OF_PATH_SQL} as collection,
            (extract(epoch from created_at) * 1000000)::bigint::text as at_us
       from documents where ${where.join(' and ')}
      order by created_at desc, path desc limit ${params.add(limit)}`,
    params.values,
  );
  return rows.map((row) => ({
    cursor: `${row.at_us}:${row.path}`,
    row: {
      id: row.id,
      // The stored instant, which the order, the cursor and the time filters use too.
      when: new Date(Math.floor(Number(row.at_us) / 1000)).toISOString(),
      who: typeof row.data.who === 'string' ? row.data.who : '',
      whoName: null,
      operation: (typeof row.data.operation === 'string' ? row.data.operation : 'update') as AuditOperation,
      path: typeof row.data.path === 'string' ? row.data.path : '',
      collection: row.collection,
      changedKeys: Array.isArray(row.data.changedKeys) ? row.data.changedKeys.filter((key): key is string => typeof key === 'string') : [],
      domainId: row.domain_id,
      domainName: null,
    },
  }));
}

/**
 * Names for the people and domains of the entries, as far as the caller may read them: staff
 * records in the caller's document scope (a level-4 user sees the names of their corporation's
 * staff, not of a developer who repaired a record) and domain records in it.
 */
export async function withNames(database: Database, claims: Claims, documentScope: DataScope, entries: AuditEntry[]): Promise<AuditLogRow[]> {
  if (STAFF_SPEC === undefined || DOMAIN_SPEC === undefined) throw new Error('staff or domains are not in the registry');
  const uids = [...new Set(entries.map((entry) => entry.row.who).filter((uid) => uid !== ''))];
  const domainIds = [...new Set(entries.map((entry) => entry.row.domainId).filter((domainId): domainId is string => domainId !== null))];
  const people = new Map<string, string>();
  const domains = new Map<string, string>();
  if (uids.length > 0) {
    const params = new Params();
    const { rows } = await database.query<{ id: string; name: string }>(
      `select id, data ->> 'displayName' as name from documents
        where collection_group = 'staff' and ${params.anyOf('id', uids)} and ${scopeSql(params, STAFF_SPEC, documentScope, claims.accessLevel)}`,
      params.values,
    );
    for (const row of rows) if (row.name !== null) people.set(row.id, row.name);
  }
  if (domainIds.length > 0) {
    const params = new Params();
    const { rows } = await database.query<{ id: string; name: string }>(
      `select id, data ->> 'name' as name from documents
        where collection = 'domains' and ${params.anyOf('id', domainIds)} and ${scopeSql(params, DOMAIN_SPEC, documentScope, claims.accessLevel)}`,
      params.values,
    );
    for (const row of rows) if (row.name !== null) domains.set(row.id, row.name);
  }
  return entries.map(({ row }) => ({
    ...row,
    whoName: people.get(row.who) ?? null,
    domainName: row.domainId === null ? null : (domains.get(row.domainId) ?? null),
  }));
}
