/**
 * Messages between the embedded database (PGlite in its worker thread, pgliteWorkerMain.ts) and
 * the server's side of it (pglite.ts).
 */

export type PgliteRequest =
  | { id: number; op: 'query'; sql: string; params: unknown[] }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'inTransaction' }
  | { id: number; op: 'listen'; channel: string; listener: number }
  | { id: number; op: 'unlisten'; listener: number }
  | { id: number; op: 'close' }
  /** A CHECKPOINT; answers how long it held the database, timed on the database's own thread (ms). */
  | { id: number; op: 'checkpoint' }
  /** A consistent copy of the whole database (a gzipped tar of its data directory) written to `path`. */
  | { id: number; op: 'dump'; path: string; checksums: boolean };

/** A database error's fields (message, code, detail, constraint, …), to be thrown again as they were. */
export type ErrorFields = Record<string, unknown> & { message: string };

export type PgliteReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ErrorFields } | { notify: number; payload: string };

/** What the worker is started with. */
export interface PgliteWorkerData {
  /** null: in memory. */
  dataDir: string | null;
}

/** An error's own fields, which a worker message cannot carry on an Error object itself. */
export function errorFields(error: unknown): ErrorFields {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: ErrorFields = { message: error.message, name: error.name };
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === 'function') continue;
    fields[key] = value;
  }
  return fields;
}

/** The error again, with its fields (`code` '23505' and the like) where the callers look for them. */
export function errorFrom(fields: ErrorFields): Error {
  const { message, name, ...rest } = fields;
  const error = new Error(message);
  if (typeof name === 'string') error.name = name;
  return Object.assign(error, rest);
}
