/**
 * Test support for the device pipeline: a real server (DEMO=1 for the demo accounts, the embedded
 * broker on a free port or MQTT_URL), device records written as the system, signed-in WebSocket
 * subscribers of /api/signals/live, and this machine's Mosquitto.
 */
import { connect as connectTcp } from 'node:net';
import { join } from 'node:path';
import WebSocket from 'ws';
import { DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import type { Parser } from '@nemuri/parser/parser';
import { loadConfig } from '../config.ts';
import { hashDeviceSecret } from '../devices/deviceSecret.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient } from '../testing/browserClient.ts';
import { makeTempDir } from '../testing/webDist.ts';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { LIVE_SIGNALS_PATH } from '../signals/signalsPlugin.ts';

export const MOSQUITTO = { host: '127.0.0.1', port: 1883, url: 'mqtt://127.0.0.1:1883' };
export const SKIP_MQTT = process.env.NEMURI_SKIP_MQTT === '1';
if (SKIP_MQTT) console.warn(`\n*** NEMURI_SKIP_MQTT=1: SKIPPING the ingest tests through Mosquitto (${MOSQUITTO.url}) ***\n`);

export function mosquittoReachable(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTcp({ host: MOSQUITTO.host, port: MOSQUITTO.port, timeout: 2000 });
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

export async function requireMosquitto(): Promise<void> {
  if (!(await mosquittoReachable())) {
    throw new Error(`Mosquitto is not reachable at ${MOSQUITTO.host}:${MOSQUITTO.port} (start it, or set NEMURI_SKIP_MQTT=1 to skip these tests)`);
  }
}

export interface IngestTestServer {
  server: RunningServer;
  logLines: string[];
  /** Stops the server (the data directory stays until `remove`). */
  stop(): Promise<void>;
  remove(): Promise<void>;
}

/** A unique serial per test (Mosquitto is shared with other tests and engineers). */
export function uniqueSerial(name: string): string {
  return `T-${name}-${process.pid}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
}

export async function startIngestServer(env: Record<string, string> = {}, dataDir?: string): Promise<IngestTestServer> {
  const dir = dataDir === undefined ? await makeTempDir('nemuri-ingest-') : { path: dataDir, remove: async () => undefined };
  const logLines: string[] = [];
  const server = await startServer(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
      LOG_LEVEL: 'info',
      DATABASE_URL: 'memory://',
      DATA_DIR: dir.path,
      DEMO: '1',
      SIMULATE: '0',
      WEB_DIST: join(dir.path, 'no-web'),
      AUTH_RATE_LIMIT_MAX: '10000',
      ...env,
    }),
    { logger: { write: (line) => logLines.push(line) } },
  );
  return { server, logLines, stop: () => server.stop(), remove: () => dir.remove() };
}

/** Registers a device (as the system) whose secret is `secret`. */
export async function registerDevice(server: RunningServer, serial: string, secret: string, domainId: string): Promise<void> {
  await server.app.documents.set(
    SYSTEM_PRINCIPAL,
    `devices/${serial}`,
    { deviceTypeId: 'nemuri-pad', domainId, status: 'in_use', credentialHash: hashDeviceSecret(secret) },
    false,
  );
}

export async function signedInClient(server: RunningServer, email: string): Promise<BrowserClient> {
  const client = new BrowserClient(server.url);
  const reply = await client.signIn(email, DEMO_PASSWORD);
  if (reply.status !== 200) throw new Error(`sign-in as ${email} answered ${reply.status}: ${reply.text}`);
  return client;
}

/** A frame of one second of respiration and heart rate (channel respiHr), `sequence` s after `startMs`. */
export function respiHrFrame(parser: Parser, startMs: number, sequence: number, heartRate = 60): Buffer {
  return Buffer.from(
    parser.encodeSmfFrame({
      channel: 'respiHr',
      format: 'float32',
      sampleRate: 1,
      sequence,
      startTimeUs: (startMs + sequence * 1000) * 1000,
      values: [14, heartRate],
    }),
  );
}

/** A device's stored frames of one channel between two times, as GET /api/devices/:serial/signals answers them. */
export async function readSignals(
  base: IngestTestServer,
  cookie: string,
  serial: string,
  channel: string,
  fromMs: number,
  toMs: number,
): Promise<{ status: number; body: Buffer }> {
  const url = `${base.server.url}/api/devices/${serial}/signals?channel=${channel}&from=${new Date(fromMs).toISOString()}&to=${new Date(toMs).toISOString()}`;
  const response = await fetch(url, { headers: { cookie } });
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

/** The device's stored respiHr frames of the minute from `startMs`, read again until they are `expected` (at most 10 s). */
export async function storedRespiHr(base: IngestTestServer, cookie: string, serial: string, startMs: number, expected: Buffer): Promise<Buffer> {
  const deadline = Date.now() + 10_000;
  let stored = await readSignals(base, cookie, serial, 'respiHr', startMs, startMs + 60_000);
  while (!stored.body.equals(expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    stored = await readSignals(base, cookie, serial, 'respiHr', startMs, startMs + 60_000);
  }
  return stored.body;
}

export interface LiveFrame {
  serial: string;
  bytes: Buffer;
}

/** A browser-like subscriber of /api/signals/live. */
export class LiveSignalsClient {
  readonly frames: LiveFrame[] = [];
  readonly messages: Record<string, unknown>[] = [];
  readonly #socket: WebSocket;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.on('message', (data: Buffer, isBinary) => {
      if (isBinary) {
        const length = data[0]!;
        this.frames.push({ serial: data.subarray(1, 1 + length).toString('latin1'), bytes: data.subarray(1 + length) });
      } else this.messages.push(JSON.parse(data.toString('utf8')) as Record<string, unknown>);
    });
  }

  static open(server: RunningServer, cookie: string): Promise<LiveSignalsClient> {
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}${LIVE_SIGNALS_PATH}`, { headers: { cookie } });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new LiveSignalsClient(socket)));
      socket.once('error', reject);
    });
  }

  send(message: object): void {
    this.#socket.send(JSON.stringify(message));
  }

  framesOf(serial: string): Buffer[] {
    return this.frames.filter((frame) => frame.serial === serial).map((frame) => frame.bytes);
  }

  async waitFor(predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Subscribes and waits for the first status message of the serial (or an error). */
  async subscribe(serial: string, channels?: string[]): Promise<Record<string, unknown>> {
    const before = this.messages.length;
    this.send({ type: 'subscribe', serial, ...(channels ? { channels } : {}) });
    let found: Record<string, unknown> | undefined;
    await this.waitFor(
      () => (found = this.messages.slice(before).find((message) => message.serial === serial)) !== undefined,
      `an answer to subscribing to ${serial}`,
    );
    return found!;
  }

  /** Stops reading from the network (a browser tab that cannot keep up), or starts again. */
  pauseReading(paused: boolean): void {
    // ws keeps the TCP socket private; pausing it is what a slow reader looks like to the server.
    const tcp = (this.#socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    if (paused) tcp.pause();
    else tcp.resume();
  }

  close(): void {
    this.#socket.close();
  }
}

/** Fault-injection tests (root for tmpfs, PostgreSQL's binaries, a Mosquitto binary) run unless opted out, loudly. */
export const SKIP_FAULTS = process.env.NEMURI_SKIP_FAULTS === '1';
if (SKIP_FAULTS) console.warn('\n*** NEMURI_SKIP_FAULTS=1: SKIPPING the fault-injection tests (tmpfs, private PostgreSQL and Mosquitto) ***\n');

/** Fails the test with what is missing, so a machine without it cannot pass silently. */
export function requireForFaults(present: boolean, what: string): void {
  if (!present) throw new Error(`this fault-injection test needs ${what}; install it, or set NEMURI_SKIP_FAULTS=1 to skip these tests`);
}

/**
 * With MQTT_SHARED_GROUP: waits until the servers know each other and each device's share is held by
 * one of them only, its owner, which knows that it is (ingest/deviceShares.ts). Throws after `timeoutMs`.
 */
export async function waitForDivision(servers: readonly RunningServer[], serials: readonly string[], timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  const settled = (): boolean =>
    servers.every((server) => server.deviceBroker.group?.members.length === servers.length) &&
    serials.every((serial) => {
      const holders = servers.filter((server) => server.deviceBroker.shares?.holds(serial) === true);
      return holders.length === 1 && holders[0]!.deviceBroker.group!.owns(serial) && holders[0]!.deviceBroker.group!.alone(serial);
    });
  while (!settled()) {
    if (Date.now() > until) throw new Error(`the devices' shares were not divided among the ${servers.length} processes within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
