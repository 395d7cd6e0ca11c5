/**
 * Property test of live query results (liveResults.ts, queryWindow.ts): random records, random
 * live queries (filters of every operator, orderings, limits, limitToLast, cursors) and random
 * writes, some at the same time; orderings by data fields and by the server's createdAt/updatedAt. After every step each subscriber's latest snapshot must be,
 * byte for byte, what the database answers to the same query then. Strings include capitals,
 * accents, kanji, full-width letters and an emoji, so that the in-memory order (code points) is
 * checked against the database's own. On PGlite and on PostgreSQL.
 */
import fc from 'fast-check';
import type { Claims } from '@nemuri/shared/documents/access';
import type { Query } from '@nemuri/shared/documents/query';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryArbitraries, type Layout } from '../documents/queryArbitraries.fixture.ts';
import { startTestServer, type DatabaseChoice, type TestServer } from '../documents/testing.ts';
import { describePostgres } from '../testing/postgres.ts';

const { docs, query, layout } = queryArbitraries(['a', 'B', 'ab', 'ä', 'Z', '日本', 'Ａ', '\u{1F600}'], ['layout.x', 'layout.y', 'createdAt', 'updatedAt']);

const SYSTEM: Claims = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
const DEVELOPER: Claims = { uid: 'live-property-developer', accessLevel: ROLE_LEVELS.developer, domainId: null, rootDomainId: null };

type Write = { kind: 'set'; id: string; layout: Layout } | { kind: 'update'; id: string; layout: Layout } | { kind: 'delete'; id: string };
const id = fc.integer({ min: 0, max: 20 }).map((n) => `p${String(n).padStart(2, '0')}`);
const write: fc.Arbitrary<Write> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), id, layout }),
  fc.record({ kind: fc.constant('update' as const), id, layout }),
  fc.record({ kind: fc.constant('delete' as const), id }),
);
/** Steps of one to three writes at once. */
const steps = fc.array(fc.array(write, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 8 });

function liveAgrees(choice: DatabaseChoice): void {
  let test: TestServer;

  beforeAll(async () => {
    test = await startTestServer(choice);
  });
  afterAll(async () => {
    await test?.stop();
  });

  it('keeps every live query equal to the database answer through random writes', async () => {
    const database = test.server.database;
    const results = test.server.app.liveResults;
    await expect.poll(() => results.inMemory).toBe(true);
    // The server's own store: its writes reach the live results through the server's change feed.
    const store = test.server.app.documents;
    const before = { ...results.stats };
    const apply = async (one: Write): Promise<void> => {
      const path = `views/${one.id}`;
      if (one.kind === 'set') await store.set(SYSTEM, path, { routeKey: one.id, layout: one.layout }, false);
      else if (one.kind === 'delete') await store.delete(SYSTEM, path);
      // An update of a missing record is refused (not-found): nothing changed, nothing to see.
      else await store.update(SYSTEM, path, { layout: one.layout }).catch(() => undefined);
    };

    await fc.assert(
      fc.asyncProperty(docs, fc.array(query, { minLength: 1, maxLength: 5 }), steps, async (initial, queries, plan) => {
        await database.query(`delete from documents where collection = 'views'`);
        for (const doc of initial) {
          await database.query(
            `insert into documents (path, collection, collection_group, parent_path, id, data, created_at, updated_at) values ($1, 'views', 'views', '', $2, $3::jsonb, now(), now())`,
            [`views/${doc.id}`, doc.id, JSON.stringify({ routeKey: doc.id, layout: doc.layout })],
          );
        }
        const subscriptions: { claims: Claims; query: Query; latest: string | null; unsubscribe: () => void }[] = [];
        for (const q of queries) {
          for (const claims of [SYSTEM, DEVELOPER]) {
            const subscription = { claims, query: q, latest: null as string | null, unsubscribe: () => undefined as void };
            subscription.unsubscribe = results.add(
              claims,
              { query: q },
              {
                snapshot: (json) => {
                  subscription.latest = json;
                },
                fail: (error) => {
                  throw error;
                },
              },
            );
            subscriptions.push(subscription);
          }
        }
        const check = async (when: string): Promise<void> => {
          await results.idle();
          for (const subscription of subscriptions) {
            const expected = JSON.stringify({ documents: await store.query(subscription.claims, subscription.query) });
            expect(subscription.latest, `${when}: ${JSON.stringify(subscription.query)}`).toBe(expected);
          }
        };
        try {
          await check('first snapshot');
          for (const [index, step] of plan.entries()) {
            await Promise.all(step.map(apply));
            await check(`after step ${index + 1} ${JSON.stringify(step)}`);
          }
        } finally {
          for (const subscription of subscriptions) subscription.unsubscribe();
        }
      }),
      { numRuns: 80 },
    );
    // Both ways were taken: changes taken in memory, and evaluations when memory could not tell.
    expect(results.stats.taken - before.taken).toBeGreaterThan(50);
    expect(results.stats.evaluated - before.evaluated).toBeGreaterThan(50);
    console.log(
      `live property (${choice}): ${results.stats.taken - before.taken} changes taken in memory, ${results.stats.evaluated - before.evaluated} evaluations`,
    );
  });
}

describe('live queries stay equal to the database on PGlite in memory', () => {
  liveAgrees('pglite');
});

describePostgres('live queries stay equal to the database on PostgreSQL', () => {
  liveAgrees('postgresql');
});
