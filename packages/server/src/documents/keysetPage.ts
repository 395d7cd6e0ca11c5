/**
 * One page of a collection read through the engine with the caller's claims, keyset-paged: the
 * next page starts after the record named by the cursor (its id), so a page costs the same however
 * far back it is and never repeats or skips a record when others are added meanwhile. One record
 * more than the page is read to know whether another page follows. A cursor that is not a record
 * of this collection in the caller's scope is refused as the caller's mistake (the caller decides
 * the error; another tenant's id reads as missing, so nothing is told about it).
 */
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError } from '@nemuri/shared/documents/errors';
import { MAX_PAGE_SIZE, type Query } from '@nemuri/shared/documents/query';
import type { Data } from '@nemuri/shared/documents/update';
import type { DocumentStore } from './store.ts';

export interface KeysetPage {
  records: Data[];
  /** The last record's id when another page follows, else null. */
  nextCursor: string | null;
}

export class UnknownCursor extends Error {
  constructor(readonly cursor: string) {
    super(`cursor: ${cursor} is not a record of this list`);
    this.name = 'UnknownCursor';
  }
}

/** The cursor's record, when it is one of the list's (`belongs`: e.g. of the same room). */
async function cursorRecord(store: DocumentStore, claims: Claims, path: string, belongs: (record: Data) => boolean): Promise<Data | null> {
  try {
    const found = await store.get(claims, path);
    return found !== null && belongs(found.document) ? found.document : null;
  } catch (error) {
    if (error instanceof DocumentError && (error.code === 'permission-denied' || error.code === 'invalid-argument')) return null;
    throw error;
  }
}

export async function keysetPage(
  store: DocumentStore,
  claims: Claims,
  query: Omit<Query, 'limit' | 'limitToLast' | 'startAfter' | 'collection'> & { collection: string },
  limit: number,
  cursor: string | undefined,
  belongs: (record: Data) => boolean = () => true,
): Promise<KeysetPage> {
  if (cursor !== undefined && (await cursorRecord(store, claims, `${query.collection}/${cursor}`, belongs)) === null) throw new UnknownCursor(cursor);
  const found = await store.query(claims, {
    ...query,
    limit: limit + 1,
    ...(cursor === undefined ? {} : { startAfter: { document: `${query.collection}/${cursor}` } }),
  });
  const records = found.slice(0, limit);
  const last = records.at(-1);
  return { records, nextCursor: found.length > limit && last !== undefined ? String(last.documentReferenceId) : null };
}

/**
 * Every record the query matches in the caller's scope, read a full engine page at a time, each
 * page starting after the last record of the one before: for server code that must see all of a
 * list (a bill's borrows, an agency's devices), where a single capped read would drop the rest
 * without a word. The engine's order ends with the record's path, so pages neither repeat nor skip.
 */
export async function readEveryPage(
  store: DocumentStore,
  claims: Claims,
  query: Omit<Query, 'limit' | 'limitToLast' | 'startAfter'>,
  pageSize: number = MAX_PAGE_SIZE,
): Promise<Data[]> {
  const records: Data[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await store.query(claims, { ...query, limit: pageSize, ...(after === null ? {} : { startAfter: { document: after } }) });
    records.push(...page);
    const last = page.at(-1);
    if (page.length < pageSize || last === undefined) return records;
    after = String(last.documentPath);
  }
}
