/**
 * Which writes of a device record change what the registry knows of it (issue 24): the MQTT
 * shares (ingest/deviceShares.ts) and the broker accounts (ingest/brokerAccounts.ts) read the device
 * again for those only, not for the lastSeenAt written every 15 s for each device (with 3,000
 * devices, 200 writes a second that every server process heard and answered with a database read).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { openPglite } from '../database/pglite.ts';
import type { DocumentChange } from '../documents/changeFeed.ts';
import { DocumentStore } from '../documents/store.ts';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { changesKnownDevice } from './deviceRegistry.ts';

describe('changes of a device record', () => {
  let database: Database;
  let documents: DocumentStore;
  const heard: DocumentChange[] = [];

  beforeAll(async () => {
    database = await openPglite(null);
    await migrate(database);
    documents = new DocumentStore(database, { error: () => undefined });
    documents.changes.subscribe((batch) => {
      if ('changes' in batch) heard.push(...batch.changes.filter((change) => change.collection === 'devices'));
    });
  });
  afterAll(async () => {
    await database?.close();
  });

  /** The device changes one write made, and whether each changes the registry's device. */
  async function write(action: () => Promise<unknown>): Promise<{ keys: readonly string[] | undefined; known: boolean }[]> {
    heard.length = 0;
    await action();
    return heard.map((change) => ({ keys: change.keys, known: changesKnownDevice(change) }));
  }

  it('names the fields each write changed, and tells lastSeenAt apart from registration', async () => {
    const path = 'devices/KD-0001';
    expect(await write(() => documents.set(SYSTEM_PRINCIPAL, path, { deviceTypeId: 'nemuri-pad', status: 'stock' }, false))).toEqual([
      { keys: ['deviceTypeId', 'status'], known: true },
    ]);
    expect(await write(() => documents.update(SYSTEM_PRINCIPAL, path, { lastSeenAt: '2026-12-02T03:00:00.000Z' }))).toEqual([
      { keys: ['lastSeenAt'], known: false },
    ]);
    expect(await write(() => documents.update(SYSTEM_PRINCIPAL, path, { status: 'retired' }))).toEqual([{ keys: ['status'], known: true }]);
    expect(await write(() => documents.update(SYSTEM_PRINCIPAL, path, { credentialHash: 'x', lastSeenAt: '2026-12-02T03:00:15.000Z' }))).toEqual([
      { keys: ['credentialHash', 'lastSeenAt'], known: true },
    ]);
    // Deleted: whatever the record held, the device is gone.
    expect((await write(() => documents.delete(SYSTEM_PRINCIPAL, path))).map(({ known }) => known)).toEqual([true]);
  });

  it('counts a change whose fields are not named, or that moved the record, as a change of the device', () => {
    const tenant = { domainId: null, rootDomainId: null, roomId: null };
    expect(changesKnownDevice({ path: 'devices/A', collection: 'devices', collectionGroup: 'devices', op: 'update', tenant })).toBe(true);
    expect(
      changesKnownDevice({
        path: 'devices/A',
        collection: 'devices',
        collectionGroup: 'devices',
        op: 'update',
        tenant,
        keys: ['lastSeenAt'],
        previousTenant: tenant,
      }),
    ).toBe(true);
  });
});
