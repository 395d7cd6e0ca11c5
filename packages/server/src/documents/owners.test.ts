/**
 * "A domain always keeps at least one owner" (PRODUCT.md section 1): demoting, disabling or
 * deleting the last active owner's staff record is refused, also when two try at once. On PGlite
 * and on PostgreSQL.
 */
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { openPglite } from '../database/pglite.ts';
import { createTestSchema, describePostgres, type TestSchema } from '../testing/postgres.ts';
import { DocumentStore } from './store.ts';

const system = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
const owner = (name: string) => ({ displayName: name, email: `${name}@owners.example`, accessLevel: ROLE_LEVELS.ownerAdministrator });

function ownerRules(open: () => Promise<{ database: Database; close(): Promise<void> }>) {
  let database: Database;
  let close: () => Promise<void>;
  let store: DocumentStore;

  beforeAll(async () => {
    ({ database, close } = await open());
    await migrate(database);
    store = new DocumentStore(database, { error: () => undefined });
    await store.set(system, 'domains/own', { name: 'オーナー法人', kind: 'corporation' }, false);
  });
  afterAll(() => close());

  const expectRefused = async (write: Promise<unknown>) => {
    await expect(write).rejects.toMatchObject({ code: 'failed-precondition', message: 'A domain must keep at least one owner' });
  };

  it('refuses to demote, disable or delete the only owner, and allows it once another exists', async () => {
    await store.set(system, 'domains/own/staff/a', owner('a'), false);
    await expectRefused(store.update(system, 'domains/own/staff/a', { accessLevel: ROLE_LEVELS.administrator }));
    await expectRefused(store.update(system, 'domains/own/staff/a', { disabled: true }));
    await expectRefused(store.delete(system, 'domains/own/staff/a'));
    // Staff below owner come and go freely.
    await store.set(system, 'domains/own/staff/s', { displayName: 's', email: 's@owners.example', accessLevel: ROLE_LEVELS.generalStaff }, false);
    await store.delete(system, 'domains/own/staff/s');

    await store.set(system, 'domains/own/staff/b', owner('b'), false);
    await store.update(system, 'domains/own/staff/a', { accessLevel: ROLE_LEVELS.administrator });
    await expectRefused(store.delete(system, 'domains/own/staff/b'));
  });

  it('lets only one of two simultaneous demotions through', async () => {
    await store.set(system, 'domains/own/staff/c', owner('c'), false);
    // Owners now: b and c.
    const results = await Promise.allSettled([
      store.update(system, 'domains/own/staff/b', { accessLevel: ROLE_LEVELS.generalStaff }),
      store.update(system, 'domains/own/staff/c', { accessLevel: ROLE_LEVELS.generalStaff }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const { rows } = await database.query<{ n: number }>(`select count(*)::int as n from documents where collection = 'domains/own/staff' and (data ->> 'accessLevel')::int >= 5`);
    expect(rows[0]?.n).toBe(1);
  });
}

describe('owners on PGlite', () => {
  ownerRules(async () => {
    const database = await openPglite(null);
    return { database, close: () => database.close() };
  });
});

describePostgres('owners on PostgreSQL', () => {
  let schema: TestSchema;
  ownerRules(async () => {
    schema = await createTestSchema();
    const database = await schema.open();
    return {
      database,
      close: async () => {
        await database.close();
        await schema.drop();
      },
    };
  });
});
