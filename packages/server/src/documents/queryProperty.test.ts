/**
 * Property test: on random data and random valid queries (filters of every operator, orderings,
 * limits, limitToLast and cursors), the engine answers exactly what a small in-memory reference
 * evaluator does, on PGlite and on PostgreSQL. The reference states the engine's semantics
 * (sql.ts): jsonb order null < string < number < boolean; range filters within one JSON type;
 * records lacking a filtered or ordered field left out; `!=`/`not-in` leave out null; ties by path.
 * Strings are lowercase ASCII so that database collations agree.
 */
import fc from 'fast-check';
import type { Filter, Query } from '@nemuri/shared/documents/query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describePostgres } from '../testing/postgres.ts';
import { queryArbitraries, type Doc, type Layout, type Scalar } from './queryArbitraries.fixture.ts';
import { ok, signedIn, startTestServer, type DatabaseChoice, type DocumentsClient, type TestServer } from './testing.ts';

const { docs, query } = queryArbitraries(['a', 'b', 'ab', 'ba', 'c']);

// ---------------------------------------------------------------- the reference evaluator

const MISSING = Symbol('missing');
type Value = Scalar | number[] | typeof MISSING;

function typeRank(value: unknown): number {
  if (value === null) return 0;
  if (typeof value === 'string') return 1;
  if (typeof value === 'number') return 2;
  return 4;
}

function compare(a: unknown, b: unknown): number {
  const rank = typeRank(a) - typeRank(b);
  if (rank !== 0) return rank;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return 0;
}

function fieldOf(doc: Doc, field: string): Value {
  const key = field.split('.')[1] as keyof Layout;
  const value = doc.layout[key];
  return value === undefined ? MISSING : value;
}

function matches(doc: Doc, [field, op, operand]: Filter): boolean {
  const value = fieldOf(doc, field);
  if (value === MISSING) return false;
  const list = operand as unknown[];
  switch (op) {
    case '==':
      return compare(value, operand) === 0 && typeRank(value) === typeRank(operand);
    case '!=':
      return value !== null && !(compare(value, operand) === 0 && typeRank(value) === typeRank(operand));
    case '<':
    case '<=':
    case '>':
    case '>=': {
      if (typeRank(value) !== typeRank(operand)) return false;
      const c = compare(value, operand);
      return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
    }
    case 'in':
      return list.some((item) => typeRank(item) === typeRank(value) && compare(item, value) === 0);
    case 'not-in':
      return value !== null && !list.some((item) => typeRank(item) === typeRank(value) && compare(item, value) === 0);
    case 'array-contains':
      return Array.isArray(value) && value.includes(operand as number);
    case 'array-contains-any':
      return Array.isArray(value) && value.some((item) => list.includes(item));
  }
}

function evaluate(all: Doc[], q: Query): string[] {
  const orderBy = (q.orderBy ?? []).map(([field, direction]) => ({ field, sign: direction === 'desc' ? -1 : 1 }));
  let rows = all.filter((doc) => (q.where ?? []).every((filter) => matches(doc, filter)) && orderBy.every(({ field }) => fieldOf(doc, field) !== MISSING));
  const lastSign = orderBy[orderBy.length - 1]?.sign ?? 1;
  rows.sort((a, b) => {
    for (const { field, sign } of orderBy) {
      const c = compare(fieldOf(a, field), fieldOf(b, field));
      if (c !== 0) return sign * c;
    }
    return lastSign * (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  });
  const cursor = q.startAfter;
  if (Array.isArray(cursor)) {
    rows = rows.filter((doc) => {
      for (const [index, value] of cursor.entries()) {
        const ordering = orderBy[index] as { field: string; sign: number };
        const c = ordering.sign * compare(fieldOf(doc, ordering.field), value);
        if (c !== 0) return c > 0;
      }
      return false;
    });
  }
  const ids = rows.map((doc) => doc.id);
  return q.limitToLast !== undefined ? ids.slice(Math.max(0, ids.length - q.limitToLast)) : ids.slice(0, q.limit ?? 50);
}

// ---------------------------------------------------------------- the property

function queriesAgree(choice: DatabaseChoice): void {
  let test: TestServer;
  let dev: DocumentsClient;

  beforeAll(async () => {
    test = await startTestServer(choice);
    dev = await signedIn(test.server, 'developer@example.com');
  });
  afterAll(async () => {
    await test?.stop();
  });

  it('answers every random query like the reference evaluator', async () => {
    await fc.assert(
      fc.asyncProperty(docs, fc.array(query, { minLength: 1, maxLength: 6 }), async (data, queries) => {
        await test.server.database.query(`delete from documents where collection = 'views'`);
        for (const doc of data) {
          await test.server.database.query(
            `insert into documents (path, collection, collection_group, parent_path, id, data, created_at, updated_at) values ($1, 'views', 'views', '', $2, $3::jsonb, now(), now())`,
            [`views/${doc.id}`, doc.id, JSON.stringify({ routeKey: doc.id, layout: doc.layout })],
          );
        }
        for (const q of queries) {
          const reply = ok(await dev.query(q));
          const got = (reply.body as { documents: { documentReferenceId: string }[] }).documents.map((document) => document.documentReferenceId);
          expect(got, JSON.stringify(q)).toEqual(evaluate(data, q));
          const counted = ok(await dev.count({ ...q, limit: undefined, limitToLast: undefined })).body as { count: number };
          expect(counted.count).toBe(evaluate(data, { ...q, limit: 1000, limitToLast: undefined }).length);
        }
      }),
      { numRuns: 60 },
    );
  });
}

describe('queries match the reference on PGlite in memory', () => {
  queriesAgree('pglite');
});

describePostgres('queries match the reference on PostgreSQL', () => {
  queriesAgree('postgresql');
});
