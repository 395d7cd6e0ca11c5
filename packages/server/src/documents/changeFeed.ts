/**
 * The document engine's change feed: after a write commits, which records changed (paths and
 * tenants, never data), for live subscriptions (packages/server/src/live) to re-read what they show.
 *
 * - In one process the store hands each committed transaction's changes to `publish`, which calls
 *   the local listeners at once.
 * - On PostgreSQL several server processes may share the database (PRODUCT.md section 2, scale-out
 *   path): the store also calls `notify` inside the transaction, which queues
 *   `pg_notify('nemuri_documents', …)`. PostgreSQL delivers it only if and after the transaction
 *   commits, to every connection that listens (`start`). Each process drops its own notifications by
 *   the process id in the payload, having published them locally already, and notifications of
 *   another schema (tests share one database, one schema each), which are other databases to us.
 * - A notification payload must stay under 8000 bytes: changes are split over several, and a single
 *   change too large to send (a very long path) becomes `{ everything: true }`, which makes every
 *   subscription re-read. So does a listener connection that was lost and came back.
 * PGlite runs in this process only, so the local publish is all it needs.
 */
import { randomUUID } from 'node:crypto';
import type { RecordTenant } from '@nemuri/shared/documents/access';
import type { Database, Queryable } from '../database/database.ts';

export const CHANGE_CHANNEL = 'nemuri_documents';

/** What a write did to a record; `set` replaced or merged into an existing record. */
export type ChangeOperation = 'create' | 'set' | 'update' | 'delete';

export interface DocumentChange {
  /** e.g. `rooms/r1/sleeps/2026-01-02`. */
  path: string;
  /** The collection path, e.g. `rooms/r1/sleeps`. */
  collection: string;
  /** The collection id of collection-group queries, e.g. `sleeps`. */
  collectionGroup: string;
  op: ChangeOperation;
  /** Where the record belongs now (before a delete: where it belonged). */
  tenant: RecordTenant;
  /** Where it belonged before, when the write moved it to another tenant. */
  previousTenant?: RecordTenant;
  /**
   * The fields the write changed (dotted paths, as its audit row names them), when they are few
   * (MAX_CHANGE_KEYS). Absent: not known, and a listener assumes every field changed. A listener that follows a few
   * fields skips the other writes with it (a device's lastSeenAt, written every 15 s, is not a change
   * of its registration).
   */
  keys?: readonly string[];
}

/** More changed fields than this go unnamed: a change must fit a notification (PAYLOAD_BUDGET). */
export const MAX_CHANGE_KEYS = 32;

/** Whether the change may concern one of these fields (or a field inside one); a record created, deleted or moved concerns all. */
export function mayChange(change: DocumentChange, fields: readonly string[]): boolean {
  if (change.keys === undefined || change.op === 'create' || change.op === 'delete' || change.previousTenant !== undefined) return true;
  return change.keys.some((key) => fields.some((field) => key === field || key.startsWith(`${field}.`)));
}

/** A committed transaction's changes, or `everything` when they are not known (see above). */
export type ChangeBatch = { changes: readonly DocumentChange[] } | { everything: true };

export type ChangeListener = (batch: ChangeBatch) => void;

/** What the store needs from the feed. */
export interface ChangeSink {
  /** Inside the transaction, before it commits. */
  notify(tx: Queryable, changes: readonly DocumentChange[]): Promise<void>;
  /** After the transaction committed. */
  publish(changes: readonly DocumentChange[]): void;
}

interface Logger {
  warn(object: object, message: string): void;
}

/** The payload's keys are short: the limit is on bytes. */
interface Payload {
  /** The sending process. */
  p: string;
  /** The sender's schema (filled in by the database: `current_schema()`). */
  s?: string;
  c?: DocumentChange[];
  all?: true;
}

/** PostgreSQL's limit is 8000 bytes; the schema name is added to the payload in SQL. */
const PAYLOAD_BUDGET = 7800;

export class ChangeFeed implements ChangeSink {
  /** Tells this process's notifications from others'. */
  readonly processId = randomUUID();
  readonly #database: Database;
  readonly #listeners = new Set<ChangeListener>();
  #stopListening: (() => Promise<void>) | undefined;
  #starting: Promise<void> | undefined;

  constructor(database: Database) {
    this.#database = database;
  }

  async notify(tx: Queryable, changes: readonly DocumentChange[]): Promise<void> {
    if (this.#database.kind !== 'postgresql' || changes.length === 0) return;
    for (const payload of this.#payloads(changes)) {
      // Text, not jsonb: jsonb's output adds spaces, which would break the byte budget.
      await tx.query(`select pg_notify('${CHANGE_CHANNEL}', '{"s":' || to_json(current_schema())::text || ',' || substr($1, 2))`, [payload]);
    }
  }

  /** The changes as JSON payloads within the budget, in order. */
  #payloads(changes: readonly DocumentChange[]): string[] {
    const head = `{"p":${JSON.stringify(this.processId)},"c":[`;
    const payloads: string[] = [];
    let items: string[] = [];
    let size = head.length + 2;
    for (const change of changes) {
      const item = JSON.stringify(change);
      if (head.length + 2 + Buffer.byteLength(item) > PAYLOAD_BUDGET) {
        payloads.push(JSON.stringify({ p: this.processId, all: true } satisfies Payload));
        continue;
      }
      if (size + Buffer.byteLength(item) + 1 > PAYLOAD_BUDGET) {
        payloads.push(`${head}${items.join(',')}]}`);
        items = [];
        size = head.length + 2;
      }
      items.push(item);
      size += Buffer.byteLength(item) + 1;
    }
    if (items.length > 0) payloads.push(`${head}${items.join(',')}]}`);
    return payloads;
  }

  publish(changes: readonly DocumentChange[]): void {
    if (changes.length > 0) this.#deliver({ changes });
  }

  #deliver(batch: ChangeBatch): void {
    for (const listener of this.#listeners) {
      try {
        listener(batch);
      } catch (error) {
        // One broken listener must not keep the changes from the others.
        console.warn('document change listener failed', error);
      }
    }
  }

  subscribe(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** On PostgreSQL: starts listening for other processes' changes. Safe to call twice. */
  start(log: Logger): Promise<void> {
    this.#starting ??= (async () => {
      if (this.#database.kind !== 'postgresql') return;
      const { rows } = await this.#database.query<{ schema: string }>('select current_schema() as schema');
      const schema = rows[0]?.schema;
      this.#stopListening = await this.#database.listen(
        CHANGE_CHANNEL,
        (text) => {
          let payload: Payload;
          try {
            payload = JSON.parse(text) as Payload;
          } catch {
            log.warn({ channel: CHANGE_CHANNEL }, 'document change notification is not JSON; ignored');
            return;
          }
          if (payload.p === this.processId || payload.s !== schema) return;
          if (payload.all === true || !Array.isArray(payload.c)) this.#deliver({ everything: true });
          else this.#deliver({ changes: payload.c });
        },
        () => this.#deliver({ everything: true }),
      );
    })();
    return this.#starting;
  }

  async stop(): Promise<void> {
    await this.#starting?.catch(() => undefined);
    this.#starting = undefined;
    const stop = this.#stopListening;
    this.#stopListening = undefined;
    await stop?.();
  }
}
