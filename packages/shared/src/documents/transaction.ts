/**
 * Transactions with optimistic concurrency. A transaction reads records (each read notes the
 * record's `version`, 0 when absent), then commits its writes together with those versions in
 * one request; the server applies them only if no record read has changed since, and answers
 * `aborted` otherwise. The client runs the whole function again, up to `maxAttempts` (default 5;
 * less than 1 is `Max attempts must be at least 1`).
 */
import { DocumentError } from './errors.ts';
import { checkMaxAttempts, DEFAULT_MAX_ATTEMPTS } from './query.ts';
import type { Data } from './update.ts';

/** Writes one commit may hold (Firestore's limit too): a commit locks its rows until it ends. */
export const MAX_WRITES_PER_COMMIT = 500;
/**
 * On the embedded database (PGlite: one connection, every request waits for a commit to end) a
 * 500-write commit holds everyone for up to a second; 100 keeps another tenant's reads near 200 ms
 * (docs/security.md, "Fair sharing").
 */
export const MAX_WRITES_PER_COMMIT_EMBEDDED = 100;

/** The cap on writes per commit for a database kind. */
export function maxWritesPerCommit(kind: 'pglite' | 'postgresql'): number {
  return kind === 'pglite' ? MAX_WRITES_PER_COMMIT_EMBEDDED : MAX_WRITES_PER_COMMIT;
}
/** Reads whose versions one commit checks. */
export const MAX_READS_PER_COMMIT = 500;

export type TransactionWrite =
  { op: 'set'; path: string; data: Data; merge?: boolean } | { op: 'update'; path: string; data: Data } | { op: 'delete'; path: string };

/** Body of `POST /api/documents/commit`. */
export interface CommitRequest {
  /** Versions the transaction read: the commit fails (`aborted`) if any has changed. */
  reads: { path: string; version: number }[];
  writes: TransactionWrite[];
}

/** What a transaction needs from the transport (HTTP in the app, tests). */
export interface TransactionTransport {
  get(path: string): Promise<{ document: Data | null; version: number }>;
  commit(request: CommitRequest): Promise<void>;
}

export class Transaction {
  readonly #transport: TransactionTransport;
  readonly #reads = new Map<string, number>();
  readonly #writes: TransactionWrite[] = [];

  constructor(transport: TransactionTransport) {
    this.#transport = transport;
  }

  async get(path: string): Promise<Data | null> {
    if (this.#writes.length > 0) throw new DocumentError('invalid-argument', 'Firestore transactions require all reads to be executed before all writes.');
    const { document, version } = await this.#transport.get(path);
    this.#reads.set(path, version);
    return document;
  }

  set(path: string, data: Data, options: { merge?: boolean } = {}): this {
    this.#writes.push({ op: 'set', path, data, ...(options.merge === true ? { merge: true } : {}) });
    return this;
  }

  update(path: string, data: Data): this {
    this.#writes.push({ op: 'update', path, data });
    return this;
  }

  delete(path: string): this {
    this.#writes.push({ op: 'delete', path });
    return this;
  }

  request(): CommitRequest {
    return { reads: [...this.#reads].map(([path, version]) => ({ path, version })), writes: this.#writes };
  }
}

export async function runTransaction<T>(
  transport: TransactionTransport,
  fn: (tx: Transaction) => Promise<T>,
  { maxAttempts = DEFAULT_MAX_ATTEMPTS }: { maxAttempts?: number } = {},
): Promise<T> {
  checkMaxAttempts(maxAttempts);
  let lastError: unknown;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const tx = new Transaction(transport);
    const result = await fn(tx);
    try {
      await transport.commit(tx.request());
      return result;
    } catch (error) {
      if (!(error instanceof DocumentError) || error.code !== 'aborted') throw error;
      lastError = error;
    }
  }
  throw lastError;
}
