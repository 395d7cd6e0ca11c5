// `npm run bench:ingest [-- --devices 1000 --seconds 20 --postgres | --disk --shape single|multi --profile DIR --skip-ceiling --skip-pipeline --replay-seconds N --warm-up-seconds N]`: the device pipeline
// under load. The server (broker, pipeline, storage) runs in a worker thread of its own, as it would on
// its own machine; the simulated devices run in a second worker thread and the subscribers in the main
// thread, so that the subscribers' timestamps do not wait for the devices' signal generation. Simulated devices (ECG 250 Hz, 3-axis acceleration 50 Hz, respiHr 1 Hz;
// one frame per channel and second, real time) publish over MQTT (QoS 1) to the server's embedded
// broker; signed-in WebSocket subscribers of /api/signals/live take every device. Reports frames/s
// through publish → parse → ring buffer → WebSocket, publish-to-subscriber latency (p50/p99), frames
// lost, what was stored; then the pipeline's ceiling (100 devices publishing QoS 1 as fast as the
// server acknowledges, i.e. stores) against the same broker's (Aedes) raw QoS 1 publish/subscribe
// rate without the pipeline, under the same publishers, and their ratio. Also printed: each thread's event-loop utilisation and delay, the staging
// writes (frames per commit, database time per frame) and the machine's load, so that a run says where
// it saturated; --profile DIR writes a CPU profile of each thread (.cpuprofile, for Chrome DevTools) of
// the streaming phase. --shape multi: each device sends one multi frame per second (all its channels)
// instead of one message per frame. Default database: PGlite in memory; --disk: PGlite in the server's
// DATA_DIR, as `npm start` runs it; --postgres: a fresh schema of
// TEST_DATABASE_URL (default postgres://root@127.0.0.1:5432/test), dropped afterwards.
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import WebSocket from 'ws';
import { DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { loadParser } from '@nemuri/parser/node';
import { MESSAGE_SHAPES, type MessageShape, type SimulatedChannel } from '@nemuri/simulator/index';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { LIVE_SIGNALS_PATH, MAX_DEVICES_PER_SOCKET } from '../src/signals/signalsPlugin.ts';
import { BrowserClient } from '../src/testing/browserClient.ts';
import { createTestSchema } from '../src/testing/postgres.ts';
import { makeTempDir } from '../src/testing/webDist.ts';
import {
  BENCH_CHANNELS,
  BENCH_SECRET,
  publishedIndex,
  scheduledAt,
  simulateBenchDevices,
  type BenchDevicesData,
  type BenchDevicesMessage,
  type BenchDevicesReport,
} from './benchDevices.ts';
import { loadLine, machineBusy, ms, percentile, registerBenchDevices, threadLoad, type ThreadLoad } from './measures.ts';

const { values: args } = parseArgs({
  options: {
    devices: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '20' },
    /** Simulated seconds per real second: above 1 offers more frames/s than real devices would. */
    speed: { type: 'string', default: '1' },
    /** Run on a fresh schema of TEST_DATABASE_URL (testing/postgres.ts) instead of PGlite in memory. */
    postgres: { type: 'boolean', default: false },
    /** PGlite on disk in the server's DATA_DIR, as `npm start` runs it, instead of in memory. */
    disk: { type: 'boolean', default: false },
    /** Neither ceiling: the pipeline's own (saturating publishers through storage) nor the broker's alone. */
    'skip-ceiling': { type: 'boolean', default: false },
    /** Only the two ceilings, without the simulated devices' run. */
    'skip-pipeline': { type: 'boolean', default: false },
    /** single: one MQTT message per channel frame; multi: one multi frame per device and second. */
    shape: { type: 'string', default: 'single' },
    /** Write CPU profiles of the streaming phase (server thread, device/subscriber thread) here. */
    profile: { type: 'string' },
    /**
     * The devices generate their first N seconds, then send those again (re-stamped) instead of
     * generating more: the load generator's signal generation then no longer takes the CPU of the
     * server it measures (benchDevices.ts). Default 0: every second generated.
     */
    'replay-seconds': { type: 'string', default: '0' },
    /**
     * The devices stream this many simulated seconds before the measured --seconds: a server runs for
     * days, so its steady state is what the figures are of; the warm-up (all devices starting in the
     * same second, code not yet optimised) is printed apart. Frames of both count for loss.
     */
    'warm-up-seconds': { type: 'string', default: '5' },
  },
});
if (!(MESSAGE_SHAPES as readonly string[]).includes(args.shape)) throw new Error(`--shape must be one of ${MESSAGE_SHAPES.join(', ')}`);
const SHAPE = args.shape as MessageShape;
const DEVICES = Number(args.devices);
const SECONDS = Number(args.seconds);
const SPEED = Number(args.speed);
const REPLAY_SECONDS = Number(args['replay-seconds']);
const WARM_UP_SECONDS = Number(args['warm-up-seconds']);
const DATABASE_NAME = args.postgres ? 'PostgreSQL' : args.disk ? 'PGlite on disk (DATA_DIR)' : 'PGlite in memory';
const CHANNELS = BENCH_CHANNELS;
const CHANNEL_CODES: Record<number, SimulatedChannel> = { 1: 'ecg', 2: 'respiAxl', 5: 'respiHr' };
const SECRET = BENCH_SECRET;

interface ServerStats {
  stats: { messages: number; rejectedMessages: number; storageErrors: number };
  pending: number;
  chunks: number;
  chunkFrames: number;
  load: ThreadLoad;
  writes: { writes: number; frames: number; writeMs: number; maxWriteMs: number };
}

/** A CPU profile of the calling thread (the inspector of that thread), written on stop. */
async function startProfile(): Promise<(path: string) => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  return async (path) => {
    const { profile } = await session.post('Profiler.stop');
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, JSON.stringify(profile));
    session.disconnect();
  };
}

/** The server thread: starts the server, registers the devices, answers with its addresses, then stats and stop. */
async function serve({ databaseUrl, serials, profileDir }: { databaseUrl: string; serials: string[]; profileDir: string | undefined }): Promise<void> {
  // The worker does not see the command line: its own profile is named after what the main thread passed.
  const profileName = `ingest-server-${(workerData as { shape: string }).shape}-${serials.length}.cpuprofile`;
  const load = threadLoad();
  let stopProfile: ((path: string) => Promise<void>) | undefined;
  let writesAtMark = { writes: 0, frames: 0, writeMs: 0 };
  const dir = await makeTempDir('nemuri-bench-');
  const server = await startServer(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dir.path,
      DEMO: '1',
      SIMULATE: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: join(dir.path, 'no-web'),
      AUTH_RATE_LIMIT_MAX: '100000',
    }),
    { logger: false },
  );
  // One signed-in bench user watches every device: far above a person's limits (SOCKET_LIMITS: 8
  // sockets, 200 subscriptions), which would otherwise refuse most subscriptions (and then hang the run).
  server.app.live.configure({ limits: { socketsPerUser: 1_000, subscriptionsPerUser: 1_000_000, subscriptionsPerTenant: 1_000_000 } });
  const registering = performance.now();
  await registerBenchDevices(server.app.documents, serials, SECRET);
  parentPort?.postMessage({ url: server.url, mqttUrl: server.mqttUrl, registeredMs: performance.now() - registering });
  parentPort?.on('message', async (message: unknown) => {
    if (message === 'mark') {
      load.mark();
      const { writes, frames, writeMs } = server.app.signals.store.writeStats;
      writesAtMark = { writes, frames, writeMs };
      server.app.signals.store.writeStats.maxWriteMs = 0;
      if (profileDir !== undefined) stopProfile = await startProfile();
      parentPort?.postMessage('marked');
    } else if (message === 'stats') {
      const threadLoadNow = load.read();
      await stopProfile?.(join(profileDir ?? '.', profileName));
      stopProfile = undefined;
      const total = server.app.signals.store.writeStats;
      const writes = {
        writes: total.writes - writesAtMark.writes,
        frames: total.frames - writesAtMark.frames,
        writeMs: total.writeMs - writesAtMark.writeMs,
        maxWriteMs: total.maxWriteMs,
      };
      await server.app.signals.store.flush();
      // Only the run's devices: the demo data set has signals of its own.
      const { rows } = await server.database.query<{ n: number }>(
        'select coalesce(sum(frame_count), 0)::int as n from signal_frames_pending where serial = any($1::text[])',
        [serials],
      );
      const chunkRows = await server.database.query<{ n: number; frames: number }>(
        'select count(*)::int as n, coalesce(sum(frame_count), 0)::int as frames from signal_chunks where serial = any($1::text[])',
        [serials],
      );
      const { messages, rejectedMessages, storageErrors } = server.app.ingest.stats;
      const reply: ServerStats = {
        stats: { messages, rejectedMessages, storageErrors },
        pending: rows[0]?.n ?? 0,
        chunks: chunkRows.rows[0]?.n ?? 0,
        chunkFrames: chunkRows.rows[0]?.frames ?? 0,
        load: threadLoadNow,
        writes,
      };
      parentPort?.postMessage(reply);
    } else if (message === 'stop') {
      await server.stop();
      await dir.remove();
      parentPort?.postMessage('stopped');
    }
  });
}

/** The device thread, and its CPU profile of the streaming phase with --profile. */
async function simulateDevices(data: BenchDevicesData & { profileDir: string | undefined }): Promise<void> {
  let stopProfile: Promise<(path: string) => Promise<void>> | undefined;
  await simulateBenchDevices(data, {
    onStreaming: () => {
      if (data.profileDir !== undefined) stopProfile = startProfile();
    },
    beforeReport: async () => {
      if (stopProfile !== undefined) await (await stopProfile)(join(data.profileDir ?? '.', `ingest-devices-${data.shape}-${data.serials.length}.cpuprofile`));
    },
  });
}

/** A worker thread does not inherit tsx's loader (Node 20): it registers it, then loads this file. */
function workerEntry(): string {
  return `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); })`;
}

/** The server thread of a run, with its addresses and the questions it answers. */
interface BenchServer {
  url: string;
  mqttUrl: string;
  registeredMs: number;
  ask(message: 'mark' | 'stats' | 'stop'): Promise<unknown>;
  /** Stops the server thread and drops the run's schema. */
  close(): Promise<void>;
}

async function startBenchServer(serials: string[], shape: string): Promise<BenchServer> {
  const schema = args.postgres ? await createTestSchema() : null;
  const worker = new Worker(workerEntry(), {
    eval: true,
    workerData: { databaseUrl: schema?.url ?? (args.disk ? '' : 'memory://'), serials, profileDir: args.profile, shape },
  });
  const [server] = (await once(worker, 'message')) as [{ url: string; mqttUrl: string; registeredMs: number }];
  const ask = async (message: 'mark' | 'stats' | 'stop'): Promise<unknown> => {
    const reply = once(worker, 'message');
    worker.postMessage(message);
    return ((await reply) as unknown[])[0];
  };
  return {
    ...server,
    ask,
    close: async () => {
      await ask('stop');
      await worker.terminate();
      await schema?.drop();
    },
  };
}

async function pipelineRun(): Promise<void> {
  const serials = Array.from({ length: DEVICES }, (_, i) => `BENCH-${String(i + 1).padStart(5, '0')}`);
  const server = await startBenchServer(serials, SHAPE);
  const { ask } = server;
  const mainLoad = threadLoad();
  try {
    console.log(`${DEVICES} devices registered in ${ms(server.registeredMs)}`);

    const browser = new BrowserClient(server.url);
    const signIn = await browser.signIn('sysadmin@example.com', DEMO_PASSWORD);
    if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}`);

    // Publish times (absolute: the device thread's clock has another origin) by device, channel and
    // sequence number, written by the device thread.
    const maxSeq = WARM_UP_SECONDS + SECONDS + 5;
    /** When the measured phase starts: the first frame's publish time plus the warm-up. */
    let measuredFrom = Number.NaN;
    const times = new SharedArrayBuffer(DEVICES * CHANNELS.length * maxSeq * 8);
    const published = new Float64Array(times).fill(Number.NaN);
    const deviceIndex = new Map(serials.map((serial, i) => [serial, i]));
    const latencies = new Float64Array(DEVICES * CHANNELS.length * maxSeq);
    /** Frames received (all), and of the measured phase (their latencies are in `latencies`). */
    let received = 0;
    let measured = 0;
    let duplicates = 0;
    let droppedAtSocket = 0;
    let firstPublish = Number.NaN;
    let lastReceive = 0;
    const seen = new Set<string>();
    /** The worst latency of the frames published in each second of the run. */
    const worstBySecond: number[] = [];
    /** Latencies of the warm-up's frames (every device starts in its first second). */
    const warmUpLatencies: number[] = [];
    /** How late each frame left against the devices' schedule, and its latency counted from that schedule. */
    const behindSchedule = new Float64Array(DEVICES * CHANNELS.length * maxSeq);
    const fromSchedule = new Float64Array(DEVICES * CHANNELS.length * maxSeq);

    const sockets: WebSocket[] = [];
    for (let i = 0; i < serials.length; i += MAX_DEVICES_PER_SOCKET) {
      const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}${LIVE_SIGNALS_PATH}`, { headers: { cookie: browser.cookieHeader } });
      await new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      });
      socket.on('message', (data: Buffer, isBinary) => {
        if (!isBinary) {
          // The server drops a slow socket's frames rather than buffer them: counted apart from loss elsewhere.
          const message = JSON.parse(data.toString('utf8')) as { type?: string; frames?: number };
          if (message.type === 'dropped') droppedAtSocket += message.frames ?? 0;
          return;
        }
        const now = performance.timeOrigin + performance.now();
        const length = data[0]!;
        const serial = data.toString('latin1', 1, 1 + length);
        const frame = data.subarray(1 + length);
        const channel = CHANNEL_CODES[frame[5]!];
        const sequence = frame.readUInt32LE(12);
        const device = deviceIndex.get(serial);
        if (channel === undefined || device === undefined) return;
        const id = `${serial}:${channel}:${sequence}`;
        if (seen.has(id)) {
          duplicates++;
          return;
        }
        seen.add(id);
        const sent = sequence < maxSeq ? published[publishedIndex(device, CHANNELS.indexOf(channel), sequence, maxSeq)] : undefined;
        if (sent !== undefined && !Number.isNaN(sent)) {
          const second = Math.floor((sent - firstPublish) / 1000);
          worstBySecond[second] = Math.max(worstBySecond[second] ?? 0, now - sent);
          if (sent < measuredFrom) warmUpLatencies.push(now - sent);
          else {
            latencies[measured] = now - sent;
            const due = scheduledAt(firstPublish, device, DEVICES, sequence, SPEED);
            behindSchedule[measured] = Math.max(0, sent - due);
            fromSchedule[measured] = now - Math.min(due, sent);
            measured++;
            lastReceive = now;
          }
        }
        received++;
      });
      let answered = 0;
      const batch = serials.slice(i, i + MAX_DEVICES_PER_SOCKET);
      const statuses = new Promise<void>((resolve) => {
        const onMessage = (data: Buffer, isBinary: boolean): void => {
          if (isBinary) return;
          const answer = JSON.parse(data.toString('utf8')) as { type?: string; message?: string };
          if (answer.type === 'error') throw new Error(`subscription refused: ${answer.message}`);
          if (++answered === batch.length) {
            socket.off('message', onMessage);
            resolve();
          }
        };
        socket.on('message', onMessage);
      });
      for (const serial of batch) socket.send(JSON.stringify({ type: 'subscribe', serial, channels: CHANNELS }));
      await statuses;
      sockets.push(socket);
    }
    console.log(`${sockets.length} WebSocket subscribers (${MAX_DEVICES_PER_SOCKET} devices each at most)`);

    // The streaming phase starts with the first frame: both threads' load, the CPU and the profiles
    // are measured from there (not over the connection of thousands of devices).
    let cpuBefore = process.cpuUsage();
    let machineBefore = cpus();
    let started = performance.now();
    let marked: Promise<unknown> | undefined;
    let stopMainProfile: Promise<(path: string) => Promise<void>> | undefined;
    const mark = (): void => {
      cpuBefore = process.cpuUsage();
      machineBefore = cpus();
      started = performance.now();
      mainLoad.mark();
      marked = ask('mark');
      if (args.profile !== undefined) stopMainProfile = startProfile();
    };
    const loadBefore = loadavg()[0]!;
    const connecting = performance.now();
    const devices = new Worker(workerEntry(), {
      eval: true,
      workerData: {
        mode: 'devices',
        serials,
        broker: server.mqttUrl,
        times,
        maxSeq,
        shape: SHAPE,
        speed: SPEED,
        seconds: WARM_UP_SECONDS + SECONDS,
        warmUpSeconds: WARM_UP_SECONDS,
        replaySeconds: REPLAY_SECONDS,
        profileDir: args.profile,
      } satisfies BenchDevicesData & { mode: 'devices'; profileDir: string | undefined },
    });
    const simulation = new Promise<BenchDevicesReport>((resolve, reject) => {
      devices.on('error', reject);
      devices.on('message', (message: BenchDevicesMessage) => {
        if (message.type === 'connected')
          console.log(
            `${DEVICES} simulated devices connected in ${ms(performance.now() - connecting)}; streaming ${WARM_UP_SECONDS} s of warm-up, then ${SECONDS} simulated s at speed ${SPEED} …`,
          );
        else if (message.type === 'streaming') {
          firstPublish = message.at;
          measuredFrom = firstPublish + (WARM_UP_SECONDS * 1000) / SPEED;
          // The loads, the CPU and the profiles are of the measured phase too.
          setTimeout(mark, Math.max(0, measuredFrom - (performance.timeOrigin + performance.now())));
        } else resolve(message);
      });
    });
    const { stats: simulated, load: devicesLoad } = await simulation;
    const generated = simulated.framesGenerated;
    const drainUntil = performance.now() + 10_000;
    while (received < generated && performance.now() < drainUntil) await new Promise((resolve) => setTimeout(resolve, 50));
    const elapsed = (lastReceive - measuredFrom) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const wall = (performance.now() - started) / 1000;
    const busy = machineBusy(machineBefore);
    const loadAfter = loadavg()[0]!;
    const subscribersLoad = mainLoad.read();
    await marked;
    if (stopMainProfile !== undefined) await (await stopMainProfile)(join(args.profile ?? '.', `ingest-subscribers-${SHAPE}-${DEVICES}.cpuprofile`));

    for (const socket of sockets) socket.close();
    const { stats, pending, chunks, chunkFrames, load: serverLoad, writes } = (await ask('stats')) as ServerStats;
    const sorted = latencies.slice(0, measured).sort();

    console.log('\npipeline (publish → parse → ring buffer → WebSocket subscriber, and storage)');
    console.log(
      `  frames generated ${generated} in ${simulated.messagesGenerated} messages (${SHAPE}), acknowledged by the broker ${simulated.framesPublished}, publish errors ${simulated.publishErrors}`,
    );
    console.log(
      `  frames at the subscribers ${received} (duplicates ${duplicates}), lost ${generated - received} (of which the server dropped ${droppedAtSocket} at slow WebSockets)`,
    );
    console.log(
      `  throughput ${(measured / elapsed).toFixed(0)} frames/s over ${elapsed.toFixed(1)} s after the warm-up (offered ${(DEVICES * CHANNELS.length * SPEED).toFixed(0)} frames/s)`,
    );
    console.log(`  latency publish → subscriber: p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(percentile(sorted, 100))}`);
    const warmUp = Float64Array.from(warmUpLatencies).sort();
    if (WARM_UP_SECONDS > 0)
      console.log(
        `  latency in the ${WARM_UP_SECONDS} s of warm-up (all devices start in its first second; not counted above): p50 ${ms(percentile(warmUp, 50))}, p99 ${ms(percentile(warmUp, 99))}, max ${ms(percentile(warmUp, 100))}`,
      );
    const warmUpEnd = Math.ceil(WARM_UP_SECONDS / SPEED);
    const worst = (from: number, to?: number): string =>
      worstBySecond
        .slice(from, to)
        .map((value) => value.toFixed(0))
        .join(' ');
    console.log(`  worst latency by second of the run: ${WARM_UP_SECONDS > 0 ? `${worst(0, warmUpEnd)} | ` : ''}${worst(warmUpEnd)} ms`);
    const behind = behindSchedule.slice(0, measured).sort();
    const scheduled = fromSchedule.slice(0, measured).sort();
    console.log(
      `  devices behind their schedule (a late device sends later, and its frames' latency counts from then): p50 ${ms(percentile(behind, 50))}, p99 ${ms(percentile(behind, 99))}, max ${ms(percentile(behind, 100))}; ` +
        `latency from the schedule → subscriber: p99 ${ms(percentile(scheduled, 99))}`,
    );
    console.log(
      `  stored: ${pending} pending frames + ${chunkFrames} frames in ${chunks} chunks; pipeline messages ${stats.messages}, rejected ${stats.rejectedMessages}, storage errors ${stats.storageErrors}`,
    );
    console.log(`  process CPU ${(((cpu.user + cpu.system) / 1e6 / wall) * 100).toFixed(0)} % of one core (server, devices and subscribers together)`);
    console.log(`  server thread: ${loadLine(serverLoad)}`);
    console.log(`  device thread: ${loadLine(devicesLoad)}`);
    console.log(`  subscriber thread: ${loadLine(subscribersLoad)}`);
    console.log(
      `  staging writes: ${writes.writes} commits, ${(writes.frames / Math.max(1, writes.writes)).toFixed(0)} frames each, ` +
        `${(writes.writeMs / Math.max(1, writes.writes)).toFixed(1)} ms each (max ${ms(writes.maxWriteMs)}), ${((writes.writeMs * 1000) / Math.max(1, writes.frames)).toFixed(0)} µs of database time per frame`,
    );
    console.log(
      `  machine: ${cpus().length} cores ${(busy * 100).toFixed(0)} % busy during the run (all processes), load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}`,
    );
    await devices.terminate();
  } finally {
    await server.close();
  }
}

/**
 * The load of both ceilings: this many publishers, each with this many QoS 1 messages in flight, as
 * fast as they are acknowledged.
 */
const CEILING_LOAD = { publishers: Math.min(DEVICES, 100), perPublisher: 1000, windowPerPublisher: 50 };

/** Publishes each client's messages with the ceiling's window; resolves when every one is acknowledged. */
async function publishAll(clients: mqtt.MqttClient[], topicOf: (i: number) => string, messageOf: (i: number, k: number) => Buffer): Promise<void> {
  await Promise.all(
    clients.map(async (client, i) => {
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < CEILING_LOAD.perPublisher) {
          const k = next++;
          await client.publishAsync(topicOf(i), messageOf(i, k), { qos: 1 });
        }
      };
      await Promise.all(Array.from({ length: CEILING_LOAD.windowPerPublisher }, worker));
    }),
  );
}

/**
 * The pipeline's own ceiling, measured as the broker's is: the same publishers (registered devices
 * here, each message an ECG frame of its own) against the server's embedded broker, as fast as the
 * PUBACKs come, which the server sends only once a message's frames are stored. No WebSocket
 * subscribers (the broker's ceiling has one subscriber; the pipeline's is storage). Returns messages/s.
 */
async function saturationRun(): Promise<number> {
  const { publishers, perPublisher } = CEILING_LOAD;
  const serials = Array.from({ length: publishers }, (_, i) => `SAT-${String(i + 1).padStart(5, '0')}`);
  const server = await startBenchServer(serials, 'saturation');
  try {
    const parser = await loadParser();
    // Distinct frames (sequence and start time), in the past, so that none joins another's write.
    const base = (Date.now() - 2 * perPublisher * 1000) * 1000;
    const frames = Array.from({ length: perPublisher }, (_, k) =>
      Buffer.from(
        parser.encodeSmfFrame({ channel: 'ecg', format: 'int16', sampleRate: 250, sequence: k, startTimeUs: base + k * 1e6, raw: new Int16Array(250) }),
      ),
    );
    const clients: mqtt.MqttClient[] = [];
    // The broker lets 32 connections of one address wait for authentication at a time.
    for (let i = 0; i < serials.length; i += 20) {
      const batch = serials.slice(i, i + 20);
      clients.push(
        ...(await Promise.all(
          batch.map((serial) =>
            mqtt.connectAsync(server.mqttUrl, { username: serial, password: SECRET, clientId: serial, protocolVersion: 4, clean: true, reconnectPeriod: 0 }),
          ),
        )),
      );
    }
    const loadBefore = loadavg()[0]!;
    const machineBefore = cpus();
    await server.ask('mark');
    const started = performance.now();
    await publishAll(
      clients,
      (i) => `devices/${serials[i]}/frames`,
      (_, k) => frames[k]!,
    );
    const seconds = (performance.now() - started) / 1000;
    const busy = machineBusy(machineBefore);
    const total = publishers * perPublisher;
    await Promise.all(clients.map((client) => client.endAsync()));
    const { stats, pending, chunkFrames, load, writes } = (await server.ask('stats')) as ServerStats;
    const rate = total / seconds;
    console.log(`
pipeline ceiling: ${publishers} devices → the server's embedded broker → storage, QoS 1, ${frames[0]!.byteLength}-byte frames, each acknowledged once stored`);
    console.log(`  ${total} messages acknowledged in ${seconds.toFixed(2)} s: ${rate.toFixed(0)} messages/s`);
    console.log(
      `  stored: ${pending} pending frames + ${chunkFrames} frames in chunks (${total} sent); rejected ${stats.rejectedMessages}, storage errors ${stats.storageErrors}`,
    );
    console.log(`  server thread: ${loadLine(load)}`);
    console.log(
      `  staging writes: ${writes.writes} commits, ${(writes.frames / Math.max(1, writes.writes)).toFixed(0)} frames each, ${((writes.writeMs * 1000) / Math.max(1, writes.frames)).toFixed(0)} µs of database time per frame`,
    );
    console.log(`  machine: ${cpus().length} cores ${(busy * 100).toFixed(0)} % busy, load average ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`);
    if (pending + chunkFrames < total) throw new Error(`only ${pending + chunkFrames} of ${total} acknowledged frames are stored`);
    return rate;
  } finally {
    await server.close();
  }
}

/**
 * The broker alone, in a thread of its own as the server is: plain Aedes, no authentication hooks,
 * and one QoS 1 subscriber (in that thread, where the server's pipeline would be). Tells the main
 * thread its address, then when the subscriber has had `total` messages.
 */
async function brokerAlone({ total }: { total: number }): Promise<void> {
  const broker = await Aedes.createBroker();
  const server = createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `mqtt://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const subscriber = await mqtt.connectAsync(url, { protocolVersion: 4, clean: true });
  let delivered = 0;
  subscriber.on('message', () => {
    if (++delivered === total) parentPort?.postMessage('delivered');
  });
  await subscriber.subscribeAsync('devices/+/frames', { qos: 1 });
  parentPort?.once('message', async () => {
    await subscriber.endAsync();
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
    parentPort?.postMessage('stopped');
  });
  parentPort?.postMessage({ url });
}

/** The broker's ceiling: the same publishers as the pipeline's against `brokerAlone`. Returns messages/s. */
async function ceilingRun(): Promise<number> {
  const parser = await loadParser();
  const frame = Buffer.from(
    parser.encodeSmfFrame({ channel: 'ecg', format: 'int16', sampleRate: 250, sequence: 0, startTimeUs: Date.now() * 1000, raw: new Int16Array(250) }),
  );
  const { publishers, perPublisher } = CEILING_LOAD;
  const total = publishers * perPublisher;
  const worker = new Worker(workerEntry(), { eval: true, workerData: { mode: 'broker', total } });
  try {
    const [{ url }] = (await once(worker, 'message')) as [{ url: string }];
    const clients = await Promise.all(
      Array.from({ length: publishers }, (_, i) => mqtt.connectAsync(url, { protocolVersion: 4, clientId: `ceiling-${i}`, clean: true })),
    );
    const delivered = once(worker, 'message');
    const started = performance.now();
    await publishAll(
      clients,
      (i) => `devices/CEIL-${i}/frames`,
      () => frame,
    );
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 10_000).unref());
    if ((await Promise.race([delivered, timeout])) === 'timeout') throw new Error('the subscriber did not get every message within 10 s');
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `\nceiling: the same broker (Aedes) alone in a thread of its own, QoS 1, ${publishers} publishers → 1 subscriber in that thread, ${frame.byteLength}-byte frames`,
    );
    console.log(`  ${total} messages delivered in ${seconds.toFixed(2)} s: ${(total / seconds).toFixed(0)} messages/s`);
    await Promise.all(clients.map((client) => client.endAsync()));
    const stopped = once(worker, 'message');
    worker.postMessage('stop');
    await stopped;
    return total / seconds;
  } finally {
    await worker.terminate();
  }
}

if (!isMainThread) {
  const { mode } = workerData as { mode?: string };
  if (mode === 'broker') await brokerAlone(workerData as { total: number });
  else if (mode === 'devices') await simulateDevices(workerData as BenchDevicesData & { profileDir: string | undefined });
  else await serve(workerData as { databaseUrl: string; serials: string[]; profileDir: string | undefined });
} else {
  await main();
}

async function main(): Promise<void> {
  console.log(
    `bench:ingest: ${DEVICES} devices at speed ${SPEED} × ${CHANNELS.join(', ')} (1 frame per channel and second, ${SHAPE === 'multi' ? 'one multi frame per device and second' : 'one message per frame'}) ` +
      `for ${WARM_UP_SECONDS} s of warm-up and ${SECONDS} s measured${REPLAY_SECONDS > 0 ? `, each device's first ${REPLAY_SECONDS} s generated and then sent again in turn` : ''}; database ${DATABASE_NAME}`,
  );
  if (!args['skip-pipeline']) await pipelineRun();
  if (args['skip-ceiling']) process.exit(0);
  const pipelineCeiling = await saturationRun();
  const brokerCeiling = await ceilingRun();
  console.log(
    `\npipeline ceiling / broker ceiling: ${pipelineCeiling.toFixed(0)} / ${brokerCeiling.toFixed(0)} messages/s = ${((pipelineCeiling / brokerCeiling) * 100).toFixed(0)} % (goal ≥ 75 %)`,
  );
  process.exit(0);
}
