/**
 * Periodic checkpoints of the embedded database, so that a start after a crash is quick (issue 25).
 *
 * PGlite runs PostgreSQL as a single backend, without the checkpointer process a server has: it
 * checkpoints only when it closes or when the write-ahead log reaches max_wal_size (1 GB). After
 * kill -9 under ingest the next start replays all the log since the last checkpoint before the
 * database opens, the broker listens or a device is taken: 321 MB of log took 27 s to replay here,
 * against 2.6 s when a checkpoint had run just before. A checkpoint every 30 s keeps the log to
 * replay to what 30 s of ingest writes; it takes the one connection for its duration (a few hundred
 * milliseconds at most here; frames wait in the pipeline meanwhile). How long each held it is timed
 * on the database's thread and shown on /metrics (`nemuri_pglite_checkpoint_*`). PostgreSQL
 * checkpoints by itself.
 */
import type { Database } from './database.ts';
import { checkpointOf } from './pglite.ts';

export const CHECKPOINT_EVERY_MS = 30_000;

/** Above this a checkpoint is logged: frames waited that long. */
const SLOW_CHECKPOINT_MS = 2_000;

export interface CheckpointLogger {
  warn(object: object, message: string): void;
}

export interface Checkpoints {
  /** Checkpoints done so far. */
  readonly count: number;
  stop(): void;
}

/** Starts the checkpoints of an embedded database; nothing for PostgreSQL. */
export function startCheckpoints(database: Database, log: CheckpointLogger, everyMs = CHECKPOINT_EVERY_MS): Checkpoints {
  let count = 0;
  const checkpoint = checkpointOf(database);
  if (checkpoint === null) return { count, stop: () => undefined };
  let running = false;
  const timer = setInterval(() => {
    // One at a time: a slow one is not joined by the next.
    if (running) return;
    running = true;
    checkpoint()
      .then(
        ({ heldMs, waitedMs }) => {
          count++;
          if (heldMs > SLOW_CHECKPOINT_MS)
            log.warn({ ms: Math.round(heldMs), waitedMs: Math.round(waitedMs) }, `embedded database checkpoint held the database ${Math.round(heldMs)} ms`);
        },
        // A database closing or gone: the next turn tries again, and a start after a crash replays more.
        (error: unknown) => log.warn({ err: error }, `embedded database checkpoint failed: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return {
    get count() {
      return count;
    },
    stop: () => clearInterval(timer),
  };
}
