/**
 * Integration API keys on a real server, as an integrator and as an attacker would use them: a
 * facility administrator creates a key (its secret shown once) and revokes it; the key reads its
 * own domain's rooms, sleep records and alerts within its scopes, acknowledges an alert, and
 * reaches nothing else — not another domain's records (404), not a route outside its scopes, not
 * the account, sign-in or key-management routes, not a write; a revoked key is refused, and wrong
 * keys from one address are stopped.
 */
import { join } from 'node:path';
import { DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import {
  alertAcknowledgePath,
  apiKeyRevokePath,
  apiKeysPath,
  type ApiKeyCreatedResponse,
  type ApiKeyListResponse,
  type ApiKeyScope,
} from '@nemuri/shared/integrations';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { DocumentStore } from '../documents/store.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient, type ClientReply } from '../testing/browserClient.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';
import { FAILED_KEYS_PER_WINDOW } from './apiKeyPrincipal.ts';

const system = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
const A = 'demo-facility-a';
const B = 'demo-facility-b';

describe('integration API keys', () => {
  let dir: TempDir;
  let server: RunningServer;
  let address = 10;
  const client = async (email?: string): Promise<BrowserClient> => {
    const browser = new BrowserClient(server.url, { from: `127.0.9.${address++}` });
    if (email !== undefined) expect((await browser.signIn(email, DEMO_PASSWORD)).status).toBe(200);
    return browser;
  };
  const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
  const created = (reply: ClientReply): ApiKeyCreatedResponse => {
    expect(reply.status, reply.text).toBe(201);
    return reply.body as ApiKeyCreatedResponse;
  };
  const newKey = async (scopes: ApiKeyScope[], domainId = A): Promise<string> => {
    const admin = await client(domainId === A ? 'admin@example.com' : 'owner@example.com');
    return created(await admin.post(apiKeysPath(domainId), { name: `key ${scopes.join(' ')}`, scopes })).secret;
  };

  beforeAll(async () => {
    dir = await makeTempDir('nemuri-api-keys-');
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
    await store.set(system, 'domains/demo-corp', { name: 'デモ法人', kind: 'corporation' }, true);
    await store.set(system, `domains/${A}`, { name: 'さくら苑', kind: 'facility', rootDomainId: 'demo-corp' }, true);
    await store.set(system, `domains/${B}`, { name: 'もみじ荘', kind: 'facility', rootDomainId: 'demo-corp' }, true);
    await store.set(system, 'rooms/ik-a1', { domainId: A, name: '201号室', residentName: '木村 一郎' }, false);
    await store.set(system, 'rooms/ik-b1', { domainId: B, name: 'B 201' }, false);
    await store.set(system, 'rooms/ik-a1/sleeps/2026-11-20', { totalSleepMin: 400, sleepEfficiency: 88, source: 'device' }, false);
    for (const [id, domainId, roomId] of [
      ['ik-alert-a', A, 'ik-a1'],
      ['ik-alert-a2', A, 'ik-a1'],
      ['ik-alert-b', B, 'ik-b1'],
    ] as const) {
      await store.set(
        system,
        `alerts/${id}`,
        {
          domainId,
          roomId,
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
    }
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await dir?.remove();
  });

  it('is created by a facility administrator, shown once, listed without its secret, and revoked', async () => {
    const admin = await client('admin@example.com');
    const answer = created(await admin.post(apiKeysPath(A), { name: '介護記録ソフト', scopes: ['rooms.read', 'alerts.read'] }));
    expect(answer.secret).toMatch(/^nmk_[A-Za-z0-9]{16}_[A-Za-z0-9_-]{43}$/);
    expect(answer.key).toMatchObject({ domainId: A, name: '介護記録ソフト', scopes: ['rooms.read', 'alerts.read'], revokedAt: null });

    const list = await admin.get(apiKeysPath(A));
    expect(list.status).toBe(200);
    const listed = (list.body as ApiKeyListResponse).keys.find((key) => key.id === answer.key.id);
    expect(listed).toMatchObject({ name: '介護記録ソフト' });
    expect(list.text).not.toContain(answer.secret.slice(-43));

    // The key works, and after revocation it is refused.
    expect((await (await client()).get('/api/documents/rooms/ik-a1', bearer(answer.secret))).status).toBe(200);
    const revoked = await admin.post(apiKeyRevokePath(A, answer.key.id));
    expect(revoked.status, revoked.text).toBe(200);
    expect((revoked.body as { key: { revokedAt: string | null } }).key.revokedAt).not.toBeNull();
    const refused = await (await client()).get('/api/documents/rooms/ik-a1', bearer(answer.secret));
    expect(refused.status).toBe(401);
    expect(refused.text).not.toContain('201号室');
  });

  it('is managed only by administrators (3-5) of a domain in their scope', async () => {
    const staff = await client('staff@example.com');
    expect((await staff.post(apiKeysPath(A), { name: 'x', scopes: ['rooms.read'] })).status).toBe(403);
    expect((await staff.get(apiKeysPath(A))).status).toBe(403);
    // An administrator of facility A does not see facility B, which answers as missing.
    const admin = await client('admin@example.com');
    expect((await admin.get(apiKeysPath(B))).status).toBe(404);
    expect((await admin.post(apiKeysPath(B), { name: 'x', scopes: ['rooms.read'] })).status).toBe(404);
    // The corporation's owner manages its facilities' keys; a developer of the maker does not.
    const owner = await client('owner@example.com');
    const ownerKey = created(await owner.post(apiKeysPath(B), { name: 'B のナースコール', scopes: ['alerts.read'] }));
    expect((await admin.post(apiKeyRevokePath(B, ownerKey.key.id))).status).toBe(404);
    expect((await admin.post(apiKeyRevokePath(A, ownerKey.key.id))).status).toBe(404);
    expect((await (await client('developer@example.com')).get(apiKeysPath(A))).status).toBe(403);
    expect((await (await client()).get(apiKeysPath(A))).status).toBe(401);
  });

  it('refuses bad input', async () => {
    const admin = await client('admin@example.com');
    for (const body of [
      {},
      { name: '', scopes: ['rooms.read'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['admin'] },
      { name: 'x'.repeat(81), scopes: ['rooms.read'] },
      { name: 'x', scopes: ['rooms.read'], domainId: B },
    ]) {
      expect((await admin.post(apiKeysPath(A), body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await admin.get(`${apiKeysPath(A)}?page=-1`)).status).toBe(400);
    expect((await admin.post(apiKeyRevokePath(A, '../../etc'))).status).toBe(404);
  });

  it('reads its own domain within its scopes; another domain’s records answer as missing', async () => {
    const secret = await newKey(['rooms.read']);
    const integrator = await client();
    const room = await integrator.get('/api/documents/rooms/ik-a1', bearer(secret));
    expect(room.status, room.text).toBe(200);
    expect((await integrator.get('/api/documents/rooms/ik-a1/sleeps/2026-11-20', bearer(secret))).status).toBe(200);
    const rooms = await integrator.post('/api/documents/query', { query: { collection: 'rooms', limit: 100 } }, bearer(secret));
    expect(rooms.status, rooms.text).toBe(200);
    const domains = (rooms.body as { documents: { domainId: string }[] }).documents.map((document) => document.domainId);
    expect(domains.length).toBeGreaterThan(0);
    expect(new Set(domains)).toEqual(new Set([A]));
    const other = await integrator.get('/api/documents/rooms/ik-b1', bearer(secret));
    expect(other.status).toBe(404);
    expect(other.text).not.toContain('B 201');
    expect((await integrator.get('/api/monitoring/rooms', bearer(secret))).status).toBe(200);
  });

  it('refuses what its scopes do not cover: other collections, writes, account, sign-in and key management', async () => {
    const secret = await newKey(['rooms.read']);
    const integrator = await client();
    const refused = async (reply: Promise<ClientReply>, status = 403) => expect((await reply).status).toBe(status);
    await refused(integrator.get('/api/documents/alerts/ik-alert-a', bearer(secret)));
    await refused(integrator.post('/api/documents/query', { query: { collection: 'alerts' } }, bearer(secret)));
    await refused(integrator.post('/api/documents/query', { query: { collection: 'staff', collectionGroup: true } }, bearer(secret)));
    await refused(integrator.get(`/api/documents/domains/${A}/staff/x`, bearer(secret)));
    await refused(integrator.get('/api/monitoring/alerts', bearer(secret)));
    await refused(integrator.post(alertAcknowledgePath('ik-alert-a'), {}, bearer(secret)));
    await refused(
      integrator.send('PATCH', '/api/documents/rooms/ik-a1', JSON.stringify({ data: { name: 'x' } }), {
        'content-type': 'application/json',
        ...bearer(secret),
      }),
    );
    await refused(
      integrator.send('PUT', '/api/documents/rooms/ik-a9', JSON.stringify({ data: { domainId: A, name: 'x' } }), {
        'content-type': 'application/json',
        ...bearer(secret),
      }),
    );
    await refused(
      integrator.post('/api/documents/commit', { reads: [], writes: [{ op: 'update', path: 'rooms/ik-a1', data: { name: 'x' } }] }, bearer(secret)),
    );
    await refused(integrator.get('/api/me', bearer(secret)));
    await refused(integrator.get('/api/account/profile', bearer(secret)));
    await refused(integrator.get(apiKeysPath(A), bearer(secret)));
    await refused(integrator.post(apiKeysPath(A), { name: 'mine', scopes: ['alerts.acknowledge'] }, bearer(secret)));
    // An unknown API path is not found, with a key as without one (a 403 would claim it exists);
    // /metrics keeps its own hidden 404.
    await refused(integrator.get('/api/no-such-route', bearer(secret)), 404);
    await refused(integrator.post('/api/no-such-route', {}, bearer(secret)), 404);
    await refused(integrator.get('/api/no-such-route', bearer('nmk_wrong')), 404);
    await refused(integrator.get('/metrics', bearer(secret)), 404);
    // Sign-in's own routes do not know keys: no session comes of one.
    const session = await integrator.get('/api/auth/get-session', bearer(secret));
    expect(session.text).not.toContain(A);
    const store = new DocumentStore(server.database, { error: () => undefined });
    expect((await store.get(system, 'rooms/ik-a1'))?.document.name).toBe('201号室');
  });

  it('a key beside an administrator’s session cookie acts as the key alone', async () => {
    const secret = await newKey(['rooms.read']);
    const admin = await client('admin@example.com');
    expect((await admin.get(apiKeysPath(A))).status).toBe(200);
    expect((await admin.get(apiKeysPath(A), bearer(secret))).status).toBe(403);
  });

  it('acknowledges its domain’s alerts with alerts.acknowledge, and answers another domain’s as missing', async () => {
    const secret = await newKey(['alerts.read', 'alerts.acknowledge']);
    const integrator = await client();
    const done = await integrator.post(alertAcknowledgePath('ik-alert-a'), {}, bearer(secret));
    expect(done.status, done.text).toBe(200);
    expect((done.body as { acknowledgedBy: string }).acknowledgedBy).toMatch(/^apikey:/);
    const store = new DocumentStore(server.database, { error: () => undefined });
    expect((await store.get(system, 'alerts/ik-alert-a'))?.document.acknowledgedAt).toEqual(expect.any(String));
    // Twice keeps the first.
    expect((await integrator.post(alertAcknowledgePath('ik-alert-a'), {}, bearer(secret))).body).toEqual(done.body);
    expect((await integrator.post(alertAcknowledgePath('ik-alert-b'), {}, bearer(secret))).status).toBe(404);
    expect((await store.get(system, 'alerts/ik-alert-b'))?.document.acknowledgedAt).toBeNull();
    expect((await integrator.post(alertAcknowledgePath('no-such'), {}, bearer(secret))).status).toBe(404);
    expect((await integrator.get('/api/monitoring/alerts', bearer(secret))).status).toBe(200);
    // Signed-in staff acknowledge through the same route.
    const staff = await client('staff@example.com');
    expect((await staff.post(alertAcknowledgePath('ik-alert-a2'), {})).status).toBe(200);
  });

  it('bounds guessing: wrong keys from one address are stopped, the right key included, other addresses not', async () => {
    const secret = await newKey(['rooms.read']);
    const attacker = await client();
    for (let attempt = 0; attempt < FAILED_KEYS_PER_WINDOW; attempt += 1) {
      const guess = `nmk_${secret.slice(4, 20)}_${'A'.repeat(42)}${attempt % 10}`;
      expect((await attacker.get('/api/documents/rooms/ik-a1', bearer(guess))).status).toBe(401);
    }
    expect((await attacker.get('/api/documents/rooms/ik-a1', bearer('nmk_x'))).status).toBe(429);
    expect((await attacker.get('/api/documents/rooms/ik-a1', bearer(secret))).status).toBe(429);
    expect((await (await client()).get('/api/documents/rooms/ik-a1', bearer(secret))).status).toBe(200);
  });
});
