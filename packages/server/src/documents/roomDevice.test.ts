/**
 * The room ↔ device pair (CollectionSpec rule `pairedRecord` on rooms, documents/collectionRules.ts):
 * when a room's device changes, the device's `roomId` follows in the same transaction and the
 * previous device is released, so every API client keeps the pair whole, not only the web screens.
 * A device is in one room at most; another tenant's device stays refused and untouched. On PGlite
 * and on PostgreSQL.
 */
import type { Claims } from '@nemuri/shared/documents/access';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { describeOnBothDatabases, type TestDatabase } from '../testing/bothDatabases.ts';
import { DocumentStore } from './store.ts';

const system: Claims = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
const adminA: Claims = { uid: 'admin-a', accessLevel: ROLE_LEVELS.administrator, domainId: 'pair-a', rootDomainId: 'pair-corp-a' };
const adminB: Claims = { uid: 'admin-b', accessLevel: ROLE_LEVELS.administrator, domainId: 'pair-b', rootDomainId: 'pair-corp-b' };

function roomDevicePair(open: () => Promise<TestDatabase>) {
  let close: () => Promise<void>;
  let store: DocumentStore;
  const roomOf = async (serial: string) => (await store.get(system, `devices/${serial}`))?.document.roomId ?? null;
  const deviceOf = async (roomId: string) => (await store.get(system, `rooms/${roomId}`))?.document.deviceSerial ?? null;

  beforeAll(async () => {
    let database: Database;
    ({ database, close } = await open());
    await migrate(database);
    store = new DocumentStore(database, { error: () => undefined });
    await store.set(system, 'domains/pair-corp-a', { name: '法人A', kind: 'corporation' }, false);
    await store.set(system, 'domains/pair-a', { name: '施設A', kind: 'facility', parentDomainId: 'pair-corp-a', rootDomainId: 'pair-corp-a' }, false);
    await store.set(system, 'domains/pair-corp-b', { name: '法人B', kind: 'corporation' }, false);
    await store.set(system, 'domains/pair-b', { name: '施設B', kind: 'facility', parentDomainId: 'pair-corp-b', rootDomainId: 'pair-corp-b' }, false);
    for (const serial of ['PA-1', 'PA-2', 'PA-3'])
      await store.set(system, `devices/${serial}`, { deviceTypeId: 'nm-1', domainId: 'pair-a', status: 'in_use' }, false);
    await store.set(system, 'devices/PB-1', { deviceTypeId: 'nm-1', domainId: 'pair-b', status: 'in_use' }, false);
    await store.set(adminA, 'rooms/ra-1', { domainId: 'pair-a', name: '101号室' }, false);
    await store.set(adminA, 'rooms/ra-2', { domainId: 'pair-a', name: '102号室' }, false);
    await store.set(adminB, 'rooms/rb-1', { domainId: 'pair-b', name: 'B101号室' }, false);
  }, 120_000);
  afterAll(() => close());

  it('moves the device with the room: the new one points at the room, the previous one is released', async () => {
    await store.update(adminA, 'rooms/ra-1', { deviceSerial: 'PA-1' });
    expect(await roomOf('PA-1')).toBe('ra-1');
    await store.update(adminA, 'rooms/ra-1', { deviceSerial: 'PA-2' });
    expect(await roomOf('PA-1')).toBeNull();
    expect(await roomOf('PA-2')).toBe('ra-1');
    await store.update(adminA, 'rooms/ra-1', { deviceSerial: null });
    expect(await roomOf('PA-2')).toBeNull();
  });

  it('keeps the pair in a transaction of several writes, and releases the device of a deleted room', async () => {
    await store.commit(adminA, {
      reads: [],
      writes: [
        { op: 'update', path: 'rooms/ra-1', data: { deviceSerial: 'PA-1' } },
        { op: 'update', path: 'rooms/ra-2', data: { deviceSerial: 'PA-3' } },
      ],
    });
    expect([await roomOf('PA-1'), await roomOf('PA-3')]).toEqual(['ra-1', 'ra-2']);
    await store.set(adminA, 'rooms/ra-3', { domainId: 'pair-a', name: '103号室' }, false);
    await store.update(adminA, 'rooms/ra-2', { deviceSerial: null });
    await store.update(adminA, 'rooms/ra-3', { deviceSerial: 'PA-3' });
    expect(await roomOf('PA-3')).toBe('ra-3');
    await store.delete(adminA, 'rooms/ra-3');
    expect(await roomOf('PA-3')).toBeNull();
  });

  it('puts a device in one room at most: a second room cannot take it, and nothing changes', async () => {
    expect(await roomOf('PA-1')).toBe('ra-1');
    await expect(store.update(adminA, 'rooms/ra-2', { deviceSerial: 'PA-1' })).rejects.toMatchObject({ code: 'invalid-argument' });
    expect(await roomOf('PA-1')).toBe('ra-1');
    expect(await deviceOf('ra-2')).toBeNull();
  });

  it("refuses another tenant's device and leaves that device as it was (attacker)", async () => {
    await store.update(adminA, 'rooms/ra-2', { deviceSerial: 'PA-2' });
    // Facility B's administrator names facility A's devices, free and taken, by update and by commit.
    await expect(store.update(adminB, 'rooms/rb-1', { deviceSerial: 'PA-3' })).rejects.toMatchObject({ code: 'invalid-argument' });
    await expect(store.commit(adminB, { reads: [], writes: [{ op: 'update', path: 'rooms/rb-1', data: { deviceSerial: 'PA-2' } }] })).rejects.toMatchObject({
      code: 'invalid-argument',
    });
    expect(await roomOf('PA-3')).toBeNull();
    expect(await roomOf('PA-2')).toBe('ra-2');
    expect(await deviceOf('rb-1')).toBeNull();
    // Nor can B release A's device by pointing A's room elsewhere: A's room is out of B's scope.
    await expect(store.update(adminB, 'rooms/ra-2', { deviceSerial: null })).rejects.toMatchObject({ code: 'not-found' });
    expect(await roomOf('PA-2')).toBe('ra-2');
    // B's own device follows B's own room as usual.
    await store.update(adminB, 'rooms/rb-1', { deviceSerial: 'PB-1' });
    expect(await roomOf('PB-1')).toBe('rb-1');
  });
}

describeOnBothDatabases('room and device pair', roomDevicePair);
