/**
 * A slow database under ingest (issue 24), on real parts: PostgreSQL behind a relay that stalls (a
 * write hangs for as long as the test likes, then completes) and a Mosquitto of the test's own.
 * A message tried again past the in-flight limit, and the copies a broker delivers again, join the
 * write still under way instead of being written once more; a write that fails for real frees its
 * frames, so that the next try writes them; and every message is stored and acknowledged once the
 * database answers again.
 */
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadParser } from '@nemuri/parser/node';
import type { Parser } from '@nemuri/parser/parser';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { openPostgres } from '../database/postgresql.ts';
import { DocumentStore } from '../documents/store.ts';
import { createDeviceServices, type DeviceServices } from '../devices/deviceServices.ts';
import type { KnownDevice } from '../devices/deviceRegistry.ts';
import { createSignalServices, type SignalServices } from '../signals/signalServices.ts';
import { splitFrames } from '../signals/smfHeader.ts';
import { SKIP_POSTGRES, TEST_DATABASE_URL, createTestSchema, type TestSchema } from '../testing/postgres.ts';
import { MOSQUITTO_BINARY, PrivateMosquitto } from '../testing/privateMosquitto.ts';
import { TcpLink } from '../testing/tcpLink.ts';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { hashDeviceSecret } from '../devices/deviceSecret.ts';
import { connectExternalBroker, startEmbeddedBroker, type DeviceBroker, type EmbeddedBroker } from './broker.ts';
import { eventually, pastMinute } from './faultTesting.ts';
import { IngestPipeline, type IngestResult } from './pipeline.ts';
import { respiHrFrame, SKIP_MQTT, uniqueSerial } from './testing.ts';

/** Short, so that the tests pass it within a second instead of 30 s. */
const IN_FLIGHT_LIMIT_MS = 1000;

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe.skipIf(SKIP_POSTGRES || SKIP_MQTT)('a slow database under ingest', () => {
  let schema: TestSchema;
  let admin: Database;
  let link: TcpLink;
  let database: Database;
  let parser: Parser;
  let pipeline: IngestPipeline;
  let documents: DocumentStore;
  let signals: SignalServices;
  let devices: DeviceServices;
  const startMs = pastMinute();

  beforeAll(async () => {
    schema = await createTestSchema();
    admin = await schema.open();
    await migrate(admin);
    link = await TcpLink.open(TEST_DATABASE_URL);
    database = await openPostgres({ url: link.through(TEST_DATABASE_URL), searchPath: schema.schema });
    parser = await loadParser();
    documents = new DocumentStore(database, quiet);
    signals = createSignalServices(database, quiet);
    devices = createDeviceServices(database, documents, signals.hub, quiet);
    pipeline = new IngestPipeline({
      signals,
      status: devices.status,
      log: quiet,
      inFlightLimitMs: IN_FLIGHT_LIMIT_MS,
    });
  }, 60_000);
  afterEach(() => {
    link.resume();
    link.restore();
  });
  afterAll(async () => {
    await pipeline?.stop();
    await database?.close();
    await link?.close();
    await admin?.close();
    await schema?.drop();
  });

  /** One frame of a second of respiration and heart rate, `sequence` s after `startMs`. */
  const frame = (sequence: number): Buffer => respiHrFrame(parser, startMs, sequence, 60 + sequence);
  const message = (...sequences: number[]): Buffer => Buffer.concat(sequences.map(frame));
  const device = (serial: string): KnownDevice => ({ serial, domainId: null, rootDomainId: null, credentialHash: null, status: 'in_use' });

  /** Frames staged for the serial, duplicates included, by sequence (a staging row may hold several). */
  async function rowsOf(serial: string): Promise<number[]> {
    const { rows } = await admin.query<{ frame: Uint8Array }>('select frame from signal_frames_pending where serial = $1', [serial]);
    return rows.flatMap((row) => splitFrames(row.frame).map((frame) => frame.header.sequence)).sort((a, b) => a - b);
  }

  const outcome = (promise: Promise<void>): Promise<'stored' | 'failed'> =>
    promise.then(
      () => 'stored' as const,
      () => 'failed' as const,
    );

  it('stores a message tried again while its first write hangs once, when that write completes', { timeout: 30_000 }, async () => {
    const serial = uniqueSerial('hang');
    // A first write, so that the pool holds a connection through the relay.
    await pipeline.ingest(device(serial), message(0)).durable;
    link.stall();
    const first = pipeline.ingest(device(serial), message(1, 2, 3));
    await expect(first.durable).rejects.toThrow(/not stored within 1 s/);
    const joinedBefore = pipeline.stats.joinedFrames;
    const retries: IngestResult[] = [];
    // Tried again twice while the write hangs, and a message overlapping it with one frame of its own.
    retries.push(pipeline.ingest(device(serial), message(1, 2, 3)));
    retries.push(pipeline.ingest(device(serial), message(1, 2, 3)));
    retries.push(pipeline.ingest(device(serial), message(3, 4)));
    expect(pipeline.stats.joinedFrames - joinedBefore).toBe(7);
    // Only frame 4 is new: the retries queued nothing else behind the hanging write.
    expect(pipeline.backlog.frames).toBe(4);
    expect(pipeline.inFlightFrames).toBe(4);

    link.resume();
    await first.stored;
    expect(await Promise.all(retries.map((retry) => outcome(retry.stored)))).toEqual(['stored', 'stored', 'stored']);
    expect(await rowsOf(serial)).toEqual([0, 1, 2, 3, 4]);
    expect(pipeline.inFlightFrames).toBe(0);
    expect(pipeline.backlog.frames).toBe(0);
    // Once stored, a copy is a new write again (a duplicate, removed on read): the set holds only what is in flight.
    await pipeline.ingest(device(serial), message(4)).durable;
    expect(await rowsOf(serial)).toEqual([0, 1, 2, 3, 4, 4]);
  });

  it('writes again what a failed write carried, so that nothing is lost', { timeout: 30_000 }, async () => {
    const serial = uniqueSerial('fail');
    link.cut();
    const first = pipeline.ingest(device(serial), message(0, 1));
    // A lost connection is tried three times, then the write fails and frees its frames.
    await expect(first.stored).rejects.toThrow();
    expect(pipeline.inFlightFrames).toBe(0);
    link.restore();
    const again = pipeline.ingest(device(serial), message(0, 1));
    await again.durable;
    expect(await rowsOf(serial)).toEqual([0, 1]);
  });

  describe("through an external broker (a Mosquitto of the test's own, persistent session)", () => {
    let mosquitto: PrivateMosquitto;
    let brokerLink: TcpLink;
    let broker: DeviceBroker | undefined;
    const clientId = uniqueSerial('slow-server');

    beforeAll(async () => {
      if (MOSQUITTO_BINARY === null) throw new Error('this test needs the mosquitto binary (apt-get install mosquitto), or NEMURI_SKIP_MQTT=1');
      mosquitto = await PrivateMosquitto.start();
      brokerLink = await TcpLink.open(mosquitto.url);
    }, 30_000);
    afterAll(async () => {
      await broker?.close();
      await brokerLink?.close();
      await mosquitto?.destroy();
    });

    it('joins redeliveries during a slow write to it, then stores and acknowledges every message once', { timeout: 60_000 }, async () => {
      const serial = uniqueSerial('redeliver');
      await admin.query(
        `insert into documents (path, collection, collection_group, parent_path, id, data, created_at, updated_at)
         values ($1, 'devices', 'devices', '', $2, $3, now(), now())`,
        [`devices/${serial}`, serial, { status: 'in_use', deviceTypeId: 'nemuri-pad' }],
      );
      broker = await connectExternalBroker({
        pipeline,
        registry: devices.registry,
        watchers: signals.hub,
        changes: documents.changes,
        log: quiet,
        url: brokerLink.through(mosquitto.url),
        sharedGroup: null,
        clientId,
      });
      const publisher = await mqtt.connectAsync(mosquitto.url, { protocolVersion: 4, clientId: serial, clean: true, reconnectPeriod: 0 });
      try {
        const topic = `devices/${serial}/frames`;
        await publisher.publishAsync(topic, message(0), { qos: 1 });
        await eventually(async () => (await rowsOf(serial)).length === 1, 'the first message stored');

        link.stall();
        const errorsBefore = pipeline.stats.storageErrors;
        for (let sequence = 1; sequence <= 5; sequence++) await publisher.publishAsync(topic, message(sequence), { qos: 1 });
        await eventually(() => pipeline.stats.storageErrors - errorsBefore >= 5, 'the in-flight limit passed for the 5 messages');
        // Past the limit the server waits for the write rather than handing the messages to storage again.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(pipeline.stats.retriedMessages).toBe(0);
        expect(pipeline.backlog.frames).toBe(5);

        // The broker connection drops twice: Mosquitto delivers the 5 unacknowledged messages again each time.
        const joinedBefore = pipeline.stats.joinedFrames;
        for (let drop = 1; drop <= 2; drop++) {
          brokerLink.cut();
          brokerLink.restore();
          await eventually(() => pipeline.stats.joinedFrames - joinedBefore >= 5 * drop, `the redeliveries after drop ${drop} joined the write`);
        }
        expect(pipeline.backlog.frames).toBe(5);

        link.resume();
        await eventually(async () => (await rowsOf(serial)).length === 6 && pipeline.backlog.frames === 0, 'the messages stored');
        expect(await rowsOf(serial)).toEqual([0, 1, 2, 3, 4, 5]);
        // Acknowledged: the session the server leaves behind holds nothing to deliver again.
        await new Promise((resolve) => setTimeout(resolve, 500));
        await broker.close();
        broker = undefined;
        const redelivered: string[] = [];
        const session = await mqtt.connectAsync(mosquitto.url, { protocolVersion: 4, clientId, clean: false, reconnectPeriod: 0 });
        session.on('message', (received) => redelivered.push(received));
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await session.endAsync();
        expect(redelivered).toEqual([]);
        expect(await rowsOf(serial)).toEqual([0, 1, 2, 3, 4, 5]);
      } finally {
        await publisher.endAsync(true);
      }
    });
  });

  describe('through the embedded broker', () => {
    let broker: EmbeddedBroker;
    let embedded: IngestPipeline;
    const secret = 'slow-embedded-secret';
    /** Small, so that the test fills it quickly. */
    const window = 4;

    beforeAll(async () => {
      // An in-flight limit the stalls stay within: these tests are about acknowledging late, not failing.
      embedded = new IngestPipeline({ signals, status: devices.status, log: quiet, inFlightLimitMs: 15_000 });
      broker = await startEmbeddedBroker({
        pipeline: embedded,
        registry: devices.registry,
        log: quiet,
        host: '127.0.0.1',
        port: 0,
        portExplicit: true,
        limits: { unacknowledgedMessages: window },
      });
    });
    afterAll(async () => {
      await broker?.close();
      await embedded?.stop();
    });

    /** A device of the broker's, its live frames' sequence numbers, and the ids of the PUBACKs it receives, in order. */
    async function connectDevice(name: string): Promise<{ serial: string; client: mqtt.MqttClient; live: number[]; acks: number[] }> {
      const serial = uniqueSerial(name);
      await documents.set(
        SYSTEM_PRINCIPAL,
        `devices/${serial}`,
        { deviceTypeId: 'nemuri-pad', status: 'in_use', credentialHash: hashDeviceSecret(secret) },
        false,
      );
      const live: number[] = [];
      signals.hub.subscribe(serial, { frame: (_serial, _channel, bytes) => live.push(Buffer.from(bytes).readUInt32LE(12)), status: () => undefined });
      const client = await mqtt.connectAsync(broker.url, { username: serial, password: secret, clientId: serial, protocolVersion: 4, reconnectPeriod: 0 });
      const acks: number[] = [];
      client.on('packetreceive', (packet) => {
        if (packet.cmd === 'puback') acks.push(packet.messageId!);
      });
      return { serial, client, live, acks };
    }

    it(
      "shows a device's later frames live while its earlier ones wait for a slow commit, and acknowledges each in order once stored",
      { timeout: 30_000 },
      async () => {
        const { serial, client, live, acks } = await connectDevice('deferred');
        try {
          await client.publishAsync(`devices/${serial}/frames`, message(0), { qos: 1 });
          link.stall();
          const sent = [1, 2, 3, 4].map((sequence) => client.publishAsync(`devices/${serial}/frames`, message(sequence), { qos: 1 }));
          // Each message reaches the live viewers at once, though none is stored yet.
          await eventually(() => live.length === 5, 'the four later frames live while the write hangs');
          expect(live).toEqual([0, 1, 2, 3, 4]);
          expect(acks).toHaveLength(1);
          expect(await rowsOf(serial)).toEqual([0]);
          link.resume();
          await Promise.all(sent);
          expect(await rowsOf(serial)).toEqual([0, 1, 2, 3, 4]);
          // PUBACKs in the order of the PUBLISHes (MQTT 3.1.1 section 4.6.0-2), each once.
          expect(acks).toHaveLength(5);
          expect([...acks].sort((a, b) => a - b)).toEqual(acks);
        } finally {
          await client.endAsync(true);
        }
      },
    );

    it('reads a device no further while its window of unacknowledged messages is full', { timeout: 30_000 }, async () => {
      const { serial, client, live } = await connectDevice('window');
      try {
        await client.publishAsync(`devices/${serial}/frames`, message(0), { qos: 1 });
        link.stall();
        const count = window + 10;
        const sent: Promise<unknown>[] = [];
        // Apart, so that each arrives in a read of its own (the broker handles a whole read at once).
        for (let i = 0; i < count; i++) {
          sent.push(client.publishAsync(`devices/${serial}/frames`, message(i + 1), { qos: 1 }));
          await new Promise((resolve) => setTimeout(resolve, 30));
        }
        await eventually(() => live.length >= 1 + window, 'a window of messages taken');
        await new Promise((resolve) => setTimeout(resolve, 300));
        // The rest wait in the connection, unread, until the commit answers.
        expect(live.length).toBeLessThan(1 + count);
        link.resume();
        await Promise.all(sent);
        expect(live).toHaveLength(1 + count);
        expect(await rowsOf(serial)).toEqual(Array.from({ length: 1 + count }, (_, i) => i));
      } finally {
        await client.endAsync(true);
      }
    });

    it(
      'closes the connection when a write fails, acknowledging nothing after it; the device sends again and everything is stored',
      { timeout: 30_000 },
      async () => {
        const { serial, client, acks } = await connectDevice('failed');
        try {
          await client.publishAsync(`devices/${serial}/frames`, message(0), { qos: 1 });
          link.cut();
          const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
          for (const sequence of [1, 2]) client.publish(`devices/${serial}/frames`, message(sequence), { qos: 1 }, () => undefined);
          await closed;
          expect(acks).toHaveLength(1);
          link.restore();
        } finally {
          await client.endAsync(true);
        }
        // The device, connected again, sends what was not acknowledged.
        const again = await mqtt.connectAsync(broker.url, { username: serial, password: secret, clientId: serial, protocolVersion: 4, reconnectPeriod: 0 });
        try {
          for (const sequence of [1, 2]) await again.publishAsync(`devices/${serial}/frames`, message(sequence), { qos: 1 });
          expect(await rowsOf(serial)).toEqual([0, 1, 2]);
        } finally {
          await again.endAsync(true);
        }
      },
    );
  });
});
