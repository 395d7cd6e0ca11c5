/**
 * The `signals` service's own periodic work: staged frames of complete minutes compacted into
 * minute chunks, and signals older than SIGNAL_RETENTION_DAYS deleted. server.ts starts it once
 * devices can send (with the ingest pipeline); the app's close stops it.
 */
import type { Database } from '../database/database.ts';
import type { SignalStore } from './signalStore.ts';

export interface UpkeepLogger {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface SignalUpkeepOptions {
  /** SIGNAL_RETENTION_DAYS. Default 30. */
  retentionDays?: number;
  /** Compaction period. Default 10 s. */
  compactEveryMs?: number;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** Compact a minute once it has been over this long (frames of a second arrive after it ends). */
const COMPACT_GRACE_MS = 10_000;

export class SignalUpkeep {
  readonly #database: Database;
  readonly #store: SignalStore;
  readonly #log: UpkeepLogger;
  readonly #retentionDays: number;
  readonly #compactEveryMs: number;
  readonly #timers: NodeJS.Timeout[] = [];
  /** Aborted by stop(): a compaction under way starts no further pass. */
  #stopping = new AbortController();
  /** The work under way (a compaction, a retention run), which stop() waits for. */
  readonly #running = new Set<Promise<unknown>>();

  constructor(database: Database, store: SignalStore, log: UpkeepLogger, options: SignalUpkeepOptions = {}) {
    this.#database = database;
    this.#store = store;
    this.#log = log;
    this.#retentionDays = options.retentionDays ?? 30;
    this.#compactEveryMs = options.compactEveryMs ?? 10_000;
  }

  /** Compaction every period, retention a minute after the start and then hourly. */
  start(): void {
    if (this.#timers.length > 0) return;
    this.#stopping = new AbortController();
    let compacting = false;
    this.#every(
      this.#compactEveryMs,
      async () => {
        // A compaction longer than the period is not joined by another.
        if (compacting) return;
        compacting = true;
        try {
          const moved = await this.#store.compactAll(this.#compactBefore(), { rowsPerPass: 500, pauseMs: 10, signal: this.#stopping.signal });
          if (this.#stopping.signal.aborted) return;
          await this.#vacuum('signal_frames_pending', moved);
        } finally {
          compacting = false;
        }
      },
      'signal compaction',
    );
    this.#every(HOUR_MS, () => this.#retention(), 'signal retention');
    const first = setTimeout(() => this.#run(() => this.#retention(), 'signal retention'), MINUTE_MS);
    first.unref();
    this.#timers.push(first);
  }

  /**
   * Stops the timers and waits for the work under way, which ends after its current pass (a
   * transaction of at most a few hundred frames), so that the database is not closed under it.
   * Staged frames are not compacted here: that could take longer than a shutdown may (a backlog of
   * minutes), and compaction takes them after the next start; they are durable and readable meanwhile.
   */
  async stop(): Promise<void> {
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers.length = 0;
    this.#stopping.abort();
    await Promise.allSettled([...this.#running]);
  }

  #every(ms: number, work: () => Promise<unknown>, what: string): void {
    const timer = setInterval(() => this.#run(work, what), ms);
    timer.unref();
    this.#timers.push(timer);
  }

  #run(work: () => Promise<unknown>, what: string): void {
    const running = work().catch((error: unknown) => this.#log.error({ err: error }, `${what} failed`));
    this.#running.add(running);
    void running.finally(() => this.#running.delete(running));
  }

  #compactBefore(nowMs = Date.now()): number {
    return Math.floor((nowMs - COMPACT_GRACE_MS) / MINUTE_MS) * MINUTE_MS * 1000;
  }

  /**
   * PGlite runs no autovacuum (PostgreSQL does): without it every staged and deleted frame would stay
   * in the file. A plain VACUUM makes the space reusable without locking writers out (milliseconds).
   */
  async #vacuum(table: 'signal_frames_pending' | 'signal_chunks', deletedRows: number): Promise<void> {
    if (this.#database.kind !== 'pglite' || deletedRows === 0) return;
    await this.#database.query(`vacuum ${table}`);
  }

  async #retention(): Promise<void> {
    const deleted = await this.#store.deleteOlderThan(this.#retentionDays);
    await this.#vacuum('signal_chunks', deleted.chunks);
    await this.#vacuum('signal_frames_pending', deleted.pending);
    if (deleted.chunks + deleted.pending > 0) this.#log.info({ ...deleted, retentionDays: this.#retentionDays }, 'old signals deleted');
  }
}
