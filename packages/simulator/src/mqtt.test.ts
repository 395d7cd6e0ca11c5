// End to end through this machine's Mosquitto (127.0.0.1:1883). NEMURI_SKIP_MQTT=1 skips, loudly.
import { connect as connectTcp, createServer, type AddressInfo, type Socket } from 'node:net';
import mqtt from 'mqtt';
import { describe, expect, it } from 'vitest';
import { loadParser } from '@nemuri/parser/node';
import type { EncodedFrame } from './frames.ts';
import { DeviceSimulator } from './device.ts';
import { startSimulation, type SimulationOptions } from './simulation.ts';
import { timeOf } from './testing.ts';

const HOST = '127.0.0.1';
const PORT = 1883;
const BROKER = `mqtt://${HOST}:${PORT}`;
const skip = process.env.NEMURI_SKIP_MQTT === '1';
if (skip) console.warn(`\n*** NEMURI_SKIP_MQTT=1: SKIPPING the Mosquitto end-to-end test (${BROKER}) ***\n`);

function reachable(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTcp({ host: HOST, port: PORT, timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe.skipIf(skip)(`end to end through Mosquitto at ${BROKER}`, () => {
  const unique = (name: string): string => `SIMTEST-${name}-${process.pid}-${Date.now().toString(36)}-`;

  /** Runs a simulation whose serials all start with prefix, and checks a subscriber got every frame in order. */
  async function runThrough(prefix: string, options: Omit<SimulationOptions, 'broker' | 'onFrame'>) {
    if (!(await reachable())) {
      throw new Error(`Mosquitto is not reachable at ${HOST}:${PORT} (start it, or set NEMURI_SKIP_MQTT=1 to skip this test)`);
    }
    const subscriber = await mqtt.connectAsync(BROKER, { protocolVersion: 4, clientId: `${prefix}subscriber`, clean: true });
    const received = new Map<string, Buffer[]>();
    subscriber.on('message', (topic, payload) => {
      const serial = topic.split('/')[1]!;
      if (serial.startsWith(prefix)) received.set(serial, [...(received.get(serial) ?? []), payload]);
    });
    await subscriber.subscribeAsync('devices/+/frames', { qos: 1 });

    const sent = new Map<string, EncodedFrame[]>();
    const simulation = await startSimulation({
      ...options,
      broker: BROKER,
      onFrame: (serial, frame) => sent.set(serial, [...(sent.get(serial) ?? []), frame]),
    });
    await simulation.done;
    expect(simulation.stats.publishErrors).toBe(0);
    expect(simulation.stats.framesPublished).toBe(simulation.stats.framesGenerated);

    const total = simulation.stats.framesGenerated;
    const deadline = Date.now() + 10_000;
    const count = (): number => [...received.values()].reduce((n, list) => n + list.length, 0);
    while (count() < total && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    await subscriber.endAsync();

    expect(count()).toBe(total);
    const parser = await loadParser();
    for (const serial of simulation.serials) {
      const expected = sent.get(serial)!;
      const got = received.get(serial) ?? [];
      expect(got.map((payload) => Buffer.from(payload))).toEqual(expected.map((frame) => Buffer.from(frame.bytes)));
      // In order per channel: sequence numbers 0, 1, 2, … for every channel.
      const next = new Map<string, number>();
      for (const payload of got) {
        const frame = parser.decodeSmfFrame(payload);
        expect(frame.sequence).toBe(next.get(frame.channel) ?? 0);
        next.set(frame.channel, frame.sequence + 1);
      }
    }
    return simulation;
  }

  it('a subscriber receives every frame of an accelerated run, in order per channel', { timeout: 30_000 }, async () => {
    const prefix = unique('run');
    const simulation = await runThrough(prefix, { serialPrefix: prefix, devices: 3, seed: 'e2e', speed: 20, durationSeconds: 30, startTime: timeOf(2 * 3600) });
    expect(simulation.stats.framesGenerated).toBe(3 * 30 * 7);
  });

  it('a device going offline disconnects, then reconnects and continues', { timeout: 30_000 }, async () => {
    const serial = `${unique('offline')}0001`;
    const { offline } = new DeviceSimulator({ serial, seed: 'e2e' }).timeline;
    const length = offline.end - offline.start;
    const simulation = await runThrough(serial, {
      serials: [serial],
      seed: 'e2e',
      speed: 100,
      durationSeconds: length + 40,
      startTime: timeOf(offline.start - 20),
      channels: ['respiHr', 'temperature'],
    });
    expect(simulation.stats.framesGenerated).toBe(2 * 40);
    expect(simulation.stats.offlineDevices).toBe(0);
  });

  it('a live run starts its clock once its devices are connected: the time spent connecting is not sent at once', { timeout: 30_000 }, async () => {
    if (!(await reachable())) throw new Error(`Mosquitto is not reachable at ${HOST}:${PORT}`);
    // A proxy that holds each connection 2.5 s before passing it to Mosquitto: a slow CONNACK, as
    // thousands of devices connecting in batches have.
    const sockets = new Set<Socket>();
    const proxy = createServer((client) => {
      sockets.add(client);
      client.pause();
      setTimeout(() => {
        const upstream = connectTcp({ host: HOST, port: PORT }, () => {
          client.pipe(upstream).pipe(client);
          client.resume();
        });
        sockets.add(upstream);
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
      }, 2500);
    });
    await new Promise<void>((resolve) => proxy.listen(0, HOST, resolve));
    const { port } = proxy.address() as AddressInfo;
    try {
      const parser = await loadParser();
      const starts: number[] = [];
      const calledAt = Date.now();
      const simulation = await startSimulation({
        serials: [`${unique('clock')}0001`],
        seed: 'e2e',
        broker: `mqtt://${HOST}:${port}`,
        durationSeconds: 2,
        channels: ['respiHr'],
        onFrame: (_serial, frame) => starts.push(parser.decodeSmfFrame(frame.bytes).startTimeUs / 1000),
      });
      await simulation.done;
      expect(starts).toHaveLength(2);
      // Counted from the call, the first second would be 2.5 s old and sent at once, with the next.
      expect(starts[0]).toBeGreaterThanOrEqual(Math.floor((calledAt + 2500) / 1000) * 1000);
      expect(simulation.stats.skippedSeconds).toBe(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('names the broker when it cannot connect', async () => {
    await expect(startSimulation({ devices: 1, broker: 'mqtt://127.0.0.1:1', serialPrefix: 'SIMTEST-' })).rejects.toThrow(/127\.0\.0\.1:1/);
  });
});
