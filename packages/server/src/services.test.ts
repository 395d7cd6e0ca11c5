/**
 * The core services are plugins a test can replace (app.ts, `services`): a stand-in named as the
 * service serves every capability that uses it, and Fastify still checks what it depends on.
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { loadParser } from '@nemuri/parser/node';
import { POLICY_CLOSE_CODE } from '@nemuri/shared/liveSockets';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { buildApp, type BuildAppOptions } from './app.ts';
import type { Auth } from './auth/auth.ts';
import { SecondFactorPolicy } from './auth/secondFactorPolicy.ts';
import { loadConfig } from './config.ts';
import type { Database } from './database/database.ts';
import { migrate } from './database/migrate.ts';
import { openPglite } from './database/pglite.ts';
import { DeviceRegistry, type KnownDevice } from './devices/deviceRegistry.ts';
import { createDeviceServices } from './devices/deviceServices.ts';
import { socketRuntimePlugin, type SocketRuntimePluginOptions } from './live/socketRuntime.ts';
import { startServer, type RunningServer } from './server.ts';
import { BrowserClient } from './testing/browserClient.ts';
import { makeTempDir, makeTestWebDist, type TempDir } from './testing/webDist.ts';

const SERIAL = 'NM-FIXED-1';
const SECRET = 'fixed-secret';

/** A registry that knows one device and never reads the database. */
class FixedRegistry extends DeviceRegistry {
  readonly asked: string[] = [];

  override async authenticate(serial: string, secret: string): Promise<KnownDevice | null> {
    this.asked.push(serial);
    if (serial !== SERIAL || secret !== SECRET) return null;
    return { serial, domainId: null, rootDomainId: null, credentialHash: null, status: 'active' };
  }
}

/** The `devices` service with the fixed registry; device status as the real one keeps it. */
function fixedDevicesPlugin(registry: FixedRegistry) {
  return fp(
    async (app) => {
      app.decorate('devices', { ...createDeviceServices(app.database, app.documents, app.signals.hub, app.log), registry });
    },
    { name: 'devices', dependencies: ['database', 'documents', 'signals'] },
  );
}

let webDist: TempDir;
let database: Database;
// No request here carries a session cookie, so sign-in is never asked for.
const noSignIn = new Promise<Auth>(() => undefined);

function options(services: BuildAppOptions['services']): BuildAppOptions {
  return { config: { webDist: webDist.path, logLevel: 'error' }, database, auth: noSignIn, logger: false, services };
}

beforeAll(async () => {
  webDist = await makeTestWebDist();
  database = await openPglite(null);
  await migrate(database);
}, 120_000);
afterAll(async () => {
  await database?.close();
  await webDist?.remove();
});

describe('a core service replaced by another plugin', () => {
  const registry = new FixedRegistry({} as Database); // never reads it: authenticate is replaced
  let app: FastifyInstance;
  let url: string;
  beforeAll(async () => {
    app = await buildApp(options({ devices: fixedDevicesPlugin(registry) }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => app?.close());

  it('serves HTTP ingest through the replacement', async () => {
    expect(app.devices.registry).toBe(registry);
    const parser = await loadParser();
    const startUs = (Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000) * 1000;
    const body = Buffer.concat(
      [0, 1].map((sequence) =>
        parser.encodeSmfFrame({ channel: 'temperature', format: 'float32', sampleRate: 1, sequence, startTimeUs: startUs + sequence * 1e6, values: [36.5] }),
      ),
    );
    const post = (serial: string, secret: string) =>
      fetch(`${url}/api/devices/${serial}/frames`, {
        method: 'POST',
        body: new Uint8Array(body),
        headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${secret}` },
      });

    const accepted = await post(SERIAL, SECRET);
    expect(accepted.status).toBe(202);
    expect(await accepted.json()).toEqual({ frames: 2 });
    // No device record exists: only the fixed registry could have let it in.
    expect((await post(SERIAL, 'wrong')).status).toBe(401);
    expect(registry.asked).toEqual([SERIAL, SERIAL]);
  });
});

describe('a replacement that does not fit', () => {
  it('fails with Fastify’s dependency error when what it needs comes later', async () => {
    // `documents` is registered before `signals`: a documents service needing signals cannot start.
    const documentsNeedingSignals = fp(async () => undefined, { name: 'documents', dependencies: ['database', 'signals'] });
    await expect(buildApp(options({ documents: documentsNeedingSignals }))).rejects.toThrow("The dependency 'signals' of plugin 'documents' is not registered");
  });

  it('fails with a dependency no plugin provides', async () => {
    const signalsNeedingWeather = fp(async () => undefined, { name: 'signals', dependencies: ['database', 'weather'] });
    await expect(buildApp(options({ signals: signalsNeedingWeather }))).rejects.toThrow("The dependency 'weather' of plugin 'signals' is not registered");
  });

  it('is refused when it is not named as the service it replaces', async () => {
    const unnamed = async (): Promise<void> => undefined;
    await expect(buildApp(options({ devices: unnamed }))).rejects.toThrow(
      /replacement for the devices service must be a fastify-plugin plugin named 'devices' \(it is unnamed\)/,
    );
    const misnamed = fp(async () => undefined, { name: 'registry' });
    await expect(buildApp(options({ devices: misnamed }))).rejects.toThrow(/named 'devices' \(it is 'registry'\)/);
  });
});

/** A policy under which every account needs a second factor, whatever its domain says. */
class EveryoneNeedsASecondFactor extends SecondFactorPolicy {
  override requires(): Promise<boolean> {
    return Promise.resolve(true);
  }
}

describe('the secondFactor and live services replaced in a running server', () => {
  let dir: TempDir;
  let server: RunningServer;
  const secondFactor = fp(
    async (app) => {
      app.decorate('secondFactor', new EveryoneNeedsASecondFactor(app.database));
    },
    {
      name: 'secondFactor',
      dependencies: ['database'],
    },
  );
  // The real socket runtime with other limits: one signed-out socket per address over all channels.
  const live = fp(
    async (app, { auth }: SocketRuntimePluginOptions) => {
      await app.register(socketRuntimePlugin, { auth, limits: { signedOutSocketsPerAddress: 1 } });
    },
    {
      name: 'live',
      dependencies: ['database', 'secondFactor'],
    },
  );
  beforeAll(async () => {
    dir = await makeTempDir();
    server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'error',
        DATABASE_URL: 'memory://',
        DATA_DIR: dir.path,
        DEMO: '0',
        WEB_DIST: join(dir.path, 'no-web'),
      }),
      { services: { secondFactor, live } },
    );
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await dir?.remove();
  });

  it('asks every account for a second factor: sign-in, /api/me and the principal all use the replacement', async () => {
    expect(server.app.secondFactor).toBeInstanceOf(EveryoneNeedsASecondFactor);
    const browser = new BrowserClient(server.url);
    expect((await browser.signUp({ name: '二要素 花子', email: 'hanako@example.com', password: 'futon-and-makura' })).status).toBe(200);
    // Without a domain the default policy never requires one (auth.test.ts: secondFactorRequired false).
    expect(await browser.me()).toMatchObject({ email: 'hanako@example.com', domainId: null, secondFactorRequired: true });
  });

  it('serves every live channel through the replacement runtime and its limits', async () => {
    const open = (path: string) =>
      new Promise<{ opened: boolean; closed: Promise<number> }>((resolve, reject) => {
        const socket = new WebSocket(`${server.url.replace('http', 'ws')}${path}`, { headers: { origin: server.url } });
        const closed = new Promise<number>((done) => socket.once('close', (code) => done(code)));
        socket.once('open', () => resolve({ opened: true, closed }));
        socket.once('error', reject);
        sockets.push(socket);
      });
    const sockets: WebSocket[] = [];
    try {
      const first = await open('/api/live');
      expect(first.opened).toBe(true);
      // The default allows 32 from one address; this runtime allows one, on whichever channel.
      for (const path of ['/api/signals/live', '/api/monitoring/live']) expect(await (await open(path)).closed).toBe(POLICY_CLOSE_CODE);
      expect(server.app.live.limits.signedOutSocketsPerAddress).toBe(1);
    } finally {
      for (const socket of sockets) socket.terminate();
    }
  });
});
