/**
 * A live query's answer held in memory, so that a changed record can be taken in without asking
 * the database again (liveResults.ts). One write then costs a thousand different subscriptions a
 * thousand small in-memory steps instead of a thousand SQL queries.
 *
 * The window keeps an exact prefix of the query's matches in the order the SQL scans them (the
 * query's order, turned around for limitToLast): the page the subscriber sees (`shown` records)
 * and a few more read ahead (LOOK_AHEAD), so that a record leaving the page is replaced from
 * memory. `complete` says the prefix is every match (the database answered fewer than asked). A
 * changed record is matched, placed and kept or dropped with the SQL's own semantics
 * (documents/evaluate.ts). Where memory alone cannot know the answer, `take` says `unknown` and
 * the caller evaluates the query again:
 * - the known prefix becomes shorter than the page (records left it, or moved past its end, where
 *   unseen records may come first);
 * - a value the in-memory semantics cannot order (documents/evaluate.ts, UNKNOWN).
 * Queries starting after a document are not held (the cursor record itself may change).
 */
import { MAX_PAGE_SIZE, type ValidQuery } from '@nemuri/shared/documents/query';
import type { Data } from '@nemuri/shared/documents/update';
import { afterCursor, asJson, compareInQueryOrder, matchesFilters, sortValues, UNKNOWN, type Unknown } from '../documents/evaluate.ts';
import type { Cursor } from '../documents/sql.ts';

interface Entry {
  path: string;
  /** Which stored state of the record (WindowRow.tag). */
  tag: string;
  /** The values of the orderings. */
  values: unknown[];
  /** The record as the subscriber reads it, as JSON. */
  json: string;
}

/** A record as stored, as far as the window needs it. */
export interface WindowRow {
  path: string;
  data: Data;
  /**
   * Tells this stored state of the record from every other (its version and creation time): two
   * windows holding the same paths and tags answer the same JSON to the same audience.
   */
  tag: string;
}

export type Taken = 'same' | 'changed' | 'unknown';

/** Records read beyond the page (at most): a page of 50 keeps 10 in reserve. */
const LOOK_AHEAD = 10;

/** How many records to read for a page of `shown`: the page and its reserve, within the query limit's maximum. */
export function readAheadLimit(shown: number): number {
  return Math.min(MAX_PAGE_SIZE, shown + Math.min(LOOK_AHEAD, Math.ceil(shown / 5)));
}

export class QueryWindow {
  readonly #query: ValidQuery;
  readonly #cursor: readonly unknown[] | null;
  readonly #entries: Entry[];
  /** The page size: the subscriber's own limit. The query's limit is the page and its reserve. */
  readonly #shown: number;
  #complete: boolean;

  private constructor(query: ValidQuery, cursor: readonly unknown[] | null, entries: Entry[], shown: number, complete: boolean) {
    this.#query = query;
    this.#cursor = cursor;
    this.#entries = entries;
    this.#shown = shown;
    this.#complete = complete;
  }

  /**
   * The window over a query's answer read `readAheadLimit(shown)` deep (rows in answer order, each
   * with its record's JSON), showing `shown`; null when the query cannot be held in memory.
   */
  static of(query: ValidQuery, cursor: Cursor | null, rows: readonly (WindowRow & { json: string })[], shown: number): QueryWindow | null {
    if (cursor !== null && cursor.path !== null) return null;
    // Filter and cursor values reach the SQL as JSON text: compare with what it got.
    const asSent: ValidQuery = { ...query, where: query.where.map((filter) => ({ ...filter, value: asJson(filter.value) })) };
    const entries: Entry[] = [];
    for (const row of rows) {
      const values = sortValues(row.data, asSent);
      if (values === UNKNOWN || values === null) return null;
      entries.push({ path: row.path, tag: row.tag, values, json: row.json });
    }
    if (query.fromEnd) entries.reverse();
    return new QueryWindow(asSent, cursor === null ? null : (asJson(cursor.values) as unknown[]), entries, shown, rows.length < query.limit);
  }

  /**
   * The answer as the JSON of a query snapshot. With `shared` (answers already made for the same
   * audience, by record states), windows holding the same records share one string: a thousand
   * subscriptions seeing the same rooms build it once.
   */
  snapshotJson(shared?: Map<string, string>): string {
    const page = this.#entries.slice(0, this.#shown);
    const entries = this.#query.fromEnd ? page.reverse() : page;
    if (shared === undefined) return `{"documents":[${entries.map((entry) => entry.json).join(',')}]}`;
    let key = '';
    for (const entry of entries) key += `${entry.path}\u0000${entry.tag}\u0001`;
    let json = shared.get(key);
    if (json === undefined) {
      json = `{"documents":[${entries.map((entry) => entry.json).join(',')}]}`;
      shared.set(key, json);
    }
    return json;
  }

  /** Scan order: the query's order, turned around for limitToLast. */
  #compare(a: Pick<Entry, 'path' | 'values'>, b: Pick<Entry, 'path' | 'values'>): number | Unknown {
    const order = compareInQueryOrder(this.#query, a, b);
    return order === UNKNOWN || !this.#query.fromEnd ? order : -order;
  }

  /** The sort values if the record belongs to the answer's matches, null if not. */
  #matching(row: WindowRow | null): unknown[] | null | Unknown {
    if (row === null) return null;
    const matches = matchesFilters(row.data, this.#query);
    if (matches !== true) return matches === UNKNOWN ? UNKNOWN : null;
    const values = sortValues(row.data, this.#query);
    if (values === UNKNOWN || values === null) return values;
    if (this.#cursor === null) return values;
    const after = afterCursor(this.#query, values, this.#cursor);
    return after === UNKNOWN ? UNKNOWN : after ? values : null;
  }

  /**
   * Takes in the record now at `path`: `row` as stored, or null when it is gone or the subscriber
   * may not read it; `json` gives its record's JSON when it is needed.
   */
  take(path: string, row: WindowRow | null, json: () => string): Taken {
    if (this.#shown === 0) return 'same';
    const values = this.#matching(row);
    if (values === UNKNOWN) return 'unknown';
    const index = this.#entries.findIndex((entry) => entry.path === path);
    if (values === null) {
      if (index < 0) return 'same';
      // The rest stays an exact prefix; once it is shorter than the page, unseen records belong in.
      if (!this.#complete && this.#entries.length - 1 < this.#shown) return 'unknown';
      this.#entries.splice(index, 1);
      return 'changed';
    }
    const candidate = { path, values };
    const others = index < 0 ? this.#entries : this.#entries.filter((_, at) => at !== index);
    let low = 0;
    let high = others.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const order = this.#compare(others[middle] as Entry, candidate);
      if (order === UNKNOWN) return 'unknown';
      if (order < 0) low = middle + 1;
      else high = middle;
    }
    if (!this.#complete && low === others.length) {
      // Past every record held, where unseen records may come first: out of the known prefix.
      if (index < 0) return 'same';
      if (others.length < this.#shown) return 'unknown';
      this.#entries.splice(index, 1);
      return 'changed';
    }
    const entry: Entry = { path, tag: (row as WindowRow).tag, values, json: json() };
    if (index >= 0 && index === low && this.#entries[index]?.tag === entry.tag) return 'same';
    if (index >= 0) this.#entries.splice(index, 1);
    this.#entries.splice(low, 0, entry);
    if (this.#entries.length > this.#query.limit) {
      this.#entries.pop();
      this.#complete = false;
    }
    return 'changed';
  }
}
