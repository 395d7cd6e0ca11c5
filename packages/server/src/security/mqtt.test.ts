/**
 * Attacks on the embedded MQTT broker (issue 17, findings 8 and 15; docs/security.md, "MQTT"), with a
 * real broker on a free port and real clients: a device holding valid credentials of its own takes
 * another device's serial as client id (which used to kick that device off, again and again); a
 * device, or a socket that never signs in, sends a huge packet (a 64 MB publish was taken whole); a
 * socket never authenticates; and a flood of unauthenticated sockets.
 */
import { connect as connectTcp, type Socket } from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { loadParser } from '@nemuri/parser/node';
import { startEmbeddedBroker, type EmbeddedBroker } from '../ingest/broker.ts';
import { MQTT_LIMITS } from '../ingest/mqttLimits.ts';
import { registerDevice, startIngestServer, uniqueSerial, type IngestTestServer } from '../ingest/testing.ts';

const MiB = 1024 * 1024;

/** The remaining-length bytes of an MQTT fixed header (MQTT 3.1.1 section 2.2.3). */
function remainingLength(length: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = length % 128;
    length = Math.floor(length / 128);
    if (length > 0) byte |= 0x80;
    bytes.push(byte);
  } while (length > 0);
  return bytes;
}

function rawSocket(port: number, localAddress = '127.0.0.1'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp({ host: '127.0.0.1', port, localAddress });
    socket.once('connect', () => {
      socket.off('error', reject);
      // A refused socket is reset: what the test looks at is that it closed.
      socket.on('error', () => undefined);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Resolves with the milliseconds until the socket closed, or null if it is still open after `withinMs`. */
function closedWithin(socket: Socket, withinMs: number): Promise<number | null> {
  const started = Date.now();
  if (socket.destroyed || socket.readyState === 'closed') return Promise.resolve(0);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), withinMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

/**
 * Writes the header of a packet announcing `announced` bytes, then zeros until the server closes
 * the socket or `announced` bytes are sent; the same 1 MiB buffer is sent again and again, so the
 * sender holds no more than that. Returns the bytes the server let through and how long it took.
 */
async function sendHugePacket(socket: Socket, type: number, announced: number): Promise<{ sent: number; closed: boolean; ms: number }> {
  socket.on('error', () => undefined);
  const started = Date.now();
  let closed = false;
  // Not events.once: it rejects on the reset that comes with the close.
  const close = new Promise<void>((resolve) =>
    socket.once('close', () => {
      closed = true;
      resolve();
    }),
  );
  socket.write(Buffer.from([type, ...remainingLength(announced)]));
  const chunk = Buffer.alloc(MiB);
  let sent = 0;
  while (!closed && sent < announced) {
    const ok = socket.write(chunk);
    sent += chunk.length;
    if (!ok) await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), close]);
  }
  await Promise.race([close, new Promise((resolve) => setTimeout(resolve, 5000))]);
  return { sent, closed, ms: Date.now() - started };
}

async function until(condition: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The server's memory outside V8's heap objects: Buffers land in arrayBuffers. */
function bufferMemory(): number {
  const usage = process.memoryUsage();
  return usage.arrayBuffers + usage.heapUsed;
}

describe('the embedded MQTT broker under attack', () => {
  let base: IngestTestServer;
  let url: string;
  let port: number;
  const clients: MqttClient[] = [];
  const connectDevice = async (serial: string, secret: string, clientId = serial): Promise<MqttClient> => {
    const client = await mqtt.connectAsync(
      url,
      { username: serial, password: secret, clientId, protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000 },
      false,
    );
    client.on('error', () => undefined);
    clients.push(client);
    return client;
  };
  let frame: Buffer;

  beforeAll(async () => {
    base = await startIngestServer({ DEMO: '0' });
    url = base.server.mqttUrl;
    port = base.server.mqttPort!;
    const parser = await loadParser();
    frame = Buffer.from(
      parser.encodeSmfFrame({
        channel: 'temperature',
        format: 'float32',
        sampleRate: 1,
        sequence: 0,
        startTimeUs: (Date.now() - 600_000) * 1000,
        values: [36.6],
      }),
    );
  }, 60_000);
  afterAll(async () => {
    for (const client of clients) client.end(true);
    await base?.stop();
    await base?.remove();
  });

  it('refuses a client id that is not the authenticated serial, and the real device stays connected', async () => {
    const victim = uniqueSerial('victim');
    const attacker = uniqueSerial('attacker');
    await registerDevice(base.server, victim, 'victim-secret', DEMO_DOMAINS.facilityA);
    await registerDevice(base.server, attacker, 'attacker-secret', DEMO_DOMAINS.facilityB);
    const real = await connectDevice(victim, 'victim-secret');
    let kicked = false;
    real.on('close', () => (kicked = true));

    for (let attempt = 0; attempt < 5; attempt++) {
      await expect(connectDevice(attacker, 'attacker-secret', victim)).rejects.toThrow(/Not authorized/i);
    }
    // Nor with the victim's serial as username and no valid secret, nor with a made-up id.
    await expect(connectDevice(victim, 'attacker-secret', victim)).rejects.toThrow(/Not authorized/i);
    await expect(connectDevice(attacker, 'attacker-secret', `${attacker}-2`)).rejects.toThrow(/Not authorized/i);
    expect(base.logLines.some((line) => line.includes(attacker) && line.includes('client id must be the serial'))).toBe(true);

    // Still connected, and still acknowledged.
    await real.publishAsync(`devices/${victim}/frames`, frame, { qos: 1 });
    expect(kicked).toBe(false);
    expect(real.connected).toBe(true);
  });

  it("lets a device publish and subscribe only on its own topics, not another device's", async () => {
    const own = uniqueSerial('own');
    const other = uniqueSerial('other');
    await registerDevice(base.server, own, 'own-secret', DEMO_DOMAINS.facilityA);
    await registerDevice(base.server, other, 'other-secret', DEMO_DOMAINS.facilityA);
    const device = await connectDevice(own, 'own-secret');
    for (const topic of [`devices/${other}/frames`, `devices/${other}/commands`, 'devices/+/frames', 'devices/#', '#']) {
      await expect(device.subscribeAsync(topic, { qos: 1 })).rejects.toThrow(/Subscribe error/);
    }
    const closed = new Promise<void>((resolve) => device.once('close', () => resolve()));
    device.publish(`devices/${other}/frames`, frame, { qos: 1 });
    await closed;
  });

  it('closes a device that sends a 64 MB publish at its header, without buffering it', async () => {
    const serial = uniqueSerial('huge');
    await registerDevice(base.server, serial, 'huge-secret', DEMO_DOMAINS.facilityA);
    const device = await connectDevice(serial, 'huge-secret');
    const before = bufferMemory();
    // The authenticated device's own socket: mqtt.js would build the whole packet in memory first.
    const result = await sendHugePacket(device.stream as Socket, 0x32, 64 * MiB);
    const grown = bufferMemory() - before;
    expect(result.closed).toBe(true);
    // Closed after the first few chunks at most (socket buffers), not after 64 MB.
    expect(result.sent).toBeLessThanOrEqual(16 * MiB);
    expect(result.ms).toBeLessThan(3000);
    expect(grown).toBeLessThan(16 * MiB);
    expect(base.logLines.some((line) => line.includes('packet-too-large'))).toBe(true);
  });

  it('takes a publish of the largest legitimate frame (a 1 MiB multi frame)', async () => {
    const serial = uniqueSerial('large');
    await registerDevice(base.server, serial, 'large-secret', DEMO_DOMAINS.facilityA);
    const device = await connectDevice(serial, 'large-secret');
    const parser = await loadParser();
    const startUs = (Date.now() - 600_000) * 1000;
    // A multi frame just under the 1 MiB payload limit: three EIT frames of 65,536 float32 values
    // (the most one frame may hold) and one of 255 points.
    const frames = [256, 256, 256, 255].map((points, sequence) => ({
      channel: 'eit' as const,
      format: 'float32' as const,
      width: 256,
      sampleRate: 20,
      sequence,
      startTimeUs: startUs + sequence * 13_000_000,
      values: new Float32Array(points * 256),
    }));
    const multi = Buffer.from(parser.encodeSmfFrame({ channel: 'multi', sequence: 0, startTimeUs: startUs, frames }));
    expect(multi.length).toBeGreaterThan(1_047_000);
    expect(multi.length).toBeLessThanOrEqual(MiB + 48);
    expect(multi.length + 100).toBeLessThan(MQTT_LIMITS.maxPacketBytes);
    const rejected = base.server.app.ingest.stats.rejectedMessages;
    await device.publishAsync(`devices/${serial}/frames`, multi, { qos: 1 });
    expect(base.server.app.ingest.stats.rejectedMessages).toBe(rejected);
    expect(device.connected).toBe(true);
  });

  it('closes a socket that announces a 64 MB CONNECT, or sends more than 64 KiB before it is authenticated', async () => {
    const huge = await sendHugePacket(await rawSocket(port), 0x10, 64 * MiB);
    expect(huge.closed).toBe(true);
    expect(huge.sent).toBeLessThanOrEqual(16 * MiB);

    // 128 KiB: under the packet limit, over what may come before authentication.
    const chatty = await sendHugePacket(await rawSocket(port), 0x10, 128 * 1024);
    expect(chatty.closed).toBe(true);
    expect(base.logLines.some((line) => line.includes('too-much-before-authentication'))).toBe(true);
  });
}, 120_000);

describe('limits before authentication (a broker with short ones)', () => {
  let base: IngestTestServer;
  let broker: EmbeddedBroker;
  const sockets: Socket[] = [];
  const open = async (localAddress = '127.0.0.1'): Promise<Socket> => {
    const socket = await rawSocket(broker.port, localAddress);
    socket.on('error', () => undefined);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    base = await startIngestServer({ DEMO: '0' });
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
    broker = await startEmbeddedBroker({
      pipeline: base.server.app.ingest,
      registry: base.server.app.devices.registry,
      log,
      host: '127.0.0.1',
      port: 0,
      portExplicit: true,
      // Short for a test, long enough that a loaded machine does not time a socket out while the test
      // still counts which were refused at once.
      limits: { connectTimeoutMs: 5_000, preAuthPerAddress: 4, preAuthTotal: 6 },
    });
  }, 60_000);
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await broker?.close();
    await base?.stop();
    await base?.remove();
  });

  it('closes a socket that never sends CONNECT, and one that sends half of it, after the timeout', async () => {
    const silent = await open();
    const half = await open();
    half.write(Buffer.from([0x10, 0x20, 0x00, 0x04]));
    const [silentMs, halfMs] = await Promise.all([closedWithin(silent, 15_000), closedWithin(half, 15_000)]);
    expect(silentMs).not.toBeNull();
    expect(halfMs).not.toBeNull();
    expect(silentMs!).toBeGreaterThanOrEqual(4_000);
    expect(broker.guard.refused['connect-timeout']).toBeGreaterThanOrEqual(1);
    await until(() => broker.guard.pendingConnections === 0, 'the server let go of both sockets');
  });

  it('caps unauthenticated sockets per address and in all; a device connects once the flood is gone', async () => {
    const serial = uniqueSerial('flooded');
    await registerDevice(base.server, serial, 'flooded-secret', DEMO_DOMAINS.facilityA);
    const flood = await Promise.all(Array.from({ length: 10 }, () => open('127.0.0.1')));
    // Which were refused is read once the broker has counted them, not after a fixed time.
    await until(() => broker.guard.refused['too-many-unauthenticated'] === 6, 'six of the first address refused');
    const fromFirst = await Promise.all(flood.map((socket) => closedWithin(socket, 1_000)));
    // 4 per address: the other 6 were closed at once.
    expect(fromFirst.filter((ms) => ms === null)).toHaveLength(4);
    const second = await Promise.all(Array.from({ length: 4 }, () => open('127.0.0.2')));
    await until(() => broker.guard.refused['too-many-unauthenticated'] === 8, 'two of the second address refused');
    const fromSecond = await Promise.all(second.map((socket) => closedWithin(socket, 1_000)));
    // 6 in all: 2 more from another address.
    expect(fromSecond.filter((ms) => ms === null)).toHaveLength(2);
    expect(broker.guard.pendingConnections).toBe(6);
    expect(broker.guard.refused['too-many-unauthenticated']).toBe(8);

    // The flood times out; a device then gets in.
    await Promise.all([...flood, ...second].map((socket) => closedWithin(socket, 15_000)));
    await until(() => broker.guard.pendingConnections === 0, 'the flood was let go');
    const device = await mqtt.connectAsync(
      broker.url,
      { username: serial, password: 'flooded-secret', clientId: serial, protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000 },
      false,
    );
    expect(device.connected).toBe(true);
    // Authenticated connections do not count against the limits.
    expect(broker.guard.pendingConnections).toBe(0);
    await device.endAsync(true);
  });
}, 60_000);
