/**
 * The documented answers of the report and sleep-analysis routes are the real ones
 * (responseConformance.ts): staff read a room's report data, write its comment and score a day
 * again; an administrator lists and revokes its report links; a signed-out caller, a refused query
 * and another tenant's room (answered like a missing one) give the errors. The PDF and CSV
 * downloads answer files: the document names their content types, and their errors are JSON.
 */
import { ALERT_HISTORY_CSV_PATH } from '@nemuri/shared/alertHistory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserClient } from '../testing/browserClient.ts';
import { OPENAPI_PATH } from './openapi.ts';
import { FACILITY_A as A, FACILITY_OTHER as OTHER, startConformanceServer, SYSTEM as system, type ConformanceServer } from './responseConformance.ts';

const PERIOD = 'from=2026-11-19&to=2026-11-21';

describe('documented response schemas match the answers: reports and sleep analysis', () => {
  let running: ConformanceServer;
  const conforms: ConformanceServer['conforms'] = (method, route, reply) => running.conforms(method, route, reply);
  const put = (who: BrowserClient, path: string, body: unknown) => who.send('PUT', path, JSON.stringify(body), { 'content-type': 'application/json' });

  beforeAll(async () => {
    running = await startConformanceServer('nemuri-responses-reports-');
    const store = running.store;
    await store.set(system, 'rooms/rp-a1', { domainId: A, name: '101号室', residentName: '佐々木 一郎', deviceSerial: 'RP-A1' }, false);
    await store.set(system, 'rooms/rp-a2', { domainId: A, name: '102号室' }, false);
    await store.set(system, 'rooms/rp-o1', { domainId: OTHER, name: '別施設の部屋' }, false);
    await store.set(
      system,
      'rooms/rp-a1/sleeps/2026-11-20',
      {
        totalSleepMin: 400,
        sleepEfficiency: 88,
        bedTime: '2026-11-20T13:00:00.000Z',
        heartRate: { avg: 60, min: 50, max: 70 },
        respirationRate: { avg: 14, min: null, max: null },
        source: 'device',
      },
      false,
    );
    await store.set(system, 'rooms/rp-a1/sleeps/2026-11-19', { totalSleepMin: 380, source: 'import' }, false);
    const link = { roomId: 'rp-a1', createdBy: 'someone', tokenHash: 'x', expiresAt: new Date(Date.now() + 86_400_000).toISOString() };
    await store.set(system, 'reportAccess/rp-link-1', link, false);
    await store.set(system, 'reportAccess/rp-link-o', { ...link, roomId: 'rp-o1' }, false);
  }, 120_000);
  afterAll(async () => {
    await running?.stop();
  });

  it('report data, comments and links: success, refused, out of scope and signed out', async () => {
    const staff = await running.client('staff@example.com');
    const admin = await running.client('admin@example.com');
    const outsider = await running.client();
    const data = '/api/reports/data';
    const reports = conforms('GET', data, await staff.get(`${data}?rooms=rp-a1,rp-a2&${PERIOD}`));
    expect((reports.body as { reports: { rows: unknown[] }[] }).reports.map((report) => report.rows.length)).toEqual([3, 3]);
    conforms('GET', data, await staff.get(`${data}?rooms=rp-a1&from=2026-11-21&to=2026-11-19`));
    expect(conforms('GET', data, await staff.get(`${data}?rooms=rp-o1&${PERIOD}`)).status).toBe(404);
    conforms('GET', data, await outsider.get(`${data}?rooms=rp-a1&${PERIOD}`));

    const comment = '/api/reports/rooms/:roomId/comment';
    expect(conforms('PUT', comment, await put(staff, '/api/reports/rooms/rp-a1/comment', { comment: ' よく眠れています ' })).body as object).toEqual({
      comment: 'よく眠れています',
    });
    expect(conforms('PUT', comment, await put(staff, '/api/reports/rooms/rp-a1/comment', { comment: '' })).body).toEqual({ comment: null });
    conforms('PUT', comment, await put(staff, '/api/reports/rooms/rp-a1/comment', { comment: 'x'.repeat(5000) }));
    expect(conforms('PUT', comment, await put(staff, '/api/reports/rooms/rp-o1/comment', { comment: 'x' })).status).toBe(404);
    conforms('PUT', comment, await put(outsider, '/api/reports/rooms/rp-a1/comment', { comment: 'x' }));

    const links = '/api/reports/rooms/:roomId/links';
    const page = conforms('GET', links, await admin.get('/api/reports/rooms/rp-a1/links'));
    expect((page.body as { links: { id: string }[] }).links.map((link) => link.id)).toEqual(['rp-link-1']);
    conforms('GET', links, await admin.get('/api/reports/rooms/rp-a1/links?limit=0'));
    expect(conforms('GET', links, await admin.get('/api/reports/rooms/rp-o1/links')).status).toBe(404);
    conforms('GET', links, await staff.get('/api/reports/rooms/rp-a1/links'));
    conforms('GET', links, await outsider.get('/api/reports/rooms/rp-a1/links'));

    const revoke = '/api/reports/links/:id/revoke';
    const revoked = conforms('POST', revoke, await admin.post('/api/reports/links/rp-link-1/revoke', {}));
    expect((revoked.body as { link: { state: string } }).link.state).toBe('revoked');
    expect(conforms('POST', revoke, await admin.post('/api/reports/links/rp-link-o/revoke', {})).status).toBe(404);
    expect(conforms('POST', revoke, await admin.post('/api/reports/links/rp-none/revoke', {})).status).toBe(404);
    conforms('POST', revoke, await staff.post('/api/reports/links/rp-link-1/revoke', {}));
    conforms('POST', revoke, await outsider.post('/api/reports/links/rp-link-1/revoke', {}));
  });

  it('a sleep day scored again: success, an imported day kept, a room without device, out of scope and signed out', async () => {
    const staff = await running.client('staff@example.com');
    const analysis = '/api/rooms/:roomId/sleeps/:day/analysis';
    const scored = conforms('POST', analysis, await staff.post('/api/rooms/rp-a1/sleeps/2026-11-18/analysis', {}));
    expect(scored.body).toMatchObject({ roomId: 'rp-a1', day: '2026-11-18', written: true });
    expect(conforms('POST', analysis, await staff.post('/api/rooms/rp-a1/sleeps/2026-11-19/analysis', {})).body).toMatchObject({ written: false });
    expect(conforms('POST', analysis, await staff.post('/api/rooms/rp-a2/sleeps/2026-11-20/analysis', {})).status).toBe(412);
    conforms('POST', analysis, await staff.post('/api/rooms/rp-a1/sleeps/20261120/analysis', {}));
    expect(conforms('POST', analysis, await staff.post('/api/rooms/rp-o1/sleeps/2026-11-20/analysis', {})).status).toBe(404);
    conforms('POST', analysis, await (await running.client('individual@example.com')).post('/api/rooms/rp-a1/sleeps/2026-11-20/analysis', {}));
    conforms('POST', analysis, await (await running.client()).post('/api/rooms/rp-a1/sleeps/2026-11-20/analysis', {}));
  });

  it('the PDF and CSV downloads: files of the documented types, errors in JSON', async () => {
    const staff = await running.client('staff@example.com');
    const outsider = await running.client();
    const document = (await (await fetch(`${running.server.url}${OPENAPI_PATH}`)).json()) as {
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, unknown> }> } }>;
    };
    const files = { '/api/reports/pdf': 'application/pdf', '/api/reports/csv': 'text/csv', [ALERT_HISTORY_CSV_PATH]: 'text/csv' };
    for (const [path, type] of Object.entries(files)) {
      expect(Object.keys(document.paths[path]?.get.responses['200']?.content ?? {})).toEqual([type]);
      const query = path === ALERT_HISTORY_CSV_PATH ? 'from=2026-11-19T00:00:00Z&to=2026-11-21T00:00:00Z' : `rooms=rp-a1&${PERIOD}`;
      const file = await staff.get(`${path}?${query}`);
      expect(file.status, path).toBe(200);
      expect(String(file.headers['content-type']), path).toContain(type);
      conforms('GET', path, await staff.get(`${path}?rooms=rp-a1&from=2026-11-21&to=2026-11-19`));
      conforms('GET', path, await outsider.get(`${path}?${query}`));
    }
    expect(conforms('GET', '/api/reports/csv', await staff.get(`/api/reports/csv?rooms=rp-o1&${PERIOD}`)).status).toBe(404);
  });

  it('covered the success answers and logged no answer off its schema', () => {
    const labels = [...running.seen];
    for (const expected of [
      'GET /api/reports/data 200',
      'PUT /api/reports/rooms/{roomId}/comment 200',
      'GET /api/reports/rooms/{roomId}/links 200',
      'POST /api/reports/links/{id}/revoke 200',
      'POST /api/rooms/{roomId}/sleeps/{day}/analysis 200',
    ])
      expect(labels).toContain(expected);
    expect(running.offSchemaLines()).toEqual([]);
  });
});
