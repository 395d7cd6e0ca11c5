/**
 * Test support for the fault-injection tests (issue 25): devices that publish numbered frames at a
 * steady rate and remember which ones were acknowledged, the stored frames read back through the
 * signals API (duplicates removed, as on every read), and the closing figures of a fault.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import mqtt, { type MqttClient } from 'mqtt';
import { loadParser } from '@nemuri/parser/node';
import { splitFrames } from '../signals/smfHeader.ts';

export const FAULT_CHANNEL = 'respiHr';

/** A whole minute, 10 minutes ago: room for a test's frames (one every 100 ms) in one minute of storage. */
export function pastMinute(): number {
  return Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000;
}

export async function eventually<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs = 10_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export interface CountingDeviceOptions {
  url: string;
  serial: string;
  /** The device secret (embedded broker); absent: an anonymous client (an external broker without authentication). */
  secret?: string;
  startMs: number;
  /** Frames a second. Default 10. */
  rate?: number;
}

/**
 * A device publishing frame n (QoS 1) every 1/rate s, frame n starting n/rate s after `startMs`.
 * mqtt.js keeps unacknowledged messages and sends them again after reconnecting (every 500 ms).
 */
export class CountingDevice {
  readonly serial: string;
  readonly acked = new Set<number>();
  /** When each frame was acknowledged (ms since the epoch). */
  readonly ackedAt: number[] = [];
  sent = 0;
  /** Why publishes failed (they were sent again). */
  readonly errors: string[] = [];
  readonly #client: MqttClient;
  readonly #frame: (sequence: number) => Buffer;
  readonly #rate: number;
  #timer: NodeJS.Timeout | undefined;

  private constructor(client: MqttClient, serial: string, frame: (sequence: number) => Buffer, rate: number) {
    this.#client = client;
    this.serial = serial;
    this.#frame = frame;
    this.#rate = rate;
  }

  static async connect({ url, serial, secret, startMs, rate = 10 }: CountingDeviceOptions): Promise<CountingDevice> {
    const parser = await loadParser();
    const frame = (sequence: number): Buffer =>
      Buffer.from(
        parser.encodeSmfFrame({
          channel: FAULT_CHANNEL,
          format: 'float32',
          sampleRate: 1,
          sequence,
          startTimeUs: Math.round((startMs + (sequence * 1000) / rate) * 1000),
          values: [14, 60],
        }),
      );
    const client = await mqtt.connectAsync(url, {
      protocolVersion: 4,
      clientId: serial,
      ...(secret === undefined ? {} : { username: serial, password: secret }),
      reconnectPeriod: 500,
      connectTimeout: 5000,
      // Kept short so that a broker that vanished without a word is noticed soon.
      keepalive: 5,
    });
    client.on('error', () => undefined);
    return new CountingDevice(client, serial, frame, rate);
  }

  start(): void {
    this.#timer = setInterval(() => {
      this.#publish(this.sent++);
    }, 1000 / this.#rate);
  }

  /** As a device keeps a frame until its PUBACK: a publish that failed is sent again. */
  #publish(sequence: number): void {
    this.#client.publish(`devices/${this.serial}/frames`, this.#frame(sequence), { qos: 1 }, (error) => {
      if (error) {
        this.errors.push(error.message);
        setTimeout(() => this.#publish(sequence), 500);
        return;
      }
      this.acked.add(sequence);
      this.ackedAt.push(Date.now());
    });
  }

  /** Stops publishing and waits (up to `waitMs`) until every frame sent is acknowledged. */
  async stop(waitMs = 15_000): Promise<void> {
    clearInterval(this.#timer);
    await eventually(() => this.acked.size === this.sent || undefined, `${this.serial}'s frames acknowledged`, waitMs).catch(() => undefined);
  }

  /** The first acknowledgement at or after `ms`, or null. */
  firstAckAfter(ms: number): number | null {
    return this.ackedAt.find((at) => at >= ms) ?? null;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#client.endAsync(true);
  }
}

/** The sequences of a device's frames stored in the range, read through GET /api/devices/:serial/signals. */
export async function storedSequences(serverUrl: string, cookie: string, serial: string, fromMs: number, toMs: number): Promise<Set<number>> {
  const url = `${serverUrl}/api/devices/${serial}/signals?channel=${FAULT_CHANNEL}&from=${new Date(fromMs).toISOString()}&to=${new Date(toMs).toISOString()}`;
  const response = await fetch(url, { headers: { cookie } });
  if (response.status !== 200) throw new Error(`signals of ${serial} answered ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return new Set(splitFrames(bytes).map((frame) => frame.header.sequence));
}

/** One row of the closing table (docs/operations.md, "Faults tried"). */
export interface FaultFigures {
  fault: string;
  acknowledged: number;
  stored: number;
  lost: number;
  /** From the dependency (or process) being back to the first frame acknowledged again. */
  resumeMs: number;
}

/** Acknowledged, stored and lost (acknowledged yet not stored) over the devices. */
export function countFault(
  fault: string,
  devices: readonly CountingDevice[],
  stored: ReadonlyMap<string, ReadonlySet<number>>,
  resumeMs: number,
): FaultFigures {
  let acknowledged = 0;
  let storedCount = 0;
  let lost = 0;
  for (const device of devices) {
    const kept = stored.get(device.serial) ?? new Set<number>();
    acknowledged += device.acked.size;
    storedCount += kept.size;
    for (const sequence of device.acked) if (!kept.has(sequence)) lost++;
  }
  const figures = { fault, acknowledged, stored: storedCount, lost, resumeMs };
  // The closing table of issue 25 is made of these lines.
  console.log(`FAULT FIGURES ${JSON.stringify(figures)}`);
  return figures;
}

export interface ServerProcess {
  child: ChildProcess;
  /** When it was spawned (ms since the epoch). */
  spawnedAt: number;
  output(): string;
  /** Resolves with the server's URL once its ready line is printed. */
  ready(timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code and signal; rejects after `timeoutMs`. */
  exit(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
}

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** `node --import tsx packages/server/src/main.ts` as an operator runs it, with `env` over a clean environment. */
export function runServerProcess(env: Record<string, string>): ServerProcess {
  const spawnedAt = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: '', DEMO: '', MQTT_URL: '', SMTP_URL: '', HOST: '127.0.0.1', SIMULATE: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    spawnedAt,
    output: () => output,
    async ready(timeoutMs = 120_000) {
      const probe = (): RegExpExecArray | undefined => {
        const found = /ready at (http:\/\/\S+) /.exec(output);
        if (found !== null) return found;
        if (child.exitCode !== null) throw new Error(`the server ended with code ${child.exitCode} before it was ready`);
        return undefined;
      };
      const match = await eventually(probe, 'the ready line', timeoutMs, 100).catch((error: unknown) => {
        throw new Error(`${(error as Error).message}\n${output.slice(-4000)}`);
      });
      return match[1]!;
    },
    async exit(timeoutMs = 15_000) {
      const from = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const result = await Promise.race([
        exited,
        new Promise<never>(
          (_, reject) => (timer = setTimeout(() => reject(new Error(`still running after ${timeoutMs} ms\n${output.slice(-4000)}`)), timeoutMs)),
        ),
      ]).finally(() => clearTimeout(timer));
      return { ...result, ms: Date.now() - from };
    },
  };
}
