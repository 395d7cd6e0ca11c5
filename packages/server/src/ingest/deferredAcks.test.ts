/**
 * The deferred PUBACKs' order and pacing, on stand-in connections (the broker path itself is tested
 * through real MQTT in slowStorage.test.ts): each connection's PUBACKs in the order its PUBLISHes
 * came, and a commit answering for many connections written a bounded number of connections per
 * event-loop turn.
 */
import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Client } from 'aedes';
import mqttPacket from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { deferred } from '../deferred.ts';
import { ACK_CONNECTIONS_PER_TURN, DeferredAcks } from './deferredAcks.ts';

interface StandIn {
  client: Client;
  acked: number[];
  closed: boolean;
}

function standIn(): StandIn {
  const conn = new PassThrough();
  const parser = mqttPacket.parser({ protocolVersion: 4 });
  const result: StandIn = { client: undefined as unknown as Client, acked: [], closed: false };
  parser.on('packet', (packet) => {
    if (packet.cmd === 'puback') result.acked.push(packet.messageId ?? -1);
  });
  conn.on('data', (chunk: Buffer) => parser.parse(chunk));
  // Only what DeferredAcks uses of an Aedes client.
  result.client = {
    conn,
    get connected() {
      return !result.closed;
    },
    close() {
      result.closed = true;
    },
  } as unknown as Client;
  return result;
}

/** Lets every turn's writes (mqtt-packet uncorks on the next tick) and their reads happen. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await nextTurn();
}

describe('deferred PUBACKs', () => {
  it('acknowledges a connection in the order its messages came, once each and all before it are committed', async () => {
    const acks = new DeferredAcks({ window: { messages: 16, bytes: 1 << 22 }, hold: () => undefined });
    const device = standIn();
    const commits = [deferred<void>(), deferred<void>(), deferred<void>()];
    commits.forEach((commit, i) => acks.take(device.client, i + 1, 100, commit.promise));
    commits[1]!.resolve();
    await turns(3);
    expect(device.acked).toEqual([]);
    commits[0]!.resolve();
    await turns(3);
    expect(device.acked).toEqual([1, 2]);
    commits[2]!.resolve();
    await turns(3);
    expect(device.acked).toEqual([1, 2, 3]);
  });

  it('writes a commit of many connections a bounded number of connections per event-loop turn', async () => {
    const acks = new DeferredAcks({ window: { messages: 16, bytes: 1 << 22 }, hold: () => undefined });
    const devices = Array.from({ length: ACK_CONNECTIONS_PER_TURN * 3 + 5 }, standIn);
    const commit = deferred<void>();
    devices.forEach((device, i) => acks.take(device.client, i + 1, 100, commit.promise));
    commit.resolve();
    await commit.promise;
    const acknowledged = (): number => devices.filter((device) => device.acked.length > 0).length;
    const perTurn: number[] = [];
    for (let turn = 0; turn < 12 && acknowledged() < devices.length; turn++) {
      const before = acknowledged();
      await nextTurn();
      perTurn.push(acknowledged() - before);
    }
    expect(acknowledged()).toBe(devices.length);
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(ACK_CONNECTIONS_PER_TURN);
    expect(perTurn.filter((n) => n > 0).length).toBeGreaterThanOrEqual(4);
    devices.forEach((device, i) => expect(device.acked).toEqual([i + 1]));
  });

  it('acknowledges nothing more of a connection whose write failed, and closes it', async () => {
    const acks = new DeferredAcks({ window: { messages: 16, bytes: 1 << 22 }, hold: () => undefined });
    const device = standIn();
    const [first, second] = [deferred<void>(), deferred<void>()];
    acks.take(device.client, 1, 100, first.promise);
    acks.take(device.client, 2, 100, second.promise);
    second.resolve();
    first.reject(new Error('the staging write failed'));
    await turns(4);
    expect(device.closed).toBe(true);
    expect(device.acked).toEqual([]);
  });
});
