/**
 * The device pipeline end to end over real sockets: simulated devices publish over MQTT (the embedded
 * broker, and this machine's Mosquitto), a signed-in browser subscribes over the WebSocket, and the
 * frames are read back from storage through the time-range API. Also: device credentials, HTTP ingest,
 * scope, and a restart losing no acknowledged frame.
 */
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { loadParser } from '@nemuri/parser/node';
import { startSimulation, type EncodedFrame } from '@nemuri/simulator/index';
import { SKIP_POSTGRES, createTestSchema, describePostgres } from '../testing/postgres.ts';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { makeTempDir } from '../testing/webDist.ts';
import {
  type IngestTestServer,
  LiveSignalsClient,
  MOSQUITTO,
  readSignals,
  registerDevice,
  requireMosquitto,
  respiHrFrame,
  signedInClient,
  SKIP_MQTT,
  startIngestServer,
  storedRespiHr,
  uniqueSerial,
  waitForDivision,
} from './testing.ts';

const STAFF = 'staff@example.com';
const CHANNELS = ['ecg', 'respiAxl', 'respiHr'] as const;

/** A whole minute, 10 minutes ago: simulated seconds then lie in two stored minutes at most. */
function pastMinute(): number {
  return Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000;
}

/**
 * Runs simulated devices through `broker`, with a browser subscribed to them, and checks that the
 * browser got every frame in order and that storage holds every frame.
 */
async function streamThrough(base: IngestTestServer, broker: string, serials: string[]) {
  const browser = await signedInClient(base.server, STAFF);
  const live = await LiveSignalsClient.open(base.server, browser.cookieHeader);
  for (const serial of serials) expect(await live.subscribe(serial)).toMatchObject({ type: 'status', serial, online: false });

  const sent = new Map<string, EncodedFrame[]>();
  const startTime = pastMinute() + 50_000;
  const simulation = await startSimulation({
    serials,
    broker,
    secretFor: (serial) => `secret-of-${serial}`,
    seed: 'ingest',
    speed: 50,
    durationSeconds: 20,
    startTime,
    channels: [...CHANNELS],
    onFrame: (serial, frame) => sent.set(serial, [...(sent.get(serial) ?? []), frame]),
  });
  await simulation.done;
  expect(simulation.stats.publishErrors).toBe(0);
  expect(simulation.stats.framesPublished).toBe(simulation.stats.framesGenerated);
  const total = simulation.stats.framesGenerated;
  expect(total).toBeGreaterThan(0);

  // Live: every frame, in the order sent, as raw SMF bytes behind the serial.
  await live.waitFor(() => live.frames.length >= total, `${total} live frames (got ${live.frames.length})`);
  for (const serial of serials) {
    expect(live.framesOf(serial)).toEqual((sent.get(serial) ?? []).map((frame) => Buffer.from(frame.bytes)));
  }
  expect(
    live.messages
      .filter((message) => message.type === 'status' && message.online === true)
      .map((message) => message.serial)
      .sort(),
  ).toEqual([...serials].sort());
  live.close();

  // A later subscriber gets the last 5 s from the ring buffer first (the frames starting at most 5 s
  // before the newest), then live frames.
  const late = await LiveSignalsClient.open(base.server, browser.cookieHeader);
  await late.subscribe(serials[0]!, ['ecg']);
  const ecgSent = (sent.get(serials[0]!) ?? []).filter((frame) => frame.channel === 'ecg').map((frame) => Buffer.from(frame.bytes));
  await late.waitFor(() => late.frames.length >= 6, 'the ring buffer backfill');
  expect(late.framesOf(serials[0]!)).toEqual(ecgSent.slice(-6));
  late.close();

  // Stored: every acknowledged frame, read back per channel in time order.
  const parser = await loadParser();
  for (const serial of serials) {
    for (const channel of CHANNELS) {
      const expected = Buffer.concat((sent.get(serial) ?? []).filter((frame) => frame.channel === channel).map((frame) => frame.bytes));
      const stored = await readSignals(base, browser.cookieHeader, serial, channel, startTime, startTime + 20_000);
      expect(stored.status).toBe(200);
      expect(stored.body.equals(expected)).toBe(true);
      expect(parser.decodeSmfStream(stored.body).map((frame) => frame.sequence)).toEqual([...Array(20).keys()]);
    }
  }
  // And again once compacted into chunks.
  await base.server.app.signals.store.compactAll(Number.MAX_SAFE_INTEGER);
  const { rows } = await base.server.database.query<{ n: number }>('select count(*)::int as n from signal_frames_pending where serial = any($1::text[])', [
    serials,
  ]);
  expect(rows[0]?.n).toBe(0);
  for (const serial of serials) {
    const expected = Buffer.concat((sent.get(serial) ?? []).filter((frame) => frame.channel === 'ecg').map((frame) => frame.bytes));
    const stored = await readSignals(base, browser.cookieHeader, serial, 'ecg', startTime, startTime + 20_000);
    expect(stored.body.equals(expected)).toBe(true);
  }
  return { startTime, sent };
}

describe('device ingest through the embedded broker (PGlite)', () => {
  let base: IngestTestServer;
  beforeAll(async () => {
    base = await startIngestServer();
  }, 60_000);
  afterAll(async () => {
    await base?.stop();
    await base?.remove();
  });

  it('listens on a free port with MQTT_PORT=0 and reports it', () => {
    expect(base.server.mqttPort).toBeGreaterThan(0);
    expect(base.server.mqttUrl).toBe(`mqtt://127.0.0.1:${base.server.mqttPort}`);
  });

  it('frames of simulated devices reach a browser in order and complete, and are stored', { timeout: 60_000 }, async () => {
    const serials = [uniqueSerial('a'), uniqueSerial('b')];
    for (const serial of serials) await registerDevice(base.server, serial, `secret-of-${serial}`, DEMO_DOMAINS.facilityA);
    await streamThrough(base, base.server.mqttUrl, serials);
    await base.server.app.devices.status.flush();
    const after = await base.server.app.documents.get(SYSTEM_PRINCIPAL, `devices/${serials[0]}`);
    expect(typeof after?.document.lastSeenAt).toBe('string');
  });

  it('marks a device offline 30 s after its last frame, tells subscribers, and records lastSeenAt', async () => {
    const serial = uniqueSerial('status');
    await registerDevice(base.server, serial, 's', DEMO_DOMAINS.facilityA);
    const browser = await signedInClient(base.server, STAFF);
    const live = await LiveSignalsClient.open(base.server, browser.cookieHeader);
    expect(await live.subscribe(serial)).toMatchObject({ type: 'status', online: false, lastSeenAt: null });
    const status = base.server.app.devices.status;
    const seenAt = Date.now() - 40_000;
    status.seen(serial, seenAt);
    await status.tick(seenAt + 1000);
    await status.tick(Date.now());
    await live.waitFor(() => live.messages.filter((message) => message.serial === serial).length >= 3, 'online and offline status messages');
    expect(live.messages.filter((message) => message.serial === serial).map((message) => [message.online, message.lastSeenAt])).toEqual([
      [false, null],
      [true, new Date(seenAt).toISOString()],
      [false, new Date(seenAt).toISOString()],
    ]);
    live.close();
    const record = await base.server.app.documents.get(SYSTEM_PRINCIPAL, `devices/${serial}`);
    expect(record?.document.lastSeenAt).toBe(new Date(seenAt).toISOString());
    // SMF frames carry no battery level: left as it was.
    expect(record?.document.battery ?? null).toBeNull();
  });

  it('drops frames for a socket that does not keep up, counts them, and says so', { timeout: 60_000 }, async () => {
    const serial = uniqueSerial('slow');
    await registerDevice(base.server, serial, 's', DEMO_DOMAINS.facilityA);
    const browser = await signedInClient(base.server, STAFF);
    const live = await LiveSignalsClient.open(base.server, browser.cookieHeader);
    await live.subscribe(serial, ['eit']);
    live.pauseReading(true);
    // 1000 EIT frames of 16.7 kB: 16 MB, far beyond the 4 MiB a socket may have waiting.
    const parser = await loadParser();
    const startUs = pastMinute() * 1000;
    const values = new Float32Array(208 * 20);
    const frames = [...Array(1000).keys()].map((sequence) =>
      parser.encodeSmfFrame({ channel: 'eit', format: 'float32', width: 208, sampleRate: 20, sequence, startTimeUs: startUs + sequence * 1e6, values }),
    );
    const device = (await base.server.app.devices.registry.find(serial))!;
    for (let i = 0; i < frames.length; i += 100) await base.server.app.ingest.ingest(device, Buffer.concat(frames.slice(i, i + 100))).durable;
    live.pauseReading(false);
    // Until what was queued has arrived (the count stops growing) …
    for (let count = -1; count !== live.framesOf(serial).length;) {
      count = live.framesOf(serial).length;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    // … then one more frame: it brings the count of what was dropped.
    let last = frames.length;
    const sendOne = async () => {
      const frame = parser.encodeSmfFrame({
        channel: 'eit',
        format: 'float32',
        width: 208,
        sampleRate: 20,
        sequence: last,
        startTimeUs: startUs + last * 1e6,
        values,
      });
      last++;
      await base.server.app.ingest.ingest(device, frame).durable;
    };
    await sendOne();
    await live.waitFor(() => live.messages.some((message) => message.type === 'dropped'), 'the dropped notice');
    const dropped = live.messages.filter((message) => message.type === 'dropped').reduce((sum, message) => sum + (message.frames as number), 0);
    await live.waitFor(() => live.framesOf(serial).length + dropped >= last, 'every frame sent or counted as dropped');
    expect(dropped).toBeGreaterThan(0);
    expect(live.framesOf(serial).length + dropped).toBe(last);
    // What arrived is in order.
    const sequences = live.framesOf(serial).map((bytes) => bytes.readUInt32LE(12));
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    live.close();
  });

  it('refuses wrong secrets and unknown devices (not authorized), and logs the serial', async () => {
    const serial = uniqueSerial('cred');
    await registerDevice(base.server, serial, 'right', DEMO_DOMAINS.facilityA);
    const attempt = (username: string, password: string) =>
      mqtt.connectAsync(base.server.mqttUrl, { username, password, clientId: username, protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000 }, false);
    await expect(attempt(serial, 'wrong')).rejects.toThrow(/Not authorized/i);
    await expect(attempt(uniqueSerial('nobody'), 'right')).rejects.toThrow(/Not authorized/i);
    expect(base.logLines.some((line) => line.includes(serial) && line.includes('MQTT connection refused'))).toBe(true);
    const device = await attempt(serial, 'right');
    await device.endAsync();
  });

  it('lets a device publish only to its own topic, and nobody subscribe to device frames', async () => {
    const serial = uniqueSerial('own');
    const other = uniqueSerial('other');
    await registerDevice(base.server, serial, 's1', DEMO_DOMAINS.facilityA);
    const device = await mqtt.connectAsync(
      base.server.mqttUrl,
      { username: serial, password: 's1', clientId: serial, protocolVersion: 4, reconnectPeriod: 0 },
      false,
    );
    // SUBACK 0x80 (failure), which mqtt.js reports as an error.
    await expect(device.subscribeAsync('devices/+/frames', { qos: 1 })).rejects.toThrow(/Subscribe error/);
    await expect(device.subscribeAsync(`devices/${serial}/frames`, { qos: 1 })).rejects.toThrow(/Subscribe error/);
    const closed = new Promise<void>((resolve) => device.once('close', () => resolve()));
    device.publish(`devices/${other}/frames`, Buffer.from('x'), { qos: 1 });
    await closed;
    device.end(true);
    expect(base.logLines.some((line) => line.includes(`devices/${other}/frames`) && line.includes('publish refused'))).toBe(true);
  });

  it('acknowledges, counts and logs a malformed MQTT message, and carries on', async () => {
    const serial = uniqueSerial('garbage');
    await registerDevice(base.server, serial, 'g', DEMO_DOMAINS.facilityA);
    const device = await mqtt.connectAsync(
      base.server.mqttUrl,
      { username: serial, password: 'g', clientId: serial, protocolVersion: 4, reconnectPeriod: 0 },
      false,
    );
    const rejected = base.server.app.ingest.stats.rejectedMessages;
    await device.publishAsync(`devices/${serial}/frames`, Buffer.from('not an SMF frame at all, but long enough to look at'), { qos: 1 });
    expect(base.server.app.ingest.stats.rejectedMessages).toBe(rejected + 1);
    expect(base.logLines.some((line) => line.includes(serial) && line.includes('device message rejected') && line.includes('bad-magic'))).toBe(true);
    const parser = await loadParser();
    const frame = parser.encodeSmfFrame({
      channel: 'temperature',
      format: 'float32',
      sampleRate: 1,
      sequence: 0,
      startTimeUs: pastMinute() * 1000,
      values: [36.6],
    });
    await device.publishAsync(`devices/${serial}/frames`, Buffer.from(frame), { qos: 1 });
    await device.endAsync();
  });

  it('accepts HTTP batches with the device secret, and refuses bad secrets and malformed frames', async () => {
    const serial = uniqueSerial('http');
    await registerDevice(base.server, serial, 'http-secret', DEMO_DOMAINS.facilityA);
    const parser = await loadParser();
    const startUs = (pastMinute() + 5000) * 1000;
    const frames = [0, 1, 2].map((sequence) =>
      parser.encodeSmfFrame({ channel: 'temperature', format: 'float32', sampleRate: 1, sequence, startTimeUs: startUs + sequence * 1e6, values: [36.5] }),
    );
    const body = Buffer.concat(frames);
    const post = (path: string, data: Buffer | string, headers: Record<string, string>) =>
      fetch(`${base.server.url}${path}`, {
        method: 'POST',
        body: typeof data === 'string' ? data : new Uint8Array(data),
        headers: { 'content-type': 'application/octet-stream', ...headers },
      });

    const good = await post(`/api/devices/${serial}/frames`, body, { authorization: 'Bearer http-secret' });
    expect(good.status).toBe(202);
    expect(await good.json()).toEqual({ frames: 3 });

    const wrong = await post(`/api/devices/${serial}/frames`, body, { authorization: 'Bearer nope' });
    const unknown = await post(`/api/devices/${uniqueSerial('nobody')}/frames`, body, { authorization: 'Bearer http-secret' });
    const missing = await post(`/api/devices/${serial}/frames`, body, {});
    expect([wrong.status, unknown.status, missing.status]).toEqual([401, 401, 401]);
    expect(await wrong.json()).toEqual(await unknown.json());

    const corrupted = Buffer.from(body);
    corrupted[60] = corrupted[60]! ^ 0xff;
    const bad = await post(`/api/devices/${serial}/frames`, corrupted, { authorization: 'Bearer http-secret' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'invalid-argument', message: expect.stringMatching(/CRC/i), parseError: { code: 'bad-crc', frame: 1 } });

    const base64 = await post(`/api/devices/${serial}/frames`, Buffer.concat(frames.slice(0, 1)).toString('base64'), {
      authorization: 'Bearer http-secret',
      'content-type': 'text/plain',
    });
    expect(base64.status).toBe(202);

    const tooLarge = await post(`/api/devices/${serial}/frames`, Buffer.alloc(4 * 1024 * 1024 + 1), { authorization: 'Bearer http-secret' });
    expect(tooLarge.status).toBe(413);
    // 20 requests a second, bursts of 40: 60 at once cannot all pass.
    const burst = await Promise.all(
      Array.from({ length: 60 }, () => post(`/api/devices/${serial}/frames`, Buffer.from(frames[0]!), { authorization: 'Bearer http-secret' })),
    );
    const statuses = burst.map((reply) => reply.status);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 202 || status === 429)).toBe(true);

    const browser = await signedInClient(base.server, STAFF);
    const stored = await readSignals(base, browser.cookieHeader, serial, 'temperature', startUs / 1000, startUs / 1000 + 10_000);
    expect(stored.status).toBe(200);
    // The base64 resend of frame 0 is a duplicate: stored once.
    expect(stored.body.equals(body)).toBe(true);
  });

  it('stores only the chosen channels (SIGNAL_STORED_CHANNELS), and still streams the others live', async () => {
    const serial = uniqueSerial('chosen');
    await registerDevice(base.server, serial, 'c', DEMO_DOMAINS.facilityA);
    const browser = await signedInClient(base.server, STAFF);
    const live = await LiveSignalsClient.open(base.server, browser.cookieHeader);
    await live.subscribe(serial);
    const parser = await loadParser();
    const startMs = pastMinute();
    const ecg = parser.encodeSmfFrame({ channel: 'ecg', format: 'int16', sampleRate: 250, sequence: 0, startTimeUs: startMs * 1000, raw: new Int16Array(250) });
    const temperature = parser.encodeSmfFrame({
      channel: 'temperature',
      format: 'float32',
      sampleRate: 1,
      sequence: 0,
      startTimeUs: startMs * 1000,
      values: [36.6],
    });
    const pipeline = base.server.app.ingest;
    const device = (await base.server.app.devices.registry.find(serial))!;
    pipeline.storeChannels(['ecg']);
    try {
      expect(pipeline.ingest(device, Buffer.concat([ecg, temperature])).frames).toBe(2);
      await base.server.app.signals.store.flush();
    } finally {
      pipeline.storeChannels(null);
    }
    await live.waitFor(() => live.framesOf(serial).length === 2, 'both frames live');
    live.close();
    expect((await readSignals(base, browser.cookieHeader, serial, 'ecg', startMs, startMs + 1000)).body.equals(Buffer.from(ecg))).toBe(true);
    expect((await readSignals(base, browser.cookieHeader, serial, 'temperature', startMs, startMs + 1000)).body.byteLength).toBe(0);
  });

  it('keeps devices of another domain from a staff user: no live subscription, no signals', async () => {
    const serial = uniqueSerial('elsewhere');
    await registerDevice(base.server, serial, 'x', DEMO_DOMAINS.facilityB);
    const browser = await signedInClient(base.server, STAFF);
    const live = await LiveSignalsClient.open(base.server, browser.cookieHeader);
    // Another domain's device answers exactly like one that does not exist.
    expect(await live.subscribe(serial)).toMatchObject({ type: 'error', serial, code: 'not-found' });
    live.close();
    const now = Date.now();
    const stored = await readSignals(base, browser.cookieHeader, serial, 'ecg', now - 60_000, now);
    expect(stored.status).toBe(404);
    const signedOut = await readSignals(base, '', serial, 'ecg', now - 60_000, now);
    expect(signedOut.status).toBe(401);
  });
});

describe('when the database fails', () => {
  it('acknowledges nothing: no PUBACK (the connection closes) and no 202', { timeout: 60_000 }, async () => {
    const base = await startIngestServer({ DEMO: '0' });
    try {
      const serial = uniqueSerial('dbdown');
      await registerDevice(base.server, serial, 's', DEMO_DOMAINS.facilityA);
      const device = await mqtt.connectAsync(
        base.server.mqttUrl,
        { username: serial, password: 's', clientId: serial, protocolVersion: 4, reconnectPeriod: 0 },
        false,
      );
      await base.server.database.close();
      const parser = await loadParser();
      const frame = Buffer.from(
        parser.encodeSmfFrame({ channel: 'temperature', format: 'float32', sampleRate: 1, sequence: 0, startTimeUs: pastMinute() * 1000, values: [36.6] }),
      );
      let acknowledged = false;
      const closed = new Promise<void>((resolve) => device.once('close', () => resolve()));
      device.publish(`devices/${serial}/frames`, frame, { qos: 1 }, (error) => {
        if (!error) acknowledged = true;
      });
      await closed;
      device.end(true);
      expect(acknowledged).toBe(false);
      const reply = await fetch(`${base.server.url}/api/devices/${serial}/frames`, {
        method: 'POST',
        body: new Uint8Array(frame),
        headers: { 'content-type': 'application/octet-stream', authorization: 'Bearer s' },
      });
      expect(reply.status).toBe(500);
      expect(base.server.app.ingest.stats.storageErrors).toBeGreaterThan(0);
      expect(base.logLines.filter((line) => line.includes('frames could not be stored')).length).toBeGreaterThan(0);
    } finally {
      await base.stop();
      await base.remove();
    }
  });
});

describe.skipIf(SKIP_MQTT)(`device ingest through Mosquitto at ${MOSQUITTO.url}`, () => {
  let base: IngestTestServer;
  beforeAll(async () => {
    await requireMosquitto();
    base = await startIngestServer({ MQTT_URL: MOSQUITTO.url });
  }, 60_000);
  afterAll(async () => {
    await base?.stop();
    await base?.remove();
  });

  it('takes a free port when the default MQTT port 1883 is taken, and fails when MQTT_PORT=1883 was asked for', { timeout: 30_000 }, async () => {
    const fallback = await startIngestServer({ MQTT_PORT: '', DEMO: '0' });
    try {
      expect(fallback.server.mqttPort).not.toBe(1883);
      expect(fallback.logLines.some((line) => line.includes('"level":40') && line.includes('MQTT port 1883 is already in use'))).toBe(true);
    } finally {
      await fallback.stop();
      await fallback.remove();
    }
    await expect(startIngestServer({ MQTT_PORT: '1883', DEMO: '0' })).rejects.toThrow(/MQTT_PORT 1883 on 127\.0\.0\.1 is already in use/);
  });

  it('frames published to Mosquitto reach a browser in order and complete, and are stored', { timeout: 60_000 }, async () => {
    expect(base.server.mqttPort).toBeNull();
    const serial = uniqueSerial('mosq');
    await registerDevice(base.server, serial, `secret-of-${serial}`, DEMO_DOMAINS.facilityA);
    await streamThrough(base, MOSQUITTO.url, [serial]);
  });
});

describe.skipIf(SKIP_MQTT || SKIP_POSTGRES)('two server processes sharing Mosquitto (MQTT_SHARED_GROUP) and PostgreSQL', () => {
  it("divide the devices: each device's frames are stored by its owner alone, while a browser on either gets them all live", { timeout: 60_000 }, async () => {
    await requireMosquitto();
    const schema = await createTestSchema();
    const dir = await makeTempDir('nemuri-ingest-shared-');
    const env = { MQTT_URL: MOSQUITTO.url, MQTT_SHARED_GROUP: uniqueSerial('group').replace(/[^A-Za-z0-9_-]/g, '_'), DATABASE_URL: schema.url };
    const first = await startIngestServer(env, dir.path);
    let second: IngestTestServer | undefined;
    try {
      second = await startIngestServer(env, dir.path);
      // Enough devices that both processes own some (two owners: 1 in 32,768 runs all go to one).
      const serials = [...Array(16).keys()].map((n) => uniqueSerial(`shared${n}`));
      for (const serial of serials) await registerDevice(first.server, serial, 'unused-with-mosquitto', DEMO_DOMAINS.facilityA);
      await waitForDivision([first.server, second.server], serials);
      const browser = await signedInClient(second.server, STAFF);
      const live = await LiveSignalsClient.open(second.server, browser.cookieHeader);
      for (const serial of serials) await live.subscribe(serial);
      // The live subscriptions at the broker are asynchronous: wait until they pass frames.
      await new Promise((resolve) => setTimeout(resolve, 300));

      const parser = await loadParser();
      const startMs = pastMinute();
      const frames = [...Array(10).keys()].map((sequence) => respiHrFrame(parser, startMs, sequence));
      await Promise.all(
        serials.map(async (serial) => {
          const device = await mqtt.connectAsync(MOSQUITTO.url, { protocolVersion: 4, clientId: serial, clean: true, reconnectPeriod: 0 });
          for (const frame of frames) await device.publishAsync(`devices/${serial}/frames`, frame, { qos: 1 });
          await device.endAsync();
        }),
      );

      for (const serial of serials) {
        await live.waitFor(() => live.framesOf(serial).length >= frames.length, `every frame of ${serial} live`);
        expect(live.framesOf(serial)).toEqual(frames);
      }
      live.close();
      // The first server has no live subscriber: it took its own devices' messages, once each, and no other.
      const ofFirst = serials.filter((serial) => first.server.deviceBroker.shares!.holds(serial));
      expect(ofFirst.length).toBeGreaterThan(0);
      expect(ofFirst.length).toBeLessThan(serials.length);
      expect(first.server.app.ingest.stats.messages).toBe(ofFirst.length * frames.length);
      for (const serial of serials) {
        const stored = await storedRespiHr(second, browser.cookieHeader, serial, startMs, Buffer.concat(frames));
        expect(stored.equals(Buffer.concat(frames))).toBe(true);
      }
    } finally {
      await second?.stop();
      await first.stop();
      await schema.drop();
      await dir.remove();
    }
  });

  it('a process joining while devices send takes its devices over without losing a frame', { timeout: 90_000 }, async () => {
    await requireMosquitto();
    const schema = await createTestSchema();
    const dir = await makeTempDir('nemuri-ingest-joining-');
    const group = uniqueSerial('group').replace(/[^A-Za-z0-9_-]/g, '_');
    const envOf = (name: string) => ({ MQTT_URL: MOSQUITTO.url, MQTT_SHARED_GROUP: group, MQTT_CLIENT_ID: `${group}-${name}`, DATABASE_URL: schema.url });
    const first = await startIngestServer(envOf('first'), dir.path);
    let second: IngestTestServer | undefined;
    const serials = [...Array(12).keys()].map((n) => uniqueSerial(`join${n}`));
    try {
      for (const serial of serials) await registerDevice(first.server, serial, 'unused-with-mosquitto', DEMO_DOMAINS.facilityA);
      await waitForDivision([first.server], serials);
      const parser = await loadParser();
      const startMs = pastMinute();
      // 60 frames each, one every 50 ms: the second process starts, joins and takes its devices meanwhile.
      const frames = [...Array(60).keys()].map((sequence) => respiHrFrame(parser, startMs, sequence));
      const sending = Promise.all(
        serials.map(async (serial) => {
          const device = await mqtt.connectAsync(MOSQUITTO.url, { protocolVersion: 4, clientId: serial, clean: true, reconnectPeriod: 0 });
          for (const frame of frames) {
            await device.publishAsync(`devices/${serial}/frames`, frame, { qos: 1 });
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          await device.endAsync();
        }),
      );
      second = await startIngestServer(envOf('second'), dir.path);
      await sending;
      await waitForDivision([first.server, second.server], serials);
      expect(second.server.app.ingest.stats.messages).toBeGreaterThan(0);
      const browser = await signedInClient(first.server, STAFF);
      for (const serial of serials) {
        const stored = await storedRespiHr(first, browser.cookieHeader, serial, startMs, Buffer.concat(frames));
        expect(stored.equals(Buffer.concat(frames))).toBe(true);
      }
    } finally {
      await second?.stop();
      await first.stop();
      await endSessions([`${group}-first`, `${group}-second`]);
      await schema.drop();
      await dir.remove();
    }
  });
});

/** Ends persistent sessions at the broker, so that they do not keep queueing frames for nobody. */
async function endSessions(clientIds: readonly string[]): Promise<void> {
  for (const clientId of clientIds) {
    const cleaner = await mqtt.connectAsync(MOSQUITTO.url, { protocolVersion: 4, clientId, clean: true, reconnectPeriod: 0 });
    await cleaner.endAsync();
  }
}

describe.skipIf(SKIP_MQTT || SKIP_POSTGRES)('a process of a group stopped (persistent sessions)', () => {
  it('hands its devices to the others: every frame published after it stopped is stored by the one left', { timeout: 60_000 }, async () => {
    await requireMosquitto();
    const schema = await createTestSchema();
    const dir = await makeTempDir('nemuri-ingest-leaving-');
    const group = uniqueSerial('group').replace(/[^A-Za-z0-9_-]/g, '_');
    // Each with a client id of its own: a persistent session, which Mosquitto goes on handing its
    // shares' messages to while it is disconnected, until the same id connects again.
    const envOf = (name: string) => ({ MQTT_URL: MOSQUITTO.url, MQTT_SHARED_GROUP: group, MQTT_CLIENT_ID: `${group}-${name}`, DATABASE_URL: schema.url });
    const staying = await startIngestServer(envOf('staying'), dir.path);
    let leaving: IngestTestServer | undefined;
    try {
      leaving = await startIngestServer(envOf('leaving'), dir.path);
      const serials = [...Array(16).keys()].map((n) => uniqueSerial(`leave${n}`));
      for (const serial of serials) await registerDevice(staying.server, serial, 'unused-with-mosquitto', DEMO_DOMAINS.facilityA);
      await waitForDivision([staying.server, leaving.server], serials);
      const parser = await loadParser();
      const startMs = pastMinute();
      const frames = [...Array(30).keys()].map((sequence) => respiHrFrame(parser, startMs, sequence));
      const devices = await Promise.all(
        serials.map((serial) => mqtt.connectAsync(MOSQUITTO.url, { protocolVersion: 4, clientId: serial, clean: true, reconnectPeriod: 0 })),
      );
      const publish = (part: Buffer[]) =>
        Promise.all(
          devices.map(async (device, i) => {
            for (const frame of part) await device.publishAsync(`devices/${serials[i]}/frames`, frame, { qos: 1 });
          }),
        );
      await publish(frames.slice(0, 10));
      await leaving.stop();
      const tookBefore = leaving.server.app.ingest.stats.messages;
      expect(tookBefore).toBeGreaterThan(0);
      leaving = undefined;
      await publish(frames.slice(10));
      await Promise.all(devices.map((device) => device.endAsync()));

      const browser = await signedInClient(staying.server, STAFF);
      for (const serial of serials) {
        const stored = await storedRespiHr(staying, browser.cookieHeader, serial, startMs, Buffer.concat(frames));
        // Without the hand-over, the stopped process's session would go on being given its devices'
        // messages: they would wait at the broker for a process that does not come back.
        expect(stored.length / frames[0]!.length).toBe(frames.length);
        expect(stored.equals(Buffer.concat(frames))).toBe(true);
      }
    } finally {
      await leaving?.stop();
      await staying.stop();
      await endSessions([`${group}-staying`, `${group}-leaving`]);
      await schema.drop();
      await dir.remove();
    }
  });

  it('alone in its group, keeps its devices at the broker while it restarts: the frames sent meanwhile are stored', { timeout: 60_000 }, async () => {
    await requireMosquitto();
    const schema = await createTestSchema();
    const group = uniqueSerial('group').replace(/[^A-Za-z0-9_-]/g, '_');
    try {
      await storesWhatCameWhileDown({ MQTT_URL: MOSQUITTO.url, MQTT_SHARED_GROUP: group, MQTT_CLIENT_ID: `${group}-only`, DATABASE_URL: schema.url }, 'alone');
    } finally {
      await schema.drop();
    }
  });
});

describe.skipIf(SKIP_MQTT)('a persistent session on Mosquitto (MQTT_CLIENT_ID)', () => {
  it('receives after a restart the frames published while the server was down', { timeout: 60_000 }, async () => {
    await requireMosquitto();
    await storesWhatCameWhileDown({ MQTT_URL: MOSQUITTO.url, MQTT_CLIENT_ID: uniqueSerial('server'), DATABASE_URL: '' }, 'queued');
  });
});

/**
 * Starts a server with a persistent session (env's MQTT_CLIENT_ID), registers a device, stops it,
 * publishes frames while it is down, starts it again and expects every frame stored; then ends the
 * session at the broker, so that it does not keep queueing frames for nobody.
 */
async function storesWhatCameWhileDown(env: Record<string, string> & { MQTT_CLIENT_ID: string }, name: string): Promise<void> {
  const dir = await makeTempDir(`nemuri-ingest-${name}-`);
  try {
    let base = await startIngestServer(env, dir.path);
    const serial = uniqueSerial(name);
    await registerDevice(base.server, serial, 'unused-with-mosquitto', DEMO_DOMAINS.facilityA);
    // With a group: its share held before the server stops.
    if (env.MQTT_SHARED_GROUP !== undefined) await waitForDivision([base.server], [serial]);
    await base.stop();

    const parser = await loadParser();
    const startMs = pastMinute();
    const frames = [0, 1, 2, 3, 4].map((sequence) => respiHrFrame(parser, startMs, sequence));
    const device = await mqtt.connectAsync(MOSQUITTO.url, { protocolVersion: 4, clientId: serial, clean: true, reconnectPeriod: 0 });
    for (const frame of frames) await device.publishAsync(`devices/${serial}/frames`, frame, { qos: 1 });
    await device.endAsync();

    base = await startIngestServer(env, dir.path);
    try {
      const browser = await signedInClient(base.server, STAFF);
      const stored = await storedRespiHr(base, browser.cookieHeader, serial, startMs, Buffer.concat(frames));
      expect(stored.equals(Buffer.concat(frames))).toBe(true);
    } finally {
      await base.stop();
    }
  } finally {
    await endSessions([env.MQTT_CLIENT_ID]);
    await dir.remove();
  }
}

describe('demo mode', () => {
  it('streams the simulated demo devices NM-0001 … NM-0024 through the embedded broker, and stops them with the server', { timeout: 60_000 }, async () => {
    // The demo data set (devices with their demo secrets) is skipped under Vitest unless asked for.
    const before = process.env.NEMURI_DEMO_DATA;
    process.env.NEMURI_DEMO_DATA = '1';
    let base: IngestTestServer;
    try {
      base = await startIngestServer({ SIMULATE: '1' });
    } finally {
      if (before === undefined) delete process.env.NEMURI_DEMO_DATA;
      else process.env.NEMURI_DEMO_DATA = before;
    }
    try {
      const simulation = base.server.simulation;
      expect(simulation, base.logLines.filter((line) => line.includes('"level":40') || line.includes('"level":50')).join('\n')).not.toBeNull();
      expect(simulation?.simulation.serials).toHaveLength(24);
      const browser = await signedInClient(base.server, 'sysadmin@example.com');
      const live = await LiveSignalsClient.open(base.server, browser.cookieHeader);
      await live.subscribe('NM-0001', ['respiHr']);
      await live.waitFor(() => live.framesOf('NM-0001').length >= 1, 'a live frame of NM-0001', 15_000);
      live.close();
    } finally {
      await base.stop();
      await base.remove();
    }
    expect(base.server.simulation?.simulation.stats.publishErrors).toBe(0);
  });
});

/** Publishes frames with QoS 1 and waits for each acknowledgement, then stops at once and restarts. */
function restartKeepsAcknowledgedFrames(setUp: () => Promise<{ env: Record<string, string>; dataDir: string; cleanUp(): Promise<void> }>) {
  it('keeps every frame acknowledged before stop() across a restart', { timeout: 60_000 }, async () => {
    const setup = await setUp();
    try {
      let base = await startIngestServer(setup.env, setup.dataDir);
      const serial = uniqueSerial('restart');
      await registerDevice(base.server, serial, 'restart-secret', DEMO_DOMAINS.facilityA);
      const parser = await loadParser();
      const startMs = pastMinute() + 30_000;
      const device = await mqtt.connectAsync(
        base.server.mqttUrl,
        { username: serial, password: 'restart-secret', clientId: serial, protocolVersion: 4, reconnectPeriod: 0 },
        false,
      );
      const frames: Uint8Array[] = [];
      for (let sequence = 0; sequence < 60; sequence++) {
        const frame = parser.encodeSmfFrame({
          channel: 'ecg',
          format: 'int16',
          sampleRate: 250,
          sequence,
          startTimeUs: (startMs + sequence * 1000) * 1000,
          raw: new Int16Array(250).fill(sequence),
        });
        frames.push(frame);
        await device.publishAsync(`devices/${serial}/frames`, Buffer.from(frame), { qos: 1 });
        // Acknowledged only once committed. Staged or already compacted: the frames are 10 minutes
        // old, so the compactor (every 10 s) may move their minute into a chunk during a slow run
        // (the staging table alone once read 2 where 45 were stored).
        const { rows } = await base.server.database.query<{ n: number }>(
          `select ((select coalesce(sum(frame_count), 0) from signal_frames_pending where serial = $1) + (select coalesce(sum(frame_count), 0) from signal_chunks where serial = $1))::int as n`,
          [serial],
        );
        expect(rows[0]?.n).toBe(sequence + 1);
      }
      device.end(true);
      await base.stop();
      base = await startIngestServer(setup.env, setup.dataDir);
      try {
        const browser = await signedInClient(base.server, STAFF);
        const stored = await readSignals(base, browser.cookieHeader, serial, 'ecg', startMs, startMs + 60_000);
        expect(stored.status).toBe(200);
        expect(stored.body.equals(Buffer.concat(frames))).toBe(true);
      } finally {
        await base.stop();
      }
    } finally {
      await setup.cleanUp();
    }
  });
}

describe('restart on the same PGlite data directory', () => {
  restartKeepsAcknowledgedFrames(async () => {
    const dir = await makeTempDir('nemuri-ingest-restart-');
    return { env: { DATABASE_URL: '' }, dataDir: dir.path, cleanUp: () => dir.remove() };
  });
});

describePostgres('restart on the same PostgreSQL schema', () => {
  restartKeepsAcknowledgedFrames(async () => {
    const schema = await createTestSchema();
    const dir = await makeTempDir('nemuri-ingest-restart-pg-');
    return {
      env: { DATABASE_URL: schema.url },
      dataDir: dir.path,
      cleanUp: async () => {
        await schema.drop();
        await dir.remove();
      },
    };
  });
});
