/** Liveness, readiness and the readiness gate, over real sockets on PGlite. */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { APP_VERSION } from '@nemuri/shared/version';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import type { Auth } from '../auth/auth.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { openPglite } from '../database/pglite.ts';
import { startServer, type RunningServer } from '../server.ts';
import { MOSQUITTO, requireMosquitto, SKIP_MQTT } from '../ingest/testing.ts';
import { TcpLink } from '../testing/tcpLink.ts';
import { makeTestWebDist, type TempDir } from '../testing/webDist.ts';
import { Readiness, RETRY_AFTER_SECONDS, START_STEPS, STARTING_MESSAGE } from './readiness.ts';

let webDist: TempDir;
beforeAll(async () => {
  webDist = await makeTestWebDist();
});
afterAll(() => webDist?.remove());

describe('while the server starts', () => {
  let database: Database;
  let app: FastifyInstance;
  let url: string;
  const readiness = new Readiness(START_STEPS);

  beforeAll(async () => {
    database = await openPglite(null);
    await migrate(database);
    // Sign-in that never completes: before the gate, a request needing it waited forever.
    const auth = new Promise<Auth>(() => undefined);
    app = await buildApp({ config: loadConfig({ WEB_DIST: webDist.path, DATA_DIR: join(webDist.path, 'data') }), database, auth, logger: false, readiness });
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('is live at once', async () => {
    const response = await fetch(`${url}/api/health/live`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ status: 'ok', version: APP_VERSION });
  });

  it('is not ready, and says what it waits for', async () => {
    const response = await fetch(`${url}/api/health/ready`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toEqual({
      status: 'error',
      version: APP_VERSION,
      database: 'pglite',
      checks: { migrations: 'pending', signIn: 'pending', demoData: 'pending', broker: 'pending', database: 'pending', storage: 'ok', disk: 'ok' },
      reasons: expect.arrayContaining(['the demo data is loading', 'the MQTT broker is starting']),
    });
  });

  it('answers a sign-in at once with 503, Retry-After and a Japanese message instead of hanging', async () => {
    const started = performance.now();
    const response = await fetch(`${url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@example.com', password: 'x' }),
      signal: AbortSignal.timeout(3000),
    });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS));
    expect(await response.json()).toEqual({ code: 'unavailable', message: STARTING_MESSAGE });
  });

  it('answers other API routes, even with a session cookie, the same way', async () => {
    const response = await fetch(`${url}/api/me`, { headers: { cookie: 'better-auth.session_token=abc' }, signal: AbortSignal.timeout(3000) });
    expect(response.status).toBe(503);
  });

  it('still serves the pages and what the sign-in page reads first', async () => {
    expect((await fetch(`${url}/`, { headers: { accept: 'text/html' } })).status).toBe(200);
    expect((await fetch(`${url}/api/app-info`)).status).toBe(200);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
  });

  it('is ready once every step is done, and not when the broker drops', async () => {
    let brokerUp = true;
    for (const step of ['migrations', 'signIn', 'demoData'] as const) readiness.done(step);
    readiness.watchBroker(() => brokerUp);
    const ready = await fetch(`${url}/api/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ok',
      version: APP_VERSION,
      database: 'pglite',
      checks: { migrations: 'ok', signIn: 'ok', demoData: 'ok', broker: 'ok', database: 'ok', storage: 'ok', disk: 'ok' },
    });
    brokerUp = false;
    const down = await fetch(`${url}/api/health/ready`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ checks: { broker: 'down' }, reasons: ['the MQTT broker is not connected'] });
  });
});

describe('a started server', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        MQTT_PORT: '0',
        DATABASE_URL: 'memory://',
        WEB_DIST: webDist.path,
        DATA_DIR: join(webDist.path, 'data'),
        SIMULATE: '0',
      }),
      { logger: false },
    );
  }, 60_000);
  afterAll(() => server?.stop());

  it('is ready when startServer resolves (migrations, sign-in, demo data, broker, database)', async () => {
    const response = await fetch(`${server.url}/api/health/ready`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', checks: { migrations: 'ok', signIn: 'ok', demoData: 'ok', broker: 'ok', database: 'ok' } });
  });

  it('is no longer ready once it stops', async () => {
    server.readiness.stop();
    const response = await fetch(`${server.url}/api/health/ready`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ status: 'error', reasons: expect.arrayContaining(['the server is shutting down']) });
  });
});

describe.skipIf(SKIP_MQTT)('a server on an external broker (Mosquitto)', () => {
  let server: RunningServer;
  let link: TcpLink;
  beforeAll(async () => {
    await requireMosquitto();
    link = await TcpLink.open(MOSQUITTO.url);
    server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        MQTT_URL: link.through(MOSQUITTO.url),
        MQTT_PERSISTENT_SESSION: '0',
        DATABASE_URL: 'memory://',
        WEB_DIST: webDist.path,
        DATA_DIR: join(webDist.path, 'data-external'),
        SIMULATE: '0',
      }),
      { logger: false },
    );
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await link?.close();
  });

  const ready = async () => (await fetch(`${server.url}/api/health/ready`)).status;
  const until = async (status: number) => {
    const deadline = Date.now() + 20_000;
    while ((await ready()) !== status) {
      if (Date.now() > deadline) throw new Error(`readiness did not become ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  it('is not ready while the broker connection is lost, and ready again once it is back', async () => {
    expect(await ready()).toBe(200);
    link.cut();
    await until(503);
    const down = (await (await fetch(`${server.url}/api/health/ready`)).json()) as { checks: Record<string, string> };
    expect(down.checks.broker).toBe('down');
    link.restore();
    await until(200);
  }, 60_000);
});
