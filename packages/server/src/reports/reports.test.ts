/**
 * Sleep reports against a real server and database: the numbers (rows, averages, diary), the CSV in
 * both encodings, the PDF (text through pdftotext, a page through pdftoppm), scope (another
 * facility's room is 404), and report links: a viewer reads only their room, every read is
 * recorded, and nothing after the link expires or is revoked.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import type { ReportLinkSummary } from '@nemuri/shared/report/reportApi';
import type { RoomReport, SleepRecord } from '@nemuri/shared/report/roomReport';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { DocumentStore } from '../documents/store.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient } from '../testing/browserClient.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';
import { decodePng } from './pngPixels.ts';

const system = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };

/** 22:00 in bed awake 10 min, asleep 200, out of bed 15, asleep 245, awake 10 (480 epochs); pauses at 60 and 61. */
function epochs(): NonNullable<SleepRecord['epochs']> {
  const list: NonNullable<SleepRecord['epochs']> = [];
  const add = (count: number, state: 'awake' | 'light' | 'outOfBed') => {
    for (let i = 0; i < count; i++) list.push({ state, respirationRate: state === 'light' ? 14 : 18, heartRate: 60, activity: state === 'light' ? 0.1 : 1 });
  };
  add(10, 'awake');
  add(200, 'light');
  add(15, 'outOfBed');
  add(245, 'light');
  add(10, 'awake');
  list[60] = { ...list[60], state: 'light', pauses: 2 };
  list[61] = { ...list[61], state: 'light', pauses: 1 };
  return list;
}

const NIGHTS: Record<string, SleepRecord> = {
  '2026-11-02': {
    source: 'test',
    bedTime: '2026-11-02T22:00:00+09:00',
    sleepOnset: '2026-11-02T22:10:00+09:00',
    finalWake: '2026-11-03T05:50:00+09:00',
    outOfBedTime: '2026-11-03T06:00:00+09:00',
    epochStart: '2026-11-02T22:00:00+09:00',
    epochs: epochs(),
    timeInBedMin: 465,
    totalSleepMin: 417,
    sleepEfficiency: 91.3,
    outOfBedCount: 1,
    respirationRate: { avg: 14.6, min: 11, max: 19 },
    heartRate: { avg: 61.2, min: 52, max: 77 },
    apneaEvents: 3,
  },
  '2026-11-04': {
    source: 'test',
    totalSleepMin: 388,
    sleepEfficiency: 86.7,
    outOfBedCount: 3,
    respirationRate: { avg: 15.8, min: 12, max: 21 },
    heartRate: { avg: 64, min: 55, max: 80 },
  },
};

describe('sleep reports', () => {
  let dir: TempDir;
  let server: RunningServer;
  let address = 10;
  const client = () => new BrowserClient(server.url, { from: `127.0.6.${address++}` });
  const signedIn = async (email: string) => {
    const browser = client();
    expect((await browser.signIn(email, DEMO_PASSWORD)).status).toBe(200);
    return browser;
  };
  const bytesOf = async (browser: BrowserClient, path: string) => {
    const response = await fetch(new URL(path, server.url), { headers: { cookie: browser.cookieHeader } });
    return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
  };
  const query = 'rooms=rp-101&from=2026-11-01&to=2026-11-04';

  beforeAll(async () => {
    dir = await makeTempDir('nemuri-reports-');
    server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: 'memory://',
        DATA_DIR: dir.path,
        DEMO: '1',
        SIMULATE: '0',
        WEB_DIST: join(dir.path, 'no-web'),
        AUTH_RATE_LIMIT_MAX: '10000',
      }),
      { logger: false },
    );
    const store = new DocumentStore(server.database, { error: () => undefined });
    await store.set(system, 'domains/demo-facility-a', { name: 'さくら苑', kind: 'facility', rootDomainId: 'demo-corp', parentDomainId: 'demo-corp' }, true);
    await store.set(system, 'domains/rp-elsewhere', { name: 'よその施設', kind: 'facility', rootDomainId: 'rp-elsewhere' }, false);
    await store.set(system, 'rooms/rp-101', { domainId: 'demo-facility-a', name: 'RP 101号室', floor: '1F', residentName: '山田 太郎' }, false);
    await store.set(system, 'rooms/rp-102', { domainId: 'demo-facility-a', name: 'RP 102号室' }, false);
    await store.set(system, 'rooms/rp-901', { domainId: 'rp-elsewhere', name: 'RP 901号室' }, false);
    for (const [day, night] of Object.entries(NIGHTS)) await store.set(system, `rooms/rp-101/sleeps/${day}`, night, false);
    await store.set(system, 'rooms/rp-901/sleeps/2026-11-02', { source: 'test', totalSleepMin: 300 }, false);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await dir?.remove();
  });

  it('builds the rows, averages and diary a staff member sees, and keeps their comment', async () => {
    const staff = await signedIn('staff@example.com');
    expect(
      (
        await staff.send('PUT', '/api/reports/rooms/rp-101/comment', JSON.stringify({ comment: '夜間の離床が増えています。' }), {
          'content-type': 'application/json',
        })
      ).status,
    ).toBe(200);
    const reply = await staff.get(`/api/reports/data?${query}`);
    expect(reply.status, reply.text).toBe(200);
    const [report] = (reply.body as { reports: RoomReport[] }).reports;
    expect(report?.room).toEqual({ id: 'rp-101', name: 'RP 101号室', floor: '1F', residentName: '山田 太郎', comment: '夜間の離床が増えています。' });
    expect(report?.rows.map((row) => row.recorded)).toEqual([false, true, false, true]);
    expect(report?.averages).toMatchObject({
      days: 2,
      numbers: { totalSleepMin: 402.5, sleepEfficiency: 89, outOfBedCount: 2, respirationAvg: 15.2, heartRateAvg: 62.6 },
    });
    expect(report?.rows[1]?.clocks.bedTime).toEqual({ clock: '22:00', offsetMin: 600 });
    // 22:00 is 600 minutes after the 12:00 boundary of the sleep day.
    expect(report?.diary[1]?.segments).toEqual([
      { kind: 'inBedAwake', startMin: 600, endMin: 610 },
      { kind: 'asleep', startMin: 610, endMin: 810 },
      { kind: 'outOfBed', startMin: 810, endMin: 825 },
      { kind: 'asleep', startMin: 825, endMin: 1070 },
      { kind: 'inBedAwake', startMin: 1070, endMin: 1080 },
    ]);
    expect(report?.diary[1]?.pauses).toEqual([
      { minute: 660, count: 2 },
      { minute: 661, count: 1 },
    ]);
    // A record without epochs is drawn from nothing: no times either.
    expect(report?.diary[3]?.segments).toEqual([]);
  });

  it("answers 404 for another facility's room and for a missing one, and validates the query", async () => {
    const staff = await signedIn('staff@example.com');
    expect((await staff.get('/api/reports/data?rooms=rp-101,rp-901&from=2026-11-01&to=2026-11-04')).status).toBe(404);
    expect((await staff.get('/api/reports/pdf?rooms=rp-901&from=2026-11-01&to=2026-11-04')).status).toBe(404);
    expect((await staff.get('/api/reports/csv?rooms=nothing-here&from=2026-11-01&to=2026-11-04')).status).toBe(404);
    expect(
      (await staff.send('PUT', '/api/reports/rooms/rp-901/comment', JSON.stringify({ comment: 'x' }), { 'content-type': 'application/json' })).status,
    ).toBe(404);
    expect((await staff.get('/api/reports/data?rooms=rp-101&from=2026-01-01&to=2027-02-01')).status).toBe(400);
    // Days that do not exist are refused as bad input, not answered with a server error.
    for (const period of ['from=2026-13-01&to=2026-11-04', 'from=2026-11-01&to=2026-02-30'])
      expect((await staff.get(`/api/reports/pdf?rooms=rp-101&${period}`)).status).toBe(400);
    expect((await staff.get('/api/reports/data?rooms=rp-101&from=2026-11-04&to=2026-11-01')).status).toBe(400);
    expect((await staff.get('/api/reports/csv?rooms=rp-101&from=2026-11-01&to=2026-11-01&encoding=latin1')).status).toBe(400);
    expect((await client().get(`/api/reports/data?${query}`)).status).toBe(401);
  });

  it('writes the per-day CSV in UTF-8 with a BOM and in Shift_JIS, with the same values', async () => {
    const staff = await signedIn('staff@example.com');
    const utf8 = await bytesOf(staff, `/api/reports/csv?${query}&kind=days&encoding=utf8bom`);
    expect(utf8.status).toBe(200);
    expect([...utf8.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(utf8.headers.get('content-disposition')).toContain(
      `filename*=UTF-8''${encodeURIComponent('睡眠レポート_RP_101号室_2026-11-01_2026-11-04_日別.csv')}`,
    );
    const sjis = await bytesOf(staff, `/api/reports/csv?${query}&kind=days&encoding=sjis`);
    expect(sjis.headers.get('content-type')).toContain('Shift_JIS');
    const fromUtf8 = iconv.decode(utf8.bytes, 'utf8', { stripBOM: true });
    const fromSjis = iconv.decode(sjis.bytes, 'Shift_JIS');
    expect(fromSjis).toBe(fromUtf8);
    const lines = fromUtf8
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
    const header = lines[0] ?? [];
    const column = (label: string) => header.indexOf(label);
    expect(header.slice(0, 3)).toEqual(['部屋', '日付', '就床時刻']);
    const day2 = lines.find((line) => line[1] === '2026/11/02') ?? [];
    expect(day2[column('総睡眠時間(分)')]).toBe('417');
    expect(day2[column('睡眠効率(%)')]).toBe('91.3');
    expect(day2[column('就床時刻')]).toBe('22:00');
    expect(day2[column('呼吸数(回/分)')]).toBe('14.6');
    const average = lines.find((line) => line[1] === '期間平均') ?? [];
    expect(average[column('総睡眠時間(分)')]).toBe('402.5');
    expect(lines).toHaveLength(1 + 4 + 1);
  });

  it('writes the per-minute CSV with states and breathing pauses', async () => {
    const staff = await signedIn('staff@example.com');
    const reply = await bytesOf(staff, `/api/reports/csv?${query}&kind=epochs&encoding=sjis`);
    const lines = iconv.decode(reply.bytes, 'Shift_JIS').trimEnd().split('\r\n');
    expect(lines[0]).toBe('部屋,睡眠日,時刻,状態,呼吸数(回/分),心拍数(回/分),体動,呼吸停止回数');
    expect(lines).toHaveLength(1 + 480);
    expect(lines[1]).toBe('RP 101号室,2026/11/02,2026/11/02 22:00,覚醒,18,60,1,');
    expect(lines[61]).toBe('RP 101号室,2026/11/02,2026/11/02 23:00,浅い睡眠,14,60,0.1,2');
  });

  it('draws a PDF with Japanese labels, the same numbers and a visible page', async () => {
    const staff = await signedIn('staff@example.com');
    const reply = await bytesOf(staff, `/api/reports/pdf?rooms=rp-101,rp-102&from=2026-11-01&to=2026-11-04`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/pdf');
    expect(reply.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('睡眠レポート_2部屋_2026-11-01_2026-11-04.pdf')}`);
    expect(reply.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The font is subset: a few pages stay small although Noto Sans JP is 5 MB.
    expect(reply.bytes.length).toBeLessThan(400_000);
    const pdf = join(dir.path, 'report.pdf');
    writeFileSync(pdf, reply.bytes);
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    for (const label of [
      '睡眠レポート',
      'RP 101号室',
      'RP 102号室',
      '期間: 2026/11/01 〜 2026/11/04',
      '睡眠日誌',
      '総睡眠時間',
      '期間平均',
      '呼吸数',
      '夜間の離床が増えています。',
      '11/2(月)',
    ])
      expect(text).toContain(label);
    expect(text).not.toMatch(/\d{4}-\d\d-\d\d/);
    for (const number of ['417', '388', '402.5', '91.3', '86.7', '89', '14.6', '15.2', '62.6'])
      expect(text).toMatch(new RegExp(`(^|\\s)${number.replace('.', '\\.')}(\\s|$)`, 'm'));
    // One room per page: the second room starts a page of its own.
    const pages = text.split('\f').filter((page) => page.trim() !== '');
    expect(pages.findIndex((page) => page.includes('RP 102号室'))).toBeGreaterThan(pages.findIndex((page) => page.includes('RP 101号室')));

    execFileSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', pdf, join(dir.path, 'page')]);
    const png = readFileSync(join(dir.path, 'page-1.png'));
    const { data, channels } = decodePng(png);
    let dark = 0;
    let blue = 0;
    for (let i = 0; i < data.length; i += channels) {
      const [r = 255, g = 255, b = 255] = channels === 3 ? [data[i], data[i + 1], data[i + 2]] : [data[i], data[i], data[i]];
      if (r < 128 && g < 128 && b < 128) dark++;
      if (b > 150 && r < 100) blue++;
    }
    expect(dark).toBeGreaterThan(200);
    // The diary's asleep bars are blue.
    expect(blue).toBeGreaterThan(200);
  });

  it('shows a report viewer only their room, records each read, and nothing after revocation or expiry', async () => {
    const admin = await signedIn('admin@example.com');
    const made = await admin.post('/api/auth/report-access/links', { roomId: 'rp-101', validDays: 7 });
    expect(made.status, made.text).toBe(200);
    const { id, url } = made.body as { id: string; url: string };
    const visitor = client();
    expect((await visitor.post('/api/auth/sign-in/anonymous')).status).toBe(200);
    expect((await visitor.post('/api/auth/report-access/redeem', { token: new URL(url).searchParams.get('token') })).status).toBe(200);

    expect((await visitor.get(`/api/reports/data?${query}`)).status).toBe(200);
    expect((await bytesOf(visitor, `/api/reports/pdf?${query}`)).status).toBe(200);
    expect((await visitor.get('/api/reports/data?rooms=rp-102&from=2026-11-01&to=2026-11-04')).status).toBe(404);
    expect((await visitor.get('/api/reports/data?rooms=rp-901&from=2026-11-01&to=2026-11-04')).status).toBe(404);
    // Read-only: no comments, no links.
    expect(
      (await visitor.send('PUT', '/api/reports/rooms/rp-101/comment', JSON.stringify({ comment: 'x' }), { 'content-type': 'application/json' })).status,
    ).toBe(403);
    expect((await visitor.get('/api/reports/rooms/rp-101/links')).status).toBe(403);

    const listed = await admin.get('/api/reports/rooms/rp-101/links');
    const link = (listed.body as { links: ReportLinkSummary[] }).links.find((candidate) => candidate.id === id);
    expect(link).toMatchObject({ state: 'inUse', redeemed: true, accessCount: 2 });
    expect(link?.lastAccessAt).not.toBeNull();
    expect(JSON.stringify(listed.body)).not.toContain('tokenHash');
    const audit = await server.database.query<{ n: number }>(
      `select count(*)::int as n from documents where collection = 'auditLogs' and data ->> 'path' = $1 and data ->> 'who' = $2`,
      [`reportAccess/${id}`, ((await visitor.me()) as { uid: string }).uid],
    );
    // The redeem, then the two reads.
    expect(audit.rows[0]?.n).toBe(3);

    // Staff (level 2) may not revoke; an administrator of another facility does not see the link.
    const staff = await signedIn('staff@example.com');
    expect((await staff.post(`/api/reports/links/${id}/revoke`)).status).toBe(403);
    expect((await admin.post(`/api/reports/links/${id}/revoke`)).body).toMatchObject({ link: { state: 'revoked' } });
    expect((await visitor.get(`/api/reports/data?${query}`)).status).toBe(404);
    expect((await visitor.get('/api/documents/rooms/rp-101')).status).toBe(404);
    expect((await visitor.get('/api/documents/rooms/rp-101/sleeps/2026-11-02')).status).toBe(404);
    // The viewer is also taken off the room (which wakes their live subscriptions).
    const room = await new DocumentStore(server.database, { error: () => undefined }).get(system, 'rooms/rp-101');
    expect(room?.document.reportViewerUids).toEqual([]);
    expect((await visitor.get(`/api/auth/report-access/preview?token=${new URL(url).searchParams.get('token')}`)).body).toMatchObject({ status: 'expired' });

    // A second link, redeemed, then expired: nothing either.
    const second = await admin.post('/api/auth/report-access/links', { roomId: 'rp-101', validDays: 1 });
    const secondId = (second.body as { id: string }).id;
    const other = client();
    await other.post('/api/auth/sign-in/anonymous');
    expect(
      (await other.post('/api/auth/report-access/redeem', { token: new URL((second.body as { url: string }).url).searchParams.get('token') })).status,
    ).toBe(200);
    expect((await other.get(`/api/reports/data?${query}`)).status).toBe(200);
    await server.database.query(`update documents set data = jsonb_set(data, '{expiresAt}', to_jsonb($1::text)) where path = $2`, [
      new Date(Date.now() - 1000).toISOString(),
      `reportAccess/${secondId}`,
    ]);
    expect((await other.get(`/api/reports/data?${query}`)).status).toBe(404);
    expect((await other.get('/api/documents/rooms/rp-101')).status).toBe(404);
    const states = ((await admin.get('/api/reports/rooms/rp-101/links')).body as { links: ReportLinkSummary[] }).links.map((entry) => [entry.id, entry.state]);
    expect(states).toEqual(
      expect.arrayContaining([
        [id, 'revoked'],
        [secondId, 'expired'],
      ]),
    );
  });

  it("pages a room's report links on the server, newest first, without gaps or repeats; other rooms' links, other roles and bad pages refused", async () => {
    const admin = await signedIn('admin@example.com');
    const made: string[] = [];
    for (let index = 0; index < 5; index++) {
      const reply = await admin.post('/api/auth/report-access/links', { roomId: 'rp-102', validDays: 1 + index });
      expect(reply.status, reply.text).toBe(200);
      made.push((reply.body as { id: string }).id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const reply = await admin.get(`/api/reports/rooms/rp-102/links?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`);
      expect(reply.status, reply.text).toBe(200);
      const page = reply.body as { links: ReportLinkSummary[]; nextCursor: string | null };
      expect(page.links.length).toBeLessThanOrEqual(2);
      expect(page.links.every((link) => link.roomId === 'rp-102')).toBe(true);
      seen.push(...page.links.map((link) => link.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(seen).toEqual([...made].reverse());
    // A link of another room (in scope or not) is not a page start of this one; nor is a malformed page.
    const ofRoom101 = ((await admin.get('/api/reports/rooms/rp-101/links')).body as { links: ReportLinkSummary[] }).links[0]?.id;
    expect(ofRoom101).toBeDefined();
    expect((await admin.get(`/api/reports/rooms/rp-102/links?cursor=${ofRoom101}`)).status).toBe(400);
    const store = new DocumentStore(server.database, { error: () => undefined });
    await store.set(
      system,
      'reportAccess/rp-foreign-link',
      { roomId: 'rp-901', createdBy: 'someone', tokenHash: 'x', expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
      false,
    );
    expect((await admin.get('/api/reports/rooms/rp-102/links?cursor=rp-foreign-link')).status).toBe(400);
    for (const bad of ['limit=0', 'limit=201', 'cursor=a/b', 'cursor=', 'orderBy=createdAt'])
      expect((await admin.get(`/api/reports/rooms/rp-102/links?${bad}`)).status, bad).toBe(400);
    // Another facility's room answers like a missing one; staff (level 2) and a signed-out caller are refused.
    expect((await admin.get('/api/reports/rooms/rp-901/links')).status).toBe(404);
    expect((await admin.get('/api/reports/rooms/rp-missing/links')).status).toBe(404);
    expect((await (await signedIn('staff@example.com')).get('/api/reports/rooms/rp-102/links')).status).toBe(403);
    expect((await client().get('/api/reports/rooms/rp-102/links')).status).toBe(401);
  });
});
