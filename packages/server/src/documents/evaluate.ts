/**
 * The query semantics of sql.ts, in memory: whether a record matches a query's filters and where it
 * sorts, so that live results (live/queryWindow.ts) can take in a changed record without asking the
 * database again. It must agree with the SQL exactly; where it cannot be sure it answers `UNKNOWN`
 * and the caller asks the database instead:
 * - a field path that passes through an array (`#>` would index into it);
 * - ordering or range comparison of arrays and objects (jsonb's container order has exceptions);
 * - strings compared in a database whose collation is not byte order (see `byteOrderCollation`).
 * Values are compared as jsonb: null < string < number < boolean < array < object; numbers by
 * value; strings by code point (C collation: UTF-8 bytes, which order as code points).
 */
import type { ValidQuery } from '@nemuri/shared/documents/query';
import { isPlainObject, type Data } from '@nemuri/shared/documents/update';

export const UNKNOWN = Symbol('unknown');
export type Unknown = typeof UNKNOWN;

/** Collations whose string order is byte order, as the in-memory comparison assumes. */
export function byteOrderCollation(collation: string): boolean {
  return /^(C|POSIX|C\.UTF-?8)$/i.test(collation);
}

/** The field's value as `data #> path` gives it: undefined when missing, UNKNOWN through an array. */
export function fieldValue(data: Data, segments: readonly string[]): unknown {
  let value: unknown = data;
  for (const segment of segments) {
    if (Array.isArray(value)) return UNKNOWN;
    if (!isPlainObject(value)) return undefined;
    value = value[segment];
  }
  return value;
}

function typeRank(value: unknown): number {
  if (value === null) return 0;
  switch (typeof value) {
    case 'string':
      return 1;
    case 'number':
      return 2;
    case 'boolean':
      return 3;
    default:
      return Array.isArray(value) ? 4 : 5;
  }
}

/** UTF-16 code units reordered so that surrogates sort after the rest of the BMP, as code points do. */
function codePointKey(unit: number): number {
  return unit >= 0xd800 && unit <= 0xdfff ? unit + 0x2000 : unit >= 0xe000 ? unit - 0x800 : unit;
}

/** Code point order, which is UTF-8 byte order. */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const x = a.charCodeAt(index);
    const y = b.charCodeAt(index);
    if (x !== y) return codePointKey(x) - codePointKey(y);
  }
  return a.length - b.length;
}

/**
 * jsonb order of two present scalars; UNKNOWN when either is an array or an object (jsonb orders
 * those with exceptions of its own, e.g. an empty array before null).
 */
export function compareValues(a: unknown, b: unknown): number | Unknown {
  if (typeof a === 'object' && a !== null) return UNKNOWN;
  if (typeof b === 'object' && b !== null) return UNKNOWN;
  const rank = typeRank(a) - typeRank(b);
  if (rank !== 0) return rank;
  if (typeof a === 'string') return compareCodePoints(a, b as string);
  if (typeof a === 'number') return a - (b as number);
  if (typeof a === 'boolean') return Number(a) - Number(b);
  return 0;
}

/** jsonb equality: numbers by value, objects regardless of key order, arrays element by element. */
export function jsonEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, index) => jsonEquals(item, b[index]));
  if (isPlainObject(a)) {
    if (!isPlainObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && jsonEquals(a[key], b[key]));
  }
  return false;
}

/** A filter value as the SQL receives it (JSON text): undefined members dropped, NaN as null. */
export function asJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value) ?? 'null') as unknown;
}

type Filter = ValidQuery['where'][number];

/** Whether the record matches one filter (its value already through `asJson`). */
export function matchesFilter(data: Data, filter: Filter): boolean | Unknown {
  const field = fieldValue(data, filter.field);
  if (field === UNKNOWN) return UNKNOWN;
  if (field === undefined) return false;
  const value = filter.value;
  switch (filter.op) {
    case '==':
      return jsonEquals(field, value);
    case '!=':
      return field !== null && !jsonEquals(field, value);
    case '<':
    case '<=':
    case '>':
    case '>=': {
      if (typeRank(field) !== typeRank(value)) return false;
      const order = compareValues(field, value);
      if (order === UNKNOWN) return UNKNOWN;
      return filter.op === '<' ? order < 0 : filter.op === '<=' ? order <= 0 : filter.op === '>' ? order > 0 : order >= 0;
    }
    case 'in':
      return (value as unknown[]).some((item) => jsonEquals(field, item));
    case 'not-in':
      return field !== null && !(value as unknown[]).some((item) => jsonEquals(field, item));
    case 'array-contains':
      return Array.isArray(field) && field.some((item) => jsonEquals(item, value));
    case 'array-contains-any':
      return Array.isArray(field) && field.some((item) => (value as unknown[]).some((wanted) => jsonEquals(item, wanted)));
  }
}

/** The values a record sorts by (its orderings' fields), or null when it lacks one (left out). */
export function sortValues(data: Data, query: ValidQuery): unknown[] | null | Unknown {
  const values: unknown[] = [];
  for (const ordering of query.orderBy) {
    const value = fieldValue(data, ordering.field);
    if (value === UNKNOWN) return UNKNOWN;
    if (value === undefined) return null;
    values.push(value);
  }
  return values;
}

/** Whether the record passes every filter. */
export function matchesFilters(data: Data, query: ValidQuery): boolean | Unknown {
  let unknown = false;
  for (const filter of query.where) {
    const match = matchesFilter(data, filter);
    if (match === false) return false;
    if (match === UNKNOWN) unknown = true;
  }
  return unknown ? UNKNOWN : true;
}

/**
 * Order of two records in the query's order (orderings, then path in the last ordering's
 * direction, as orderSql), from their sort values and paths.
 */
export function compareInQueryOrder(
  query: ValidQuery,
  a: { values: readonly unknown[]; path: string },
  b: { values: readonly unknown[]; path: string },
): number | Unknown {
  for (let index = 0; index < query.orderBy.length; index++) {
    const order = compareValues(a.values[index], b.values[index]);
    if (order === UNKNOWN) return UNKNOWN;
    if (order !== 0) return query.orderBy[index]?.direction === 'desc' ? -order : order;
  }
  const byPath = compareCodePoints(a.path, b.path);
  return query.orderBy[query.orderBy.length - 1]?.direction === 'desc' ? -byPath : byPath;
}

/**
 * Whether sort values lie strictly after a cursor of values (cursorSql without a path): the first
 * ordering that differs decides, in its own direction; equal on every cursor value is not after.
 */
export function afterCursor(query: ValidQuery, values: readonly unknown[], cursor: readonly unknown[]): boolean | Unknown {
  for (let index = 0; index < cursor.length; index++) {
    const order = compareValues(values[index], cursor[index]);
    if (order === UNKNOWN) return UNKNOWN;
    if (order !== 0) {
      // cursorSql compares with `>`/`<` on jsonb: across types too, by jsonb's type order.
      return query.orderBy[index]?.direction === 'desc' ? order < 0 : order > 0;
    }
  }
  return false;
}
