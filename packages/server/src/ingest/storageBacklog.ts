/**
 * Whether device frames are being stored (issue 25, "truthful health"): the frames handed to the
 * signal store and not yet committed (the storage backlog), the external broker's messages waiting
 * to be tried again, and when a write last succeeded or failed. Readiness and /metrics read it;
 * the pipeline feeds it from each message's `durable` promise, so nothing is added to the write.
 */

/** Bounds past which storage counts as stalled (readiness 503). */
export interface StorageBounds {
  /** Frames waiting for their commit. Default 200,000 (about 20 s of 1,000 devices). */
  maxBacklogFrames: number;
  /** Their bytes. Default 256 MiB. */
  maxBacklogBytes: number;
  /** How long frames may wait with no write succeeding. Default 10 s. */
  maxStallMs: number;
  /** How long a failed write counts when nothing was stored since (a dependency outage with no traffic left). Default 30 s. */
  failureMemoryMs: number;
}

export const STORAGE_BOUNDS: StorageBounds = { maxBacklogFrames: 200_000, maxBacklogBytes: 256 * 1024 * 1024, maxStallMs: 10_000, failureMemoryMs: 30_000 };

export type StorageState = { state: 'ok' } | { state: 'down'; reason: string };

export class StorageBacklog {
  readonly bounds: StorageBounds;
  #frames = 0;
  #bytes = 0;
  /** When the backlog last went from empty to not empty. */
  #pendingSince = 0;
  #lastStoredAt = 0;
  #lastFailedAt = 0;
  #retryMessages = 0;
  #retryBytes = 0;

  constructor(bounds: Partial<StorageBounds> = {}) {
    this.bounds = { ...STORAGE_BOUNDS, ...bounds };
  }

  /** Frames handed to storage: counted until `durable` settles. */
  track(frames: number, bytes: number, durable: Promise<void>, nowMs = Date.now()): void {
    if (this.#frames === 0) this.#pendingSince = nowMs;
    this.#frames += frames;
    this.#bytes += bytes;
    const settle = (): void => {
      this.#frames -= frames;
      this.#bytes -= bytes;
    };
    durable.then(
      () => {
        settle();
        this.#lastStoredAt = Date.now();
      },
      () => {
        settle();
        this.#lastFailedAt = Date.now();
      },
    );
  }

  /** A message kept in memory to be tried again (external broker) until `released` is called. */
  holdForRetry(bytes: number): () => void {
    this.#retryMessages++;
    this.#retryBytes += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#retryMessages--;
      this.#retryBytes -= bytes;
    };
  }

  get frames(): number {
    return this.#frames;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get retryMessages(): number {
    return this.#retryMessages;
  }

  get retryBytes(): number {
    return this.#retryBytes;
  }

  /** When a write last committed (ms since the epoch), 0: never. */
  get lastStoredAt(): number {
    return this.#lastStoredAt;
  }

  /** Whether frames can be stored now, and if not why (one phrase). */
  state(nowMs = Date.now()): StorageState {
    const { maxBacklogFrames, maxBacklogBytes, maxStallMs, failureMemoryMs } = this.bounds;
    if (this.#frames > maxBacklogFrames || this.#bytes > maxBacklogBytes) {
      return { state: 'down', reason: `the storage backlog is over its bound (${this.#frames} frames, ${this.#bytes} bytes)` };
    }
    if (this.#frames > 0 && nowMs - Math.max(this.#lastStoredAt, this.#pendingSince) > maxStallMs) {
      return { state: 'down', reason: `no frames stored for over ${Math.round(maxStallMs / 1000)} s while ${this.#frames} wait` };
    }
    if (this.#retryMessages > 0 && nowMs - this.#lastStoredAt > maxStallMs) {
      return { state: 'down', reason: `${this.#retryMessages} device messages wait to be stored again` };
    }
    if (this.#lastFailedAt > this.#lastStoredAt && nowMs - this.#lastFailedAt < failureMemoryMs) {
      return { state: 'down', reason: 'the last write of device frames failed' };
    }
    return { state: 'ok' };
  }
}
