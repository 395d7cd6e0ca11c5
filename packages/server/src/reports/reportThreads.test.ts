/**
 * The report threads and cancelling (reportThreads.ts, reportData.ts): the epochs reach the thread
 * unchanged as typed-array columns; the thread builds what the shared code builds; a request that
 * goes away stops the server reading its records (real server on PGlite, real fetch aborted) and a
 * job cancelled while waiting or drawing frees its thread for the next one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Claims } from '@nemuri/shared/documents/access';
import { reportQuery } from '@nemuri/shared/report/period';
import { buildRoomReport, type SleepRecord } from '@nemuri/shared/report/roomReport';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { signedIn, startTestServer, type TestServer } from '../documents/testing.ts';
import { DocumentStore } from '../documents/store.ts';
import { packSleeps, unpackSleeps } from './epochColumns.ts';
import { readRooms, roomRecords } from './reportData.ts';
import { ReportCancelled, ReportThreads, type RoomRecords } from './reportThreads.ts';

const system: Claims = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
const RULE = { boundaryHour: 12, timeZone: 'Asia/Tokyo' };

function night(day: string, seed: number): SleepRecord {
  const states = ['awake', 'light', 'deep', 'rem', 'outOfBed', 'unknown'] as const;
  return {
    source: 'test',
    epochStart: `${day}T22:00:00+09:00`,
    bedTime: `${day}T22:00:00+09:00`,
    totalSleepMin: 300 + seed,
    respirationRate: { avg: 14.5, min: 11, max: 19 },
    epochs: Array.from({ length: 480 }, (_, minute) => ({
      state: states[(minute + seed) % states.length] ?? 'light',
      ...(minute % 3 === 0 ? {} : { respirationRate: minute % 7 === 0 ? null : 12.5 + (minute % 5) / 3 }),
      ...(minute % 4 === 0 ? { heartRate: null } : { heartRate: 55 + (minute % 13) }),
      ...(minute % 5 === 0 ? {} : { activity: (minute % 10) / 7 }),
      ...(minute % 97 === seed ? { pauses: 2 } : {}),
    })),
  };
}

describe('report threads', () => {
  let test: TestServer;
  let threads: ReportThreads;

  beforeAll(async () => {
    test = await startTestServer('pglite');
    threads = new ReportThreads(1);
    const store = new DocumentStore(test.server.database, { error: () => undefined });
    await store.set(system, 'domains/demo-facility-a', { name: 'さくら苑', kind: 'facility', rootDomainId: 'demo-corp', parentDomainId: 'demo-corp' }, true);
    for (let index = 0; index < 30; index++) await store.set(system, `rooms/rt-${index}`, { domainId: 'demo-facility-a', name: `RT ${index}号室` }, false);
  }, 120_000);
  afterAll(async () => {
    await threads?.stop();
    await test?.stop();
  });

  it('hands the epochs over as columns and gets them back exactly (absent, null, numbers, no epochs at all)', () => {
    const sleeps = new Map<string, SleepRecord>([
      ['2026-11-01', night('2026-11-01', 3)],
      ['2026-11-02', { source: 'test', totalSleepMin: 200 }],
      ['2026-11-03', { source: 'test', epochs: [] }],
      ['2026-11-04', night('2026-11-04', 40)],
    ]);
    const copy = structuredClone(sleeps);
    expect(unpackSleeps(structuredClone(packSleeps(sleeps)))).toStrictEqual(copy);
  });

  it('builds in the thread what the shared code builds', async () => {
    const sleeps = new Map([0, 1, 2, 3].map((day) => [`2026-11-0${day + 1}`, night(`2026-11-0${day + 1}`, day)] as const));
    const rooms: RoomRecords[] = [
      { room: { id: 'a', name: 'A室', floor: '1F', residentName: '山田 太郎' }, sleeps, rule: RULE },
      { room: { id: 'b', name: 'B室' }, sleeps: new Map(), rule: RULE },
    ];
    const job = await threads.open('2026-11-01', '2026-11-04');
    for (const records of rooms) await job.add(records);
    expect(await job.reports()).toStrictEqual(rooms.map(({ room, sleeps: nights, rule }) => buildRoomReport(room, nights, '2026-11-01', '2026-11-04', rule)));
    // The endpoint's answer: the same reports as JSON, written in the thread and moved here as bytes.
    const again = await threads.open('2026-11-01', '2026-11-04');
    for (const records of rooms) await again.add(records);
    expect(JSON.parse((await again.json()).toString('utf8'))).toStrictEqual(
      JSON.parse(JSON.stringify({ reports: rooms.map(({ room, sleeps: nights, rule }) => buildRoomReport(room, nights, '2026-11-01', '2026-11-04', rule)) })),
    );
  });

  it('stops reading the records when the signal aborts, before the next record', async () => {
    let gets = 0;
    // A real store whose reads are counted.
    class CountingStore extends DocumentStore {
      override get(...args: Parameters<DocumentStore['get']>) {
        gets++;
        return super.get(...args);
      }
    }
    const store = new CountingStore(test.server.database, { error: () => undefined });
    const query = reportQuery.parse({ rooms: Array.from({ length: 30 }, (_, index) => `rt-${index}`).join(','), from: '2026-01-01', to: '2026-12-31' });
    const rooms = await readRooms(store, system, query.rooms);
    const controller = new AbortController();
    const before = gets;
    let yielded = 0;
    await expect(
      (async () => {
        for await (const records of roomRecords(store, system, query, rooms, controller.signal)) {
          expect(records.room.id).toBe('rt-0');
          yielded++;
          controller.abort(new ReportCancelled());
        }
      })(),
    ).rejects.toBeInstanceOf(ReportCancelled);
    expect(yielded).toBe(1);
    // The first room's 365 days and its domain's rule; none of the 29 rooms after it.
    expect(gets - before).toBeLessThanOrEqual(366);
  });

  it('a browser that gives up on a PDF stops the server reading and frees the thread; the next PDF is made', async () => {
    const staff = await signedIn(test.server, 'staff@example.com');
    const cookie = staff.cookieHeader;
    const rooms = Array.from({ length: 30 }, (_, index) => `rt-${index}`).join(',');
    const controller = new AbortController();
    const url = new URL(`/api/reports/pdf?rooms=${rooms}&from=2026-01-01&to=2026-12-31`, test.server.url);
    const abandoned = fetch(url, { headers: { cookie }, signal: controller.signal }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 800));
    controller.abort();
    expect(await abandoned).toBeInstanceOf(Error);
    const cancelledLine = async () => test.logLines.find((line) => line.includes('report cancelled by the client'));
    await expect.poll(cancelledLine, { timeout: 10_000 }).toBeDefined();
    const logged = JSON.parse((await cancelledLine()) as string) as { roomsRead: number; rooms: number };
    expect(logged.rooms).toBe(30);
    expect(logged.roomsRead).toBeLessThan(30);
    const next = await fetch(new URL('/api/reports/pdf?rooms=rt-1&from=2026-11-01&to=2026-11-04', test.server.url), { headers: { cookie } });
    expect(next.status).toBe(200);
    expect(
      Buffer.from(await next.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
  }, 60_000);

  it('a job cancelled while it waits leaves the queue; one cancelled while drawing stops its thread, and the next job runs', async () => {
    const sleeps = new Map(
      Array.from(
        { length: 31 },
        (_, day) => [`2026-10-${String(day + 1).padStart(2, '0')}`, night(`2026-10-${String(day + 1).padStart(2, '0')}`, day)] as const,
      ),
    );
    const drawing = await threads.open('2026-10-01', '2026-10-31');
    for (let room = 0; room < 40; room++) await drawing.add({ room: { id: `d${room}`, name: `${room}号室` }, sleeps, rule: RULE });
    const pdf = drawing.pdf('2026/11/01 09:00');
    const waiting = new AbortController();
    const queued = threads.open('2026-10-01', '2026-10-31', waiting.signal);
    const cancelledBefore = threads.cancelled;
    waiting.abort();
    await expect(queued).rejects.toBeInstanceOf(ReportCancelled);
    await new Promise((resolve) => setTimeout(resolve, 300));
    drawing.cancel();
    await expect(pdf).rejects.toBeInstanceOf(ReportCancelled);
    expect(threads.cancelled).toBe(cancelledBefore + 1);
    const next = await threads.open('2026-11-01', '2026-11-02');
    await next.add({ room: { id: 'n', name: 'N室' }, sleeps: new Map(), rule: RULE });
    expect((await next.pdf('2026/11/01 09:00')).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(threads.working).toBe(0);
  }, 60_000);
});
