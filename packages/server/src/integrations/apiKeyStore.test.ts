/**
 * The key table on both databases (PGlite and PostgreSQL, whose count and timestamp types differ):
 * a key resolves only with its exact secret and only until revoked, the per-domain maximum of active
 * keys holds, and only the secret's hash is stored.
 */
import { MAX_ACTIVE_KEYS_PER_DOMAIN } from '@nemuri/shared/integrations';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { describeOnBothDatabases, type TestDatabase } from '../testing/bothDatabases.ts';
import { ApiKeyStore } from './apiKeys.ts';

function keyStoreContract(open: () => Promise<TestDatabase>): void {
  let database: Database;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ database, close } = await open());
    await migrate(database);
  }, 60_000);
  afterAll(async () => close?.());

  it('resolves a key by its exact secret until it is revoked, and stores only the hash', async () => {
    const keys = new ApiKeyStore(database);
    const created = await keys.create({ domainId: 'd1', rootDomainId: 'r1', name: 'k', scopes: ['alerts.read', 'rooms.read'], createdBy: 'u1' });
    if (created === null) throw new Error('not created');
    expect(created.key.scopes).toEqual(['rooms.read', 'alerts.read']);
    expect(await keys.resolve(created.secret)).toEqual({ id: created.key.id, domainId: 'd1', rootDomainId: 'r1', scopes: ['rooms.read', 'alerts.read'] });
    const wrong = `${created.secret.slice(0, -1)}${created.secret.endsWith('A') ? 'B' : 'A'}`;
    expect(await keys.resolve(wrong)).toBeNull();
    expect(await keys.resolve(created.secret.slice(0, -1))).toBeNull();
    const { rows } = await database.query<Record<string, unknown>>('select * from integration_api_keys where id = $1', [created.key.id]);
    expect(JSON.stringify(rows)).not.toContain(created.secret.slice(-43));
    expect((await keys.list('d1', 0)).keys[0]?.lastUsedAt).toEqual(expect.any(String));
    expect(await keys.revoke('d2', created.key.id)).toBeNull();
    expect((await keys.revoke('d1', created.key.id))?.revokedAt).toEqual(expect.any(String));
    expect(await keys.resolve(created.secret)).toBeNull();
  });

  it('holds at most the maximum of active keys per domain', async () => {
    const keys = new ApiKeyStore(database);
    const made = [];
    for (let index = 0; index < MAX_ACTIVE_KEYS_PER_DOMAIN; index += 1)
      made.push(await keys.create({ domainId: 'd3', rootDomainId: null, name: `k${index}`, scopes: ['rooms.read'], createdBy: 'u' }));
    expect(made.every((key) => key !== null)).toBe(true);
    expect(await keys.create({ domainId: 'd3', rootDomainId: null, name: 'over', scopes: ['rooms.read'], createdBy: 'u' })).toBeNull();
    const listed = await keys.list('d3', 1);
    expect(listed.total).toBe(MAX_ACTIVE_KEYS_PER_DOMAIN);
    expect(listed.keys).toHaveLength(0);
    await keys.revoke('d3', made[0]?.key.id ?? '');
    expect(await keys.create({ domainId: 'd3', rootDomainId: null, name: 'again', scopes: ['rooms.read'], createdBy: 'u' })).not.toBeNull();
  });
}

describeOnBothDatabases('API key store', keyStoreContract);
