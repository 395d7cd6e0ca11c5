/**
 * The demo data set on a real database (PGlite in memory or a PostgreSQL test schema), with the
 * demo accounts created by Better Auth as at a demo start: every record valid, the counts, a second
 * run writing nothing, the tenancy seen through the document engine by each demo account's claims,
 * and the device credentials.
 */
import { DEMO_ACCOUNTS, DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import type { Claims } from '@nemuri/shared/documents/access';
import { collectionByGroup } from '@nemuri/shared/documents/collections';
import { issuesOf } from '@nemuri/shared/documents/validate';
import { APP_VERSION } from '@nemuri/shared/version';
import { demoSecret } from '@nemuri/simulator/secrets';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAuth } from '../auth/auth.ts';
import { createDemoAccounts } from '../auth/demoAccounts.ts';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { openPglite } from '../database/pglite.ts';
import { verifyDeviceSecret } from '../devices/deviceSecret.ts';
import { DocumentStore } from '../documents/store.ts';
import { SecondFactorPolicy } from '../auth/secondFactorPolicy.ts';
import { createTestSchema } from '../testing/postgres.ts';
import { DEMO_ROOMS } from './demoTenants.ts';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { demoUserIds, seedDemoData, type DemoDataCounts } from './seedDemoData.ts';

export type DatabaseChoice = 'pglite' | 'postgresql';

const NOW = new Date('2026-11-22T03:00:00Z');
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

async function openTestDatabase(choice: DatabaseChoice): Promise<{ database: Database; close(): Promise<void> }> {
  if (choice === 'pglite') {
    const database = await openPglite(null);
    return { database, close: () => database.close() };
  }
  const schema = await createTestSchema();
  const database = await schema.open();
  return {
    database,
    async close() {
      try {
        await database.close();
      } finally {
        await schema.drop();
      }
    },
  };
}

export function demoDataHolds(choice: DatabaseChoice): void {
  let opened: Awaited<ReturnType<typeof openTestDatabase>>;
  let database: Database;
  let store: DocumentStore;
  let first: DemoDataCounts;
  const claims = new Map<string, Claims>();

  const claimsOf = (email: string): Claims => {
    const found = claims.get(email);
    if (found === undefined) throw new Error(`no claims for ${email}`);
    return found;
  };
  const ids = async (principal: Claims, query: object): Promise<string[]> =>
    (await store.query(principal, { limit: 1000, ...query })).map((record) => String(record.documentReferenceId)).sort();
  const stored = async (): Promise<number> =>
    (await database.query<{ n: number }>(`select count(*)::int as n from documents where collection <> 'auditLogs'`)).rows[0]?.n ?? -1;

  beforeAll(async () => {
    opened = await openTestDatabase(choice);
    database = opened.database;
    await migrate(database);
    store = new DocumentStore(database, quiet);
    const auth = await createAuth({
      config: { publicUrl: null, authSecret: null, authRateLimitMax: null, port: 3000 },
      database,
      documents: store,
      secondFactor: new SecondFactorPolicy(database),
    });
    await createDemoAccounts(auth);
    first = await seedDemoData(store, quiet, { now: NOW });
    const uids = await demoUserIds(database);
    for (const account of DEMO_ACCOUNTS) {
      const uid = uids.get(account.email);
      if (uid !== undefined)
        claims.set(account.email, { uid, accessLevel: account.accessLevel, domainId: account.domainId, rootDomainId: account.rootDomainId });
    }
  });
  afterAll(async () => {
    await opened?.close();
  });

  it('writes the set in one pass, fast, with a staff record for every demo account', () => {
    expect(first.written).toBe(true);
    expect(first.missingAccounts).toEqual([]);
    expect(first.collections).toMatchObject({
      domains: 7,
      'domains/partners': 2,
      'domains/partnerRequests': 2,
      'domains/bills': 6,
      'domains/staff': DEMO_ACCOUNTS.length + 12,
      rooms: 24,
      devices: 30,
      'devices/borrows': 25,
      deviceTypes: 3,
      views: 8,
      'rooms/sleeps': 22 * 30,
    });
    expect(first.collections.alerts).toBeGreaterThanOrEqual(10);
    expect(first.collections.parameters).toBeGreaterThanOrEqual(10);
    console.info(`demo data on ${choice}: ${first.total} records in ${first.milliseconds} ms`);
  });

  it('stores only records that match their collection schema', async () => {
    const { rows } = await database.query<{ path: string; collection_group: string; data: Record<string, unknown> }>(
      `select path, collection_group, data from documents where collection <> 'auditLogs'`,
    );
    expect(rows.length).toBe(first.total);
    const invalid = rows.filter((row) => {
      const spec = collectionByGroup(row.collection_group);
      return spec === undefined || issuesOf(spec, row.data).length > 0;
    });
    expect(invalid.map((row) => row.path)).toEqual([]);
  });

  it('is idempotent: a second run writes nothing, a forced one replaces without duplicating', async () => {
    const before = await stored();
    const again = await seedDemoData(store, quiet, { now: NOW });
    expect(again.written).toBe(false);
    expect(again.total).toBe(first.total);
    expect(await stored()).toBe(before);
    const forced = await seedDemoData(store, quiet, { now: NOW, force: true });
    expect(forced.written).toBe(true);
    expect(await stored()).toBe(before);
  });

  it('puts the rooms in the right tenants for each demo account', async () => {
    const facilityA = DEMO_ROOMS.filter((room) => room.domainId === DEMO_DOMAINS.facilityA)
      .map((room) => room.id)
      .sort();
    const corporation = DEMO_ROOMS.filter((room) => room.domainId !== DEMO_DOMAINS.household)
      .map((room) => room.id)
      .sort();
    const household = DEMO_ROOMS.filter((room) => room.domainId === DEMO_DOMAINS.household)
      .map((room) => room.id)
      .sort();
    const all = DEMO_ROOMS.map((room) => room.id).sort();
    expect(facilityA).toHaveLength(16);
    expect(await ids(claimsOf('staff@example.com'), { collection: 'rooms' })).toEqual(facilityA);
    expect(await ids(claimsOf('admin@example.com'), { collection: 'rooms' })).toEqual(facilityA);
    expect(await ids(claimsOf('privilege@example.com'), { collection: 'rooms' })).toEqual(corporation);
    expect(await ids(claimsOf('owner@example.com'), { collection: 'rooms' })).toEqual(corporation);
    expect(corporation).toHaveLength(22);
    expect(await ids(claimsOf('individual@example.com'), { collection: 'rooms' })).toEqual(household);
    expect(await ids(claimsOf('agency@example.com'), { collection: 'rooms' })).toEqual(all);
    expect(await ids(claimsOf('developer@example.com'), { collection: 'rooms' })).toEqual(all);
    expect(await ids(claimsOf('mfa@example.com'), { collection: 'rooms' })).toEqual([]);
  });

  it('scopes sleep days, alerts, devices and staff the same way', async () => {
    const staff = claimsOf('staff@example.com');
    const individual = claimsOf('individual@example.com');
    expect(await store.count(staff, { collection: 'sleeps', collectionGroup: true })).toBe(15 * 30);
    expect(await store.count(individual, { collection: 'sleeps', collectionGroup: true })).toBe(2 * 30);
    expect(await store.count(claimsOf('owner@example.com'), { collection: 'sleeps', collectionGroup: true })).toBe(20 * 30);
    const latest = await store.query(individual, { collection: `rooms/demo-h-2/sleeps`, orderBy: [['bedTime', 'desc']], limit: 1 });
    expect(latest[0]?.documentReferenceId).toBe('2026-11-21');
    expect((latest[0]?.epochs as unknown[]).length).toBeGreaterThan(400);
    const alerts = await store.query(individual, { collection: 'alerts', limit: 1000 });
    expect(alerts.every((alert) => String(alert.roomId).startsWith('demo-h-'))).toBe(true);
    expect(await ids(staff, { collection: 'devices' })).toEqual(Array.from({ length: 16 }, (_, i) => `NM-${String(i + 1).padStart(4, '0')}`));
    // The agency sees its stock too; general staff do not see administrators in the staff list.
    expect(await store.count(claimsOf('agency@example.com'), { collection: 'devices' })).toBe(30);
    const staffList = await store.query(staff, { collection: `domains/${DEMO_DOMAINS.facilityA}/staff`, limit: 100 });
    expect(staffList.length).toBeGreaterThan(4);
    expect(staffList.every((member) => (member.accessLevel as number) < 3)).toBe(true);
    expect(await store.count(claimsOf('privilege@example.com'), { collection: `domains/${DEMO_DOMAINS.facilityA}/staff` })).toBe(3 + 6);
    expect(await store.count(claimsOf('agency-admin@example.com'), { collection: `domains/${DEMO_DOMAINS.agency}/bills` })).toBe(6);
  });

  it('registers the devices with the simulator’s demo secrets', async () => {
    const devices = await store.query(SYSTEM_PRINCIPAL, { collection: 'devices', orderBy: [['deviceTypeId', 'asc']], limit: 100 });
    expect(devices).toHaveLength(30);
    for (const device of devices) {
      const serial = String(device.documentReferenceId);
      expect(verifyDeviceSecret(demoSecret(serial), device.credentialHash as string), serial).toBe(true);
      expect(verifyDeviceSecret(demoSecret('NM-9999'), device.credentialHash as string)).toBe(false);
    }
    const inUse = devices.filter((device) => device.status === 'in_use');
    expect(inUse).toHaveLength(24);
    expect(
      devices.filter((device) => device.status === 'stock').every((device) => device.ownerAgencyDomainId === DEMO_DOMAINS.agency && device.domainId === null),
    ).toBe(true);
    const room = await store.get(SYSTEM_PRINCIPAL, 'rooms/demo-a-101');
    expect(room?.document.deviceSerial).toBe('NM-0001');
    const latest = await store.query(SYSTEM_PRINCIPAL, { collection: 'histories', where: [['version', '==', APP_VERSION]] });
    expect(latest).toHaveLength(1);
  });
}
