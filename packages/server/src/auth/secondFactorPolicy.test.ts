import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { openPglite } from '../database/pglite.ts';
import { DocumentStore } from '../documents/store.ts';
import { SecondFactorPolicy } from './secondFactorPolicy.ts';

const system = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
const silent = { error: () => undefined };

describe('the second-factor policy (domain settings.requireMfa)', () => {
  let database: Database;
  let store: DocumentStore;

  beforeAll(async () => {
    database = await openPglite(null);
    await migrate(database);
    store = new DocumentStore(database, silent);
    await store.set(system, 'domains/corp', { name: '法人', kind: 'corporation' }, false);
    await store.set(system, 'domains/strict-corp', { name: '厳格法人', kind: 'corporation', settings: { requireMfa: true } }, false);
    await store.set(system, 'domains/plain', { name: '施設', kind: 'facility', parentDomainId: 'corp', rootDomainId: 'corp' }, false);
    await store.set(
      system,
      'domains/strict',
      { name: '施設', kind: 'facility', parentDomainId: 'corp', rootDomainId: 'corp', settings: { requireMfa: true } },
      false,
    );
    await store.set(system, 'domains/under-strict', { name: '施設', kind: 'facility', parentDomainId: 'strict-corp', rootDomainId: 'strict-corp' }, false);
  });
  afterAll(() => database.close());

  it('requires it where the domain or its root domain says so', async () => {
    const policy = new SecondFactorPolicy(database);
    expect(await policy.requires('plain')).toBe(false);
    expect(await policy.requires('corp')).toBe(false);
    expect(await policy.requires('strict')).toBe(true);
    expect(await policy.requires('strict-corp')).toBe(true);
    expect(await policy.requires('under-strict')).toBe(true);
    expect(await policy.requires('no-such-domain')).toBe(false);
    expect(await policy.requires(null)).toBe(false);
  });

  it('keeps answers for its time to live, and forgets on request', async () => {
    const policy = new SecondFactorPolicy(database, 60_000);
    expect(await policy.requires('plain')).toBe(false);
    await store.update(system, 'domains/plain', { 'settings.requireMfa': true });
    expect(await policy.requires('plain')).toBe(false);
    policy.forget('plain');
    expect(await policy.requires('plain')).toBe(true);
    const fresh = new SecondFactorPolicy(database, 0);
    await store.update(system, 'domains/plain', { 'settings.requireMfa': false });
    expect(await fresh.requires('plain')).toBe(false);
  });
});
