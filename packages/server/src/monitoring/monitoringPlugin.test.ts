/**
 * Live room states over HTTP and the WebSocket, within the caller's scope only: a staff member of
 * facility A never sees facility B's rooms; signed out sees nothing.
 */
import { join } from 'node:path';
import { DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { MONITORING_LIVE_PATH, type LiveRoomState, type MonitoringServerMessage } from '@nemuri/shared/monitoring';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { loadConfig } from '../config.ts';
import { DocumentStore } from '../documents/store.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient } from '../testing/browserClient.ts';
import { lateToleranceFrom } from './monitoringPlugin.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';

const system = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };

describe('monitoring endpoints', () => {
  let dir: TempDir;
  let server: RunningServer;
  let address = 10;
  const client = () => new BrowserClient(server.url, { from: `127.0.6.${address++}` });

  beforeAll(async () => {
    dir = await makeTempDir('nemuri-monitoring-');
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
    await store.set(system, 'domains/demo-facility-a', { name: 'さくら苑', kind: 'facility', rootDomainId: 'demo-corp' }, true);
    await store.set(system, 'domains/demo-facility-b', { name: 'もみじ荘', kind: 'facility', rootDomainId: 'demo-corp' }, true);
    await store.set(system, 'rooms/ma-1', { domainId: 'demo-facility-a', name: 'A 101', deviceSerial: 'MA-1' }, false);
    await store.set(system, 'rooms/mb-1', { domainId: 'demo-facility-b', name: 'B 101', deviceSerial: 'MB-1' }, false);
    await server.app.monitoring.directory.refresh();
    server.app.monitoring.tick();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await dir?.remove();
  });

  it('answers the rooms in scope over HTTP', async () => {
    const staff = client();
    await staff.signIn('staff@example.com', DEMO_PASSWORD);
    const reply = await staff.get('/api/monitoring/rooms');
    expect(reply.status).toBe(200);
    expect((reply.body as { rooms: LiveRoomState[] }).rooms.map((room) => room.roomId)).toEqual(['ma-1']);
    const owner = client();
    await owner.signIn('owner@example.com', DEMO_PASSWORD);
    expect(((await owner.get('/api/monitoring/rooms')).body as { rooms: LiveRoomState[] }).rooms.map((room) => room.roomId).sort()).toEqual(['ma-1', 'mb-1']);
    expect((await client().get('/api/monitoring/rooms')).status).toBe(401);
  });

  it('streams the rooms in scope every second over the WebSocket', async () => {
    const staff = client();
    await staff.signIn('staff@example.com', DEMO_PASSWORD);
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}${MONITORING_LIVE_PATH}`, { headers: { cookie: staff.cookieHeader, origin: server.url } });
    const messages: MonitoringServerMessage[] = [];
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString('utf8')) as MonitoringServerMessage));
    socket.send(JSON.stringify({ type: 'subscribe-rooms' }));
    // The first answer comes at once, then one each second.
    await new Promise((resolve) => setTimeout(resolve, 2300));
    socket.close();
    const rooms = messages.filter((message) => message.type === 'rooms');
    expect(rooms.length).toBeGreaterThanOrEqual(2);
    for (const message of rooms) expect(message.type === 'rooms' && message.rooms.map((room) => room.roomId)).toEqual(['ma-1']);
    expect(rooms.at(-1)?.type === 'rooms' && rooms.at(-1)?.rooms[0]?.state).toBe('offline');
  });

  it('tells a signed-out socket to sign in', async () => {
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}${MONITORING_LIVE_PATH}`, { headers: { origin: server.url } });
    await new Promise<void>((resolve) => socket.once('open', () => resolve()));
    const answer = new Promise<MonitoringServerMessage>((resolve) =>
      socket.once('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8')) as MonitoringServerMessage)),
    );
    socket.send(JSON.stringify({ type: 'subscribe-rooms' }));
    expect(await answer).toMatchObject({ type: 'error', code: 'unauthenticated' });
    socket.close();
  });
});

describe('the late tolerance setting', () => {
  it('reads MONITORING_LATE_TOLERANCE_SEC, and leaves the shared default for anything unusable', () => {
    expect(lateToleranceFrom({ MONITORING_LATE_TOLERANCE_SEC: '20' })).toBe(20);
    for (const value of [undefined, '', 'ten', '0', '-5', '3600']) expect(lateToleranceFrom({ MONITORING_LATE_TOLERANCE_SEC: value })).toBeUndefined();
  });
});
