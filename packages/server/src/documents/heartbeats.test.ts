/**
 * The server's heartbeat writes (DocumentStore.recordHeartbeats, issue 24): many devices' lastSeenAt
 * in one statement, as an update would leave them (version, change feed with the changed key, the
 * registry not disturbed), no audit row, and nothing else written through it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { openPglite } from '../database/pglite.ts';
import { changesKnownDevice } from '../devices/deviceRegistry.ts';
import type { DocumentChange } from './changeFeed.ts';
import { DocumentStore } from './store.ts';
import { SYSTEM_PRINCIPAL } from './systemPrincipal.ts';

describe('heartbeats of device records', () => {
  let database: Database;
  let documents: DocumentStore;
  const heard: DocumentChange[] = [];
  const serials = Array.from({ length: 1200 }, (_, index) => `HB-${String(index).padStart(4, '0')}`);

  beforeAll(async () => {
    database = await openPglite(null);
    await migrate(database);
    documents = new DocumentStore(database, { error: () => undefined });
    await documents.commit(SYSTEM_PRINCIPAL, {
      reads: [],
      writes: serials.map((serial) => ({ op: 'set', path: `devices/${serial}`, data: { deviceTypeId: 'nemuri-pad', status: 'in_use', domainId: 'dom-a' } })),
    });
    documents.changes.subscribe((batch) => {
      if ('changes' in batch) heard.push(...batch.changes);
    });
  });
  afterAll(async () => {
    await database?.close();
  });

  const auditRows = async (): Promise<number> =>
    Number((await database.query<{ n: string }>("select count(*) as n from documents where collection = 'auditLogs'")).rows[0]?.n);

  it('writes every device in one call, bumps each version, names the key and writes no audit row', async () => {
    const before = await documents.get(SYSTEM_PRINCIPAL, `devices/${serials[0]}`);
    const audits = await auditRows();
    expect(audits).toBeGreaterThanOrEqual(serials.length);
    heard.length = 0;
    const at = '2026-12-06T03:00:00.000Z';
    const missing = await documents.recordHeartbeats([
      ...serials.map((serial) => ({ path: `devices/${serial}`, fields: { lastSeenAt: at } })),
      { path: 'devices/HB-NONE', fields: { lastSeenAt: at } },
    ]);
    expect(missing).toEqual(['devices/HB-NONE']);
    const after = await documents.get(SYSTEM_PRINCIPAL, `devices/${serials[0]}`);
    expect(after?.document).toMatchObject({ deviceTypeId: 'nemuri-pad', status: 'in_use', lastSeenAt: at });
    expect(after?.version).toBe((before?.version ?? 0) + 1);
    expect(heard).toHaveLength(serials.length);
    expect(heard[0]).toMatchObject({ collection: 'devices', op: 'update', keys: ['lastSeenAt'], tenant: { domainId: 'dom-a' } });
    expect(heard.some(changesKnownDevice)).toBe(false);
    expect(await auditRows()).toBe(audits);
    const stored = await database.query<{ n: string }>("select count(*) as n from documents where collection = 'devices' and data ->> 'lastSeenAt' = $1", [at]);
    expect(Number(stored.rows[0]?.n)).toBe(serials.length);
  });

  it('refuses any field but a heartbeat field, and a value its schema refuses, writing nothing', async () => {
    const path = `devices/${serials[1]}`;
    const before = await documents.get(SYSTEM_PRINCIPAL, path);
    for (const fields of [
      { status: 'retired' },
      { credentialHash: 'x' },
      { lastSeenAt: '2026-12-06T03:00:00.000Z', roomId: 'r1' },
      { nothing: 1 },
      { lastSeenAt: 'yesterday' },
      { lastSeenAt: 42 },
    ])
      await expect(documents.recordHeartbeats([{ path, fields }])).rejects.toMatchObject({ code: 'invalid-argument' });
    await expect(documents.recordHeartbeats([{ path: `rooms/r1`, fields: { lastSeenAt: '2026-12-06T03:00:00.000Z' } }])).rejects.toMatchObject({
      code: 'invalid-argument',
    });
    expect(await documents.get(SYSTEM_PRINCIPAL, path)).toEqual(before);
  });
});
