/**
 * Embedded PostgreSQL (PGlite): on disk under a data directory, or in memory for tests.
 *
 * PGlite runs in a worker thread of its own (pgliteWorkerMain.ts): it executes synchronously, as
 * WebAssembly, and in the server's thread every statement would stop the event loop meanwhile
 * (a thousand devices' frames waited behind the storage of the previous ones). Here each call is a
 * message to that thread and back.
 *
 * PGlite has one connection. A first-come, first-served lock (mutex.ts) gives it to one query,
 * transaction or exclusive session at a time, so a query issued while a transaction or session is
 * open waits for it to end instead of running inside it.
 */
import { mkdir } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { lockDataDir, type DataDirLock } from './dataDirLock.ts';
import {
  assertChannel,
  TransactionGuard,
  type Database,
  type DatabaseSession,
  type OnlineBackup,
  type Queryable,
  type QueryResult,
  type TransactionOptions,
} from './database.ts';
import { Mutex } from './mutex.ts';
import { errorFrom, type PgliteReply, type PgliteRequest, type PgliteWorkerData } from './pgliteProtocol.ts';
import { QUERY_CANCELED, STATEMENT_LIMITS } from './statementLimits.ts';

const WORKER_URL = new URL('./pgliteWorker.mjs', import.meta.url);

/** Requests without their id, which the thread's side adds. */
type Request = PgliteRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** The server's side of the database thread: requests and their answers, and notifications. */
class PgliteThread {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  readonly #listeners = new Map<number, (payload: string) => void>();
  #nextId = 1;
  #exited: Error | null = null;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (message: PgliteReply) => {
      if ('notify' in message) {
        this.#listeners.get(message.notify)?.(message.payload);
        return;
      }
      const waiting = this.#waiting.get(message.id);
      if (waiting === undefined) return;
      this.#waiting.delete(message.id);
      if (message.ok) waiting.resolve(message.value);
      else waiting.reject(errorFrom(message.error));
    });
    const fail = (error: Error) => {
      this.#exited = error;
      for (const waiting of this.#waiting.values()) waiting.reject(error);
      this.#waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the embedded database thread has stopped (exit code ${code})`)));
  }

  /** Starts the thread and waits until PGlite is open there. */
  static async start(dataDir: string | null): Promise<PgliteThread> {
    const worker = new Worker(WORKER_URL, { workerData: { dataDir } satisfies PgliteWorkerData });
    const opened = new Promise<void>((resolve, reject) => {
      const first = (message: PgliteReply) => {
        if ('notify' in message || message.id !== 0) return;
        worker.off('message', first);
        if (message.ok) resolve();
        else reject(errorFrom(message.error));
      };
      worker.on('message', first);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the embedded database thread stopped while opening (exit code ${code})`)));
    });
    const thread = new PgliteThread(worker);
    try {
      await opened;
    } catch (error) {
      await worker.terminate();
      throw error;
    }
    return thread;
  }

  call<T>(request: Request): Promise<T> {
    if (this.#exited !== null) return Promise.reject(this.#exited);
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#worker.postMessage({ ...request, id });
    });
  }

  /** Registers a notification handler; the thread's `listen` request names it by the returned number. */
  addListener(onNotify: (payload: string) => void): number {
    const listener = this.#nextId++;
    this.#listeners.set(listener, onNotify);
    return listener;
  }

  removeListener(listener: number): void {
    this.#listeners.delete(listener);
  }

  get exited(): boolean {
    return this.#exited !== null;
  }

  async stop(): Promise<void> {
    await this.#worker.terminate();
  }
}

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
    return new PgliteDatabase(await PgliteThread.start(dataDir), lock);
  } catch (error) {
    lock?.release();
    const where = dataDir ?? 'memory';
    throw new Error(`cannot open the embedded database (PGlite) in ${where}: ${messageOf(error)}`, { cause: error });
  }
}

/**
 * The one connection for a transaction or session that may hold it `limitMs` (0: no limit): past
 * that its next statement is refused as PostgreSQL refuses a statement over its timeout, and the
 * caller's error path rolls it back. PGlite cannot interrupt a statement under way (no timers in
 * WebAssembly, `statement_timeout` is ignored), so the bound is checked between statements.
 */
function bounded(direct: Queryable, limitMs: number): Queryable {
  if (limitMs <= 0) return direct;
  const started = performance.now();
  const check = (): void => {
    if (performance.now() - started <= limitMs) return;
    throw Object.assign(new Error(`canceling statement due to transaction timeout: the transaction held the embedded database longer than ${limitMs} ms`), {
      code: QUERY_CANCELED,
    });
  };
  return {
    query<Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>> {
      check();
      return direct.query<Row>(sql, params);
    },
    exec(sql: string): Promise<void> {
      check();
      return direct.exec(sql);
    },
  };
}

function queryable(thread: PgliteThread): Queryable {
  return {
    query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      return thread.call<QueryResult<Row>>({ op: 'query', sql, params: [...params] });
    },
    async exec(sql: string): Promise<void> {
      await thread.call({ op: 'exec', sql });
    },
  };
}

/** The embedded database's checkpoints so far (checkpoints.ts; /metrics). */
export interface CheckpointStats {
  count: number;
  /** How long the last one held the database, timed on its thread: frames and requests waited that long (ms). */
  lastMs: number;
  /** The longest so far (ms). */
  maxMs: number;
  /** Their sum (ms). */
  totalMs: number;
}

/** One checkpoint: how long it held the database, and how long it waited for its turn first (ms). */
export interface CheckpointTiming {
  heldMs: number;
  waitedMs: number;
}

/** Runs a checkpoint when `database` is the embedded one; null on PostgreSQL, which checkpoints by itself. */
export function checkpointOf(database: Database): (() => Promise<CheckpointTiming>) | null {
  return database instanceof PgliteDatabase ? () => database.checkpoint() : null;
}

/** The checkpoints' figures when `database` is the embedded one; null on PostgreSQL. */
export function checkpointStatsOf(database: Database): Readonly<CheckpointStats> | null {
  return database instanceof PgliteDatabase ? database.checkpointStats : null;
}

class PgliteDatabase implements Database {
  readonly kind = 'pglite';
  readonly #thread: PgliteThread;
  readonly #guard = new TransactionGuard();
  /** Whose turn it is on the one connection: a query, a transaction or a session. */
  readonly #turn = new Mutex();
  readonly #direct: Queryable;
  readonly #lock: DataDirLock | undefined;
  #closing: Promise<void> | undefined;

  readonly checkpointStats: CheckpointStats = { count: 0, lastMs: 0, maxMs: 0, totalMs: 0 };

  constructor(thread: PgliteThread, lock: DataDirLock | undefined) {
    this.#thread = thread;
    this.#lock = lock;
    this.#direct = queryable(thread);
  }

  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>> {
    this.#guard.assertOutside('query');
    return this.#turn.run(() => this.#direct.query<Row>(sql, params));
  }

  exec(sql: string): Promise<void> {
    this.#guard.assertOutside('exec');
    return this.#turn.run(() => this.#direct.exec(sql));
  }

  /**
   * A CHECKPOINT in its turn, timed on the database's thread (from the server's thread the time would
   * include the statements queued before it, and any pause of the server's own event loop).
   */
  checkpoint(): Promise<CheckpointTiming> {
    this.#guard.assertOutside('exec');
    const asked = performance.now();
    return this.#turn.run(async () => {
      const waitedMs = performance.now() - asked;
      const heldMs = await this.#thread.call<number>({ op: 'checkpoint' });
      const stats = this.checkpointStats;
      stats.count++;
      stats.lastMs = heldMs;
      stats.totalMs += heldMs;
      if (heldMs > stats.maxMs) stats.maxMs = heldMs;
      return { heldMs, waitedMs };
    });
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    this.#guard.assertOutside('transaction');
    return this.#turn.run(async () => {
      const direct = this.#direct;
      await direct.query('begin');
      let result: T;
      try {
        const tx = bounded(direct, options.statementTimeoutMs ?? STATEMENT_LIMITS.pgliteTransactionMs);
        result = await this.#guard.run(() => fn(tx));
      } catch (error) {
        await this.#rollback();
        throw error;
      }
      await direct.query('commit');
      return result;
    });
  }

  /** Ends a transaction left open; a failed rollback leaves nothing more to undo. */
  async #rollback(): Promise<void> {
    try {
      if (await this.#thread.call<boolean>({ op: 'inTransaction' })) await this.#direct.query('rollback');
    } catch {
      // The thread has stopped, or the connection is gone: no transaction is open any more.
    }
  }

  async connect(): Promise<DatabaseSession> {
    this.#guard.assertOutside('connect');
    const endTurn = await this.#turn.acquire();
    const direct = bounded(this.#direct, STATEMENT_LIMITS.pgliteTransactionMs);
    let open = true;
    return {
      query<Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>> {
        if (!open) return Promise.reject(new Error('database session already released'));
        return direct.query<Row>(sql, params);
      },
      release: async (): Promise<void> => {
        if (!open) return;
        open = false;
        try {
          // A transaction left open would swallow the next holder's queries.
          await this.#rollback();
        } finally {
          endTurn();
        }
      },
    };
  }

  /** PGlite's one connection listens; it cannot be lost, so `onReconnect` never runs. */
  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    assertChannel(channel);
    const listener = this.#thread.addListener(onNotify);
    try {
      await this.#turn.run(() => this.#thread.call({ op: 'listen', channel, listener }));
    } catch (error) {
      this.#thread.removeListener(listener);
      throw error;
    }
    let stopped = false;
    return async () => {
      if (stopped) return;
      stopped = true;
      this.#thread.removeListener(listener);
      if (!this.#thread.exited && this.#closing === undefined) await this.#turn.run(() => this.#thread.call({ op: 'unlisten', listener }));
    };
  }

  /**
   * Writes a consistent copy of the whole database (PGlite's gzipped tar of its data directory) to
   * `path` while the server runs: in turn, like a transaction, so no write is half in it. Resolves
   * to its size in bytes and each table's rows (backup/tableSums.ts) at that moment. `npm run
   * restore` (backup/backupTool.ts) loads it into a new data directory.
   */
  backupTo(path: string, { checksums = false } = {}): Promise<OnlineBackup> {
    this.#guard.assertOutside('backupTo');
    return this.#turn.run(() => this.#thread.call<OnlineBackup>({ op: 'dump', path, checksums }));
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      try {
        // Not in turn: a session never released must not keep the database open.
        if (!this.#thread.exited) await this.#thread.call({ op: 'close' });
      } finally {
        await this.#thread.stop();
        this.#lock?.release();
      }
    })();
    return this.#closing;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
