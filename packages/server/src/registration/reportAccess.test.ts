/**
 * Report links (/register-report-access-user): an administrator makes a link for a room; an
 * anonymous visitor redeems it and can then read that room and its sleep records, nothing else.
 */
import { join } from 'node:path';
import { DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { REPORT_LINK_ERRORS, type ReportLinkPreview } from '@nemuri/shared/registration';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { DocumentStore } from '../documents/store.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient } from '../testing/browserClient.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';

const system = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };

describe('report links', () => {
  let dir: TempDir;
  let server: RunningServer;
  let address = 10;
  const client = () => new BrowserClient(server.url, { from: `127.0.5.${address++}` });
  const signedIn = async (email: string) => {
    const browser = client();
    expect((await browser.signIn(email, DEMO_PASSWORD)).status).toBe(200);
    return browser;
  };
  const tokenOf = (url: string) => new URL(url).searchParams.get('token') ?? '';

  beforeAll(async () => {
    dir = await makeTempDir('nemuri-report-links-');
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
    // Rooms of our own, so the test does not depend on the demo data set.
    const store = new DocumentStore(server.database, { error: () => undefined });
    await store.set(system, 'domains/demo-facility-a', { name: 'さくら苑', kind: 'facility', rootDomainId: 'demo-corp', parentDomainId: 'demo-corp' }, true);
    await store.set(system, 'domains/demo-facility-b', { name: 'もみじ荘', kind: 'facility', rootDomainId: 'demo-corp', parentDomainId: 'demo-corp' }, true);
    await store.set(system, 'rooms/rl-101', { domainId: 'demo-facility-a', name: 'RL 101号室' }, false);
    await store.set(system, 'rooms/rl-102', { domainId: 'demo-facility-a', name: 'RL 102号室' }, false);
    await store.set(system, 'rooms/rl-101/sleeps/2026-11-20', { source: 'test', totalSleepMin: 420 }, false);
    await store.set(system, 'rooms/rl-102/sleeps/2026-11-20', { source: 'test', totalSleepMin: 400 }, false);
    await store.set(system, 'rooms/rl-201', { domainId: 'demo-facility-b', name: 'RL 201号室' }, false);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await dir?.remove();
  });

  it('lets an administrator make a link that an anonymous visitor redeems to read that room only', async () => {
    const admin = await signedIn('admin@example.com');
    const made = await admin.post('/api/auth/report-access/links', { roomId: 'rl-101', validDays: 7 });
    expect(made.status, made.text).toBe(200);
    const { url } = made.body as { url: string };
    expect(new URL(url).pathname).toBe('/register-report-access-user');
    const token = tokenOf(url);

    const visitor = client();
    expect((await visitor.get(`/api/auth/report-access/preview?token=${token}`)).body).toMatchObject({
      roomId: 'rl-101',
      roomName: 'RL 101号室',
      status: 'valid',
    } satisfies Partial<ReportLinkPreview>);
    expect((await visitor.post('/api/auth/report-access/redeem', { token })).status).toBe(401);
    expect((await visitor.post('/api/auth/sign-in/anonymous')).status).toBe(200);
    expect(await visitor.post('/api/auth/report-access/redeem', { token })).toMatchObject({ status: 200, body: { roomId: 'rl-101' } });

    expect((await visitor.get('/api/documents/rooms/rl-101')).status).toBe(200);
    expect((await visitor.get('/api/documents/rooms/rl-101/sleeps/2026-11-20')).body).toMatchObject({ document: { totalSleepMin: 420 } });
    const rooms = (await visitor.post('/api/documents/query', { query: { collection: 'rooms' } })).body as { documents: { documentReferenceId: string }[] };
    expect(rooms.documents.map((room) => room.documentReferenceId)).toEqual(['rl-101']);
    expect((await visitor.get('/api/documents/rooms/rl-102')).status).toBe(404);
    // Only the reports: not the room's uploads or alerts.
    expect((await visitor.post('/api/documents/query', { query: { collection: 'rooms/rl-101/uploads' } })).body).toEqual({ documents: [] });
    expect((await visitor.post('/api/documents/query', { query: { collection: 'alerts', where: [['roomId', '==', 'rl-101']] } })).body).toEqual({
      documents: [],
    });

    // The link now belongs to this visitor: it works again for them, for nobody else.
    expect((await visitor.post('/api/auth/report-access/redeem', { token })).status).toBe(200);
    const other = client();
    await other.post('/api/auth/sign-in/anonymous');
    expect(await other.post('/api/auth/report-access/redeem', { token })).toMatchObject({ status: 410, body: { code: REPORT_LINK_ERRORS.used } });
  });

  it("keeps links within the creator's level and scope, and refuses expired or unknown ones", async () => {
    const staff = await signedIn('staff@example.com');
    expect((await staff.post('/api/auth/report-access/links', { roomId: 'rl-101' })).status).toBe(403);
    const admin = await signedIn('admin@example.com');
    expect((await admin.post('/api/auth/report-access/links', { roomId: 'rl-201' })).status).toBe(403);
    expect((await admin.post('/api/auth/report-access/links', { roomId: 'rl-101', validDays: 0 })).status).toBe(400);

    const expired = await admin.post('/api/auth/report-access/links', { roomId: 'rl-102', validDays: 1 });
    const token = tokenOf((expired.body as { url: string }).url);
    await server.database.query(
      `update documents set data = jsonb_set(data, '{expiresAt}', to_jsonb($1::text)) where collection = 'reportAccess' and data ->> 'roomId' = 'rl-102'`,
      [new Date(Date.now() - 1000).toISOString()],
    );
    const visitor = client();
    await visitor.post('/api/auth/sign-in/anonymous');
    expect(await visitor.post('/api/auth/report-access/redeem', { token })).toMatchObject({ status: 410, body: { code: REPORT_LINK_ERRORS.expired } });
    expect((await visitor.get('/api/auth/report-access/preview?token=nothing')).status).toBe(404);
    expect((await staff.post('/api/auth/report-access/redeem', { token })).body).toMatchObject({ code: REPORT_LINK_ERRORS.forViewersOnly });
  });
});
