/**
 * "A domain always keeps at least one owner" (PRODUCT.md section 1): demoting, disabling or
 * deleting the last active owner's staff record is refused, also when two try at once. An owner
 * is a signed-up account at level 5 in the root domain: a staff record made up without an account
 * does not count (security issue 17, finding 16). On PGlite and on PostgreSQL.
 */
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { describeOnBothDatabases, type TestDatabase } from '../testing/bothDatabases.ts';
import { DocumentStore } from './store.ts';

const system = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
const owner = (name: string) => ({ displayName: name, email: `${name}@owners.example`, accessLevel: ROLE_LEVELS.ownerAdministrator });

function ownerRules(open: () => Promise<TestDatabase>) {
  let database: Database;
  let close: () => Promise<void>;
  let store: DocumentStore;

  beforeAll(async () => {
    ({ database, close } = await open());
    await migrate(database);
    store = new DocumentStore(database, { error: () => undefined });
    // Better Auth's user table, as far as the rule reads it: which staff records are signed-up accounts.
    await database.query('create table if not exists "user" (id text primary key)');
    await database.query(`insert into "user" (id) values ('a'), ('b'), ('c'), ('f') on conflict do nothing`);
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

  it('does not count an owner without an account, nor one of another root', async () => {
    await store.set(system, 'domains/lone', { name: '一人法人', kind: 'corporation' }, false);
    await store.set(system, 'domains/lone-facility', { name: '一人施設', kind: 'facility', parentDomainId: 'lone', rootDomainId: 'lone' }, false);
    await store.set(system, 'domains/lone/staff/f', owner('f'), false);
    // A placeholder owner invented by the owner: a record, no account.
    await store.set(system, 'domains/lone/staff/placeholder', owner('placeholder'), false);
    await expectRefused(store.update(system, 'domains/lone/staff/f', { accessLevel: ROLE_LEVELS.administrator }));
    // An owner with an account in a facility of the same root counts.
    await database.query(`insert into "user" (id) values ('g') on conflict do nothing`);
    await store.set(system, 'domains/lone-facility/staff/g', owner('g'), false);
    await store.update(system, 'domains/lone/staff/f', { accessLevel: ROLE_LEVELS.administrator });
    await expectRefused(store.delete(system, 'domains/lone-facility/staff/g'));
  });

  it('lets only one of two simultaneous demotions through', async () => {
    await store.set(system, 'domains/own/staff/c', owner('c'), false);
    // Owners now: b and c.
    const results = await Promise.allSettled([
      store.update(system, 'domains/own/staff/b', { accessLevel: ROLE_LEVELS.generalStaff }),
      store.update(system, 'domains/own/staff/c', { accessLevel: ROLE_LEVELS.generalStaff }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const { rows } = await database.query<{ n: number }>(
      `select count(*)::int as n from documents where collection = 'domains/own/staff' and (data ->> 'accessLevel')::int >= 5`,
    );
    expect(rows[0]?.n).toBe(1);
  });
}

describeOnBothDatabases('owners', ownerRules);
