/**
 * PostgreSQL through a node-postgres pool. `searchPath` confines every connection to one schema
 * (tests use a fresh schema each, so that runs never see each other's tables).
 */
import pg from 'pg';
import { redactUrl } from '../config.ts';
import { assertChannel, TransactionGuard, type Database, type DatabaseSession, type Queryable, type QueryResult, type TransactionOptions } from './database.ts';
import { STATEMENT_LIMITS } from './statementLimits.ts';
import { isConnectionError } from './connectionLoss.ts';

export interface PostgresOptions {
  url: string;
  /** Schema name(s) for `search_path`, e.g. `t_abc123`. */
  searchPath?: string;
  /** Most connections at once (default POOL_CONNECTIONS). */
  maxConnections?: number;
}

/**
 * Connections of the pool. The fair-share limits (http/fairShare.ts) let expensive commits take at
 * most 4 of them, so ordinary reads of every tenant always find one.
 */
export const POOL_CONNECTIONS = 10;

/** Session settings of every connection: the limits of statementLimits.ts. */
function limitOptions(): string {
  return [
    `-c statement_timeout=${STATEMENT_LIMITS.statementTimeoutMs}`,
    `-c lock_timeout=${STATEMENT_LIMITS.lockTimeoutMs}`,
    `-c idle_in_transaction_session_timeout=${STATEMENT_LIMITS.idleInTransactionMs}`,
  ].join(' ');
}

const DATE_OID = 1082;

/** Parsers that keep results equal to PGlite's (see database.ts): dates stay 'YYYY-MM-DD'. */
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === DATE_OID ? (value: string) => value : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Opens a pool and checks that PostgreSQL answers, so a wrong URL fails at start with a clear message. */
export async function openPostgres(options: PostgresOptions): Promise<Database> {
  if (options.searchPath !== undefined && !/^[A-Za-z_][A-Za-z0-9_$]*(,\s*[A-Za-z_][A-Za-z0-9_$]*)*$/.test(options.searchPath)) {
    throw new Error(`invalid search path "${options.searchPath}": use plain schema names`);
  }
  const { url, urlOptions } = splitOptions(options.url);
  const clientConfig: pg.ClientConfig = {
    connectionString: url,
    types: TYPES,
    // A connection whose peer vanished without closing it (a host or network outage) is found
    // within a minute or so instead of the system's default two hours, and fails like a closed one.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // The URL's own `options` first: the limits and the search path given here win over it.
    options: [urlOptions, limitOptions(), options.searchPath === undefined ? '' : `-c search_path=${options.searchPath}`]
      .filter((part) => part !== '')
      .join(' '),
  };
  const pool = new pg.Pool({ ...clientConfig, max: options.maxConnections ?? POOL_CONNECTIONS });
  // An idle connection that breaks (PostgreSQL restarted) is dropped by the pool and the next
  // query opens a new one; without a listener Node would end the process.
  pool.on('error', (error) => {
    console.warn(`PostgreSQL connection lost (${error.message}); the next query reconnects`);
  });
  try {
    await pool.query('select 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new Error(`cannot reach PostgreSQL at ${redactUrl(options.url)}: ${describeConnectError(error)}`, { cause: error });
  }
  return new PostgresDatabase(pool, clientConfig);
}

/**
 * The URL without its `options` parameter, and that parameter: node-postgres lets a connection
 * string's options replace the configured ones, which would drop the limits.
 */
function splitOptions(connectionString: string): { url: string; urlOptions: string } {
  let parsed: URL;
  try {
    parsed = new URL(connectionString);
  } catch {
    return { url: connectionString, urlOptions: '' };
  }
  const urlOptions = parsed.searchParams.get('options') ?? '';
  if (urlOptions === '') return { url: connectionString, urlOptions };
  parsed.searchParams.delete('options');
  return { url: parsed.toString(), urlOptions };
}

/** Node reports a refused connection to several addresses as an AggregateError without message. */
function describeConnectError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describeConnectError(error.errors[0]);
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return error.message || code || error.name;
  }
  return String(error);
}

function queryable(target: pg.Pool | pg.PoolClient, isOpen: () => boolean = () => true): Queryable {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      if (!isOpen()) throw new Error('transaction already ended');
      const { rows, rowCount } = await target.query(sql, [...params]);
      return { rows: rows as Row[], rowCount };
    },
    async exec(sql: string): Promise<void> {
      if (!isOpen()) throw new Error('transaction already ended');
      // Without parameters pg uses the simple query protocol, which runs several statements.
      await target.query(sql);
    },
  };
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** The pool's figures when `database` is PostgreSQL; null for PGlite, which has one connection and no pool. */
export function poolStatsOf(database: Database): PoolStats | null {
  return database instanceof PostgresDatabase ? database.poolStats : null;
}

class PostgresDatabase implements Database {
  readonly kind = 'postgresql';
  readonly #pool: pg.Pool;
  readonly #guard = new TransactionGuard();
  readonly #direct: Queryable;
  readonly #clientConfig: pg.ClientConfig;
  /** Stops every listener still open (see close). */
  readonly #listeners = new Set<() => Promise<void>>();
  #closing: Promise<void> | undefined;

  constructor(pool: pg.Pool, clientConfig: pg.ClientConfig) {
    this.#pool = pool;
    this.#direct = queryable(pool);
    this.#clientConfig = clientConfig;
  }

  /** The pool's connections (open, idle) and the checkouts waiting for one, for /metrics. */
  get poolStats(): PoolStats {
    return { total: this.#pool.totalCount, idle: this.#pool.idleCount, waiting: this.#pool.waitingCount };
  }

  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>> {
    this.#guard.assertOutside('query');
    return this.#direct.query<Row>(sql, params);
  }

  exec(sql: string): Promise<void> {
    this.#guard.assertOutside('exec');
    return this.#direct.exec(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    this.#guard.assertOutside('transaction');
    const client = await this.#pool.connect();
    let open = true;
    let broken: Error | undefined;
    const stopWatching = watchCheckedOut(client, (error) => (broken ??= error));
    try {
      await client.query('begin');
      if (options.statementTimeoutMs !== undefined) await client.query(`set local statement_timeout = ${Math.max(0, Math.floor(options.statementTimeoutMs))}`);
      const result = await this.#guard.run(() => fn(queryable(client, () => open)));
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch((rollbackError: unknown) => {
        // The connection is unusable: destroy it rather than return it to the pool.
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      });
      throw error;
    } finally {
      open = false;
      stopWatching();
      client.release(broken);
    }
  }

  async connect(): Promise<DatabaseSession> {
    this.#guard.assertOutside('connect');
    const client = await this.#pool.connect();
    let open = true;
    let broken: Error | undefined;
    const stopWatching = watchCheckedOut(client, (error) => (broken ??= error));
    const session = queryable(client);
    return {
      async query<Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>> {
        if (!open) throw new Error('database session already released');
        try {
          return await session.query<Row>(sql, params);
        } catch (error) {
          // A query that failed for want of a connection leaves the client unusable.
          if (isConnectionError(error)) broken = error;
          throw error;
        }
      },
      async release(): Promise<void> {
        if (!open) return;
        open = false;
        // 'T' or 'E': a transaction left open, which would carry over to the client's next user.
        const status = client.getTransactionStatus();
        if (broken === undefined && (status === 'T' || status === 'E')) {
          await client.query('rollback').catch((error: unknown) => {
            broken = error instanceof Error ? error : new Error(String(error));
          });
        }
        stopWatching();
        client.release(broken);
      },
    };
  }

  /**
   * A client outside the pool: it holds its connection for as long as it listens, which would
   * take a pool slot for good, and notifications arrive only on the connection that listens.
   */
  async listen(channel: string, onNotify: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>> {
    assertChannel(channel);
    let stopped = false;
    let client: pg.Client | undefined;
    let retry: NodeJS.Timeout | undefined;
    const open = async (): Promise<void> => {
      const next = new pg.Client(this.#clientConfig);
      next.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      next.on('error', () => lost(next));
      next.on('end', () => lost(next));
      try {
        await next.connect();
        await next.query(`listen ${channel}`);
      } catch (error) {
        await next.end().catch(() => undefined);
        throw error;
      }
      if (stopped) await next.end().catch(() => undefined);
      else client = next;
    };
    const reopen = (delayMs: number): void => {
      retry = setTimeout(() => {
        open().then(
          () => {
            if (!stopped) onReconnect?.();
          },
          () => {
            if (!stopped) reopen(Math.min(delayMs * 2, 30_000));
          },
        );
      }, delayMs);
      retry.unref();
    };
    const lost = (which: pg.Client): void => {
      if (stopped || which !== client) return;
      client = undefined;
      which.end().catch(() => undefined);
      console.warn(`PostgreSQL listener on ${channel} lost its connection; reconnecting`);
      reopen(500);
    };
    await open();
    const stop = async (): Promise<void> => {
      if (stopped) return;
      stopped = true;
      this.#listeners.delete(stop);
      clearTimeout(retry);
      const last = client;
      client = undefined;
      await last?.end().catch(() => undefined);
    };
    this.#listeners.add(stop);
    return stop;
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      await Promise.all([...this.#listeners].map((stop) => stop()));
      await this.#pool.end();
    })();
    return this.#closing;
  }
}

/**
 * Listens for errors of a client checked out of the pool. The pool listens on idle clients only; a
 * checked-out one that loses its connection (PostgreSQL restarted, backend terminated) emits 'error'
 * even while a query of it is failing with the same error, and an 'error' without a listener ends
 * the process. The client is then released as broken, so the pool destroys it.
 */
function watchCheckedOut(client: pg.PoolClient, onLost: (error: Error) => void): () => void {
  const listener = (error: Error): void => {
    console.warn(`PostgreSQL connection in use lost (${error.message}); it is discarded`);
    onLost(error);
  };
  client.on('error', listener);
  return () => client.off('error', listener);
}
