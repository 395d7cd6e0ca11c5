/**
 * The documented answers are the real ones: the integration, health and account routes are called
 * on a real server (PGlite, demo accounts, Better Auth), as an integrator, an administrator and an
 * outsider would, success and error alike, and every body is validated against the response schema
 * the server's own /api/openapi.json gives for that status (with the ajv that Fastify ships). A
 * status the document does not list fails too, and the server logged no answer that missed its
 * schema (http/zodRouteSchemas.ts checks each as it is written). The other route groups have their
 * own files (responses.*.test.ts) on the same harness (responseConformance.ts).
 */
import { alertAcknowledgePath, apiKeyRevokePath, apiKeysPath, fhirRoomObservationsPath, type ApiKeyCreatedResponse } from '@nemuri/shared/integrations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserClient } from '../testing/browserClient.ts';
import { FACILITY_A as A, startConformanceServer, SYSTEM as system, type ConformanceServer } from './responseConformance.ts';

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('documented response schemas match the answers', () => {
  let running: ConformanceServer;
  const client = (email?: string) => running.client(email);
  const conforms: ConformanceServer['conforms'] = (method, route, reply) => running.conforms(method, route, reply);

  beforeAll(async () => {
    running = await startConformanceServer('nemuri-responses-');
    const store = running.store;
    await store.set(system, 'rooms/rs-a1', { domainId: A, name: '201号室' }, false);
    await store.set(
      system,
      'rooms/rs-a1/sleeps/2026-11-20',
      { totalSleepMin: 400, sleepEfficiency: 88, heartRate: { avg: 60, min: 50, max: 70 }, source: 'device' },
      false,
    );
    await store.set(
      system,
      'alerts/rs-alert',
      {
        domainId: A,
        roomId: 'rs-a1',
        deviceSerial: null,
        type: 'button',
        startedAt: '2026-11-20T12:30:00.000Z',
        endedAt: null,
        acknowledgedBy: null,
        acknowledgedAt: null,
        soundedAt: null,
      },
      false,
    );
  }, 120_000);
  afterAll(async () => {
    await running?.stop();
  });

  it('health: live, ready and the database check', async () => {
    const anyone = await client();
    for (const route of ['/api/health/live', '/api/health/ready', '/api/health']) conforms('GET', route, await anyone.get(route));
  });

  it('integrations: keys listed, made, refused and revoked; an alert acknowledged; a FHIR bundle', async () => {
    const admin = await client('admin@example.com');
    const staff = await client('staff@example.com');
    const outsider = await client();
    const keysRoute = '/api/integrations/domains/:domainId/api-keys';
    conforms('GET', keysRoute, await admin.get(apiKeysPath(A)));
    conforms('GET', keysRoute, await admin.get(`${apiKeysPath(A)}?page=-1`));
    conforms('GET', keysRoute, await outsider.get(apiKeysPath(A)));
    conforms('GET', keysRoute, await staff.get(apiKeysPath(A)));
    conforms('GET', keysRoute, await admin.get(apiKeysPath('no-such-domain')));
    const made = conforms(
      'POST',
      keysRoute,
      await admin.post(apiKeysPath(A), { name: '記録システム', scopes: ['rooms.read', 'alerts.read', 'alerts.acknowledge'] }),
    );
    expect(made.status).toBe(201);
    conforms('POST', keysRoute, await admin.post(apiKeysPath(A), { name: '', scopes: [] }));
    const { key, secret } = made.body as ApiKeyCreatedResponse;
    conforms('GET', keysRoute, await admin.get(apiKeysPath(A)));

    const bearer = { authorization: `Bearer ${secret}` };
    const integrator = await client();
    const fhirRoute = '/api/fhir/rooms/:roomId/Observation';
    const bundle = conforms('GET', fhirRoute, await integrator.get(`${fhirRoomObservationsPath('rs-a1')}?from=2026-11-19&to=2026-11-21`, bearer));
    expect((bundle.body as { entry?: unknown[] }).entry?.length).toBeGreaterThan(0);
    conforms('GET', fhirRoute, await integrator.get(`${fhirRoomObservationsPath('rs-a1')}?from=2026-10-01&to=2026-10-02`, bearer));
    conforms('GET', fhirRoute, await integrator.get(`${fhirRoomObservationsPath('rs-a1')}?from=2026-11-21&to=2026-11-19`, bearer));
    conforms('GET', fhirRoute, await integrator.get(`${fhirRoomObservationsPath('no-room')}?from=2026-11-19&to=2026-11-21`, bearer));
    conforms('GET', fhirRoute, await outsider.get(`${fhirRoomObservationsPath('rs-a1')}?from=2026-11-19&to=2026-11-21`));

    const ackRoute = '/api/integrations/alerts/:alertId/acknowledge';
    conforms('POST', ackRoute, await integrator.post(alertAcknowledgePath('rs-alert'), {}, bearer));
    conforms('POST', ackRoute, await integrator.post(alertAcknowledgePath('rs-alert'), {}, bearer));
    conforms('POST', ackRoute, await integrator.post(alertAcknowledgePath('no-alert'), {}, bearer));
    conforms('POST', ackRoute, await outsider.post(alertAcknowledgePath('rs-alert'), {}));

    const revokeRoute = '/api/integrations/domains/:domainId/api-keys/:keyId/revoke';
    conforms('POST', revokeRoute, await admin.post(apiKeyRevokePath(A, key.id), {}));
    conforms('POST', revokeRoute, await admin.post(apiKeyRevokePath(A, 'AAAAAAAAAAAAAAAA'), {}));
    conforms('POST', revokeRoute, await staff.post(apiKeyRevokePath(A, key.id), {}));
  });

  it('account: the profile read, the phone and photo written and refused, the photo removed', async () => {
    const staff = await client('staff@example.com');
    const outsider = await client();
    const put = (who: BrowserClient, path: string, body: unknown) => who.send('PUT', path, JSON.stringify(body), { 'content-type': 'application/json' });
    conforms('GET', '/api/account/profile', await staff.get('/api/account/profile'));
    conforms('GET', '/api/account/profile', await outsider.get('/api/account/profile'));
    conforms('PUT', '/api/account/profile/phone', await put(staff, '/api/account/profile/phone', { phoneNumber: '090-1234-5678' }));
    conforms('PUT', '/api/account/profile/phone', await put(staff, '/api/account/profile/phone', { phoneNumber: '12345' }));
    conforms('PUT', '/api/account/profile/phone', await put(outsider, '/api/account/profile/phone', { phoneNumber: null }));
    conforms('PUT', '/api/account/profile/photo', await put(staff, '/api/account/profile/photo', { dataUrl: `data:image/png;base64,${PNG}` }));
    conforms('PUT', '/api/account/profile/photo', await put(staff, '/api/account/profile/photo', { dataUrl: `data:image/jpeg;base64,${PNG}` }));
    conforms('PUT', '/api/account/profile/photo', await put(staff, '/api/account/profile/photo', { dataUrl: 'A'.repeat(2 * 1024 * 1024) }));
    conforms('DELETE', '/api/account/profile/photo', await staff.send('DELETE', '/api/account/profile/photo', undefined));
  });

  it('covered every documented success answer of these routes, and logged no answer off its schema', () => {
    const successes = [...running.seen].filter((label) => / 20\d$/.test(label));
    expect(successes.length).toBeGreaterThanOrEqual(12);
    expect(running.offSchemaLines()).toEqual([]);
  });
});
