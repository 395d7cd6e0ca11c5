import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { openPglite } from '../database/pglite.ts';
import { DocumentStore } from '../documents/store.ts';
import { RoomDirectory } from './roomDirectory.ts';

const system = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The real database, whose reads fail as a terminated connection's do while `down` is set. */
function withOutage(database: Database): { database: Database; setDown(down: boolean): void } {
  let down = false;
  const outage = Object.create(database) as Database;
  outage.query = (sql, params) => {
    if (down) return Promise.reject(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }));
    return database.query(sql, params);
  };
  return { database: outage, setDown: (value) => (down = value) };
}

describe('the room directory', () => {
  let database: Database;
  let documents: DocumentStore;
  beforeAll(async () => {
    database = await openPglite(null);
    await migrate(database);
    documents = new DocumentStore(database, silent);
    await documents.set(system, 'domains/home', { name: '本館', kind: 'facility' }, false);
    await documents.set(system, 'rooms/home-1', { domainId: 'home', name: '101号室', deviceSerial: 'DIR-1' }, false);
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  it(
    'keeps its rooms through a lost database connection, rejects nothing unhandled, and reads the missed change once it is back',
    { timeout: 30_000 },
    async () => {
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      const warnings: string[] = [];
      const { database: reads, setDown } = withOutage(database);
      const directory = new RoomDirectory(reads, documents.changes, { warn: (_object, message) => void warnings.push(message) });
      try {
        await directory.start();
        expect(directory.roomOf('DIR-1')?.name).toBe('101号室');

        setDown(true);
        // The change feed tells the directory of a new room; its read fails.
        await documents.set(system, 'rooms/home-2', { domainId: 'home', name: '102号室', deviceSerial: 'DIR-2' }, false);
        await expect.poll(() => warnings.length, { timeout: 5_000 }).toBeGreaterThan(0);
        expect(warnings[0]).toContain('could not be read again');
        expect(directory.roomOf('DIR-1')?.name).toBe('101号室');
        expect(directory.roomOf('DIR-2')).toBeUndefined();

        // Back: the retry (not the minute's re-read, and no further change) reads the missed room.
        setDown(false);
        await expect.poll(() => directory.roomOf('DIR-2')?.name, { timeout: 10_000, interval: 200 }).toBe('102号室');
        await new Promise((resolve) => setImmediate(resolve));
        expect(unhandled).toEqual([]);
      } finally {
        directory.stop();
        process.off('unhandledRejection', onUnhandled);
      }
    },
  );

  it('refuses to start when it cannot read the rooms at all', async () => {
    const { database: reads, setDown } = withOutage(database);
    setDown(true);
    const directory = new RoomDirectory(reads, documents.changes, silent);
    try {
      await expect(directory.start()).rejects.toThrow('terminating connection');
    } finally {
      directory.stop();
    }
  });
});
