/**
 * The documented answers of the alerting routes are the real ones (responseConformance.ts): staff
 * send a test notification, read an alert's escalation and acknowledge it; an administrator reads
 * and sets the domain's notification settings, makes a webhook secret, reads the delivery log and
 * sets the on-duty schedule. Staff below the level (403), another facility's alert or domain
 * (answered like a missing one, 404), refused bodies and queries (400) and a signed-out caller (401)
 * give the errors. Also `/api/me` signed in and out, the development outbox, and what the document
 * says of the routes that answer no JSON (files, pages, WebSockets, Better Auth's own).
 */
import { DEFAULT_DOMAIN_SETTINGS, NOTIFICATIONS_API as API } from '@nemuri/shared/notifications';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserClient } from '../testing/browserClient.ts';
import { OPENAPI_PATH } from './openapi.ts';
import { FACILITY_A as A, FACILITY_OTHER as OTHER, startConformanceServer, SYSTEM as system, type ConformanceServer } from './responseConformance.ts';

describe('documented response schemas match the answers: alerting', () => {
  let running: ConformanceServer;
  const conforms: ConformanceServer['conforms'] = (method, route, reply) => running.conforms(method, route, reply);
  const put = (who: BrowserClient, path: string, body: unknown) => who.send('PUT', path, JSON.stringify(body), { 'content-type': 'application/json' });

  beforeAll(async () => {
    running = await startConformanceServer('nemuri-responses-alerting-');
    const alert = { deviceSerial: null, endedAt: null, acknowledgedBy: null, acknowledgedAt: null, soundedAt: null };
    await running.store.set(system, 'rooms/ra-a1', { domainId: A, name: '301号室' }, false);
    await running.store.set(system, 'rooms/ra-o1', { domainId: OTHER, name: '別施設の部屋' }, false);
    // Staff of facility A as the schedule and the recipients read them (the demo accounts have no staff records here).
    const me = (await (await running.client('staff@example.com')).get('/api/me')).body as { user: { uid: string } };
    await running.store.set(system, `domains/${A}/staff/${me.user.uid}`, { displayName: '佐藤 介護', email: 'staff@example.com', accessLevel: 2 }, false);
    await running.store.set(
      system,
      'alerts/ra-alert-a',
      { ...alert, domainId: A, roomId: 'ra-a1', type: 'outOfBed', startedAt: '2026-11-20T13:30:00.000Z' },
      false,
    );
    await running.store.set(
      system,
      'alerts/ra-alert-o',
      { ...alert, domainId: OTHER, roomId: 'ra-o1', type: 'button', startedAt: '2026-11-20T13:40:00.000Z' },
      false,
    );
  }, 120_000);
  afterAll(async () => {
    await running?.stop();
  });

  it('a test notification, an alert’s escalation and its acknowledgement', async () => {
    const staff = await running.client('staff@example.com');
    const developer = await running.client('developer@example.com');
    const individual = await running.client('individual@example.com');
    const outsider = await running.client();

    // With mail on, the test notification has a delivery for the log below.
    const preferences = conforms('GET', `${API}/preferences`, await staff.get(`${API}/preferences`)).body as { channels: Record<string, boolean> };
    await put(staff, `${API}/preferences`, { ...preferences, channels: { ...preferences.channels, mail: true } });
    const test = `${API}/test`;
    expect(conforms('POST', test, await staff.post(test)).body).toEqual({ queued: 1 });
    expect(conforms('POST', test, await staff.post(test)).status).toBe(429);
    expect(conforms('POST', test, await developer.post(test)).status).toBe(403);
    expect(conforms('POST', test, await outsider.post(test)).status).toBe(401);

    const escalation = `${API}/alerts/:alertId/escalation`;
    const read = conforms('GET', escalation, await staff.get(`${API}/alerts/ra-alert-a/escalation`));
    expect(read.body).toMatchObject({ alertId: 'ra-alert-a', steps: [], deliveries: [] });
    expect(conforms('GET', escalation, await staff.get(`${API}/alerts/ra-alert-o/escalation`)).status).toBe(404);
    expect(conforms('GET', escalation, await staff.get(`${API}/alerts/no-such-alert/escalation`)).status).toBe(404);
    expect(conforms('GET', escalation, await individual.get(`${API}/alerts/ra-alert-a/escalation`)).status).toBe(404);
    expect(conforms('GET', escalation, await outsider.get(`${API}/alerts/ra-alert-a/escalation`)).status).toBe(401);

    const acknowledge = `${API}/alerts/:alertId/acknowledge`;
    const acknowledged = conforms('POST', acknowledge, await staff.post(`${API}/alerts/ra-alert-a/acknowledge`));
    expect(acknowledged.body).toMatchObject({ acknowledged: true });
    // Again: the first acknowledgement stands.
    expect(conforms('POST', acknowledge, await staff.post(`${API}/alerts/ra-alert-a/acknowledge`)).body).toEqual(acknowledged.body);
    expect(conforms('POST', acknowledge, await staff.post(`${API}/alerts/ra-alert-o/acknowledge`)).status).toBe(404);
    expect(conforms('POST', acknowledge, await staff.post(`${API}/alerts/bad%20id/acknowledge`)).status).toBe(404);
    expect(conforms('POST', acknowledge, await individual.post(`${API}/alerts/ra-alert-a/acknowledge`)).status).toBe(404);
    expect(conforms('POST', acknowledge, await outsider.post(`${API}/alerts/ra-alert-a/acknowledge`)).status).toBe(401);
  });

  it('a domain’s settings, webhook secret, delivery log and on-duty schedule', async () => {
    const admin = await running.client('admin@example.com');
    const staff = await running.client('staff@example.com');
    const outsider = await running.client();
    const domain = (id: string) => `${API}/domains/${id}`;

    const settings = `${API}/domains/:domainId/settings`;
    expect(conforms('GET', settings, await admin.get(`${domain(A)}/settings`)).body).toMatchObject({ ...DEFAULT_DOMAIN_SETTINGS, webhookSecretSet: false });
    expect(conforms('GET', settings, await staff.get(`${domain(A)}/settings`)).status).toBe(403);
    expect(conforms('GET', settings, await admin.get(`${domain(OTHER)}/settings`)).status).toBe(404);
    expect(conforms('GET', settings, await outsider.get(`${domain(A)}/settings`)).status).toBe(401);
    const changed = { ...DEFAULT_DOMAIN_SETTINGS, showResidentName: true, lineChannelAccessToken: 'line-token-for-tests' };
    const saved = conforms('PUT', settings, await put(admin, `${domain(A)}/settings`, changed));
    expect(saved.body).toMatchObject({ showResidentName: true, lineConfigured: true });
    expect(saved.body).not.toHaveProperty('lineChannelAccessToken');
    expect(conforms('PUT', settings, await put(admin, `${domain(A)}/settings`, { ...changed, escalation: [] })).status).toBe(400);
    expect(conforms('PUT', settings, await put(admin, `${domain(A)}/settings`, { ...changed, webhookUrl: 'http://127.0.0.1/hook' })).status).toBe(400);
    expect(conforms('PUT', settings, await put(staff, `${domain(A)}/settings`, changed)).status).toBe(403);
    expect(conforms('PUT', settings, await put(admin, `${domain(OTHER)}/settings`, changed)).status).toBe(404);
    expect(conforms('PUT', settings, await put(outsider, `${domain(A)}/settings`, changed)).status).toBe(401);

    const secret = `${API}/domains/:domainId/webhook-secret`;
    expect(conforms('POST', secret, await admin.post(`${domain(A)}/webhook-secret`)).body).toEqual({ secret: expect.any(String) });
    expect(conforms('GET', settings, await admin.get(`${domain(A)}/settings`)).body).toMatchObject({ webhookSecretSet: true });
    expect(conforms('POST', secret, await staff.post(`${domain(A)}/webhook-secret`)).status).toBe(403);
    expect(conforms('POST', secret, await admin.post(`${domain(OTHER)}/webhook-secret`)).status).toBe(404);
    expect(conforms('POST', secret, await outsider.post(`${domain(A)}/webhook-secret`)).status).toBe(401);

    const deliveries = `${API}/domains/:domainId/deliveries`;
    const page = conforms('GET', deliveries, await admin.get(`${domain(A)}/deliveries`));
    expect(page.status).toBe(200);
    expect(conforms('GET', deliveries, await admin.get(`${domain(A)}/deliveries?limit=1000`)).status).toBe(400);
    expect(conforms('GET', deliveries, await staff.get(`${domain(A)}/deliveries`)).status).toBe(403);
    expect(conforms('GET', deliveries, await admin.get(`${domain(OTHER)}/deliveries`)).status).toBe(404);
    expect(conforms('GET', deliveries, await outsider.get(`${domain(A)}/deliveries`)).status).toBe(401);

    const shifts = `${API}/domains/:domainId/shifts`;
    const schedule = conforms('GET', shifts, await admin.get(`${domain(A)}/shifts?from=2026-11-20&days=7`));
    const { staff: members } = schedule.body as { staff: { uid: string }[] };
    const uid = members[0]?.uid ?? '';
    expect(uid).not.toBe('');
    expect(conforms('GET', shifts, await admin.get(`${domain(A)}/shifts?from=20.11.2026`)).status).toBe(400);
    expect(conforms('GET', shifts, await staff.get(`${domain(A)}/shifts?from=2026-11-20`)).status).toBe(403);
    expect(conforms('GET', shifts, await admin.get(`${domain(OTHER)}/shifts?from=2026-11-20`)).status).toBe(404);
    expect(conforms('GET', shifts, await outsider.get(`${domain(A)}/shifts?from=2026-11-20`)).status).toBe(401);

    const shift = `${API}/domains/:domainId/shifts/:day/:shift`;
    const assignments = [{ uid, unit: null }];
    expect(conforms('PUT', shift, await put(admin, `${domain(A)}/shifts/2026-11-21/night`, { assignments })).body).toEqual({
      day: '2026-11-21',
      shift: 'night',
      assignments,
    });
    expect(conforms('GET', shifts, await admin.get(`${domain(A)}/shifts?from=2026-11-20&days=7`)).body).toMatchObject({
      shifts: [{ day: '2026-11-21', shift: 'night', assignments }],
    });
    expect(conforms('PUT', shift, await put(admin, `${domain(A)}/shifts/2026-11-21/night`, { assignments: [{ uid: 'nobody', unit: null }] })).status).toBe(400);
    expect(conforms('PUT', shift, await put(admin, `${domain(A)}/shifts/2026-11-21/evening`, { assignments })).status).toBe(400);
    expect(conforms('PUT', shift, await put(staff, `${domain(A)}/shifts/2026-11-21/night`, { assignments })).status).toBe(403);
    expect(conforms('PUT', shift, await put(admin, `${domain(OTHER)}/shifts/2026-11-21/night`, { assignments })).status).toBe(404);
    expect(conforms('PUT', shift, await put(outsider, `${domain(A)}/shifts/2026-11-21/night`, { assignments })).status).toBe(401);
  });

  it('the delivery log shows the test notification, with its attempts once sent', async () => {
    const admin = await running.client('admin@example.com');
    const route = `${API}/domains/:domainId/deliveries`;
    await expect
      .poll(
        async () => {
          const page = conforms('GET', route, await admin.get(`${API}/domains/${A}/deliveries?limit=5`)).body as { deliveries: unknown[]; attempts: unknown[] };
          return [page.deliveries.length, page.attempts.length > 0];
        },
        { timeout: 15_000, interval: 250 },
      )
      .toEqual([1, true]);
  });

  it('/api/me signed in and signed out; the development outbox', async () => {
    const staff = await running.client('staff@example.com');
    const sysadmin = await running.client('sysadmin@example.com');
    const outsider = await running.client();
    expect(conforms('GET', '/api/me', await staff.get('/api/me')).body).toMatchObject({ user: { email: 'staff@example.com', accessLevel: 2 } });
    expect(conforms('GET', '/api/me', await outsider.get('/api/me')).body).toEqual({ user: null });

    const outbox = '/api/dev/outbox';
    expect(conforms('GET', outbox, await sysadmin.get(outbox)).status).toBe(200);
    expect(conforms('GET', outbox, await staff.get(outbox)).status).toBe(403);
    expect(conforms('GET', outbox, await outsider.get(outbox)).status).toBe(401);
  });

  it('the document says what the routes without a JSON answer give', async () => {
    type Responses = Record<string, { content?: Record<string, unknown> }>;
    const document = (await (await fetch(`${running.server.url}${OPENAPI_PATH}`)).json()) as {
      paths: Record<string, Record<string, { description?: string; responses: Responses }>>;
    };
    const contentOf = (path: string) => Object.keys(document.paths[path]?.get?.responses['200']?.content ?? {});
    expect(contentOf('/metrics')).toEqual(['text/plain']);
    expect(contentOf('/api/reference')).toEqual(['text/html']);
    expect(contentOf(OPENAPI_PATH)).toEqual(['application/json']);
    expect(contentOf('/api/devices/{serial}/signals')).toEqual(['application/octet-stream']);
    expect(contentOf('/api/account/photos/{uid}')).toEqual(['image/png', 'image/jpeg', 'image/webp']);
    for (const socket of ['/api/live', '/api/signals/live', '/api/monitoring/live']) {
      const operation = document.paths[socket]?.get;
      expect(operation?.responses['101'], socket).toBeDefined();
      expect(operation?.description, socket).toMatch(/docs\//);
    }
    expect(document.paths['/api/auth/{path}']?.post?.description).toMatch(/Better Auth/);
  });

  it('covered the success answers and logged no answer off its schema', () => {
    const labels = [...running.seen];
    for (const expected of [
      `POST ${API}/test 200`,
      `GET ${API}/alerts/{alertId}/escalation 200`,
      `POST ${API}/alerts/{alertId}/acknowledge 200`,
      `GET ${API}/domains/{domainId}/settings 200`,
      `PUT ${API}/domains/{domainId}/settings 200`,
      `POST ${API}/domains/{domainId}/webhook-secret 200`,
      `GET ${API}/domains/{domainId}/deliveries 200`,
      `GET ${API}/domains/{domainId}/shifts 200`,
      `PUT ${API}/domains/{domainId}/shifts/{day}/{shift} 200`,
      'GET /api/me 200',
      'GET /api/dev/outbox 200',
    ])
      expect(labels).toContain(expected);
    expect(running.offSchemaLines()).toEqual([]);
  });
});
