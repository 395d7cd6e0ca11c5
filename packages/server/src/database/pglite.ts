/**
 * Embedded PostgreSQL (PGlite): on disk under a data directory, or in memory for tests.
 * PGlite has one connection. A first-come, first-served lock (mutex.ts) gives it to one query,
 * transaction or exclusive session at a time, so a query issued while a transaction or session is
 * open waits for it to end instead of running inside it.
 */
import { mkdir } from 'node:fs/promises';
import { PGlite, types } from '@electric-sql/pglite';
import { lockDataDir, type DataDirLock } from './dataDirLock.ts';
import { assertChannel, TransactionGuard, type Database, type DatabaseSession, type Queryable, type QueryResult } from './database.ts';
import { Mutex } from './mutex.ts';

/** Parsers that make PGlite return what node-postgres returns (see database.ts). */
const PARSERS = {
  [types.INT8]: (value: string) => value,
  [types.DATE]: (value: string) => value,
};

/**
 * `dataDir` null: in memory, gone when closed. On disk, the directory is created if needed and
 * locked against a second process (see dataDirLock.ts).
 */
export async function openPglite(dataDir: string | null): Promise<Database> {
  let lock: DataDirLock | undefined;
  if (dataDir !== null) {
    await mkdir(dataDir, { recursive: true });
    lock = lockDataDir(dataDir);
  }
  try {
    const pglite = await PGlite.create(dataDir ?? 'memory://', { parsers: PARSERS });
    return new PgliteDatabase(pglite, lock);
  } catch (error) {
    lock?.release();
    const where = dataDir ?? 'memory';
    throw new Error(`cannot open the embedded database (PGlite) in ${where}: ${messageOf(error)}`, { cause: error });
  }
}

interface PgliteQueryable {
  query<Row>(sql: string, params?: unknown[]): Promise<{ rows: Row[]; rowCount?: number }>;
  exec(sql: string): Promise<unknown>;
}

function queryable(target: PgliteQueryable): Queryable {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      const { rows, rowCount } = await target.query<Row>(sql, [...params]);
      return { rows, rowCount: rowCount ?? null };
    },
    async exec(sql: string): Promise<void> {
      await target.exec(sql);
    },
  };
}

class PgliteDatabase implements Database {
  readonly kind = 'pglite';
  readonly #pglite: PGlite;
  readonly #guard = new TransactionGuard();
  /** Whose turn it is on the one connection: a query, a transaction or a session. */
  readonly #turn = new Mutex();
  readonly #direct: Queryable;
  readonly #lock: DataDirLock | undefined;
  #closing: Promise<void> | undefined;

  constructor(pglite: PGlite, lock: DataDirLock | undefined) {
    this.#pglite = pglite;
    this.#lock = lock;
    this.#direct = queryable(pglite);
  }

  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>> {
    this.#guard.assertOutside('query');
    return this.#turn.run(() => this.#direct.query<Row>(sql, params));
  }

  exec(sql: string): Promise<void> {
    this.#guard.assertOutside('exec');
    return this.#turn.run(() => this.#direct.exec(sql));
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    this.#guard.assertOutside('transaction');
    return this.#turn.run(() => this.#pglite.transaction((tx) => this.#guard.run(() => fn(queryable(tx)))));
  }

  async connect(): Promise<DatabaseSession> {
    this.#guard.assertOutside('connect');
    const endTurn = await this.#turn.acquire();
    const pglite = this.#pglite;
    const direct = this.#direct;
    let open = true;
    return {
      query<Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>> {
        if (!open) return Promise.reject(new Error('database session already released'));
        return direct.query<Row>(sql, params);
      },
      async release(): Promise<void> {
        if (!open) return;
        open = false;
        try {
          // A transaction left open would swallow the next holder's queries.
          if (!pglite.closed && pglite.isInTransaction()) await pglite.query('rollback');
        } finally {
          endTurn();
        }
      },
    };
  }

  /** PGlite's one connection listens; it cannot be lost, so `onReconnect` never runs. */
  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    assertChannel(channel);
    const unlisten = await this.#turn.run(() => this.#pglite.listen(channel, onNotify));
    let stopped = false;
    return async () => {
      if (stopped) return;
      stopped = true;
      if (!this.#pglite.closed) await this.#turn.run(() => unlisten());
    };
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      try {
        if (!this.#pglite.closed) await this.#pglite.close();
      } finally {
        this.#lock?.release();
      }
    })();
    return this.#closing;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
