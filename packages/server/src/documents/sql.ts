/**
 * SQL for queries over the documents table: filters, orderings and cursors on JSONB fields.
 * Values are compared as jsonb (PostgreSQL's jsonb order: null < string < number < boolean <
 * array < object; numbers numerically). Range filters match values of the operand's JSON type
 * only; a record lacking a filtered or ordered field is left out (as in the specification's
 * document database).
 */
import type { FilterOperator, ValidQuery } from '@nemuri/shared/documents/query';
import type { DataScope } from '@nemuri/shared/documents/access';
import type { CollectionSpec } from '@nemuri/shared/documents/collections';

/** Collects `$n` parameters. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
  json(value: unknown): string {
    return `${this.add(JSON.stringify(value))}::jsonb`;
  }
  /**
   * `column = any(<text[]>)`, which the planner turns into an index scan on the tenant columns (a
   * subselect over a JSON array it cannot); 'false' for an empty list.
   */
  anyOf(column: string, values: readonly string[]): string {
    return values.length === 0 ? 'false' : `${column} = any(${this.add(textArrayLiteral(values))}::text[])`;
  }
}

/** A PostgreSQL text[] literal: works as a plain text parameter on both drivers. */
function textArrayLiteral(segments: readonly string[]): string {
  return `{${segments.map((segment) => `"${segment.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/**
 * `createdAt` and `updatedAt` are columns kept by the server, not data: as query fields they are
 * the ISO text the records are read with (`2026-11-23T05:43:32.422Z`, milliseconds cut off as
 * the drivers' dates do), which orders like the time.
 */
const TIMESTAMP_COLUMNS = new Map([
  ['createdAt', 'created_at'],
  ['updatedAt', 'updated_at'],
]);

export function fieldExpr(params: Params, segments: readonly string[]): string {
  const column = segments.length === 1 ? TIMESTAMP_COLUMNS.get(segments[0] as string) : undefined;
  if (column !== undefined) return `to_jsonb(to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;
  return `(data #> ${params.add(textArrayLiteral(segments))}::text[])`;
}

function elements(expr: string): string {
  return `jsonb_array_elements(case when jsonb_typeof(${expr}) = 'array' then ${expr} else '[]'::jsonb end)`;
}

export function filterSql(params: Params, field: readonly string[], op: FilterOperator, value: unknown): string {
  const f = fieldExpr(params, field);
  switch (op) {
    case '==':
      return `${f} = ${params.json(value)}`;
    case '!=':
      return `(${f} is not null and ${f} <> ${params.json(value)} and ${f} <> 'null'::jsonb)`;
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const v = params.json(value);
      return `(jsonb_typeof(${f}) = jsonb_typeof(${v}) and ${f} ${op} ${v})`;
    }
    case 'in':
      return `${f} in (select jsonb_array_elements(${params.json(value)}))`;
    case 'not-in':
      return `(${f} is not null and ${f} <> 'null'::jsonb and ${f} not in (select jsonb_array_elements(${params.json(value)})))`;
    case 'array-contains':
      return `exists (select 1 from ${elements(f)} as e(v) where e.v = ${params.json(value)})`;
    case 'array-contains-any':
      return `exists (select 1 from ${elements(f)} as e(v) where e.v in (select jsonb_array_elements(${params.json(value)})))`;
  }
}

/** The tenant part of a query: which rows the caller may see. */
export function scopeSql(params: Params, spec: CollectionSpec, scope: DataScope, accessLevel: number): string {
  const parts: string[] = [];
  if (spec.tenancy.kind !== 'global') {
    switch (scope.kind) {
      case 'all':
        break;
      case 'none':
        parts.push('false');
        break;
      case 'domains': {
        const either = [params.anyOf('domain_id', scope.domainIds), params.anyOf('root_domain_id', scope.rootDomainIds)].filter((part) => part !== 'false');
        parts.push(either.length === 0 ? 'false' : `(${either.join(' or ')})`);
        break;
      }
      case 'rooms':
        parts.push(params.anyOf('room_id', scope.roomIds));
        break;
    }
  }
  const guard = spec.levelGuard;
  if (guard !== undefined && accessLevel < guard.viewAllFrom) {
    const f = fieldExpr(params, [guard.field]);
    parts.push(`coalesce(case when jsonb_typeof(${f}) = 'number' then (${f})::text::numeric end, 0) < ${params.add(guard.protectedFrom)}::numeric`);
  }
  return parts.length === 0 ? 'true' : parts.join(' and ');
}

export interface Cursor {
  /** Values of the first orderings. */
  values: unknown[];
  /** The document's path when the cursor is a document: the final tie-breaker. */
  path: string | null;
}

/** Rows strictly after the cursor in the query's order (orderings, then path). */
export function cursorSql(params: Params, query: ValidQuery, cursor: Cursor): string {
  const keys: { expr: string; value: string; direction: 'asc' | 'desc' }[] = cursor.values.map((value, index) => {
    const ordering = query.orderBy[index];
    if (ordering === undefined) throw new Error('cursor longer than the orderings');
    return { expr: fieldExpr(params, ordering.field), value: params.json(value), direction: ordering.direction };
  });
  if (cursor.path !== null)
    keys.push({ expr: 'path', value: `${params.add(cursor.path)}::text collate "C"`, direction: query.orderBy[query.orderBy.length - 1]?.direction ?? 'asc' });
  const alternatives = keys.map((key, index) => {
    const equal = keys.slice(0, index).map((before) => `${before.expr} = ${before.value}`);
    return [...equal, `${key.expr} ${key.direction === 'asc' ? '>' : '<'} ${key.value}`].join(' and ');
  });
  return `(${alternatives.map((alternative) => `(${alternative})`).join(' or ')})`;
}

export function orderSql(params: Params, query: ValidQuery, reverse: boolean): string {
  const flip = (direction: 'asc' | 'desc') => (reverse ? (direction === 'asc' ? 'desc' : 'asc') : direction);
  const parts = query.orderBy.map((ordering) => `${fieldExpr(params, ordering.field)} ${flip(ordering.direction)}`);
  parts.push(`path ${flip(query.orderBy[query.orderBy.length - 1]?.direction ?? 'asc')}`);
  return parts.join(', ');
}
