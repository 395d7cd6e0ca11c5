/**
 * An agency with more devices and borrows than one engine page (1,000) holds: a bill has a line for
 * every device lent in the month, and the statistics, device and room pages count them all
 * (agencyData.ts reads every page). On PGlite and on PostgreSQL, since paging is SQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { MAX_PAGE_SIZE } from '@nemuri/shared/documents/query';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { describePostgres } from '../testing/postgres.ts';
import { signedIn, startTestServer, type DatabaseChoice, type DocumentsClient, type TestServer } from '../documents/testing.ts';

const A = DEMO_DOMAINS.agency;
const CORP = 'test-many-corp';
const MONTH = '2026-10';
const DEVICES = MAX_PAGE_SIZE + 7;
const ROOMS = MAX_PAGE_SIZE + 3;
const UNIT_PRICE = 3100;
/** Writes per commit, under the engine's 500. */
const BATCH = 400;

function beyondOnePage(choice: DatabaseChoice): void {
  let test: TestServer;
  let agencyAdmin: DocumentsClient;
  const serials = Array.from({ length: DEVICES }, (_, index) => `MANY${String(index).padStart(5, '0')}`);

  const writeAll = async (writes: { path: string; data: Record<string, unknown> }[]) => {
    const store = test.server.app.documents;
    for (let start = 0; start < writes.length; start += BATCH) {
      await store.commit(SYSTEM_PRINCIPAL, {
        reads: [],
        writes: writes.slice(start, start + BATCH).map((write) => ({ op: 'set', path: write.path, data: write.data, merge: false })),
      });
    }
  };
  const json = async (path: string, method: 'GET' | 'POST' = 'GET', body?: unknown) => {
    const reply = method === 'GET' ? await agencyAdmin.get(path) : await agencyAdmin.post(path, body);
    expect(reply.status, reply.text).toBe(200);
    return reply.body as Record<string, unknown>;
  };

  beforeAll(async () => {
    test = await startTestServer(choice);
    agencyAdmin = await signedIn(test.server, 'agency-admin@example.com');
    await writeAll([
      { path: `domains/${A}`, data: { name: 'ねむりケア販売株式会社', kind: 'agency', rootDomainId: A } },
      { path: `domains/${CORP}`, data: { name: '大きな法人', kind: 'corporation', rootDomainId: CORP, agencyDomainId: A } },
      { path: `domains/${A}/partners/${CORP}`, data: { name: '大きな法人', monthlyUnitPrice: UNIT_PRICE, status: 'active' } },
    ]);
    await writeAll(
      serials.flatMap((serial) => [
        { path: `devices/${serial}`, data: { deviceTypeId: 'nemuri-chest', ownerAgencyDomainId: A, domainId: CORP, status: 'in_use' } },
        {
          path: `devices/${serial}/borrows/b1`,
          data: { toDomainId: CORP, from: '2026-09-20T09:00:00+09:00', until: null, returnedAt: null, by: 'test' },
        },
      ]),
    );
    await writeAll(Array.from({ length: ROOMS }, (_, index) => ({ path: `rooms/many-${index}`, data: { name: `居室${index}`, domainId: CORP } })));
  }, 300_000);

  afterAll(async () => {
    await test?.stop();
  });

  it('bills every device lent in the month, not the first page of borrows', async () => {
    const { bills } = (await json(`/api/agency/${A}/bills/generate`, 'POST', { month: MONTH, partnerId: CORP })) as {
      bills: { lines: { deviceSerial: string; daysUsed: number }[]; subtotal: number }[];
    };
    const lines = bills[0]?.lines ?? [];
    expect(lines.map((line) => line.deviceSerial).sort()).toEqual(serials);
    expect(lines.every((line) => line.daysUsed === 31)).toBe(true);
    expect(bills[0]?.subtotal).toBe(DEVICES * UNIT_PRICE);
  }, 120_000);

  it('statistics, the device pages and the room pages count every device and room', async () => {
    const { statistics } = (await json(`/api/agency/${A}/statistics`)) as {
      statistics: { devices: { total: number }; months: { month: string; devicesOut: number }[] };
    };
    expect(statistics.devices.total).toBe(DEVICES);
    expect(statistics.months.find((entry) => entry.month === MONTH)?.devicesOut).toBe(DEVICES);
    const lastDevices = (await json(`/api/agency/${A}/devices?limit=100&offset=${DEVICES - 5}`)) as { devices: unknown[]; matched: number; total: number };
    expect(lastDevices).toMatchObject({ matched: DEVICES, total: DEVICES });
    expect(lastDevices.devices).toHaveLength(5);
    const lastRooms = (await json(`/api/agency/${A}/rooms?limit=100&offset=${ROOMS - 2}`)) as { rooms: unknown[]; matched: number };
    expect(lastRooms.matched).toBe(ROOMS);
    expect(lastRooms.rooms).toHaveLength(2);
  }, 120_000);
}

describe('an agency beyond one page, on PGlite', () => {
  beyondOnePage('pglite');
});

describePostgres('an agency beyond one page, on PostgreSQL', () => {
  beyondOnePage('postgresql');
});
