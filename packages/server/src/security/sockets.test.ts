/**
 * Live sockets attacked as an outsider and as a signed-in user would (issue 17, findings 5, 6 and
 * 11; docs/security.md, "Live sockets"), on all three channels (`/api/live`, `/api/signals/live`,
 * `/api/monitoring/live`), against a real server on PGlite and on PostgreSQL:
 * - a page of another origin cannot open them with the victim's cookie (cross-site WebSocket hijacking);
 * - signing out, being disabled or demoted closes them at once (4401), and a demoted member's new
 *   socket no longer receives the rooms;
 * - one user cannot hold more than SOCKET_LIMITS sockets or subscriptions, nor one tenant more than
 *   its cap, while other users go on unaffected.
 * The periodic session check is set to a minute here, so that closing "at once" is what is tested
 * (the periodic check itself: live/heartbeat.test.ts).
 */
import { LIVE_PATH } from '@nemuri/shared/documents/live';
import { POLICY_CLOSE_CODE, SESSION_CHANGED_CLOSE_CODE } from '@nemuri/shared/liveSockets';
import { MONITORING_LIVE_PATH } from '@nemuri/shared/monitoring';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { seedDemoData } from '../demo/seedDemoData.ts';
import { signedIn, startTestServer, type DatabaseChoice, type DocumentsClient, type TestServer } from '../documents/testing.ts';
import { SOCKET_LIMITS } from '../live/socketRuntime.ts';
import { LIVE_SIGNALS_PATH } from '../signals/signalsPlugin.ts';
import { describePostgres } from '../testing/postgres.ts';

const CHANNELS = [LIVE_PATH, LIVE_SIGNALS_PATH, MONITORING_LIVE_PATH] as const;
type Channel = (typeof CHANNELS)[number];
const FACILITY_A = 'demo-facility-a';
const DEVICE = 'NM-0001';

type Message = Record<string, unknown>;

/** A socket as a page would open it, keeping its JSON messages and how it ended. */
class Probe {
  readonly messages: Message[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly #socket: WebSocket;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (!isBinary) this.messages.push(JSON.parse(data.toString('utf8')) as Message);
    });
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
  }

  /** Opens it, or answers the HTTP status that refused the upgrade. */
  static open(
    baseUrl: string,
    path: Channel,
    { cookie, origin = new URL(baseUrl).origin }: { cookie?: string; origin?: string | null },
  ): Promise<Probe | { refused: number }> {
    const headers: Record<string, string> = {};
    if (cookie !== undefined) headers.cookie = cookie;
    if (origin !== null) headers.origin = origin;
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${path}`, { headers });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new Probe(socket)));
      socket.once('unexpected-response', (_request, response) => {
        resolve({ refused: response.statusCode ?? 0 });
        response.resume();
        socket.terminate();
      });
      socket.once('error', (error) => {
        if (socket.readyState !== WebSocket.CLOSED) reject(error);
      });
    });
  }

  static async opened(baseUrl: string, path: Channel, cookie: string): Promise<Probe> {
    const probe = await Probe.open(baseUrl, path, { cookie });
    if (!(probe instanceof Probe)) throw new Error(`${path}: upgrade refused with ${probe.refused}`);
    return probe;
  }

  send(message: unknown): void {
    this.#socket.send(JSON.stringify(message));
  }

  sendRaw(data: string | Buffer): void {
    this.#socket.send(data);
  }

  async until(test: (message: Message) => boolean, timeoutMs = 10_000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(test);
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(this.messages).slice(-1500)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** How it closed, failing when it is still open after `timeoutMs`. */
  async closedWithin(timeoutMs: number): Promise<number> {
    const timeout = new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error(`still open after ${timeoutMs} ms`)), timeoutMs));
    return (await Promise.race([this.closed, timeout])).code;
  }

  close(): void {
    this.#socket.close();
  }
}

/** A socket on each channel, each holding a subscription that shows facility A's rooms. */
async function watchingRooms(baseUrl: string, cookie: string): Promise<Probe[]> {
  const [live, signals, monitoring] = await Promise.all(CHANNELS.map((path) => Probe.opened(baseUrl, path, cookie)));
  live!.send({ type: 'subscribe', id: 'rooms', target: { query: { collection: 'rooms', where: [['domainId', '==', FACILITY_A]] } } });
  signals!.send({ type: 'subscribe', serial: DEVICE });
  monitoring!.send({ type: 'subscribe-rooms' });
  await live!.until((message) => message.id === 'rooms' && message.type === 'snapshot' && (message.documents as unknown[]).length > 0);
  await signals!.until((message) => message.type === 'status' && message.serial === DEVICE);
  await monitoring!.until((message) => message.type === 'rooms' && (message.rooms as unknown[]).length > 0);
  return [live!, signals!, monitoring!];
}

async function uidOf(client: DocumentsClient): Promise<string> {
  return ((await client.me()) as { uid: string }).uid;
}

function socketsAreSafe(choice: DatabaseChoice): void {
  let test: TestServer;
  let url: string;
  const opened: Probe[] = [];
  const track = (probes: Probe[]) => {
    opened.push(...probes);
    return probes;
  };

  beforeAll(async () => {
    test = await startTestServer(choice);
    url = test.server.url;
    test.server.app.live.configure({ recheckMs: 60_000 });
    // The demo set: facility A's rooms and devices, and a staff record for every demo account.
    await seedDemoData(test.server.app.documents, { info: () => undefined, warn: () => undefined, error: () => undefined });
    await test.server.app.monitoring.directory.refresh();
    test.server.app.monitoring.tick();
  }, 120_000);
  afterAll(async () => {
    for (const probe of opened) probe.close();
    await test?.stop();
  });

  it('refuses the upgrade from a page of another origin, with or without the cookie, on every channel', async () => {
    const victim = await signedIn(test.server, 'admin@example.com');
    const port = new URL(url).port;
    for (const path of CHANNELS) {
      for (const origin of ['https://attacker.example', 'null', `http://127.0.0.1:${Number(port) + 1}`, `http://127.0.0.2:${port}`, 'not a url']) {
        expect([path, origin, await Probe.open(url, path, { cookie: victim.cookieHeader, origin })]).toEqual([path, origin, { refused: 403 }]);
      }
      expect([path, await Probe.open(url, path, { origin: 'https://attacker.example' })]).toEqual([path, { refused: 403 }]);
      // The server's own pages, by either name the server answers to, and programs that send no Origin.
      for (const origin of [new URL(url).origin, `http://localhost:${port}`, null]) {
        const probe = await Probe.open(url, path, { cookie: victim.cookieHeader, origin });
        expect([path, origin, probe instanceof Probe]).toEqual([path, origin, true]);
        if (probe instanceof Probe) probe.close();
      }
    }
  });

  it('takes small JSON text only: binary and oversized messages close the socket', async () => {
    const user = await signedIn(test.server, 'owner@example.com');
    const [binary, large, huge, monitoring] = track(
      await Promise.all([LIVE_PATH, LIVE_SIGNALS_PATH, LIVE_PATH, MONITORING_LIVE_PATH].map((path) => Probe.opened(url, path as Channel, user.cookieHeader))),
    );
    binary!.sendRaw(Buffer.alloc(16));
    large!.sendRaw('x'.repeat(17 * 1024));
    huge!.sendRaw('x'.repeat(65 * 1024));
    monitoring!.sendRaw(JSON.stringify({ type: 'subscribe-rooms', padding: 'x'.repeat(2048) }));
    expect(await Promise.all([binary, large, huge, monitoring].map((probe) => probe!.closedWithin(3_000)))).toEqual([1003, 1009, 1009, 1009]);
  });

  it('closes all three sockets at once when the user signs out', async () => {
    const user = await signedIn(test.server, 'privilege@example.com');
    const sockets = track(await watchingRooms(url, user.cookieHeader));
    const started = Date.now();
    expect((await user.signOut()).status).toBe(200);
    expect(await Promise.all(sockets.map((socket) => socket.closedWithin(3_000)))).toEqual([
      SESSION_CHANGED_CLOSE_CODE,
      SESSION_CHANGED_CLOSE_CODE,
      SESSION_CHANGED_CLOSE_CODE,
    ]);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('closes all three sockets at once when an administrator disables the member', async () => {
    const [owner, member] = await Promise.all([signedIn(test.server, 'owner@example.com'), signedIn(test.server, 'staff@example.com')]);
    const sockets = track(await watchingRooms(url, member.cookieHeader));
    const reply = await owner.updateDocument(`domains/${FACILITY_A}/staff/${await uidOf(member)}`, { disabled: true });
    expect(reply.status).toBe(200);
    expect(await Promise.all(sockets.map((socket) => socket.closedWithin(3_000)))).toEqual([
      SESSION_CHANGED_CLOSE_CODE,
      SESSION_CHANGED_CLOSE_CODE,
      SESSION_CHANGED_CLOSE_CODE,
    ]);
    // The session is gone: a new socket is signed out.
    const again = track([await Probe.opened(url, MONITORING_LIVE_PATH, member.cookieHeader)])[0]!;
    again.send({ type: 'subscribe-rooms' });
    expect(await again.until((message) => message.type === 'error')).toMatchObject({ code: 'unauthenticated' });
  });

  it('closes all three sockets at once when the member is demoted, and the new sockets no longer get the rooms', async () => {
    const [owner, member] = await Promise.all([signedIn(test.server, 'owner@example.com'), signedIn(test.server, 'admin@example.com')]);
    const sockets = track(await watchingRooms(url, member.cookieHeader));
    const reply = await owner.updateDocument(`domains/${FACILITY_A}/staff/${await uidOf(member)}`, { accessLevel: ROLE_LEVELS.individualUser });
    expect(reply.status).toBe(200);
    expect(await Promise.all(sockets.map((socket) => socket.closedWithin(3_000)))).toEqual([
      SESSION_CHANGED_CLOSE_CODE,
      SESSION_CHANGED_CLOSE_CODE,
      SESSION_CHANGED_CLOSE_CODE,
    ]);
    expect(((await member.me()) as { accessLevel: number }).accessLevel).toBe(ROLE_LEVELS.individualUser);
    // Reconnected with the same session, as the web clients do: level 1 sees none of the facility's rooms.
    const [live, signals, monitoring] = track(await Promise.all(CHANNELS.map((path) => Probe.opened(url, path, member.cookieHeader))));
    live!.send({ type: 'subscribe', id: 'rooms', target: { query: { collection: 'rooms', where: [['domainId', '==', FACILITY_A]] } } });
    signals!.send({ type: 'subscribe', serial: DEVICE });
    monitoring!.send({ type: 'subscribe-rooms' });
    const rooms = await live!.until((message) => message.id === 'rooms');
    expect(rooms.type === 'error' || (rooms.documents as unknown[]).length === 0).toBe(true);
    expect(await signals!.until((message) => message.serial === DEVICE)).toMatchObject({ type: 'error' });
    const states = await monitoring!.until((message) => message.type === 'rooms' || message.type === 'error');
    expect(states.type === 'error' || (states.rooms as unknown[]).length === 0).toBe(true);
  });

  it('limits the sockets of one user; another user is unaffected', async () => {
    const [hog, other] = await Promise.all([signedIn(test.server, 'developer@example.com'), signedIn(test.server, 'senior@example.com')]);
    const held: Probe[] = [];
    for (let index = 0; index < SOCKET_LIMITS.socketsPerUser; index++) held.push(await Probe.opened(url, CHANNELS[index % CHANNELS.length]!, hog.cookieHeader));
    track(held);
    for (const path of CHANNELS) {
      const refused = track([await Probe.opened(url, path, hog.cookieHeader)])[0]!;
      expect([path, await refused.closedWithin(3_000)]).toEqual([path, POLICY_CLOSE_CODE]);
      expect((await refused.closed).reason).toMatch(/at most 8 live connections per user/);
    }
    const fine = track([await Probe.opened(url, LIVE_PATH, other.cookieHeader)])[0]!;
    fine.send({ type: 'subscribe', id: 1, target: { document: 'rooms/none' } });
    expect(await fine.until((message) => message.id === 1)).toMatchObject({ type: 'snapshot', document: null });
    // A socket given back makes room for another.
    const given = held.pop()!;
    given.close();
    await given.closed;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const next = track([await Probe.opened(url, LIVE_PATH, hog.cookieHeader)])[0]!;
    next.send({ type: 'subscribe', id: 1, target: { document: 'rooms/none' } });
    expect(await next.until((message) => message.id === 1)).toMatchObject({ type: 'snapshot' });
    for (const probe of [...held, next, fine]) probe.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
  });

  it('limits the signed-out sockets of one address; a signed-in user is unaffected', async () => {
    const openSignedOut = async (path: Channel) => {
      const probe = await Probe.open(url, path, {});
      if (!(probe instanceof Probe)) throw new Error(`${path}: upgrade refused with ${probe.refused}`);
      return probe;
    };
    const held: Probe[] = [];
    for (let index = 0; index < SOCKET_LIMITS.signedOutSocketsPerAddress; index++) held.push(await openSignedOut(CHANNELS[index % CHANNELS.length]!));
    track(held);
    for (const path of CHANNELS) {
      const refused = track([await openSignedOut(path)])[0]!;
      expect([path, await refused.closedWithin(3_000)]).toEqual([path, POLICY_CLOSE_CODE]);
      expect((await refused.closed).reason).toMatch(/signed-out live connections per address/);
    }
    const member = await signedIn(test.server, 'developer@example.com');
    const fine = track([await Probe.opened(url, LIVE_PATH, member.cookieHeader)])[0]!;
    fine.send({ type: 'subscribe', id: 1, target: { document: 'rooms/none' } });
    expect(await fine.until((message) => message.id === 1)).toMatchObject({ type: 'snapshot', document: null });
    for (const probe of [...held, fine]) probe.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
  });

  it('limits the subscriptions of one user across sockets and channels; another user is unaffected', async () => {
    const [hog, other] = await Promise.all([signedIn(test.server, 'super@example.com'), signedIn(test.server, 'sysadmin@example.com')]);
    const [first, second, signals, monitoring] = track(
      await Promise.all([LIVE_PATH, LIVE_PATH, LIVE_SIGNALS_PATH, MONITORING_LIVE_PATH].map((path) => Probe.opened(url, path as Channel, hog.cookieHeader))),
    );
    const half = SOCKET_LIMITS.subscriptionsPerUser / 2;
    for (let index = 0; index < half; index++) first!.send({ type: 'subscribe', id: index, target: { document: `rooms/limit-${index}` } });
    for (let index = 0; index < half; index++) second!.send({ type: 'subscribe', id: index, target: { document: `rooms/limit-${index}` } });
    await first!.until((message) => message.id === half - 1);
    await second!.until((message) => message.id === half - 1);
    expect([...first!.messages, ...second!.messages].filter((message) => message.type === 'error')).toEqual([]);
    first!.send({ type: 'subscribe', id: 'over', target: { document: 'rooms/over' } });
    expect(await first!.until((message) => message.id === 'over')).toMatchObject({
      type: 'error',
      code: 'resource-exhausted',
      message: expect.stringMatching(/At most 200 live subscriptions per user/),
    });
    signals!.send({ type: 'subscribe', serial: DEVICE });
    expect(await signals!.until((message) => message.serial === DEVICE && message.type === 'error')).toMatchObject({ code: 'resource-exhausted' });
    monitoring!.send({ type: 'subscribe-rooms' });
    expect(await monitoring!.until((message) => message.type === 'error')).toMatchObject({ code: 'resource-exhausted' });
    // Another user of the same tenant subscribes as usual.
    const fine = track([await Probe.opened(url, MONITORING_LIVE_PATH, other.cookieHeader)])[0]!;
    fine.send({ type: 'subscribe-rooms' });
    expect(await fine.until((message) => message.type === 'rooms' || message.type === 'error')).toMatchObject({ type: 'rooms' });
    // Ending one subscription, or a whole socket, gives its share back.
    first!.send({ type: 'unsubscribe', id: 0 });
    first!.send({ type: 'subscribe', id: 'after-unsubscribe', target: { document: 'rooms/after' } });
    expect(await first!.until((message) => message.id === 'after-unsubscribe')).toMatchObject({ type: 'snapshot' });
    second!.close();
    await second!.closed;
    await new Promise((resolve) => setTimeout(resolve, 200));
    monitoring!.send({ type: 'subscribe-rooms' });
    await monitoring!.until((message) => message.type === 'rooms');
    for (const probe of [first!, signals!, monitoring!, fine]) probe.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
  });

  it('caps the subscriptions of one tenant; another tenant is unaffected', async () => {
    const runtime = test.server.app.live;
    runtime.configure({ limits: { subscriptionsPerTenant: 30 } });
    try {
      // developer and senior share the maker's tenant; the household user is a tenant of its own.
      const [one, two, elsewhere] = await Promise.all([
        signedIn(test.server, 'developer@example.com'),
        signedIn(test.server, 'senior@example.com'),
        signedIn(test.server, 'individual@example.com'),
      ]);
      const [a, b, c] = track(await Promise.all([one, two, elsewhere].map((client) => Probe.opened(url, LIVE_PATH, client.cookieHeader))));
      for (let index = 0; index < 20; index++) a!.send({ type: 'subscribe', id: index, target: { document: `rooms/tenant-${index}` } });
      await a!.until((message) => message.id === 19);
      for (let index = 0; index < 11; index++) b!.send({ type: 'subscribe', id: index, target: { document: `rooms/tenant-${index}` } });
      expect(await b!.until((message) => message.id === 10)).toMatchObject({
        type: 'error',
        code: 'resource-exhausted',
        message: expect.stringMatching(/organisation/),
      });
      expect(b!.messages.filter((message) => message.type === 'error')).toHaveLength(1);
      for (let index = 0; index < 25; index++) c!.send({ type: 'subscribe', id: index, target: { document: `rooms/elsewhere-${index}` } });
      await c!.until((message) => message.id === 24);
      expect(c!.messages.filter((message) => message.type === 'error')).toEqual([]);
      for (const probe of [a!, b!, c!]) probe.close();
    } finally {
      runtime.configure({ limits: { subscriptionsPerTenant: SOCKET_LIMITS.subscriptionsPerTenant } });
    }
  });
}

describe('live sockets on PGlite', () => socketsAreSafe('pglite'));
describePostgres('live sockets on PostgreSQL', () => socketsAreSafe('postgresql'));
