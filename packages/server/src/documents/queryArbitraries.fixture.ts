/**
 * Random records and random valid queries over the `views` collection's `layout` field, for the
 * property tests of queries (queryProperty.test.ts) and of live results (live/liveProperty.test.ts):
 * filters of every operator, up to two orderings (optionally by the server's `createdAt` and
 * `updatedAt` too), limits, limitToLast and cursors.
 */
import fc from 'fast-check';
import type { Filter, Ordering, Query } from '@nemuri/shared/documents/query';

export type Scalar = string | number | null;

export interface Layout {
  x?: Scalar;
  y?: number;
  tags?: number[];
}

export interface Doc {
  id: string;
  layout: Layout;
}

/**
 * `strings`: the string values used (the query property keeps to ones every collation orders
 * alike); `orderFields`: the fields queries order by.
 */
export function queryArbitraries(
  strings: readonly string[],
  orderFields: readonly string[] = ['layout.x', 'layout.y'],
): { scalar: fc.Arbitrary<Scalar>; layout: fc.Arbitrary<Layout>; docs: fc.Arbitrary<Doc[]>; query: fc.Arbitrary<Query> } {
  const scalar: fc.Arbitrary<Scalar> = fc.oneof(fc.constantFrom(...strings), fc.integer({ min: -3, max: 3 }), fc.constant(null));
  const layout: fc.Arbitrary<Layout> = fc.record(
    { x: scalar, y: fc.integer({ min: 0, max: 4 }), tags: fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 3 }) },
    { requiredKeys: [] },
  );
  const docs = fc.uniqueArray(fc.record({ id: fc.integer({ min: 0, max: 99 }).map((n) => `p${String(n).padStart(2, '0')}`), layout }), {
    selector: (doc) => doc.id,
    maxLength: 14,
  });

  const scalarFilter: fc.Arbitrary<Filter> = fc.oneof(
    fc.tuple(fc.constantFrom('layout.x', 'layout.y'), fc.constantFrom('==', '<', '<=', '>', '>=', '!='), scalar) as fc.Arbitrary<Filter>,
    fc.tuple(
      fc.constantFrom('layout.x', 'layout.y'),
      fc.constantFrom('in', 'not-in'),
      fc.array(scalar, { minLength: 1, maxLength: 3 }),
    ) as fc.Arbitrary<Filter>,
    fc.tuple(fc.constant('layout.tags'), fc.constant('array-contains'), fc.integer({ min: 0, max: 4 })) as fc.Arbitrary<Filter>,
    fc.tuple(
      fc.constant('layout.tags'),
      fc.constant('array-contains-any'),
      fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 3 }),
    ) as fc.Arbitrary<Filter>,
  );

  const query: fc.Arbitrary<Query> = fc
    .record({
      where: fc.array(scalarFilter, { maxLength: 2 }),
      orderBy: fc.uniqueArray(fc.tuple(fc.constantFrom(...orderFields), fc.constantFrom('asc', 'desc')) as fc.Arbitrary<Ordering>, {
        selector: (o) => o[0],
        maxLength: 2,
      }),
      limit: fc.integer({ min: 0, max: 8 }),
      last: fc.boolean(),
      cursor: fc.option(fc.array(scalar, { minLength: 1, maxLength: 2 }), { nil: undefined }),
    })
    .map(({ where, orderBy, limit, last, cursor }) => {
      const negations = where.filter(([, op]) => op === '!=' || op === 'not-in');
      const filters = negations.length > 1 ? where.filter((filter) => filter !== negations[1]) : where;
      const q: Query = { collection: 'views', where: filters, orderBy };
      if (last && orderBy.length > 0) q.limitToLast = limit;
      else q.limit = limit;
      if (cursor !== undefined && orderBy.length > 0) q.startAfter = cursor.slice(0, orderBy.length);
      return q;
    });
  return { scalar, layout, docs, query };
}
