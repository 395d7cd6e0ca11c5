/**
 * Ingest through dependency outages (issue 25), on real parts: PostgreSQL connections of the server
 * terminated under it (the process lives on, answers, and listens again), device credentials known
 * during a database outage, and the external-broker path acknowledging nothing it did not store yet
 * still taking the message once the database is back.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { loadParser } from '@nemuri/parser/node';
import { startSimulation } from '@nemuri/simulator/index';
import { ConfigError, defaultMqttClientId, loadConfig } from '../config.ts';
import { openPostgres } from '../database/postgresql.ts';
import type { Database } from '../database/database.ts';
import { SKIP_POSTGRES, TEST_DATABASE_URL, createTestSchema, describePostgres, type TestSchema } from '../testing/postgres.ts';
import { DeviceRegistry } from '../devices/deviceRegistry.ts';
import { TcpLink } from '../testing/tcpLink.ts';
import {
  type IngestTestServer,
  MOSQUITTO,
  registerDevice,
  requireMosquitto,
  respiHrFrame,
  signedInClient,
  SKIP_MQTT,
  startIngestServer,
  uniqueSerial,
} from './testing.ts';

const STAFF = 'staff@example.com';

async function readSignals(base: IngestTestServer, cookie: string, serial: string, channel: string, fromMs: number, toMs: number): Promise<Buffer> {
  const url = `${base.server.url}/api/devices/${serial}/signals?channel=${channel}&from=${new Date(fromMs).toISOString()}&to=${new Date(toMs).toISOString()}`;
  const response = await fetch(url, { headers: { cookie } });
  if (response.status !== 200) throw new Error(`signals of ${serial} answered ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

async function eventually<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The schema's URL with an application name of its own, so that a test ends only its own connections. */
function withApplicationName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('application_name', name);
  return parsed.toString();
}

/** A whole minute, 10 minutes ago. */
function pastMinute(): number {
  return Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000;
}

describePostgres('PostgreSQL connections terminated under the server', () => {
  let schema: TestSchema;
  let admin: Database;
  let base: IngestTestServer;
  const applicationName = `nemuri_rel_${randomBytes(5).toString('hex')}`;

  beforeAll(async () => {
    schema = await createTestSchema();
    admin = await openPostgres({ url: TEST_DATABASE_URL, maxConnections: 2 });
    base = await startIngestServer({ DEMO: '0', DATABASE_URL: withApplicationName(schema.url, applicationName) });
  }, 60_000);
  afterAll(async () => {
    await base?.stop();
    await base?.remove();
    await admin?.close();
    await schema?.drop();
  });

  async function terminateServerConnections(): Promise<number> {
    const { rows } = await admin.query<{ n: number }>(
      'select count(*) filter (where pg_terminate_backend(pid))::int as n from pg_stat_activity where application_name = $1',
      [applicationName],
    );
    return rows[0]?.n ?? 0;
  }

  async function listeningConnections(): Promise<number> {
    const { rows } = await admin.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where application_name = $1 and query like 'listen %'", [
      applicationName,
    ]);
    return rows[0]?.n ?? 0;
  }

  it('lives through losing idle, checked-out and listening connections, answers, and listens again', { timeout: 60_000 }, async () => {
    const database = base.server.database;
    const listening = await listeningConnections();
    // Idle pool connections, a transaction waiting between statements, and a session held open.
    await Promise.all([1, 2, 3].map(() => database.query('select pg_sleep(0.05)')));
    let releaseTransaction!: () => void;
    const held = new Promise<void>((resolve) => (releaseTransaction = resolve));
    const transaction = database.transaction(async (tx) => {
      await tx.query('select 1');
      await held;
      await tx.query('select 2');
    });
    // Its failure is awaited below; until then it must not count as an unhandled rejection.
    transaction.catch(() => undefined);
    const session = await database.connect();
    await session.query('select 1');

    expect(await terminateServerConnections()).toBeGreaterThanOrEqual(3);
    // The drivers see the connections end; without error listeners the process would die here.
    await new Promise((resolve) => setTimeout(resolve, 500));
    releaseTransaction();
    await expect(transaction).rejects.toThrow();
    await expect(session.query('select 1')).rejects.toThrow();
    await session.release();

    const health = await fetch(`${base.server.url}/api/health`);
    expect(health.status).toBe(200);
    expect((await database.query<{ n: number }>('select 1 as n')).rows).toEqual([{ n: 1 }]);
    await expect(database.transaction((tx) => tx.query('select 1'))).resolves.toBeDefined();
    if (listening > 0) await eventually(async () => (await listeningConnections()) >= listening, 'the LISTEN connections back');

    // Live document changes flow again through the reopened LISTEN connection.
    const channel = `rel_${randomBytes(4).toString('hex')}`;
    const received: string[] = [];
    const stop = await database.listen(channel, (payload) => received.push(payload));
    try {
      await terminateServerConnections();
      await eventually(async () => {
        await admin.query('select pg_notify($1, $2)', [channel, 'after']);
        return received.includes('after') || undefined;
      }, 'a notification after the listener was terminated');
    } finally {
      await stop();
    }
  });

  it('stores device frames again once its connections are back', { timeout: 60_000 }, async () => {
    const serial = uniqueSerial('pgkill');
    await registerDevice(base.server, serial, 'kill-secret', DEMO_DOMAINS.facilityA);
    const parser = await loadParser();
    const device = await mqtt.connectAsync(
      base.server.mqttUrl,
      { username: serial, password: 'kill-secret', clientId: serial, protocolVersion: 4, reconnectPeriod: 0 },
      false,
    );
    try {
      const startMs = pastMinute();
      const frame = (sequence: number): Buffer => respiHrFrame(parser, startMs, sequence);
      await device.publishAsync(`devices/${serial}/frames`, frame(0), { qos: 1 });
      await terminateServerConnections();
      await device.publishAsync(`devices/${serial}/frames`, frame(1), { qos: 1 });
      const { rows } = await admin.query<{ n: number }>(
        `select coalesce(sum(frame_count), 0)::int as n from ${schema.schema}.signal_frames_pending where serial = $1`,
        [serial],
      );
      expect(rows[0]?.n).toBe(2);
    } finally {
      await device.endAsync(true);
    }
  });
});

describe.skipIf(SKIP_POSTGRES)('device credentials during a database outage', () => {
  let schema: TestSchema;
  let link: TcpLink;
  beforeAll(async () => {
    schema = await createTestSchema();
    link = await TcpLink.open(TEST_DATABASE_URL);
  });
  afterAll(async () => {
    await link?.close();
    await schema?.drop();
  });

  it('answers from the last good read for a bounded time, and never for a forgotten credential', async () => {
    const serial = uniqueSerial('lkg');
    const database = await openPostgres({ url: link.through(TEST_DATABASE_URL), searchPath: schema.schema });
    try {
      await database.exec('create table documents (path text primary key, data jsonb not null, domain_id text, root_domain_id text)');
      await database.query('insert into documents (path, data) values ($1, $2)', [`devices/${serial}`, { credentialHash: 'h', status: 'in_use' }]);
      const registry = new DeviceRegistry(database);
      const shortLived = new DeviceRegistry(database, { lastKnownGoodMs: 1000 });
      const now = Date.now();
      expect(await registry.find(serial, now)).toMatchObject({ serial, credentialHash: 'h' });
      expect(await shortLived.find(serial, now)).toMatchObject({ serial });
      link.cut();
      // Past the 10 s cache: the database is asked, fails, and the last good read answers.
      expect(await registry.find(serial, now + 11_000)).toMatchObject({ serial, credentialHash: 'h' });
      expect(registry.staleAnswers).toBe(1);

      await expect(shortLived.find(serial, now + 11_000)).rejects.toThrow();
      // Unknown serials are not made up.
      await expect(registry.find(`${serial}-other`)).rejects.toThrow();
      registry.forget(serial);
      await expect(registry.find(serial)).rejects.toThrow();
      link.restore();
      expect(await registry.find(serial)).toMatchObject({ serial });
    } finally {
      link.restore();
      await database.close();
    }
  });
});

describe.skipIf(SKIP_POSTGRES)('the embedded broker during a database outage', () => {
  it('lets a known device reconnect while the database is down, and stores its frames once it is back', { timeout: 60_000 }, async () => {
    const schema = await createTestSchema();
    const link = await TcpLink.open(TEST_DATABASE_URL);
    const base = await startIngestServer({ DATABASE_URL: link.through(schema.url) });
    try {
      const serial = uniqueSerial('embout');
      await registerDevice(base.server, serial, 'out-secret', DEMO_DOMAINS.facilityA);
      const parser = await loadParser();
      const startMs = pastMinute();
      const frames = [0, 1].map((sequence) => respiHrFrame(parser, startMs, sequence));
      const options = { username: serial, password: 'out-secret', clientId: serial, protocolVersion: 4 as const, reconnectPeriod: 0 };
      let device = await mqtt.connectAsync(base.server.mqttUrl, options, false);
      await device.publishAsync(`devices/${serial}/frames`, frames[0]!, { qos: 1 });
      await device.endAsync(true);

      link.cut();
      // Past the registry's 10 s cache, so that the database is asked (and fails): the last good read answers.
      await new Promise((resolve) => setTimeout(resolve, 10_500));
      device = await mqtt.connectAsync(base.server.mqttUrl, options, false);
      expect(device.connected).toBe(true);
      // A device the server never read is not let in on a guess: "server unavailable", to retry.
      const stranger = uniqueSerial('stranger');
      await expect(mqtt.connectAsync(base.server.mqttUrl, { ...options, username: stranger, clientId: stranger }, false)).rejects.toThrow();

      link.restore();
      const started = Date.now();
      await device.publishAsync(`devices/${serial}/frames`, frames[1]!, { qos: 1 });
      expect(Date.now() - started).toBeLessThan(10_000);
      await device.endAsync(true);
      const browser = await signedInClient(base.server, STAFF);
      expect((await readSignals(base, browser.cookieHeader, serial, 'respiHr', startMs, startMs + 60_000)).equals(Buffer.concat(frames))).toBe(true);
    } finally {
      link.restore();
      await base.stop();
      await base.remove();
      await link.close();
      await schema.drop();
    }
  });
});

describe.skipIf(SKIP_POSTGRES || SKIP_MQTT)(`an external broker (${MOSQUITTO.url}) during a database outage`, () => {
  for (const session of ['persistent', 'clean'] as const) {
    it(`acknowledges and stores every message once the database is back (${session} session)`, { timeout: 60_000 }, async () => {
      await requireMosquitto();
      const schema = await createTestSchema();
      const link = await TcpLink.open(TEST_DATABASE_URL);
      const clientId = uniqueSerial('server');
      const env: Record<string, string> = {
        MQTT_URL: MOSQUITTO.url,
        DATABASE_URL: link.through(schema.url),
        ...(session === 'persistent' ? { MQTT_CLIENT_ID: clientId } : { MQTT_PERSISTENT_SESSION: '0' }),
      };
      const base = await startIngestServer(env);
      try {
        const parser = await loadParser();
        const startMs = pastMinute();
        const frame = (sequence: number): Buffer => respiHrFrame(parser, startMs, sequence, 60 + sequence);
        // `known` sent before the outage (the server has read it), `unread` only during it.
        const known = uniqueSerial('known');
        const unread = uniqueSerial('unread');
        await registerDevice(base.server, known, 'unused-with-mosquitto', DEMO_DOMAINS.facilityA);
        await registerDevice(base.server, unread, 'unused-with-mosquitto', DEMO_DOMAINS.facilityA);
        const devices = await Promise.all(
          [known, unread].map((serial) => mqtt.connectAsync(MOSQUITTO.url, { protocolVersion: 4, clientId: serial, clean: true, reconnectPeriod: 0 })),
        );
        const [knownDevice, unreadDevice] = devices as [mqtt.MqttClient, mqtt.MqttClient];
        const browser = await signedInClient(base.server, STAFF);
        await knownDevice.publishAsync(`devices/${known}/frames`, frame(0), { qos: 1 });
        await eventually(
          async () => (await readSignals(base, browser.cookieHeader, known, 'respiHr', startMs, startMs + 60_000)).byteLength > 0 || undefined,
          'the first frame stored',
        );

        link.cut();
        for (let sequence = 1; sequence <= 5; sequence++) await knownDevice.publishAsync(`devices/${known}/frames`, frame(sequence), { qos: 1 });
        for (let sequence = 0; sequence <= 4; sequence++) await unreadDevice.publishAsync(`devices/${unread}/frames`, frame(sequence), { qos: 1 });
        await eventually(() => (base.server.app.ingest.stats.retriedMessages > 0 ? true : undefined), 'a message tried again');
        await new Promise((resolve) => setTimeout(resolve, 2000));
        link.restore();
        const restoredAt = Date.now();
        const expected = (sequences: number[]): Buffer => Buffer.concat(sequences.map(frame));
        await eventually(
          async () => {
            const stored = await Promise.all(
              [known, unread].map((serial) => readSignals(base, browser.cookieHeader, serial, 'respiHr', startMs, startMs + 60_000)),
            );
            return (stored[0]!.equals(expected([0, 1, 2, 3, 4, 5])) && stored[1]!.equals(expected([0, 1, 2, 3, 4]))) || undefined;
          },
          'every message stored after the outage',
          20_000,
        );
        // Within 10 s of the database coming back (the backoff's longest wait).
        expect(Date.now() - restoredAt).toBeLessThan(11_000);
        await Promise.all(devices.map((device) => device.endAsync()));
      } finally {
        link.restore();
        await base.stop();
        await base.remove();
        await link.close();
        await schema.drop();
        if (session === 'persistent') {
          const cleaner = await mqtt.connectAsync(MOSQUITTO.url, { protocolVersion: 4, clientId, clean: true, reconnectPeriod: 0 });
          await cleaner.endAsync();
        }
      }
    });
  }
});

describe.skipIf(SKIP_POSTGRES)('the simulator refused during a database outage', () => {
  it('tries again with backoff after a refused CONNACK, and publishes again once the database is back', { timeout: 60_000 }, async () => {
    const schema = await createTestSchema();
    const link = await TcpLink.open(TEST_DATABASE_URL);
    const base = await startIngestServer({ DATABASE_URL: link.through(schema.url) });
    const serial = uniqueSerial('simrefused');
    const errors: string[] = [];
    try {
      await registerDevice(base.server, serial, 'sim-secret', DEMO_DOMAINS.facilityA);
      const simulation = await startSimulation({
        serials: [serial],
        broker: base.server.mqttUrl,
        secretFor: () => 'sim-secret',
        seed: 'refused',
        speed: 1,
        durationSeconds: 40,
        startTime: pastMinute(),
        channels: ['respiHr'],
        onError: (error) => errors.push(error.message),
      });
      try {
        await eventually(() => (simulation.stats.framesPublished > 0 ? true : undefined), 'the first frames acknowledged');
        // A second connection under the device's id takes over (and drops) the simulator's; while
        // the database is down and the device's record was forgotten, its reconnection is refused.
        const intruder = await mqtt.connectAsync(
          base.server.mqttUrl,
          { username: serial, password: 'sim-secret', clientId: serial, protocolVersion: 4, reconnectPeriod: 0 },
          false,
        );
        link.cut();
        base.server.app.devices.registry.forget(serial);
        await intruder.endAsync(true);
        await eventually(() => (errors.some((message) => /refused|unavailable/i.test(message)) ? true : undefined), 'a refused reconnection');
        const before = simulation.stats.framesPublished;
        await new Promise((resolve) => setTimeout(resolve, 2000));
        link.restore();
        const restoredAt = Date.now();
        await eventually(() => (simulation.stats.framesPublished > before ? true : undefined), 'frames acknowledged after the outage', 15_000);
        // The backoff (jittered doubling from 1 s) was at 4 s at most here.
        expect(Date.now() - restoredAt).toBeLessThan(10_000);
      } finally {
        await simulation.stop();
      }
    } finally {
      link.restore();
      await base.stop();
      await base.remove();
      await link.close();
      await schema.drop();
    }
  });
});

describe('a persistent session on the external broker by default', () => {
  const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/srv/nemuri/data', ...env }, '/srv/nemuri');

  it('takes a client id of the host and HTTP port when MQTT_URL is set without MQTT_CLIENT_ID', () => {
    expect(load({ MQTT_URL: 'mqtt://broker:1883', PORT: '3001' }).mqttClientId).toBe(defaultMqttClientId(hostname(), 3001));
    expect(defaultMqttClientId('ward-3.example.jp', 3000)).toBe('nemuri-server-ward-3.example.jp-3000');
    expect(defaultMqttClientId('a host/with*odd+chars', 80)).toMatch(/^nemuri-server-[A-Za-z0-9_.:-]+-80$/);
    expect(defaultMqttClientId('x'.repeat(200), 65535).length).toBeLessThanOrEqual(64);
    expect(load({ MQTT_URL: 'mqtt://broker:1883', MQTT_CLIENT_ID: 'nemuri-1' }).mqttClientId).toBe('nemuri-1');
  });

  it('uses a clean session only when asked, or when no stable id exists (PORT=0), and the embedded broker needs none', () => {
    expect(load({ MQTT_URL: 'mqtt://broker:1883', MQTT_PERSISTENT_SESSION: '0' }).mqttClientId).toBeNull();
    expect(load({ MQTT_URL: 'mqtt://broker:1883', PORT: '0' }).mqttClientId).toBeNull();
    expect(load({}).mqttClientId).toBeNull();
    expect(() => load({ MQTT_URL: 'mqtt://broker:1883', MQTT_PERSISTENT_SESSION: 'maybe' })).toThrow(ConfigError);
  });

  // A new on-disk PGlite starts in 1–2 s on a quiet machine and 20 s at a load of 20.
  it.skipIf(SKIP_MQTT)('warns loudly when it runs on a clean session', { timeout: 90_000 }, async () => {
    await requireMosquitto();
    const base = await startIngestServer({ MQTT_URL: MOSQUITTO.url, DATABASE_URL: '', DEMO: '0' });
    try {
      expect(
        base.logLines.some((line) => line.includes('"level":40') && line.includes('frames devices send while this server is down or restarting are LOST')),
      ).toBe(true);
    } finally {
      await base.stop();
      await base.remove();
    }
  });
});
