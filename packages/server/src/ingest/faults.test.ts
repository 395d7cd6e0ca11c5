/**
 * Fault injection under ingest (issue 25), on real parts: a PostgreSQL cluster of the test's own
 * stopped (immediate: a crash as clients see it) and started again while devices publish, and a
 * Mosquitto of the test's own (the server on MQTT_URL with its persistent session) stopped and
 * killed and started again. Each test
 * counts the frames the devices got acknowledged against the frames stored, asserts readiness
 * turned false meanwhile, and that ingest resumed within 10 s of the dependency coming back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { MOSQUITTO_BINARY, PrivateMosquitto } from '../testing/privateMosquitto.ts';
import { postgresBinDir, PrivatePostgres } from '../testing/privatePostgres.ts';
import { CountingDevice, countFault, eventually, pastMinute, storedSequences } from './faultTesting.ts';
import { registerDevice, requireForFaults, SKIP_FAULTS, signedInClient, startIngestServer, uniqueSerial, type IngestTestServer } from './testing.ts';

const STAFF = 'staff@example.com';
const METRICS_TOKEN = 'fault-test-metrics-token-0123456789abcdef';
const DEVICES = 5;

async function readyStatus(url: string): Promise<{ status: number; body: { checks?: Record<string, string>; reasons?: string[] } }> {
  const response = await fetch(`${url}/api/health/ready`);
  return { status: response.status, body: (await response.json()) as { checks?: Record<string, string>; reasons?: string[] } };
}

/** The value of a /metrics gauge whose labels include `labels` (e.g. `check="storage"`). */
async function gauge(url: string, name: string, labels = ''): Promise<number | undefined> {
  const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const line = (await response.text()).split('\n').find((text) => text.startsWith(`${name}{`) && text.includes(labels));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe.skipIf(SKIP_FAULTS)('PostgreSQL stopped and started under ingest (a private cluster)', () => {
  beforeAll(() => requireForFaults(!(postgresBinDir() === null), 'PostgreSQL server binaries (initdb, pg_ctl)'));
  let cluster: PrivatePostgres;
  let base: IngestTestServer;

  beforeAll(async () => {
    cluster = await PrivatePostgres.start();
    base = await startIngestServer({ DATABASE_URL: cluster.url, METRICS_TOKEN });
  }, 300_000);
  afterAll(async () => {
    await base?.stop();
    await base?.remove();
    await cluster?.destroy();
  });

  it('turns not ready, resumes within 10 s of the database coming back, and loses no acknowledged frame', { timeout: 120_000 }, async () => {
    const url = base.server.url;
    const startMs = pastMinute();
    const serials = Array.from({ length: DEVICES }, (_, i) => uniqueSerial(`pgout${i}`));
    for (const serial of serials) await registerDevice(base.server, serial, 'outage-secret', DEMO_DOMAINS.facilityA);
    const devices = await Promise.all(serials.map((serial) => CountingDevice.connect({ url: base.server.mqttUrl, serial, secret: 'outage-secret', startMs })));
    try {
      expect((await readyStatus(url)).status).toBe(200);
      expect(await gauge(url, 'nemuri_ready')).toBe(1);
      for (const device of devices) device.start();
      await eventually(() => devices.every((device) => device.acked.size >= 10) || undefined, 'frames acknowledged before the outage');

      await cluster.stop('immediate');
      const notReady = await eventually(
        async () => {
          const ready = await readyStatus(url);
          return ready.status === 503 ? ready : undefined;
        },
        'readiness turning false',
        15_000,
        200,
      );
      expect(notReady.body.checks?.database).toBe('down');
      // Frames keep arriving and cannot be stored: the storage check says so too.
      await eventually(async () => ((await readyStatus(url)).body.checks?.storage === 'down' ? true : undefined), 'the storage check down', 15_000, 200);
      expect(await gauge(url, 'nemuri_ready')).toBe(0);
      expect(await gauge(url, 'nemuri_ready_check', 'check="storage"')).toBe(0);
      expect(await gauge(url, 'nemuri_ingest_backlog_frames')).toBeGreaterThanOrEqual(0);
      await new Promise((resolve) => setTimeout(resolve, 2000));

      await cluster.startAgain();
      const backAt = Date.now();
      const resumedAt = await eventually(
        () => {
          const firsts = devices.map((device) => device.firstAckAfter(backAt));
          return firsts.every((at) => at !== null) ? Math.max(...(firsts as number[])) : undefined;
        },
        'every device acknowledged again',
        20_000,
      );
      await eventually(async () => ((await readyStatus(url)).status === 200 ? true : undefined), 'ready again', 20_000, 200);
      // A few seconds more of normal ingest, then every frame sent acknowledged.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await Promise.all(devices.map((device) => device.stop()));

      const browser = await signedInClient(base.server, STAFF);
      const stored = new Map<string, Set<number>>();
      for (const device of devices) stored.set(device.serial, await storedSequences(url, browser.cookieHeader, device.serial, startMs, startMs + 60_000));
      const figures = countFault('PostgreSQL stopped (immediate) and started again, embedded broker', devices, stored, resumedAt - backAt);
      expect(figures.acknowledged).toBeGreaterThan(DEVICES * 30);
      expect(figures.lost).toBe(0);
      expect(figures.resumeMs).toBeLessThan(10_000);
      for (const device of devices) expect(device.acked.size).toBe(device.sent);
    } finally {
      await Promise.all(devices.map((device) => device.close()));
    }
  });
});

describe.skipIf(SKIP_FAULTS)('Mosquitto (MQTT_URL) stopped and killed under ingest (a private broker)', () => {
  beforeAll(() => requireForFaults(!(MOSQUITTO_BINARY === null), 'the mosquitto binary'));
  let broker: PrivateMosquitto;
  let base: IngestTestServer;

  beforeAll(async () => {
    broker = await PrivateMosquitto.start();
    base = await startIngestServer({ MQTT_URL: broker.url, MQTT_CLIENT_ID: uniqueSerial('server'), METRICS_TOKEN });
  }, 300_000);
  afterAll(async () => {
    await base?.stop();
    await base?.remove();
    await broker?.destroy();
  });

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`${signal}: readiness false while it is away, ingest back within 10 s of its return, no acknowledged frame lost`, { timeout: 120_000 }, async () => {
      const url = base.server.url;
      // Frames of a minute of their own per case.
      const startMs = pastMinute() + (signal === 'SIGTERM' ? 0 : 60_000);
      const serials = Array.from({ length: 3 }, (_, i) => uniqueSerial(`mq${signal}${i}`));
      for (const serial of serials) await registerDevice(base.server, serial, 'unused-with-mosquitto', DEMO_DOMAINS.facilityA);
      const devices = await Promise.all(serials.map((serial) => CountingDevice.connect({ url: broker.url, serial, startMs })));
      try {
        await eventually(async () => ((await readyStatus(url)).status === 200 ? true : undefined), 'ready', 20_000, 200);
        for (const device of devices) device.start();
        await eventually(() => devices.every((device) => device.acked.size >= 20) || undefined, 'frames acknowledged before the fault', 20_000);

        await broker.stop(signal);
        const notReady = await eventually(
          async () => {
            const ready = await readyStatus(url);
            return ready.status === 503 ? ready : undefined;
          },
          'readiness turning false',
          15_000,
          100,
        );
        expect(notReady.body.checks?.broker).toBe('down');
        await new Promise((resolve) => setTimeout(resolve, 2000));
        await broker.startAgain();
        const backAt = Date.now();
        const resumedAt = await eventually(
          () => {
            const firsts = devices.map((device) => device.firstAckAfter(backAt));
            return firsts.every((at) => at !== null) ? Math.max(...(firsts as number[])) : undefined;
          },
          'every device acknowledged again',
          20_000,
        );
        await eventually(async () => ((await readyStatus(url)).status === 200 ? true : undefined), 'ready again', 20_000, 200);
        await new Promise((resolve) => setTimeout(resolve, 2000));
        await Promise.all(devices.map((device) => device.stop()));

        const browser = await signedInClient(base.server, STAFF);
        // Everything the broker acknowledged reaches storage: wait until it is all there (or time out and count).
        const stored = new Map<string, Set<number>>();
        await eventually(
          async () => {
            for (const device of devices) stored.set(device.serial, await storedSequences(url, browser.cookieHeader, device.serial, startMs, startMs + 60_000));
            return devices.every((device) => [...device.acked].every((sequence) => stored.get(device.serial)?.has(sequence))) || undefined;
          },
          'every acknowledged frame stored',
          15_000,
          500,
        ).catch(() => undefined);
        const figures = countFault(
          `Mosquitto ${signal === 'SIGTERM' ? 'stopped (SIGTERM)' : 'killed (SIGKILL)'} and started again, MQTT_URL with a persistent session`,
          devices,
          stored,
          resumedAt - backAt,
        );
        expect(figures.acknowledged).toBeGreaterThan(60);
        expect(figures.lost).toBe(0);
        expect(figures.resumeMs).toBeLessThan(10_000);
        for (const device of devices) expect(device.acked.size).toBe(device.sent);
      } finally {
        await Promise.all(devices.map((device) => device.close()));
      }
    });
  }
});
