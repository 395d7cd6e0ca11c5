/**
 * The database as the rest of the server sees it: the same SQL on embedded PGlite and on
 * PostgreSQL. Values come back alike on both: int8 and numeric as strings, date as 'YYYY-MM-DD',
 * timestamptz as Date, jsonb parsed, bytea as Uint8Array. Cast intervals to text.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { TableSums } from '../backup/tableSums.ts';

export type DatabaseKind = 'pglite' | 'postgresql';

export interface QueryResult<Row> {
  rows: Row[];
  /**
   * The count in the statement's command tag: rows returned by a select, or inserted, updated or
   * deleted by a write. null for statements that report none (DDL, begin, commit).
   */
  rowCount: number | null;
}

export interface Queryable {
  /** One statement, with `$1`-style parameters. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>>;
  /** A script of one or more statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: DatabaseKind;
  /**
   * Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. Inside,
   * use `tx` only: the database itself refuses queries there (on PGlite's single connection they
   * would wait for the transaction forever).
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * An exclusive session on one connection until `release()`, for code that runs its own `begin`
   * and `commit` (the Kysely dialect, kysely.ts). Nothing else runs on that connection meanwhile:
   * on PostgreSQL it is a pool client of its own; on PGlite, whose one connection is shared, every
   * other query, transaction and session waits until it is released. So on PGlite never call the
   * database itself while holding a session: it would wait forever. Always release it, also when
   * a query failed; a transaction still open then is rolled back.
   */
  connect(): Promise<DatabaseSession>;
  /**
   * Receives notifications (`pg_notify`) on `channel` until the returned function is called. On
   * PostgreSQL a connection of its own listens, and reopens after it was lost; `onReconnect` then
   * runs, since notifications sent meanwhile are gone and whatever was derived from them is stale.
   * Channel names are plain identifiers.
   */
  listen(channel: string, onNotify: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  /** Closes the connection(s) once the queries under way are done. Safe to call twice. */
  close(): Promise<void>;
  /** PGlite only: an online copy of the whole database to `path` (see pglite.ts). */
  backupTo?(path: string, options?: { checksums?: boolean }): Promise<OnlineBackup>;
}

/** An online copy's size and what it holds (see backup/tableSums.ts). */
export interface OnlineBackup {
  bytes: number;
  tables: TableSums;
}

export interface TransactionOptions {
  /**
   * This transaction's own statement limit instead of STATEMENT_LIMITS (statementLimits.ts), for
   * work that is long by nature (imports, retention, analysis); 0: none. On PGlite it bounds the
   * whole transaction instead.
   */
  statementTimeoutMs?: number;
}

export interface DatabaseSession {
  /** One statement, with `$1`-style parameters. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>>;
  /** Ends the session; later queries on it are refused. Safe to call twice. */
  release(): Promise<void>;
}

/** Refuses channel names that would need quoting (they go into `listen <channel>` as they are). */
export function assertChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`invalid notification channel "${channel}": use a plain lower-case identifier`);
}

/**
 * Knows whether code runs inside one of this database's transactions, so that a stray
 * `database.query()` there fails at once instead of deadlocking (PGlite) or silently running
 * outside the transaction (PostgreSQL).
 */
export class TransactionGuard {
  readonly #inside = new AsyncLocalStorage<true>();

  run<T>(fn: () => Promise<T>): Promise<T> {
    return this.#inside.run(true, fn);
  }

  assertOutside(what: string): void {
    if (this.#inside.getStore()) {
      throw new Error(`database.${what}() called inside a transaction: use the transaction's tx argument instead`);
    }
  }
}
