/**
 * Migration 007 clears references into another tenant written before the engine checked them
 * (security issue 17, findings 3 and 9): on a database migrated up to 006 with such records, the
 * room lets go of the foreign device and the forged alert is gone; everything else stays.
 */
import { describe, expect, it } from 'vitest';
import { migrate } from '../database/migrate.ts';
import { MIGRATIONS } from '../database/migrations.ts';
import { openPglite } from '../database/pglite.ts';

describe('migration 007_cross_tenant_references', () => {
  it('releases foreign devices and removes forged alerts, and nothing else', async () => {
    const database = await openPglite(null);
    try {
      const before = MIGRATIONS.findIndex((migration) => migration.id === '007_cross_tenant_references');
      expect(before).toBeGreaterThan(0);
      await migrate(database, MIGRATIONS.slice(0, before));
      const insert = (path: string, collection: string, domain: string, data: object) =>
        database.query(
          `insert into documents (path, collection, collection_group, parent_path, id, data, domain_id, root_domain_id, room_id, created_at, updated_at)
           values ($1, $2, $2, '', $3, $4::jsonb, $5, $5, $6, now(), now())`,
          [
            path,
            collection,
            path.split('/')[1],
            JSON.stringify(data),
            domain,
            collection === 'rooms' ? path.split('/')[1] : ((data as { roomId?: string }).roomId ?? null),
          ],
        );
      await insert('devices/own', 'devices', 'a', { deviceTypeId: 'bed', status: 'in_use', domainId: 'a' });
      await insert('devices/foreign', 'devices', 'b', { deviceTypeId: 'bed', status: 'in_use', domainId: 'b' });
      await insert('rooms/r-own', 'rooms', 'a', { domainId: 'a', name: '自室', deviceSerial: 'own' });
      await insert('rooms/r-stolen', 'rooms', 'a', { domainId: 'a', name: '盗用', deviceSerial: 'foreign' });
      await insert('rooms/r-b', 'rooms', 'b', { domainId: 'b', name: '他室' });
      await insert('alerts/ok', 'alerts', 'a', { domainId: 'a', roomId: 'r-own', type: 'button', startedAt: '2026-01-01T00:00:00Z' });
      await insert('alerts/forged', 'alerts', 'a', { domainId: 'a', roomId: 'r-b', type: 'button', startedAt: '2026-01-01T00:00:00Z' });
      await migrate(database);
      const { rows } = await database.query<{ path: string; serial: string | null }>(
        `select path, data ->> 'deviceSerial' as serial from documents order by path`,
      );
      expect(rows).toEqual([
        { path: 'alerts/ok', serial: null },
        { path: 'devices/foreign', serial: null },
        { path: 'devices/own', serial: null },
        { path: 'rooms/r-b', serial: null },
        { path: 'rooms/r-own', serial: 'own' },
        { path: 'rooms/r-stolen', serial: null },
      ]);
    } finally {
      await database.close();
    }
  });
});
