/**
 * Device registration end to end on a real server (PGlite, the embedded MQTT broker): who may
 * register, the secret answered once and accepted by HTTP and MQTT ingest, rotation shutting out
 * the old secret at once, rooms, and the credential hash never leaving the server.
 */
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadParser } from '@nemuri/parser/node';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { LiveSocket } from '../live/testing.ts';
import { signedInClient, startIngestServer, uniqueSerial, type IngestTestServer } from '../ingest/testing.ts';
import type { BrowserClient, ClientReply } from '../testing/browserClient.ts';
import { hashDeviceSecret, verifyDeviceSecret } from './deviceSecret.ts';

const A = DEMO_DOMAINS.facilityA;
const B = DEMO_DOMAINS.facilityB;

describe('device registration', () => {
  let base: IngestTestServer;
  let admin: BrowserClient;
  let staff: BrowserClient;
  let owner: BrowserClient;
  let developer: BrowserClient;
  let frame: Buffer;

  const documents = () => base.server.app.documents;
  const storedHash = async (serial: string): Promise<unknown> => (await documents().get(SYSTEM_PRINCIPAL, `devices/${serial}`))?.document.credentialHash;
  const putDevice = (serial: string, fields: Record<string, unknown>) =>
    documents().set(
      SYSTEM_PRINCIPAL,
      `devices/${serial}`,
      { deviceTypeId: 'nemuri-pad', ownerAgencyDomainId: DEMO_DOMAINS.agency, status: 'lent', ...fields },
      false,
    );
  const putRoom = (id: string, domainId: string, fields: Record<string, unknown> = {}) =>
    documents().set(SYSTEM_PRINCIPAL, `rooms/${id}`, { domainId, name: id, ...fields }, false);
  const register = (client: BrowserClient, serial: string, body: unknown = {}) => client.post(`/api/devices/${serial}/registration`, body);
  const rotate = (client: BrowserClient, serial: string) => client.post(`/api/devices/${serial}/secret`, {});
  const ingest = (serial: string, secret: string) =>
    fetch(`${base.server.url}/api/devices/${serial}/frames`, {
      method: 'POST',
      body: new Uint8Array(frame),
      headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${secret}` },
    });
  const mqttAccepts = async (serial: string, secret: string): Promise<boolean> => {
    try {
      const device = await mqtt.connectAsync(
        base.server.mqttUrl,
        { username: serial, password: secret, clientId: serial, protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000 },
        false,
      );
      await device.endAsync();
      return true;
    } catch {
      return false;
    }
  };
  const secretOf = (reply: ClientReply): string => {
    expect(reply.status, reply.text).toBe(200);
    const secret = (reply.body as { secret: unknown }).secret;
    expect(secret).toMatch(/^[0-9a-f]{32}$/);
    return secret as string;
  };

  beforeAll(async () => {
    base = await startIngestServer();
    // The corporation's owner (level 5) reaches both facilities A and B; the administrator only A.
    const as = (email: string) => signedInClient(base.server, email);
    [admin, staff, owner, developer] = await Promise.all([
      as('admin@example.com'),
      as('staff@example.com'),
      as('owner@example.com'),
      as('developer@example.com'),
    ]);
    // Under vitest the demo data set is not loaded: the two facilities of the corporation.
    for (const [id, name] of [
      [A, 'さくら苑'],
      [B, 'もみじ荘'],
    ] as const) {
      await documents().set(
        SYSTEM_PRINCIPAL,
        `domains/${id}`,
        { name, kind: 'facility', rootDomainId: DEMO_DOMAINS.corporation, parentDomainId: DEMO_DOMAINS.corporation },
        true,
      );
    }
    const parser = await loadParser();
    frame = Buffer.from(
      parser.encodeSmfFrame({
        channel: 'temperature',
        format: 'float32',
        sampleRate: 1,
        sequence: 0,
        startTimeUs: (Date.now() - 600_000) * 1000,
        values: [36.5],
      }),
    );
  }, 120_000);

  afterAll(async () => {
    await base?.stop();
    await base?.remove();
  });

  it('answers the secret once; it works for HTTP and MQTT ingest, and only its hash is stored', async () => {
    const serial = uniqueSerial('reg');
    await putDevice(serial, { domainId: A });
    const reply = await register(admin, serial);
    const secret = secretOf(reply);
    expect(reply.headers['cache-control']).toBe('no-store');
    const device = (reply.body as { device: Record<string, unknown> }).device;
    expect(device).toMatchObject({ documentReferenceId: serial, status: 'in_use', domainId: A });
    expect(device).not.toHaveProperty('credentialHash');
    expect(reply.text).not.toContain('sha256$');
    const hash = await storedHash(serial);
    expect(verifyDeviceSecret(secret, hash as string)).toBe(true);
    expect(JSON.stringify(hash)).not.toContain(secret);

    expect((await ingest(serial, secret)).status).toBe(202);
    expect((await ingest(serial, 'not-the-secret')).status).toBe(401);
    expect(await mqttAccepts(serial, secret)).toBe(true);

    // Nothing answers the secret again: the device record holds neither it nor its hash.
    const read = await admin.get(`/api/documents/devices/${serial}`);
    expect(read.status).toBe(200);
    expect(read.text).not.toContain(secret);
    expect(read.text).not.toContain('credentialHash');
  });

  it('rotation: the new secret works and the old one stops at once (HTTP and new MQTT connections)', async () => {
    const serial = uniqueSerial('rot');
    await putDevice(serial, { domainId: A });
    const first = secretOf(await register(admin, serial));
    // Fills the device registry's cache with the first credential.
    expect((await ingest(serial, first)).status).toBe(202);
    const second = secretOf(await rotate(admin, serial));
    expect(second).not.toBe(first);
    expect((await ingest(serial, first)).status).toBe(401);
    expect((await ingest(serial, second)).status).toBe(202);
    expect(await mqttAccepts(serial, first)).toBe(false);
    expect(await mqttAccepts(serial, second)).toBe(true);
  });

  it('is for administrators, and only for devices lent to a domain in their scope (404 otherwise)', async () => {
    const inA = uniqueSerial('a');
    const inB = uniqueSerial('b');
    const stock = uniqueSerial('stock');
    await putDevice(inA, { domainId: A });
    await putDevice(inB, { domainId: B });
    await putDevice(stock, { domainId: null, status: 'stock' });

    for (const reply of [await register(staff, inA), await rotate(staff, inA), await staff.send('DELETE', `/api/devices/${inA}/room`, undefined)]) {
      expect(reply.status).toBe(403);
      expect(reply.body).toMatchObject({ code: 'permission-denied' });
    }
    const signedOut = await fetch(`${base.server.url}/api/devices/${inA}/registration`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(signedOut.status).toBe(401);

    // Another facility's device, a device in stock and no device at all look the same.
    const answers = [
      await register(admin, inB),
      await register(admin, stock),
      await register(admin, uniqueSerial('nobody')),
      await rotate(admin, inB),
      await register(admin, 'bad/serial'),
    ];
    for (const reply of answers) expect(reply.status).toBe(404);
    expect(new Set(answers.slice(0, 3).map((reply) => (reply.body as { code: string }).code))).toEqual(new Set(['not-found']));
    expect(await storedHash(inB)).toBeUndefined();

    // Levels 4-5 reach every facility under their root; the maker's levels reach all.
    secretOf(await register(owner, inB));
    secretOf(await rotate(developer, inA));
    // Nobody registers a device in stock (not lent to any facility).
    expect((await register(developer, stock)).status).toBe(404);
  });

  it('validates the body', async () => {
    const serial = uniqueSerial('body');
    await putDevice(serial, { domainId: A });
    const unknownKey = await register(admin, serial, { roomId: 'x', secret: 'mine' });
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.body).toMatchObject({ code: 'invalid-argument' });
    expect((unknownKey.body as { message: string }).message).toContain('Unrecognized key');
    expect((await register(admin, serial, { roomId: 42 })).status).toBe(400);
    expect((await admin.send('PUT', `/api/devices/${serial}/room`, JSON.stringify({}), { 'content-type': 'application/json' })).status).toBe(400);
  });

  it('assigns a room with the registration, moves and unassigns it, and refuses a room holding another device', async () => {
    const serial = uniqueSerial('room');
    const other = uniqueSerial('other');
    const room = `dr-${serial}`;
    const second = `dr2-${serial}`;
    const busy = `dr3-${serial}`;
    const foreign = `dr4-${serial}`;
    await putDevice(serial, { domainId: A });
    await putDevice(other, { domainId: A, roomId: busy });
    await putRoom(room, A);
    await putRoom(second, A);
    await putRoom(busy, A, { deviceSerial: other });
    await putRoom(foreign, B);
    const roomOf = async (id: string) => (await documents().get(SYSTEM_PRINCIPAL, `rooms/${id}`))?.document.deviceSerial ?? null;
    const deviceRoom = async () => (await documents().get(SYSTEM_PRINCIPAL, `devices/${serial}`))?.document.roomId ?? null;

    const registered = await register(admin, serial, { roomId: room });
    secretOf(registered);
    expect((registered.body as { device: { roomId: string } }).device.roomId).toBe(room);
    expect(await roomOf(room)).toBe(serial);

    const moved = await admin.send('PUT', `/api/devices/${serial}/room`, JSON.stringify({ roomId: second }), { 'content-type': 'application/json' });
    expect(moved.status, moved.text).toBe(200);
    expect([await roomOf(room), await roomOf(second), await deviceRoom()]).toEqual([null, serial, second]);

    const taken = await admin.send('PUT', `/api/devices/${serial}/room`, JSON.stringify({ roomId: busy }), { 'content-type': 'application/json' });
    expect(taken.status).toBe(409);
    expect((taken.body as { message: string }).message).toContain(other);
    // A room of facility B: not in the administrator's scope at all.
    expect((await admin.send('PUT', `/api/devices/${serial}/room`, JSON.stringify({ roomId: foreign }), { 'content-type': 'application/json' })).status).toBe(
      404,
    );
    // The owner sees both facilities, but a device stays in its own facility's rooms.
    expect((await owner.send('PUT', `/api/devices/${serial}/room`, JSON.stringify({ roomId: foreign }), { 'content-type': 'application/json' })).status).toBe(
      400,
    );
    expect(await deviceRoom()).toBe(second);

    const unassigned = await admin.send('DELETE', `/api/devices/${serial}/room`, undefined);
    expect(unassigned.status, unassigned.text).toBe(200);
    expect([await roomOf(second), await deviceRoom()]).toEqual([null, null]);

    // The audit log names the administrator, and the hash change only by its key.
    const audit = await documents().query(SYSTEM_PRINCIPAL, { collection: 'auditLogs', where: [['path', '==', `devices/${serial}`]], limit: 20 });
    expect(audit.length).toBeGreaterThanOrEqual(3);
    expect(audit.some((entry) => (entry.changedKeys as string[]).includes('credentialHash') && entry.who !== 'system')).toBe(true);
  });

  it('never returns the credential hash through the documents API, nor lets a client write or query it', async () => {
    const serial = uniqueSerial('hash');
    const planted = hashDeviceSecret('planted');
    await putDevice(serial, { domainId: A, credentialHash: hashDeviceSecret('original') });
    const original = await storedHash(serial);
    for (const client of [staff, admin, developer]) {
      const read = await client.get(`/api/documents/devices/${serial}`);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ document: { documentReferenceId: serial } });
      expect(read.text).not.toContain('credentialHash');
      const listed = await client.post('/api/documents/query', { query: { collection: 'devices', where: [['domainId', '==', A]], limit: 1000 } });
      expect(listed.status).toBe(200);
      expect(listed.text).toContain(serial);
      expect(listed.text).not.toContain('credentialHash');
      const group = await client.post('/api/documents/query', { query: { collection: 'devices', collectionGroup: true, limit: 1000 } });
      expect(group.status).toBe(200);
      expect(group.text).not.toContain('sha256$');
      const lookup = await client.post('/api/documents/lookup', { collection: 'devices', field: 'status', value: 'lent' });
      expect(lookup.text).not.toContain('credentialHash');
    }
    // Queries that would reveal the hash by filtering or ordering on it.
    for (const query of [
      { collection: 'devices', where: [['credentialHash', '>=', 'sha256$']] },
      { collection: 'devices', orderBy: [['credentialHash', 'asc']] },
      { collection: 'devices', where: [['credentialHash.x', '==', 1]] },
    ]) {
      const reply = await developer.post('/api/documents/query', { query });
      expect(reply.status).toBe(403);
    }
    expect((await developer.post('/api/documents/lookup', { collection: 'devices', field: 'credentialHash', value: original })).status).toBe(403);

    // Writes naming it are refused; writes without it keep it.
    expect(
      (
        await admin.send('PATCH', `/api/documents/devices/${serial}`, JSON.stringify({ data: { credentialHash: planted } }), {
          'content-type': 'application/json',
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await developer.send(
          'PUT',
          `/api/documents/devices/${serial}`,
          JSON.stringify({ data: { deviceTypeId: 'nemuri-pad', status: 'lent', domainId: A, credentialHash: planted } }),
          { 'content-type': 'application/json' },
        )
      ).status,
    ).toBe(403);
    const commit = await developer.post('/api/documents/commit', {
      reads: [],
      writes: [{ op: 'update', path: `devices/${serial}`, data: { credentialHash: null } }],
    });
    expect(commit.status).toBe(403);
    const replaced = await developer.send(
      'PUT',
      `/api/documents/devices/${serial}`,
      JSON.stringify({ data: { deviceTypeId: 'nemuri-pad', status: 'lent', domainId: A, firmwareVersion: '2.0.0' } }),
      { 'content-type': 'application/json' },
    );
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.text).not.toContain('credentialHash');
    const patched = await admin.send('PATCH', `/api/documents/devices/${serial}`, JSON.stringify({ data: { firmwareVersion: '2.0.1' } }), {
      'content-type': 'application/json',
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.text).not.toContain('credentialHash');
    expect(await storedHash(serial)).toBe(original);
  });

  it('never sends the credential hash to live subscriptions, also when it changes', async () => {
    const serial = uniqueSerial('live');
    await putDevice(serial, { domainId: A, credentialHash: hashDeviceSecret('before') });
    const socket = await LiveSocket.open(base.server.url, admin.cookieHeader);
    try {
      socket.subscribe('one', { document: `devices/${serial}` });
      socket.subscribe('all', { query: { collection: 'devices', where: [['domainId', '==', A]], limit: 1000 } });
      await socket.until('one', (message) => JSON.stringify(message).includes(serial));
      await socket.until('all', (message) => JSON.stringify(message).includes(serial));
      secretOf(await rotate(admin, serial));
      // The rotation is a change of the record: the subscription is answered again, without the hash.
      await socket.until('one', (message) => JSON.stringify(message).includes('"updatedAt"') && socket.of('one').length >= 2);
      expect(JSON.stringify(socket.messages)).not.toContain('credentialHash');
      expect(JSON.stringify(socket.messages)).not.toContain('sha256$');
    } finally {
      await socket.close();
    }
  });
});
