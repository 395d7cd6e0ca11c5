/**
 * Ingest through dependency outages (issue 25), on real parts: PostgreSQL connections of the server
 * terminated under it (the process lives on, answers, and listens again), device credentials known
 * during a database outage, and the external-broker path acknowledging nothing it did not store yet
 * still taking the message once the database is back.
 */
import { randomBytes } from 'node:crypto';
import mqtt from 'mqtt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { loadParser } from '@nemuri/parser/node';
import { openPostgres } from '../database/postgresql.ts';
import type { Database } from '../database/database.ts';
import { TEST_DATABASE_URL, createTestSchema, describePostgres, type TestSchema } from '../testing/postgres.ts';
import { registerDevice, startIngestServer, uniqueSerial, type IngestTestServer } from './testing.ts';

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
    const { rows } = await admin.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where application_name = $1 and query like 'listen %'",
      [applicationName],
    );
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
    const device = await mqtt.connectAsync(base.server.mqttUrl, { username: serial, password: 'kill-secret', clientId: serial, protocolVersion: 4, reconnectPeriod: 0 }, false);
    try {
      const startMs = pastMinute();
      const frame = (sequence: number): Buffer =>
        Buffer.from(parser.encodeSmfFrame({ channel: 'respiHr', format: 'float32', sampleRate: 1, sequence, startTimeUs: (startMs + sequence * 1000) * 1000, values: [14, 60] }));
      await device.publishAsync(`devices/${serial}/frames`, frame(0), { qos: 1 });
      await terminateServerConnections();
      await device.publishAsync(`devices/${serial}/frames`, frame(1), { qos: 1 });
      const { rows } = await admin.query<{ n: number }>(`select count(*)::int as n from ${schema.schema}.signal_frames_pending where serial = $1`, [serial]);
      expect(rows[0]?.n).toBe(2);
    } finally {
      await device.endAsync(true);
    }
  });
});
