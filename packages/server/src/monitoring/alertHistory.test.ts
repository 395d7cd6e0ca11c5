/**
 * The alert history and its CSV, on a real server: what staff of a facility read (their rooms'
 * alerts, newest first by instant whatever the stored offset, filtered and paged), and what they
 * and others do not (another facility's room or alert, a family member's rooms only, an agency
 * nothing of its partners, huge pages, bad filters, unbounded CSVs).
 */
import { join } from 'node:path';
import { ALERT_CSV_HEADER, type AlertHistoryPage, type NightSummaryAnswer } from '@nemuri/shared/alertHistory';
import { DEMO_DOMAINS, DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { DocumentStore } from '../documents/store.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient } from '../testing/browserClient.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';
import { latestNightOf } from './nightSummary.ts';
import { nightWindowOf } from './nightWindow.ts';

const system = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
const A = 'demo-facility-a';
const B = 'demo-facility-b';
const OTHER = 'ah-other-corp';

/** `alerts/{id}` records: [id, domain, room, type, startedAt, endedAt, acknowledgedBy, acknowledgedAt]. */
const ALERTS: [string, string, string, string, string, string | null, string | null, string | null][] = [
  // Stored with Tokyo's offset: 2026-11-20 13:00Z, after ah-1 in time though before it as text.
  ['ah-2', A, 'ah-a1', 'noBreathing', '2026-11-20T22:00:00+09:00', '2026-11-20T22:00:40+09:00', 'ah-nurse', '2026-11-20T13:01:00.000Z'],
  ['ah-1', A, 'ah-a1', 'button', '2026-11-20T12:30:00.000Z', '2026-11-20T12:32:00.000Z', null, null],
  ['ah-3', A, 'ah-a1', 'outOfBed', '2026-11-20T14:00:00.000Z', null, null, null],
  ['ah-4', A, 'ah-a1', 'heartRateHigh', '2026-11-20T15:00:00.000Z', null, 'ah-nurse', '2026-11-20T15:02:00.000Z'],
  ['ah-5', A, 'ah-a2', 'deviceOffline', '2026-11-20T16:00:00.000Z', '2026-11-20T16:30:00.000Z', 'ah-stranger', '2026-11-20T16:31:00.000Z'],
  ['ah-b', B, 'ah-b1', 'button', '2026-11-20T12:45:00.000Z', null, null, null],
  ['ah-o', OTHER, 'ah-o1', 'button', '2026-11-20T12:50:00.000Z', null, null, null],
];

describe('alert history', () => {
  let dir: TempDir;
  let server: RunningServer;
  let address = 10;
  const client = async (email?: string) => {
    const browser = new BrowserClient(server.url, { from: `127.0.7.${address++}` });
    if (email !== undefined) expect((await browser.signIn(email, DEMO_PASSWORD)).status).toBe(200);
    return browser;
  };
  const page = (reply: { status: number; body: unknown; text: string }): AlertHistoryPage => {
    expect(reply.status, reply.text).toBe(200);
    return reply.body as AlertHistoryPage;
  };
  /** The test's alerts lie in this window (other tests' data may too). */
  const window = `from=2026-11-20T12:00:00Z&to=2026-11-20T17:00:00Z`;
  const ids = (reply: { status: number; body: unknown; text: string }) => page(reply).rows.map((row) => row.id);

  beforeAll(async () => {
    dir = await makeTempDir('nemuri-alert-history-');
    server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: 'memory://',
        DATA_DIR: dir.path,
        DEMO: '1',
        SIMULATE: '0',
        MQTT_PORT: '0',
        WEB_DIST: join(dir.path, 'no-web'),
        AUTH_RATE_LIMIT_MAX: '10000',
      }),
      { logger: false },
    );
    const store = new DocumentStore(server.database, { error: () => undefined });
    // Under Vitest the demo accounts exist, not the demo data: the tenants are made here.
    await store.set(system, 'domains/demo-corp', { name: 'デモ法人', kind: 'corporation' }, true);
    await store.set(system, `domains/${A}`, { name: 'さくら苑', kind: 'facility', rootDomainId: 'demo-corp' }, true);
    await store.set(system, `domains/${B}`, { name: 'もみじ荘', kind: 'facility', rootDomainId: 'demo-corp' }, true);
    // The demo agency is the corporation's partner: it sees the rooms' status, never their alerts.
    await store.set(system, `domains/${DEMO_DOMAINS.agency}/partners/demo-corp`, { name: 'デモ法人' }, false);
    await store.set(system, `domains/${OTHER}`, { name: 'よその法人', kind: 'corporation' }, false);
    await store.set(system, 'rooms/ah-a1', { domainId: A, name: '201号室', residentName: '=HYPERLINK("http://x")', deviceSerial: 'AH-DEV-1' }, false);
    // 202 has a night of its own: 01:30–05:00.
    await store.set(
      system,
      'rooms/ah-a2',
      { domainId: A, name: '202号室', residentName: '木村 一郎', deviceSerial: 'AH-DEV-2', alertSettings: { nightStart: '01:30', nightEnd: '05:00' } },
      false,
    );
    // Night 2026-11-20 from 20:00 Tokyo: 20:00–21:00 before the shift (3 min out of bed there), then
    // 30 min light sleep, 5 min out of bed, 100 min deep, 10 min out of bed, 5 unknown, 20 min REM.
    const epochs = [
      ...Array.from({ length: 30 }, () => ({ state: 'awake' })),
      ...Array.from({ length: 3 }, () => ({ state: 'outOfBed' })),
      ...Array.from({ length: 27 }, () => ({ state: 'awake' })),
      ...Array.from({ length: 30 }, () => ({ state: 'light' })),
      ...Array.from({ length: 5 }, () => ({ state: 'outOfBed' })),
      ...Array.from({ length: 100 }, () => ({ state: 'deep' })),
      ...Array.from({ length: 10 }, () => ({ state: 'outOfBed' })),
      ...Array.from({ length: 5 }, () => ({ state: 'unknown' })),
      ...Array.from({ length: 20 }, () => ({ state: 'rem' })),
    ];
    await store.set(
      system,
      'rooms/ah-a1/sleeps/2026-11-20',
      { source: 'test', epochStart: '2026-11-20T20:00:00+09:00', epochs, outOfBedCount: 9, totalSleepMin: 999 },
      false,
    );
    await store.set(system, 'rooms/ah-b1', { domainId: B, name: 'B 201' }, false);
    await store.set(system, 'rooms/ah-o1', { domainId: OTHER, name: 'O 1' }, false);
    await store.set(
      system,
      `domains/${A}/staff/ah-nurse`,
      { displayName: '看護 花子', email: 'ah-nurse@example.com', accessLevel: ROLE_LEVELS.generalStaff },
      false,
    );
    await store.set(
      system,
      `domains/${OTHER}/staff/ah-stranger`,
      { displayName: 'よその人', email: 'ah-stranger@example.com', accessLevel: ROLE_LEVELS.generalStaff },
      false,
    );
    for (const [id, domainId, roomId, type, startedAt, endedAt, acknowledgedBy, acknowledgedAt] of ALERTS) {
      await store.set(
        system,
        `alerts/${id}`,
        { domainId, roomId, deviceSerial: null, type, startedAt, endedAt, acknowledgedBy, acknowledgedAt, soundedAt: null },
        false,
      );
    }
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await dir?.remove();
  });

  it('lists a room’s alerts newest first by instant, with room, resident, severity, duration and who acknowledged', async () => {
    const staff = await client('staff@example.com');
    const answer = page(await staff.get('/api/monitoring/alerts?roomId=ah-a1'));
    expect(answer.rows.map((row) => row.id)).toEqual(['ah-4', 'ah-3', 'ah-2', 'ah-1']);
    const noBreathing = answer.rows.find((row) => row.id === 'ah-2');
    expect(noBreathing).toMatchObject({
      roomName: '201号室',
      residentName: '=HYPERLINK("http://x")',
      type: 'noBreathing',
      severity: 'critical',
      status: 'endedAcknowledged',
      durationSec: 40,
      acknowledgedBy: 'ah-nurse',
      acknowledgedByName: '看護 花子',
    });
    expect(answer.rows.find((row) => row.id === 'ah-3')).toMatchObject({ status: 'activeUnacknowledged', endedAt: null });
    expect(answer.rows.find((row) => row.id === 'ah-3')?.durationSec).toBe(Math.round((answer.at - Date.parse('2026-11-20T14:00:00Z')) / 1000));
    // A uid whose staff record belongs to another tenant is never named.
    expect(page(await staff.get('/api/monitoring/alerts?roomId=ah-a2')).rows[0]).toMatchObject({
      id: 'ah-5',
      acknowledgedBy: 'ah-stranger',
      acknowledgedByName: null,
      residentName: '木村 一郎',
    });
  });

  it('filters by type, state and start time', async () => {
    const staff = await client('staff@example.com');
    expect(ids(await staff.get('/api/monitoring/alerts?roomId=ah-a1&types=button,noBreathing'))).toEqual(['ah-2', 'ah-1']);
    expect(ids(await staff.get('/api/monitoring/alerts?roomId=ah-a1&state=activeUnacknowledged'))).toEqual(['ah-3']);
    expect(ids(await staff.get('/api/monitoring/alerts?roomId=ah-a1&state=activeAcknowledged'))).toEqual(['ah-4']);
    expect(ids(await staff.get('/api/monitoring/alerts?roomId=ah-a1&state=endedUnacknowledged'))).toEqual(['ah-1']);
    expect(ids(await staff.get('/api/monitoring/alerts?roomId=ah-a1&state=endedAcknowledged'))).toEqual(['ah-2']);
    // 22:00 Tokyo is 13:00Z: inside [12:45Z, 14:00Z) whatever the text says.
    expect(ids(await staff.get(`/api/monitoring/alerts?roomId=ah-a1&from=${encodeURIComponent('2026-11-20T21:45:00+09:00')}&to=2026-11-20T14:00:00Z`))).toEqual(
      ['ah-2'],
    );
  });

  it('pages by cursor without gaps or repeats', async () => {
    const staff = await client('staff@example.com');
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const answer: AlertHistoryPage = page(await staff.get(`/api/monitoring/alerts?roomId=ah-a1&limit=3${cursor === null ? '' : `&cursor=${cursor}`}`));
      expect(answer.rows.length).toBeLessThanOrEqual(3);
      seen.push(...answer.rows.map((row) => row.id));
      cursor = answer.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(['ah-4', 'ah-3', 'ah-2', 'ah-1']);
  });

  it('keeps every caller to their scope', async () => {
    const staff = await client('staff@example.com');
    const all = ids(await staff.get(`/api/monitoring/alerts?limit=200&${window}`));
    expect(all).toEqual(expect.arrayContaining(['ah-1', 'ah-5']));
    expect(all).not.toContain('ah-b');
    expect(all).not.toContain('ah-o');
    // Another facility's room or alert reads like a missing one.
    expect((await staff.get('/api/monitoring/alerts?roomId=ah-b1')).status).toBe(404);
    expect((await staff.get('/api/monitoring/alerts?roomId=ah-o1')).status).toBe(404);
    expect((await staff.get('/api/monitoring/alerts?roomId=no-such-room')).status).toBe(404);
    expect((await staff.get('/api/monitoring/alerts?cursor=ah-o')).status).toBe(404);
    expect((await staff.get('/api/monitoring/alerts.csv?roomId=ah-b1&from=2026-11-01T00:00:00Z&to=2026-11-30T00:00:00Z')).status).toBe(404);
    // The corporation's owner reads both facilities, never the other corporation.
    const owner = await client('owner@example.com');
    const owned = ids(await owner.get(`/api/monitoring/alerts?limit=200&${window}`));
    expect(owned).toEqual(expect.arrayContaining(['ah-1', 'ah-b']));
    expect(owned).not.toContain('ah-o');
    // An agency reads its partners' rooms' status, never their alerts.
    const agency = await client('agency@example.com');
    const seenByAgency = ids(await agency.get(`/api/monitoring/alerts?limit=200&${window}`));
    for (const id of ALERTS.map(([alertId]) => alertId)) expect(seenByAgency).not.toContain(id);
    expect((await agency.get('/api/documents/rooms/ah-a1')).status).toBe(200);
    expect(ids(await agency.get('/api/monitoring/alerts?roomId=ah-a1'))).toEqual([]);
    // A family member (level 1) reads only their own rooms.
    const family = await client('individual@example.com');
    expect((await family.get('/api/monitoring/alerts?roomId=ah-a1')).status).toBe(404);
    expect(ids(await family.get(`/api/monitoring/alerts?limit=200&${window}`))).not.toContain('ah-1');
    // Signed out.
    expect((await (await client()).get('/api/monitoring/alerts')).status).toBe(401);
    expect((await (await client()).get('/api/monitoring/alerts.csv?from=2026-11-01T00:00:00Z&to=2026-11-30T00:00:00Z')).status).toBe(401);
  });

  it('refuses bad filters and huge pages', async () => {
    const staff = await client('staff@example.com');
    for (const query of [
      'limit=1000',
      'limit=0',
      'limit=ten',
      'types=everything',
      'types=button,',
      'state=open',
      'from=yesterday',
      'from=2026-11-21T00:00:00Z&to=2026-11-20T00:00:00Z',
      'roomId=a/b',
      'cursor=',
      'orderBy=type',
    ]) {
      expect((await staff.get(`/api/monitoring/alerts?${query}`)).status, query).toBe(400);
    }
    // The CSV needs a bounded period.
    expect((await staff.get('/api/monitoring/alerts.csv')).status).toBe(400);
    expect((await staff.get('/api/monitoring/alerts.csv?from=2026-01-01T00:00:00Z&to=2026-11-30T00:00:00Z')).status).toBe(400);
  });

  it('exports the filtered alerts as a UTF-8 CSV with a byte order mark, formulas neutralised', async () => {
    const staff = await client('staff@example.com');
    const reply = await staff.get(`/api/monitoring/alerts.csv?roomId=ah-a1&from=2026-11-20T00:00:00Z&to=2026-11-21T00:00:00Z`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers['content-type']).toContain('text/csv');
    expect(reply.headers['content-disposition']).toContain('attachment');
    expect(reply.text.charCodeAt(0)).toBe(0xfeff);
    const lines = reply.text.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe(ALERT_CSV_HEADER.join(','));
    expect(lines).toHaveLength(5);
    // Newest first; Tokyo time; the resident's name cannot run as a formula.
    expect(lines[3]).toBe(
      `ah-2,201号室,"'=HYPERLINK(""http://x"")",呼吸未検出,緊急,終了・確認済み,2026-11-20 22:00:00,2026-11-20 22:00:40,0.7,看護 花子,2026-11-20 22:01:00`,
    );
    expect(lines[4]).toContain('ah-1,201号室');
    expect(lines[4]).toContain('ナースコール,緊急,終了・未確認');
  });

  it('exports the same CSV in Windows-31J on request (as every CSV download), byte for byte', async () => {
    const staff = await client('staff@example.com');
    const bytesOf = async (path: string) => {
      const response = await fetch(new URL(path, server.url), { headers: { cookie: staff.cookieHeader } });
      return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
    };
    const query = 'roomId=ah-a1&from=2026-11-20T00:00:00Z&to=2026-11-21T00:00:00Z';
    const utf8 = await bytesOf(`/api/monitoring/alerts.csv?${query}`);
    const sjis = await bytesOf(`/api/monitoring/alerts.csv?${query}&encoding=sjis`);
    expect(sjis.status).toBe(200);
    expect(sjis.type).toBe('text/csv; charset=Shift_JIS');
    expect((await bytesOf(`/api/monitoring/alerts.csv?${query}&encoding=utf8bom`)).bytes.equals(utf8.bytes)).toBe(true);
    // No byte order mark; アラートID,部屋,… and the line of ah-2 as Excel in Japan reads them (cp932 codes written out).
    const header =
      '83418389815b836749442c959489ae2c93fc8b8f8ed22c8eed97de2c8f64977693782c8ff391d42c8a4a8e6e2c8f4997b92c8c7091b18e9e8ad4816995aa816a2c8a6d94468ed22c8a6d944693fa8e9e0d0a';
    const ah2 =
      '61682d322c3230318d868eba2c22273d48595045524c494e4b282222687474703a2f2f78222229222c8cc48b7a96a28c9f8f6f2c8bd98b7d2c8f4997b981458a6d94468dcf82dd2c323032362d31312d32302032323a30303a30302c323032362d31312d32302032323a30303a34302c302e372c8ac58cec2089d48e712c323032362d31312d32302032323a30313a30300d0a';
    const hex = sjis.bytes.toString('hex');
    expect(hex.startsWith(header)).toBe(true);
    expect(hex).toContain(ah2);
    // Line for line the UTF-8 file: same rows, same order, only the encoding differs.
    const utf8Lines = utf8.bytes.subarray(3).toString('utf8').split('\r\n');
    expect(sjis.bytes.toString('latin1').split('\r\n')).toHaveLength(utf8Lines.length);
    expect(sjis.bytes.includes(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
    // Only the two encodings.
    for (const encoding of ['utf8', 'shift_jis', 'SJIS', ''])
      expect((await bytesOf(`/api/monitoring/alerts.csv?${query}&encoding=${encoding}`)).status, encoding).toBe(400);
  });

  it("sums up a room's night: alerts by type, out-of-bed episodes and minutes, sleep, in the room's own night", async () => {
    const staff = await client('staff@example.com');
    const one = await staff.get('/api/monitoring/night-summary?day=2026-11-20&roomId=ah-a1');
    expect(one.status, one.text).toBe(200);
    const [night] = (one.body as NightSummaryAnswer).rooms;
    expect(night).toMatchObject({
      roomId: 'ah-a1',
      roomName: '201号室',
      start: '2026-11-20T12:00:00.000Z',
      end: '2026-11-20T22:00:00.000Z',
      alertsByType: { button: 1, noBreathing: 1, outOfBed: 1, heartRateHigh: 1 },
      alertCount: 4,
      outOfBedCount: 2,
      outOfBedMin: 15,
      sleepMin: 150,
    });
    // 202's night starts at 01:30: its 01:00 alert is before it.
    const all = (await staff.get('/api/monitoring/night-summary?day=2026-11-20')).body as NightSummaryAnswer;
    expect(all.rooms.find((room) => room.roomId === 'ah-a2')).toMatchObject({
      start: '2026-11-20T16:30:00.000Z',
      end: '2026-11-20T20:00:00.000Z',
      alertCount: 0,
      outOfBedCount: null,
      sleepMin: null,
    });
    expect(all.rooms.map((room) => room.roomId)).not.toContain('ah-b1');
  });

  it("answers the facility's latest night when no day is asked, on the facility's clock", async () => {
    const tokyo = nightWindowOf({ nightStart: '21:00', nightEnd: '07:00' }, 'Asia/Tokyo');
    expect(latestNightOf(tokyo, Date.parse('2026-11-20T20:59:00+09:00'))).toBe('2026-11-19');
    expect(latestNightOf(tokyo, Date.parse('2026-11-20T21:00:00+09:00'))).toBe('2026-11-20');
    expect(latestNightOf(tokyo, Date.parse('2026-11-21T03:00:00+09:00'))).toBe('2026-11-20');
    // A night from 01:30 belongs to the evening before it.
    const late = nightWindowOf({ nightStart: '01:30', nightEnd: '05:00' }, 'Asia/Tokyo');
    expect(latestNightOf(late, Date.parse('2026-11-21T01:29:00+09:00'))).toBe('2026-11-19');
    expect(latestNightOf(late, Date.parse('2026-11-21T01:30:00+09:00'))).toBe('2026-11-20');
    // Another facility's zone: 20:00 in Los Angeles is 13:00 the next day in Tokyo, still before its night.
    expect(latestNightOf(nightWindowOf(null, 'America/Los_Angeles'), Date.parse('2026-11-21T04:00:00Z'))).toBe('2026-11-19');

    const staff = await client('staff@example.com');
    const before = Date.now();
    const answer = await staff.get('/api/monitoring/night-summary?roomId=ah-a1');
    expect(answer.status, answer.text).toBe(200);
    const body = answer.body as NightSummaryAnswer;
    // The room's domain keeps the default night (21:00–07:00, Tokyo).
    expect([latestNightOf(tokyo, before), latestNightOf(tokyo, Date.now())]).toContain(body.day);
    expect(Date.parse(body.rooms[0]!.start)).toBeLessThanOrEqual(Date.now());
    expect((await staff.get('/api/monitoring/night-summary')).status).toBe(200);
  });

  it("keeps the night summary to the caller's rooms", async () => {
    const staff = await client('staff@example.com');
    expect((await staff.get('/api/monitoring/night-summary?day=2026-11-20&roomId=ah-b1')).status).toBe(404);
    expect((await staff.get('/api/monitoring/night-summary?day=2026-11-20&roomId=ah-o1')).status).toBe(404);
    for (const query of ['day=yesterday', 'day=2026-13-45', 'day=', 'day=2026-11-20&limit=5'])
      expect((await staff.get(`/api/monitoring/night-summary?${query}`)).status, query).toBe(400);
    const agency = await client('agency@example.com');
    const seen = await agency.get('/api/monitoring/night-summary?day=2026-11-20&roomId=ah-a1');
    expect(seen.status).toBe(200);
    expect((seen.body as NightSummaryAnswer).rooms).toEqual([]);
    const family = await client('individual@example.com');
    expect((await family.get('/api/monitoring/night-summary?day=2026-11-20&roomId=ah-a1')).status).toBe(404);
    expect((await (await client()).get('/api/monitoring/night-summary?day=2026-11-20')).status).toBe(401);
  });
});
