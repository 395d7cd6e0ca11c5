/**
 * Queries on the wire and their rules (PRODUCT.md section 6): at most one `!=` or `not-in` filter
 * and not both; `in`/`not-in`/`array-contains-any` need a non-empty list; `limitToLast` needs an
 * ordering; field paths are dot-separated, non-empty segments without `~ * / [ ]`; default page
 * size 50; paging by a start-after cursor (values of the orderings, or a document path).
 */
import { DocumentError, MESSAGES } from './errors.ts';
import { checkKey, checkSafeValue } from './safeData.ts';

export const FILTER_OPERATORS = ['==', '!=', '<', '<=', '>', '>=', 'in', 'not-in', 'array-contains', 'array-contains-any'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];
export type Direction = 'asc' | 'desc';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

/** `[field, operator, value]`. */
export type Filter = [string, FilterOperator, unknown];
/** `[field, direction]`; direction defaults to ascending. */
export type Ordering = [string, Direction?];

export interface Query {
  /** A collection path (`rooms`, `rooms/r1/sleeps`) or, with `collectionGroup`, a collection id (`sleeps`). */
  collection: string;
  collectionGroup?: boolean;
  where?: Filter[];
  orderBy?: Ordering[];
  /** The first N (default 50). */
  limit?: number;
  /** The last N in the given order; needs an ordering. */
  limitToLast?: number;
  /** Start after these values of the orderings, or after the document at `{ document: path }`. */
  startAfter?: unknown[] | { document: string };
}

const FORBIDDEN = /[~*/[\]]/;

/** Splits and checks a field path (`a.b.c`); throws invalid-argument with the spec's messages. */
export function parseFieldPath(path: unknown): string[] {
  if (typeof path !== 'string') throw new DocumentError('invalid-argument', MESSAGES.emptyFieldPath(String(path)));
  const segments = path.split('.');
  if (path === '' || segments.some((segment) => segment === '')) throw new DocumentError('invalid-argument', MESSAGES.emptyFieldPath(path));
  if (FORBIDDEN.test(path)) throw new DocumentError('invalid-argument', MESSAGES.badFieldPath(path));
  for (const segment of segments) checkKey(segment);
  return segments;
}

const LIST_OPERATORS: readonly FilterOperator[] = ['in', 'not-in', 'array-contains-any'];

function isPositiveInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_PAGE_SIZE;
}

/** A checked query with defaults filled in. */
export interface ValidQuery {
  collection: string;
  collectionGroup: boolean;
  where: { field: string[]; op: FilterOperator; value: unknown }[];
  orderBy: { field: string[]; direction: Direction }[];
  limit: number;
  /** Whether `limit` counts from the end. */
  fromEnd: boolean;
  startAfter: { values: unknown[] } | { document: string } | null;
}

export function validateQuery(input: unknown): ValidQuery {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new DocumentError('invalid-argument', MESSAGES.invalidData('query'));
  const query = input as Query;
  if (typeof query.collection !== 'string' || query.collection === '')
    throw new DocumentError('invalid-argument', MESSAGES.badCollectionPath(String(query.collection)));
  const where = (query.where ?? []).map((filter) => {
    if (!Array.isArray(filter) || filter.length !== 3) throw new DocumentError('invalid-argument', MESSAGES.invalidData('where'));
    const [field, op, value] = filter as unknown[];
    if (!(FILTER_OPERATORS as readonly unknown[]).includes(op)) throw new DocumentError('invalid-argument', `Invalid query. Unknown operator: ${String(op)}`);
    const operator = op as FilterOperator;
    const parsed = parseFieldPath(field);
    if (LIST_OPERATORS.includes(operator) && (!Array.isArray(value) || value.length === 0))
      throw new DocumentError('invalid-argument', MESSAGES.emptyIn(operator));
    if (value === undefined) throw new DocumentError('invalid-argument', MESSAGES.invalidData('where'));
    checkSafeValue(value);
    return { field: parsed, op: operator, value };
  });
  const notEqual = where.filter((filter) => filter.op === '!=').length;
  const notIn = where.filter((filter) => filter.op === 'not-in').length;
  if (notEqual > 1) throw new DocumentError('invalid-argument', MESSAGES.moreThanOneNotEqual);
  if (notIn > 1) throw new DocumentError('invalid-argument', MESSAGES.moreThanOneNotIn);
  if (notEqual > 0 && notIn > 0) throw new DocumentError('invalid-argument', MESSAGES.notInWithNotEqual);
  const orderBy = (query.orderBy ?? []).map((ordering) => {
    if (!Array.isArray(ordering) || ordering.length < 1 || ordering.length > 2) throw new DocumentError('invalid-argument', MESSAGES.invalidData('orderBy'));
    const direction = ordering[1] ?? 'asc';
    if (direction !== 'asc' && direction !== 'desc') throw new DocumentError('invalid-argument', `Invalid query. Unknown direction: ${String(direction)}`);
    return { field: parseFieldPath(ordering[0]), direction };
  });
  if (query.limit !== undefined && query.limitToLast !== undefined)
    throw new DocumentError('invalid-argument', 'Invalid query. Use either limit or limitToLast, not both.');
  const fromEnd = query.limitToLast !== undefined;
  const limit = query.limitToLast ?? query.limit ?? DEFAULT_PAGE_SIZE;
  if (!isPositiveInt(limit)) throw new DocumentError('invalid-argument', `Invalid query. The limit must be an integer from 0 to ${MAX_PAGE_SIZE}.`);
  if (fromEnd && orderBy.length === 0) throw new DocumentError('invalid-argument', MESSAGES.limitToLastNeedsOrder);
  let startAfter: ValidQuery['startAfter'] = null;
  if (query.startAfter !== undefined) {
    if (Array.isArray(query.startAfter)) {
      if (query.startAfter.length === 0 || query.startAfter.length > orderBy.length)
        throw new DocumentError(
          'invalid-argument',
          'Invalid query. Too many arguments provided to startAfter(): give at most one value per orderBy() clause, and at least one.',
        );
      checkSafeValue(query.startAfter);
      startAfter = { values: query.startAfter };
    } else if (typeof query.startAfter === 'object' && query.startAfter !== null && typeof query.startAfter.document === 'string') {
      startAfter = { document: query.startAfter.document };
    } else {
      throw new DocumentError('invalid-argument', MESSAGES.invalidData('startAfter'));
    }
  }
  return { collection: query.collection, collectionGroup: query.collectionGroup === true, where, orderBy, limit, fromEnd, startAfter };
}

/** Checks the number of attempts of a transaction (default 5). */
export function checkMaxAttempts(maxAttempts: number): number {
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new DocumentError('invalid-argument', MESSAGES.maxAttempts);
  return maxAttempts;
}

export const DEFAULT_MAX_ATTEMPTS = 5;
