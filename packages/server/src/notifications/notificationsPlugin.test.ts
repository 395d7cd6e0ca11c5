/**
 * The /api/notifications endpoints on a real server (demo accounts): what each level may do, and
 * the attacker's view — signed out, a lower level, another tenant, an agency, someone else's
 * subscription or alert, bad input, addresses inside the server's network.
 */
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { alertDocument } from '@nemuri/analysis/alerts';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { NOTIFICATIONS_API as API, type DeliveryPageView } from '@nemuri/shared/notifications';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentStore, serverIdentity } from '../documents/store.ts';
import { signedIn, startTestServer, type DocumentsClient, type TestServer } from '../documents/testing.ts';
import { BrowserClient } from '../testing/browserClient.ts';
import { isInsideAddress } from './targets.ts';
import { PushServiceStandIn } from './testing/pushServiceStandIn.ts';

let server: TestServer;
let push: PushServiceStandIn;
let staff: DocumentsClient;
let admin: DocumentsClient;
let individual: DocumentsClient;
let agency: DocumentsClient;
let anonymous: BrowserClient;
let store: DocumentStore;
const facility = DEMO_DOMAINS.facilityA;
const LINE_ID = `U${'c'.repeat(32)}`;

async function openAlert(domainId: string, roomId: string | null): Promise<string> {
  const id = `api-alert-${Math.random().toString(36).slice(2, 10)}`;
  await store.set(serverIdentity('test'), `alerts/${id}`, alertDocument({ domainId, roomId }, { type: 'button', startedAt: Date.now() }), false);
  return id;
}

async function roomOf(domainId: string): Promise<string> {
  const { rows } = await server.server.database.query<{ id: string }>(`select id from documents where collection = 'rooms' and domain_id = $1 limit 1`, [
    domainId,
  ]);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error(`no room in ${domainId}`);
  return id;
}

beforeAll(async () => {
  push = await PushServiceStandIn.start();
  process.env.NOTIFY_EXTRA_ORIGINS = push.origin;
  // The demo facilities, their staff and rooms.
  process.env.NEMURI_DEMO_DATA = '1';
  try {
    server = await startTestServer('pglite');
  } finally {
    delete process.env.NOTIFY_EXTRA_ORIGINS;
    delete process.env.NEMURI_DEMO_DATA;
  }
  store = new DocumentStore(server.server.database, server.server.app.log);
  [staff, admin, individual, agency] = await Promise.all([
    signedIn(server.server, 'staff@example.com'),
    signedIn(server.server, 'admin@example.com'),
    signedIn(server.server, 'individual@example.com'),
    signedIn(server.server, 'agency@example.com'),
  ]);
  anonymous = new BrowserClient(server.server.url);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await push?.close();
});

describe('/api/notifications', () => {
  it('answers 401 signed out on every route', async () => {
    // Well-formed input: a malformed one is refused by the route's schema (400) before sign-in is asked.
    const subscription = push.subscribe();
    const bodies: Record<string, unknown> = {
      [`PUT ${API}/preferences`]: {
        channels: { push: true, mail: false, line: false },
        alertTypes: ['button'],
        quietHours: { start: '22:00', end: '06:00' },
        lineUserId: null,
      },
      [`POST ${API}/subscriptions`]: { endpoint: subscription.endpoint, keys: subscription.keys },
    };
    for (const [method, path] of [
      ['GET', `${API}/vapid-public-key`],
      ['GET', `${API}/preferences`],
      ['PUT', `${API}/preferences`],
      ['POST', `${API}/subscriptions`],
      ['POST', `${API}/test`],
      ['POST', `${API}/alerts/x/acknowledge`],
      ['GET', `${API}/alerts/x/escalation`],
      ['GET', `${API}/domains/${facility}/settings`],
      ['GET', `${API}/domains/${facility}/shifts?from=2026-01-01`],
    ] as const) {
      const body = method === 'GET' ? undefined : JSON.stringify(bodies[`${method} ${path}`] ?? {});
      const reply = await anonymous.send(method, path, body, method === 'GET' ? {} : { 'content-type': 'application/json' });
      expect(reply.status, `${method} ${path}`).toBe(401);
    }
  });

  it('gives the VAPID public key, the same on every read', async () => {
    const first = await staff.get(`${API}/vapid-public-key`);
    const second = await admin.get(`${API}/vapid-public-key`);
    expect(first.status).toBe(200);
    expect((first.body as { publicKey: string }).publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(second.body).toEqual(first.body);
  });

  it('keeps each person’s preferences, validated; not for residents’ families (level 1)', async () => {
    expect((await staff.get(`${API}/preferences`)).body).toMatchObject({ channels: { push: false, mail: false, line: false } });
    const preferences = {
      channels: { push: true, mail: true, line: true },
      alertTypes: ['button', 'noBreathing'],
      quietHours: { start: '22:00', end: '06:00' },
      lineUserId: LINE_ID,
    };
    expect((await staff.send('PUT', `${API}/preferences`, JSON.stringify(preferences), { 'content-type': 'application/json' })).status).toBe(200);
    expect((await staff.get(`${API}/preferences`)).body).toEqual(preferences);
    for (const bad of [
      { ...preferences, lineUserId: 'not-a-line-id' },
      { ...preferences, alertTypes: ['fire'] },
      { ...preferences, extra: 1 },
      { ...preferences, quietHours: { start: '25:00', end: '06:00' } },
    ]) {
      expect((await staff.send('PUT', `${API}/preferences`, JSON.stringify(bad), { 'content-type': 'application/json' })).status).toBe(400);
    }
    expect((await individual.get(`${API}/preferences`)).status).toBe(403);
    expect((await agency.get(`${API}/preferences`)).status).toBe(403);
  });

  it('keeps push subscriptions per person: known push services only, nobody deletes another’s', async () => {
    const subscription = push.subscribe();
    const added = await staff.post(`${API}/subscriptions`, { endpoint: subscription.endpoint, keys: subscription.keys, label: 'iPhone' });
    expect(added.status).toBe(200);
    const [mine] = (added.body as { subscriptions: { id: string; service: string; label: string }[] }).subscriptions;
    expect(mine).toMatchObject({ label: 'iPhone', service: new URL(push.origin).host });
    expect(JSON.stringify(added.body)).not.toContain(subscription.endpoint);
    expect((await admin.get(`${API}/subscriptions`)).body).toEqual({ subscriptions: [] });
    expect((await admin.send('DELETE', `${API}/subscriptions/${mine?.id}`, undefined)).status).toBe(404);
    for (const endpoint of ['http://169.254.169.254/latest/meta-data', 'https://127.0.0.1/push', 'https://evil.example/push', 'file:///etc/passwd']) {
      expect((await staff.post(`${API}/subscriptions`, { endpoint, keys: subscription.keys })).status, endpoint).toBe(400);
    }
    expect((await staff.post(`${API}/subscriptions`, { endpoint: subscription.endpoint, keys: { p256dh: 'short', auth: 'x' } })).status).toBe(400);
    // A test notification reaches the device through the push service, decrypted with its keys.
    const test = await staff.post(`${API}/test`);
    expect(test.status).toBe(200);
    await push.waitFor(1);
    expect(push.received[0]?.message).toMatchObject({ kind: 'test', title: '【テスト】ねむりモニターの通知' });
    expect(push.refused).toEqual([]);
    expect((await staff.post(`${API}/test`)).status).toBe(429);
    expect((await staff.send('DELETE', `${API}/subscriptions/${mine?.id}`, undefined)).status).toBe(200);
  });

  it('replaces a renewed subscription of the caller’s own device (pushsubscriptionchange), never another person’s', async () => {
    const database = server.server.database;
    const endpointsOf = async (uid: string) =>
      (
        await database.query<{ id: string; endpoint: string; label: string | null }>(
          'select id, endpoint, label from notify_push_subscriptions where user_id = $1 order by endpoint',
          [uid],
        )
      ).rows;
    const uidOf = async (client: DocumentsClient) => ((await client.get('/api/me')).body as { user: { uid: string } }).user.uid;
    const [staffUid, adminUid] = [await uidOf(staff), await uidOf(admin)];
    const old = push.subscribe();
    const renewed = push.subscribe();
    const [before] = (
      (await staff.post(`${API}/subscriptions`, { endpoint: old.endpoint, keys: old.keys, label: 'Android · Chrome' })).body as {
        subscriptions: { id: string }[];
      }
    ).subscriptions;
    const replaced = await staff.post(`${API}/subscriptions`, { endpoint: renewed.endpoint, keys: renewed.keys, replaces: old.endpoint });
    expect(replaced.status).toBe(200);
    // The same device (id, label) on the new endpoint and keys; the old endpoint is gone.
    expect(await endpointsOf(staffUid)).toEqual([{ id: before?.id, endpoint: renewed.endpoint, label: 'Android · Chrome' }]);
    expect((await database.query('select p256dh from notify_push_subscriptions where endpoint = $1', [renewed.endpoint])).rows).toEqual([
      { p256dh: renewed.keys.p256dh },
    ]);

    // Someone who knows (or guesses) another person's endpoint cannot take it over or delete it.
    const theirs = push.subscribe();
    await admin.post(`${API}/subscriptions`, { endpoint: theirs.endpoint, keys: theirs.keys, label: 'iPad' });
    const attacker = push.subscribe();
    expect((await staff.post(`${API}/subscriptions`, { endpoint: attacker.endpoint, keys: attacker.keys, replaces: theirs.endpoint })).status).toBe(200);
    expect((await endpointsOf(adminUid)).map((row) => [row.endpoint, row.label])).toEqual([[theirs.endpoint, 'iPad']]);
    expect((await endpointsOf(staffUid)).map((row) => row.endpoint).sort()).toEqual([attacker.endpoint, renewed.endpoint].sort());
    expect((await staff.post(`${API}/subscriptions`, { endpoint: renewed.endpoint, keys: renewed.keys, replaces: 'not a url' })).status).toBe(400);
    await database.query('delete from notify_push_subscriptions where user_id = any($1::text[])', [[staffUid, adminUid]]);
  });

  it('acknowledges an alert for the signed-in staff member; another tenant’s alert is missing', async () => {
    const alertId = await openAlert(facility, await roomOf(facility));
    const other = await openAlert(DEMO_DOMAINS.facilityB, await roomOf(DEMO_DOMAINS.facilityB).catch(() => null));
    expect((await individual.post(`${API}/alerts/${alertId}/acknowledge`)).status).toBe(404);
    expect((await agency.post(`${API}/alerts/${alertId}/acknowledge`)).status).toBe(404);
    expect((await staff.post(`${API}/alerts/${other}/acknowledge`)).status).toBe(404);
    expect((await staff.post(`${API}/alerts/..%2Fdomains%2Fx/acknowledge`)).status).toBe(404);
    const acknowledged = await staff.post(`${API}/alerts/${alertId}/acknowledge`);
    expect(acknowledged.status).toBe(200);
    const record = await store.get(serverIdentity('test'), `alerts/${alertId}`);
    const me = (await staff.get('/api/me')).body as { user: { uid: string } };
    expect(record?.document.acknowledgedBy).toBe(me.user.uid);
    const escalation = await staff.get(`${API}/alerts/${alertId}/escalation`);
    expect(escalation.status).toBe(200);
    expect(escalation.body).toMatchObject({ alertId });
    expect((await agency.get(`${API}/alerts/${alertId}/escalation`)).status).toBe(404);
    expect((await staff.get(`${API}/alerts/${other}/escalation`)).status).toBe(404);
  });

  it('lets administrators of the domain set its notifications; staff 403, other tenants and agencies 404', async () => {
    expect((await admin.get(`${API}/domains/${facility}/settings`)).body).toMatchObject({
      showResidentName: false,
      lineConfigured: false,
      webhookSecretSet: false,
    });
    expect((await staff.get(`${API}/domains/${facility}/settings`)).status).toBe(403);
    expect((await admin.get(`${API}/domains/${DEMO_DOMAINS.household}/settings`)).status).toBe(404);
    expect((await admin.get(`${API}/domains/${DEMO_DOMAINS.agency}/settings`)).status).toBe(404);
    expect((await agency.get(`${API}/domains/${facility}/settings`)).status).toBe(404);
    expect((await admin.get(`${API}/domains/no-such-domain/settings`)).status).toBe(404);
    const settings = {
      showResidentName: true,
      escalation: [
        { target: 'onDuty', afterMin: 0 },
        { target: 'administrators', afterMin: 3 },
      ],
      rateLimit: { max: 5, windowMin: 10 },
      webhookUrl: 'https://care-records.example/hooks/nemuri',
      webhookAlertTypes: ['button'],
      lineChannelAccessToken: 'line-token-0123456789',
    };
    const put = await admin.send('PUT', `${API}/domains/${facility}/settings`, JSON.stringify(settings), { 'content-type': 'application/json' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ showResidentName: true, lineConfigured: true, webhookUrl: 'https://care-records.example/hooks/nemuri' });
    expect(put.text).not.toContain('line-token-0123456789');
    for (const webhookUrl of [
      'http://care-records.example/h',
      'https://127.0.0.1:8080/h',
      'https://10.0.0.5/h',
      'https://[::1]/h',
      'https://metadata.internal/h',
      'https://0x7f.1/h',
      'https://169.254.169.254/latest/meta-data',
    ]) {
      expect(
        (await admin.send('PUT', `${API}/domains/${facility}/settings`, JSON.stringify({ ...settings, webhookUrl }), { 'content-type': 'application/json' }))
          .status,
        webhookUrl,
      ).toBe(400);
    }
    // A name, not a literal, that the server's own resolver (/etc/hosts) leads to this machine.
    const ownName = hostname();
    expect(
      (await lookup(ownName, { all: true })).every(({ address }) => isInsideAddress(address)),
      `${ownName} resolves inside`,
    ).toBe(true);
    const byName = await admin.send('PUT', `${API}/domains/${facility}/settings`, JSON.stringify({ ...settings, webhookUrl: `https://${ownName}/hook` }), {
      'content-type': 'application/json',
    });
    expect(byName.status).toBe(400);
    expect(byName.text).toContain('inside the network');
    expect((await admin.get(`${API}/domains/${facility}/settings`)).body).toMatchObject({ webhookUrl: 'https://care-records.example/hooks/nemuri' });
    expect(
      (await admin.send('PUT', `${API}/domains/${facility}/settings`, JSON.stringify({ ...settings, escalation: [] }), { 'content-type': 'application/json' }))
        .status,
    ).toBe(400);
    const secret = await admin.post(`${API}/domains/${facility}/webhook-secret`);
    expect((secret.body as { secret: string }).secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await admin.get(`${API}/domains/${facility}/settings`)).text).not.toContain((secret.body as { secret: string }).secret);
    expect((await staff.post(`${API}/domains/${facility}/webhook-secret`)).status).toBe(403);
    expect((await admin.post(`${API}/domains/${DEMO_DOMAINS.household}/webhook-secret`)).status).toBe(404);
  });

  it('keeps the on-duty schedule: only the domain’s staff, bounded ranges', async () => {
    const list = await admin.get(`${API}/domains/${facility}/shifts?from=2026-04-01&days=7`);
    expect(list.status).toBe(200);
    const { staff: members } = list.body as { staff: { uid: string }[] };
    expect(members.length).toBeGreaterThan(0);
    const uid = members[0]?.uid as string;
    const put = await admin.send('PUT', `${API}/domains/${facility}/shifts/2026-04-02/night`, JSON.stringify({ assignments: [{ uid, unit: null }] }), {
      'content-type': 'application/json',
    });
    expect(put.status).toBe(200);
    expect((await admin.get(`${API}/domains/${facility}/shifts?from=2026-04-01&days=7`)).body).toMatchObject({
      shifts: [{ day: '2026-04-02', shift: 'night', assignments: [{ uid, unit: null }] }],
    });
    const outsider = await admin.send(
      'PUT',
      `${API}/domains/${facility}/shifts/2026-04-02/day`,
      JSON.stringify({ assignments: [{ uid: 'someone-else', unit: null }] }),
      { 'content-type': 'application/json' },
    );
    expect(outsider.status).toBe(400);
    expect(
      (
        await admin.send('PUT', `${API}/domains/${facility}/shifts/2026-04-02/evening`, JSON.stringify({ assignments: [] }), {
          'content-type': 'application/json',
        })
      ).status,
    ).toBe(400);
    expect((await admin.get(`${API}/domains/${facility}/shifts?from=2026-04-01&days=400`)).status).toBe(400);
    expect((await staff.get(`${API}/domains/${facility}/shifts?from=2026-04-01`)).status).toBe(403);
    expect((await admin.get(`${API}/domains/${DEMO_DOMAINS.household}/shifts?from=2026-04-01`)).status).toBe(404);
  });

  it('pages the delivery log for administrators', async () => {
    const page = await admin.get(`${API}/domains/${facility}/deliveries?limit=2`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ deliveries: expect.any(Array), attempts: expect.any(Array), recipientNames: expect.any(Object) });
    // The staff member's test push (above) is in the log under their name, with its attempt.
    const testPush = async () => {
      const log = (await admin.get(`${API}/domains/${facility}/deliveries?limit=100`)).body as DeliveryPageView;
      const delivery = log.deliveries.find((candidate) => candidate.alertId.startsWith('test-') && candidate.channel === 'push');
      return {
        name: delivery === undefined ? null : log.recipientNames[delivery.recipient],
        attempts: log.attempts.filter((attempt) => attempt.queueId === delivery?.id).map((attempt) => `${attempt.attempt}/${attempt.ok}`),
      };
    };
    await expect.poll(testPush, { timeout: 20_000 }).toEqual({ name: '佐藤 介護', attempts: ['1/true'] });
    expect((await admin.get(`${API}/domains/${facility}/deliveries?limit=1000`)).status).toBe(400);
    expect((await admin.get(`${API}/domains/${facility}/deliveries?before=abc`)).status).toBe(400);
    expect((await staff.get(`${API}/domains/${facility}/deliveries`)).status).toBe(403);
    expect((await admin.get(`${API}/domains/${DEMO_DOMAINS.household}/deliveries`)).status).toBe(404);
  });
});
