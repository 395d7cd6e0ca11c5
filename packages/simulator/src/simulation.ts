// startSimulation: many devices, their scenario, and MQTT publishing (or a dry run without a broker).
import mqtt, { type MqttClient } from 'mqtt';
import { loadParser } from '@nemuri/parser/node';
import type { Parser } from '@nemuri/parser/index';
import { DeviceSimulator } from './device.ts';
import { loadEitRecording } from './eit.ts';
import {
  SIMULATED_CHANNELS,
  SequenceCounters,
  copyMessage,
  encodeMessages,
  restampMessage,
  type EncodedFrame,
  type EncodedMessage,
  type MessageShape,
  type SimulatedChannel,
} from './frames.ts';
import { demoSecret } from './secrets.ts';

export interface SimulationOptions {
  /** Number of devices (serials `${serialPrefix}0001` …), unless `serials` is given. */
  devices?: number;
  serials?: readonly string[];
  /** Default `NM-`. */
  serialPrefix?: string;
  /** mqtt://host:port; without it nothing is published (a dry run that only generates and encodes). */
  broker?: string;
  /** Default 1. Same seed, same start time → identical frames. */
  seed?: string | number;
  /** Simulated seconds per real second; default 1; Infinity = as fast as publishing allows. */
  speed?: number;
  /** Simulated seconds to run; default unlimited. */
  durationSeconds?: number;
  /** Simulated time of the first sample, ms since the epoch (rounded down to a second); default now. */
  startTime?: number;
  /**
   * Follow the wall clock, as real devices do: each second is sent once it is over by the clock; a run
   * that falls behind (a slow start, a busy machine) catches up at once, and one more than
   * `maxLagSeconds` behind skips ahead to now rather than send stale seconds. Default: on at speed 1
   * without `startTime` (the demo devices), off otherwise.
   */
  live?: boolean;
  /** Live runs further behind than this skip ahead (default 5 s: well inside the server's late tolerance). */
  maxLagSeconds?: number;
  /**
   * Live runs from now: begin this many seconds in the past and send them at once (without EIT, which only
   * the live views draw), so that a monitoring server starting with the devices has the minutes its
   * estimator needs at once (asleep after 5 quiet minutes) instead of calling everyone awake. Default 0.
   */
  warmUpSeconds?: number;
  /** The scenario's clock: minutes east of UTC; default 540 (Japan). */
  utcOffsetMinutes?: number;
  /** The secret of each device; default {@link demoSecret}. */
  secretFor?: (serial: string) => string;
  /** Replay ../shared/data/eit/P04P-1016.get instead of modelling EIT. */
  eitReplay?: boolean;
  channels?: readonly SimulatedChannel[];
  /** `single` (default): one message per channel frame; `multi`: one multi frame per device and second. */
  shape?: MessageShape;
  /**
   * Benches: each device's first `replaySeconds` seconds are generated before it connects, then sent
   * in turn, over and over, each as the second now due (start times, sequence numbers and CRCs made
   * anew: restampMessage), instead of generating more. Signal generation is most of a simulated
   * device's CPU time, which on a bench machine the server under test would otherwise share; the
   * scenario (offline episodes, states) repeats with the seconds. Default 0: every second generated.
   */
  replaySeconds?: number;
  /** Publishes not yet acknowledged before generation waits; default 20,000. */
  maxInFlight?: number;
  /**
   * After the last second, the devices stay connected this long (ms, acknowledged or not) before they
   * disconnect. Benches: thousands of disconnections at once are work for the server, which the
   * latency of the last second's frames would otherwise include. Default 0.
   */
  lingerMs?: number;
  /** Called for every frame generated (before it is published). */
  onFrame?: (serial: string, frame: EncodedFrame) => void;
  /** Called when a publish (a message) ends: acknowledged by the broker (no error) or failed, `ms` after it was sent. */
  onPublished?: (serial: string, ms: number, error?: Error) => void;
  /** Called for errors that do not stop the run (a refused publish, a lost connection). */
  onError?: (error: Error) => void;
  parser?: Parser;
}

export interface SimulationStats {
  devices: number;
  /** Simulated seconds generated so far (per device). */
  simulatedSeconds: number;
  /** Simulated time of the next second to generate, ms since the epoch. */
  simulatedTimeMs: number;
  /** Channel frames generated (a multi frame counts its nested frames). */
  framesGenerated: number;
  bytesGenerated: number;
  /** MQTT messages generated (as many as frames with the `single` shape). */
  messagesGenerated: number;
  /** Channel frames the broker acknowledged (QoS 1). */
  framesPublished: number;
  publishErrors: number;
  inFlight: number;
  /** Devices currently in their offline episode. */
  offlineDevices: number;
  startedAtMs: number;
  /** Seconds a live run skipped to be back at the wall clock. */
  skippedSeconds: number;
  /** Live runs: how far the last second sent lagged behind the wall clock when it was sent (ms). */
  lagMs: number;
}

export interface Simulation {
  readonly serials: readonly string[];
  readonly stats: SimulationStats;
  /** Resolves when the duration is reached (then everything is acknowledged) or after stop(). */
  readonly done: Promise<void>;
  /** Stops generating, waits (up to 5 s) for outstanding acknowledgements, and disconnects. */
  stop(): Promise<void>;
}

interface SimulatedDevice {
  simulator: DeviceSimulator;
  sequences: SequenceCounters;
  client: MqttClient | undefined;
  stopRetrying?: () => void;
  topic: string;
  offline: boolean;
  /** With `replaySeconds`: the device's first seconds as sent (null: offline then). */
  replay: (EncodedMessage[] | null)[];
}

/** Devices connecting at once (see startSimulation). */
const CONNECT_BATCH = 24;

/** A second's devices are spread over this much of the following real second (ms at speed 1)... */
export const SPREAD_MS = 900;
/** ...in groups of this many devices, each group sent at once. */
export const SPREAD_GROUP = 50;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function serialsFor(count: number, prefix = 'NM-'): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(4, '0')}`);
}

/** Waits before trying again after a refused CONNACK: doubling from the first to the last, with jitter. */
export const REFUSED_RETRY_FIRST_MS = 1000;
export const REFUSED_RETRY_LAST_MS = 30_000;

/**
 * Keeps a device trying after the broker refused it (a CONNACK with a return code: "server
 * unavailable" while the server's database is down, "not authorized" while a credential is being
 * replaced). mqtt.js reconnects by itself after a lost connection, but not after a refusal, and a
 * device that stops there sends nothing until someone restarts it. So a refusal is retried here, with
 * a doubling wait (jittered, so that many devices refused at once do not come back at once), reset
 * by the next accepted connection. `wanted` says whether the device should be connected now (not
 * during an offline episode or after the run). Returns a function that stops retrying.
 */
export function retryRefusedConnections(client: MqttClient, wanted: () => boolean, onRetry?: (delayMs: number, error: Error) => void): () => void {
  let delayMs = REFUSED_RETRY_FIRST_MS;
  let timer: NodeJS.Timeout | undefined;
  const onConnect = (): void => {
    delayMs = REFUSED_RETRY_FIRST_MS;
  };
  const onError = (error: Error): void => {
    // A CONNACK refusal carries its return code as a number; socket errors carry a string code and
    // are retried by mqtt.js itself.
    if (typeof (error as { code?: unknown }).code !== 'number' || timer !== undefined) return;
    const wait = Math.round(delayMs * (0.5 + Math.random() / 2));
    delayMs = Math.min(delayMs * 2, REFUSED_RETRY_LAST_MS);
    onRetry?.(wait, error);
    timer = setTimeout(() => {
      timer = undefined;
      if (!wanted() || client.connected) return;
      // The stores kept: publishes not yet acknowledged are sent again once connected.
      client.reconnect({ incomingStore: client.incomingStore, outgoingStore: client.outgoingStore });
    }, wait);
    timer.unref();
  };
  client.on('connect', onConnect);
  client.on('error', onError);
  return () => {
    clearTimeout(timer);
    client.off('connect', onConnect);
    client.off('error', onError);
  };
}

async function connect(broker: string, serial: string, secret: string): Promise<MqttClient> {
  try {
    return await mqtt.connectAsync(
      broker,
      { username: serial, password: secret, clientId: serial, protocolVersion: 4, clean: true, connectTimeout: 5000, reconnectPeriod: 1000 },
      false,
    );
  } catch (error) {
    throw new Error(`device ${serial} could not connect to the MQTT broker ${broker}: ${(error as Error).message}`, { cause: error });
  }
}

export async function startSimulation(options: SimulationOptions): Promise<Simulation> {
  const serials = options.serials ? [...options.serials] : serialsFor(options.devices ?? 1, options.serialPrefix);
  if (serials.length === 0) throw new RangeError('startSimulation: no devices');
  const speed = options.speed ?? 1;
  if (!(speed > 0)) throw new RangeError(`startSimulation: speed ${speed} must be positive`);
  const seed = options.seed ?? 1;
  const channels = options.channels ?? SIMULATED_CHANNELS;
  const shape = options.shape ?? 'single';
  const maxInFlight = options.maxInFlight ?? 20_000;
  const parser = options.parser ?? (await loadParser());
  const eitRecording = options.eitReplay ? loadEitRecording() : undefined;
  const secretFor = options.secretFor ?? demoSecret;
  const onError = options.onError ?? ((error: Error) => console.error(`simulator: ${error.message}`));
  let startTime = Math.floor((options.startTime ?? Date.now()) / 1000) * 1000;
  const live = options.live ?? (speed === 1 && options.startTime === undefined);
  const maxLagMs = (options.maxLagSeconds ?? 5) * 1000;
  const broker = options.broker;

  const devices: SimulatedDevice[] = serials.map((serial) => ({
    simulator: new DeviceSimulator({ serial, seed, eitRecording, utcOffsetMinutes: options.utcOffsetMinutes }),
    sequences: new SequenceCounters(),
    client: undefined,
    topic: `devices/${serial}/frames`,
    offline: false,
    replay: [],
  }));
  const replaySeconds = Math.max(0, Math.floor(options.replaySeconds ?? 0));

  const stats: SimulationStats = {
    devices: devices.length,
    simulatedSeconds: 0,
    simulatedTimeMs: startTime,
    framesGenerated: 0,
    bytesGenerated: 0,
    messagesGenerated: 0,
    framesPublished: 0,
    publishErrors: 0,
    inFlight: 0,
    offlineDevices: 0,
    startedAtMs: Date.now(),
    skippedSeconds: 0,
    lagMs: 0,
  };

  if (replaySeconds > 0) {
    // Sequence numbers are taken when a second is sent (restampMessage), not here.
    const scratch = new SequenceCounters();
    for (let i = 0; i < devices.length; i++) {
      const device = devices[i]!;
      for (let k = 0; k < replaySeconds; k++) {
        const second = device.simulator.generate(startTime + k * 1000, { eit: channels.includes('eit') });
        device.replay.push(second && encodeMessages(parser, second, scratch, channels, shape).map(copyMessage));
      }
      if (i % SPREAD_GROUP === SPREAD_GROUP - 1) await nextTurn();
    }
  }

  if (broker) {
    // Connect in batches so that a thousand devices do not all knock at once: all of them come from
    // one address, and the embedded broker lets only 32 connections per address wait for
    // authentication at a time (MQTT_LIMITS.preAuthPerAddress); more are refused.
    try {
      for (let i = 0; i < devices.length; i += CONNECT_BATCH) {
        await Promise.all(
          devices.slice(i, i + CONNECT_BATCH).map(async (device) => {
            const client = await connect(broker, device.simulator.serial, secretFor(device.simulator.serial));
            device.client = client;
            client.on('error', (error) => onError(new Error(`${device.simulator.serial}: ${error.message}`)));
            device.stopRetrying = retryRefusedConnections(client, () => running && !device.offline);
          }),
        );
      }
    } catch (error) {
      await Promise.all(devices.map((device) => device.client?.endAsync(true)));
      throw error;
    }
  }

  // Following the clock, the first second is the one after the devices connected (thousands take
  // seconds): counted from before, the seconds spent connecting would all go out at once.
  if (live && options.startTime === undefined) {
    startTime = Math.floor(Date.now() / 1000) * 1000;
    stats.simulatedTimeMs = startTime;
  }
  stats.startedAtMs = Date.now();
  let running = true;
  let drained: (() => void) | undefined;
  const published = (frames: number, error?: Error): void => {
    stats.inFlight--;
    if (error) {
      stats.publishErrors++;
      onError(error);
    } else stats.framesPublished += frames;
    if (drained && stats.inFlight <= maxInFlight / 2) {
      drained();
      drained = undefined;
    }
  };

  const publish = (device: SimulatedDevice, message: EncodedMessage): void => {
    const client = device.client;
    if (!client) return;
    stats.inFlight++;
    const frames = message.frames.length;
    const onPublished = options.onPublished;
    const sentAt = onPublished === undefined ? 0 : performance.now();
    client.publish(device.topic, Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength), { qos: 1 }, (error) => {
      published(frames, error);
      onPublished?.(device.simulator.serial, performance.now() - sentAt, error ?? undefined);
    });
  };

  const setOffline = (device: SimulatedDevice, offline: boolean): void => {
    if (device.offline === offline) return;
    device.offline = offline;
    stats.offlineDevices += offline ? 1 : -1;
    if (!device.client) return;
    // Going offline drops the connection (after what was sent is acknowledged); coming back reconnects.
    if (offline) device.client.end(false);
    else device.client.reconnect();
  };

  /** One device's messages of the second starting at `timeMs` (null: offline then), generated or replayed. */
  const secondOf = (device: SimulatedDevice, timeMs: number, sent: readonly SimulatedChannel[], eit: boolean): EncodedMessage[] | null => {
    if (replaySeconds > 0 && sent === channels) {
      const index = ((Math.round((timeMs - startTime) / 1000) % replaySeconds) + replaySeconds) % replaySeconds;
      const messages = device.replay[index]!;
      return messages && messages.map((message) => restampMessage(message, timeMs * 1000, device.sequences));
    }
    const second = device.simulator.generate(timeMs, { eit });
    return second && encodeMessages(parser, second, device.sequences, sent, shape);
  };

  /**
   * Generates and publishes one simulated second of every device. With a finite speed the devices are spread
   * over the following real interval (device i at i/N of it), as real devices are not synchronised, so that
   * the broker sees a steady stream instead of a burst each second.
   */
  const generateSecond = async (timeMs: number, spreadUntil?: number, sent: readonly SimulatedChannel[] = channels): Promise<void> => {
    const spreadFrom = performance.now();
    // EIT is the costliest channel to generate (a fifth of a bench's device thread): not unless sent.
    const eit = sent.includes('eit');
    for (let i = 0; i < devices.length; i++) {
      if (spreadUntil !== undefined && i % SPREAD_GROUP === 0 && i > 0) {
        const due = spreadFrom + ((spreadUntil - spreadFrom) * i) / devices.length - performance.now();
        if (due > 1) await sleep(due);
        if (!running) return;
      }
      const device = devices[i]!;
      const messages = secondOf(device, timeMs, sent, eit);
      setOffline(device, messages === null);
      if (messages) {
        for (const message of messages) {
          stats.messagesGenerated++;
          stats.bytesGenerated += message.bytes.byteLength;
          for (const frame of message.frames) {
            stats.framesGenerated++;
            options.onFrame?.(device.simulator.serial, frame);
          }
          publish(device, message);
        }
      }
      if (i % SPREAD_GROUP === SPREAD_GROUP - 1) await nextTurn();
    }
  };

  /**
   * On the wall clock: second [t, t + 1 s) is sent once it is over. Behind by a few seconds, the seconds
   * follow one another at once; further behind, the run skips to the last second that is over, so that
   * the devices' data never lags real time by more than `maxLagSeconds` (the server's states and alerts
   * go by the samples' time: stale seconds would read as late data).
   */
  const runLive = async (): Promise<void> => {
    const warmUpMs = options.startTime === undefined ? Math.max(0, Math.round(options.warmUpSeconds ?? 0)) * 1000 : 0;
    if (warmUpMs > 0) stats.simulatedTimeMs = Math.floor(Date.now() / 1000) * 1000 - warmUpMs;
    const warmUpUntil = stats.simulatedTimeMs + warmUpMs;
    const warmUpChannels = channels.filter((channel) => channel !== 'eit');
    while (running && stats.simulatedSeconds < (options.durationSeconds ?? Infinity)) {
      if (stats.simulatedTimeMs < warmUpUntil) {
        if (stats.inFlight > maxInFlight) await new Promise<void>((resolve) => (drained = resolve));
        else {
          await generateSecond(stats.simulatedTimeMs, undefined, warmUpChannels);
          stats.simulatedSeconds++;
          stats.simulatedTimeMs += 1000;
        }
        // Let the acknowledgements (and a server in the same process) in between the seconds.
        await nextTurn();
        continue;
      }
      const behind = Date.now() - (stats.simulatedTimeMs + 1000);
      if (behind < 0) {
        await sleep(Math.min(-behind, 250));
        continue;
      }
      if (stats.inFlight > maxInFlight) {
        await new Promise<void>((resolve) => (drained = resolve));
        continue;
      }
      if (behind > maxLagMs) {
        const skip = Math.floor(behind / 1000);
        stats.simulatedTimeMs += skip * 1000;
        stats.skippedSeconds += skip;
      }
      stats.lagMs = Date.now() - (stats.simulatedTimeMs + 1000);
      // Spread over most of the coming second when on time; at once when catching up.
      const spread = stats.lagMs < 100 ? performance.now() + SPREAD_MS : undefined;
      await generateSecond(stats.simulatedTimeMs, spread);
      stats.simulatedSeconds++;
      stats.simulatedTimeMs += 1000;
      if (stats.lagMs >= 1000) await nextTurn();
    }
  };

  const run = async (): Promise<void> => {
    if (live) return runLive();
    const realStart = performance.now();
    while (running && stats.simulatedSeconds < (options.durationSeconds ?? Infinity)) {
      if (Number.isFinite(speed)) {
        // A second is sent once it is over, as a device does.
        const due = ((stats.simulatedSeconds + 1) * 1000) / speed - (performance.now() - realStart);
        if (due > 0) await sleep(Math.min(due, 250));
        if (!running || ((stats.simulatedSeconds + 1) * 1000) / speed > performance.now() - realStart) continue;
      }
      if (stats.inFlight > maxInFlight) {
        await new Promise<void>((resolve) => (drained = resolve));
        continue;
      }
      // Spread over 90 % of a simulated second, but only when keeping up (not catching up).
      const nextDue = realStart + ((stats.simulatedSeconds + 2) * 1000) / speed;
      const spread = Number.isFinite(speed) && nextDue - performance.now() > SPREAD_MS / speed ? performance.now() + SPREAD_MS / speed : undefined;
      await generateSecond(stats.simulatedTimeMs, spread);
      stats.simulatedSeconds++;
      stats.simulatedTimeMs += 1000;
      if (!Number.isFinite(speed)) await nextTurn();
    }
  };

  const waitForAcks = async (timeoutMs: number): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (stats.inFlight > 0 && Date.now() < deadline) await sleep(10);
  };

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= (async () => {
      await waitForAcks(5000);
      if (options.lingerMs !== undefined && options.lingerMs > 0) await sleep(options.lingerMs);
      for (const device of devices) device.stopRetrying?.();
      await Promise.all(devices.map((device) => (device.client && !device.offline ? device.client.endAsync() : undefined)));
      for (const device of devices) if (device.client && device.offline) device.client.end(true);
    })());

  const loop = run().catch((error: unknown) => {
    running = false;
    onError(error as Error);
  });
  const done = loop.then(close);

  return {
    serials,
    stats,
    done,
    async stop() {
      running = false;
      drained?.();
      await loop;
      await close();
    },
  };
}
