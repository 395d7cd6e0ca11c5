/**
 * PostgreSQL through a node-postgres pool. `searchPath` confines every connection to one schema
 * (tests use a fresh schema each, so that runs never see each other's tables).
 */
import pg from 'pg';
import { redactUrl } from '../config.ts';
import { TransactionGuard, type Database, type DatabaseSession, type Queryable, type QueryResult } from './database.ts';

export interface PostgresOptions {
  url: string;
  /** Schema name(s) for `search_path`, e.g. `t_abc123`. */
  searchPath?: string;
  /** Most connections at once (pg's default: 10). */
  maxConnections?: number;
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
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    types: TYPES,
    ...(options.searchPath === undefined ? {} : { options: `-c search_path=${options.searchPath}` }),
  });
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
  return new PostgresDatabase(pool);
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

class PostgresDatabase implements Database {
  readonly kind = 'postgresql';
  readonly #pool: pg.Pool;
  readonly #guard = new TransactionGuard();
  readonly #direct: Queryable;
  #closing: Promise<void> | undefined;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
    this.#direct = queryable(pool);
  }

  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>> {
    this.#guard.assertOutside('query');
    return this.#direct.query<Row>(sql, params);
  }

  exec(sql: string): Promise<void> {
    this.#guard.assertOutside('exec');
    return this.#direct.exec(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    this.#guard.assertOutside('transaction');
    const client = await this.#pool.connect();
    let open = true;
    let broken: Error | undefined;
    try {
      await client.query('begin');
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
      client.release(broken);
    }
  }

  async connect(): Promise<DatabaseSession> {
    this.#guard.assertOutside('connect');
    const client = await this.#pool.connect();
    let open = true;
    let broken: Error | undefined;
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
        client.release(broken);
      },
    };
  }

  close(): Promise<void> {
    this.#closing ??= this.#pool.end();
    return this.#closing;
  }
}

/** Errors that mean the connection itself failed, not the statement. */
function isConnectionError(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  // SQLSTATE class 08: connection exception; 57P01-57P03: the server is shutting down.
  return /^(08|57P0[123])/.test(code ?? '') || ['ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code ?? '') || /Connection terminated/i.test(error.message);
}
