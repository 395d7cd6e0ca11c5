// `npm run bench:ingest-processes [-- --processes 1,2,3 --devices 3000 --seconds 15 --shape multi --speed 1 --broker URL --no-rooms --watch 0.1 --cpu-quota 0.2 --profile DIR]`:
// the production path with several server processes. N server processes (each its own Node.js
// process, as behind a load balancer) share one PostgreSQL (a fresh schema of TEST_DATABASE_URL) and
// one Mosquitto: a private one on a free port by default (so that the shared 127.0.0.1:1883 of the
// other tests does not carry 9,000 frames/s of ours, nor ours theirs), or --broker's. With N > 1 each
// process holds the shares of the devices it owns, `$share/<group>/devices/<serial>/frames`
// (MQTT_SHARED_GROUP: it stores, computes and shows its own devices' messages once), and
// subscribes through a second connection to the other devices its own browsers watch (their live
// frames cross processes through the broker); one process subscribes plainly, as a
// one-process deployment does. Simulated devices (a worker thread of this process) publish QoS 1
// to Mosquitto; signed-in WebSocket subscribers (this thread) watch every device, socket k on
// process k mod N, so most viewers watch devices stored by another process. Printed for each N:
// frames/s at the browsers, publish-to-browser latency, frames lost and stored, each process's CPU
// and event-loop load, Mosquitto's CPU and the machine's load; then the broker alone (the same
// Mosquitto, QoS 1 publishers → a shared-subscription subscriber that acknowledges at once) as the
// ceiling. --speed above 1 offers more than real time, to find where N processes saturate.
// Each device has a room (of the demo facility), so each process's figures include the room-state
// work of the devices it owns (their estimators, the states sent to the other processes each second);
// --no-rooms leaves them without, to measure ingest alone. --watch F: browsers watch only that share
// of the devices (all by default, the worst case: with N > 1 each watched device's frames also
// reach the process its viewer is on); frames/s stored (from the first publish until storage has
// every frame) is printed besides the frames/s at the browsers.
// --cpu-quota C gives each server process at most C of a core (a control group of its own,
// bench/cpuQuota.ts; root): with 2 cores shared by the devices, Mosquitto, PostgreSQL and the
// servers, uncapped processes only divide the same two cores among themselves, so the ratio of N
// processes to one says nothing of how they scale; capped, each stands for a process on a core of its
// own, and with --speed above what one capped process can take, frames/s shows what N of them take.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import mqtt from 'mqtt';
import WebSocket from 'ws';
import { DEMO_DOMAINS, DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { loadParser } from '@nemuri/parser/node';
import { MESSAGE_SHAPES, type MessageShape } from '@nemuri/simulator/index';
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/database/database.ts';
import type { DocumentStore } from '../src/documents/store.ts';
import { SYSTEM_PRINCIPAL } from '../src/documents/systemPrincipal.ts';
import { startServer } from '../src/server.ts';
import { LIVE_SIGNALS_PATH, MAX_DEVICES_PER_SOCKET } from '../src/signals/signalsPlugin.ts';
import { BrowserClient } from '../src/testing/browserClient.ts';
import { freePort } from '../src/testing/freePort.ts';
import { createTestSchema } from '../src/testing/postgres.ts';
import { PrivateMosquitto } from '../src/testing/privateMosquitto.ts';
import { makeTempDir } from '../src/testing/webDist.ts';
import { CpuQuota } from './cpuQuota.ts';
import { BENCH_CHANNELS, BENCH_SECRET, publishedIndex, simulateBenchDevices, type BenchDevicesData } from './benchDevices.ts';
import { loadLine, machineBusy, ms, percentile, registerBenchDevices, threadLoad, type ThreadLoad } from './measures.ts';

const CHANNELS = BENCH_CHANNELS;
const CHANNEL_INDEX: Record<number, number> = { 1: 0, 2: 1, 5: 2 };
const SECRET = BENCH_SECRET;
/** --profile DIR: each server process writes a CPU profile of its whole life there (.cpuprofile, for Chrome DevTools) when it exits. */
let profileDir: string | undefined;
/** How long after the browsers had their frames storage may take to hold every frame. */
const STORE_WAIT_MS = 240_000;
/** Simulated seconds beyond the run that the publish-time table has room for. */
const SPARE_SECONDS = 5;

interface ServerReport {
  messages: number;
  frames: number;
  storageErrors: number;
  /** Frames received again while a write carrying them was under way (not written twice). */
  joinedFrames: number;
  /** Messages tried again after a failed write (external broker). */
  retriedMessages: number;
  load: ThreadLoad;
  /** CPU seconds of the whole process over the streaming phase. */
  cpuSeconds: number;
  /** Rooms whose state this process computes at the report (the devices it owns), of all it knows. */
  rooms: { computed: number; known: number };
  writes: { writes: number; frames: number; writeMs: number };
}

type ServerCommand = { type: 'register'; serials: string[]; rooms: boolean } | { type: 'division' } | { type: 'mark' } | { type: 'report' } | { type: 'stop' };

/** With MQTT_SHARED_GROUP: the members this process knows and how many devices' shares it holds (ingest/deviceShares.ts). */
interface Division {
  members: number;
  held: number;
}

/** One server process (forked with NEMURI_BENCH_SERVER): starts, then answers the parent's commands over IPC. */
async function serveProcess(): Promise<void> {
  const env = JSON.parse(process.env.NEMURI_BENCH_SERVER!) as Record<string, string>;
  const dir = await makeTempDir('nemuri-bench-process-');
  const server = await startServer(
    loadConfig({
      ...env,
      HOST: '127.0.0.1',
      DATA_DIR: dir.path,
      SIMULATE: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: join(dir.path, 'no-web'),
      AUTH_RATE_LIMIT_MAX: '100000',
    }),
    {
      logger: false,
    },
  );
  // The bench's one user watches every device: far above a person's limits (SOCKET_LIMITS).
  server.app.live.configure({ limits: { socketsPerUser: 1_000, subscriptionsPerUser: 1_000_000, subscriptionsPerTenant: 1_000_000 } });
  const load = threadLoad();
  let cpuAtMark = process.cpuUsage();
  let writesAtMark = { ...server.app.signals.store.writeStats };
  let statsAtMark = { ...server.app.ingest.stats };
  const send = (message: unknown): void => void process.send?.(message);
  process.on('message', (command: ServerCommand) => {
    void (async () => {
      if (command.type === 'register') {
        await registerBenchDevices(server.app.documents, command.serials, SECRET);
        if (command.rooms) await addBenchRooms(server.app.documents, command.serials);
        send({ type: 'registered' });
      } else if (command.type === 'division') {
        const division: Division = { members: server.deviceBroker.group?.members.length ?? 1, held: server.deviceBroker.shares?.held ?? 0 };
        send({ type: 'division', division });
      } else if (command.type === 'mark') {
        load.mark();
        cpuAtMark = process.cpuUsage();
        writesAtMark = { ...server.app.signals.store.writeStats };
        statsAtMark = { ...server.app.ingest.stats };
        send({ type: 'marked' });
      } else if (command.type === 'report') {
        // What is queued is written first, so that it counts.
        await server.app.signals.store.flush();
        const cpu = process.cpuUsage(cpuAtMark);
        const writes = server.app.signals.store.writeStats;
        const stats = server.app.ingest.stats;
        const report: ServerReport = {
          messages: stats.messages - statsAtMark.messages,
          frames: stats.frames - statsAtMark.frames,
          storageErrors: stats.storageErrors - statsAtMark.storageErrors,
          joinedFrames: stats.joinedFrames - statsAtMark.joinedFrames,
          retriedMessages: stats.retriedMessages - statsAtMark.retriedMessages,
          load: load.read(),
          cpuSeconds: (cpu.user + cpu.system) / 1e6,
          rooms: {
            computed: server.app.monitoring.directory.rooms().filter((room) => server.app.monitoring.computes(room.serial)).length,
            known: server.app.monitoring.directory.rooms().length,
          },
          writes: { writes: writes.writes - writesAtMark.writes, frames: writes.frames - writesAtMark.frames, writeMs: writes.writeMs - writesAtMark.writeMs },
        };
        send({ type: 'report', report });
      } else if (command.type === 'stop') {
        await server.stop();
        await dir.remove();
        send({ type: 'stopped' });
        process.exit(0);
      }
    })();
  });
  send({ type: 'ready', url: server.url });
}

/** CPU seconds a process has used so far (Linux /proc), for the broker. */
function processCpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name; in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** A room of the demo facility for each device, so that the processes compute its room state. */
async function addBenchRooms(documents: DocumentStore, serials: readonly string[]): Promise<void> {
  for (let i = 0; i < serials.length; i += 500) {
    const writes = serials.slice(i, i + 500).map((serial) => ({
      op: 'set',
      path: `rooms/bench-${serial}`,
      data: { domainId: DEMO_DOMAINS.facilityA, name: serial, deviceSerial: serial },
    }));
    await documents.commit(SYSTEM_PRINCIPAL, { reads: [], writes });
  }
}

class ServerProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<unknown>;
  url = '';
  constructor(env: Record<string, string>, quota?: CpuQuota) {
    this.child = fork(fileURLToPath(import.meta.url), [], {
      env: { ...process.env, NEMURI_BENCH_SERVER: JSON.stringify(env) },
      execArgv: ['--import', 'tsx', ...(profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`])],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.exited = once(this.child, 'exit');
    // At once, before it loads anything: every thread it starts stays in the group.
    if (quota !== undefined && this.child.pid !== undefined) quota.add(this.child.pid);
  }

  async ready(): Promise<void> {
    const answer = await this.next('ready');
    this.url = (answer as { url: string }).url;
  }

  next(type: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: { type: string }): void => {
        if (message.type !== type) return;
        this.child.off('message', onMessage);
        this.child.off('exit', onExit);
        resolve(message);
      };
      const onExit = (code: number | null): void => reject(new Error(`server process exited (${code}) while waiting for ${type}`));
      this.child.on('message', onMessage);
      this.child.once('exit', onExit);
    });
  }

  async ask(command: ServerCommand, answer: string): Promise<unknown> {
    const reply = this.next(answer);
    this.child.send(command);
    return reply;
  }
}

/**
 * Waits until every process knows the others and the devices' shares are held (each by its owner:
 * storage by owner, ingest/deviceShares.ts), so that the run measures the divided state, not the
 * seconds of the division.
 */
async function divided(servers: readonly ServerProcess[], devices: number): Promise<void> {
  const until = Date.now() + 60_000;
  for (;;) {
    const divisions = (await Promise.all(servers.map((server) => server.ask({ type: 'division' }, 'division')))) as { division: Division }[];
    const held = divisions.reduce((sum, { division }) => sum + division.held, 0);
    if (divisions.every(({ division }) => division.members === servers.length) && held >= devices) {
      console.log(`  devices divided: ${divisions.map(({ division }) => division.held).join(' + ')} shares held`);
      return;
    }
    if (Date.now() > until) throw new Error(`the processes did not divide the devices within 60 s (${held} of ${devices} shares held)`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

interface RunResult {
  processes: number;
  /** Frames at the browsers per second (the watched devices'). */
  framesPerSecond: number;
  /** Frames stored (and so acknowledged) per second, from the first publish until all were stored. */
  storedPerSecond: number;
  p50: number;
  p99: number;
  lost: number;
  cpuSeconds: number[];
}

/** Frames of the bench devices in storage: staged, or already compacted into chunks. */
async function storedFrames(database: Database): Promise<number> {
  const { rows } = await database.query<{ n: number }>(
    `select ((select coalesce(sum(frame_count), 0) from signal_frames_pending where serial like 'BENCHP-%') + (select coalesce(sum(frame_count), 0) from signal_chunks where serial like 'BENCHP-%'))::int as n`,
  );
  return rows[0]?.n ?? 0;
}

async function run(
  processes: number,
  options: {
    serials: string[];
    broker: string;
    brokerPid: number | undefined;
    database: Database;
    databaseUrl: string;
    first: boolean;
    shape: MessageShape;
    seconds: number;
    speed: number;
    rooms: boolean;
    /** How many of the devices (the first ones) browsers watch live. */
    watched: number;
    /** Cores each server process may use, or undefined for no quota. */
    cpuQuota: number | undefined;
    replaySeconds: number;
  },
): Promise<RunResult> {
  const { serials, seconds, speed, shape } = options;
  const runId = Math.random().toString(36).slice(2, 8);
  console.log(`\n${processes} server process${processes === 1 ? '' : 'es'}`);
  const servers: ServerProcess[] = [];
  const quotas: CpuQuota[] = [];
  const sockets: WebSocket[] = [];
  let devices: Worker | undefined;
  try {
    for (let i = 0; i < processes; i++) {
      const quota = options.cpuQuota === undefined ? undefined : new CpuQuota(`nemuri-bench-${runId}-${i}`, options.cpuQuota);
      if (quota !== undefined) quotas.push(quota);
      const server = new ServerProcess(
        {
          PORT: String(await freePort()),
          DATABASE_URL: options.databaseUrl,
          MQTT_URL: options.broker,
          ...(processes > 1 ? { MQTT_SHARED_GROUP: `bench-${runId}` } : {}),
          MQTT_CLIENT_ID: `nemuri-bench-${runId}-${i}`,
          // The first process of the first run loads the demo accounts; the others find them.
          DEMO: options.first && i === 0 ? '1' : '0',
        },
        quota,
      );
      servers.push(server);
      // One at a time: the first creates the schema (migrations) and the demo accounts.
      await server.ready();
      if (options.first && i === 0) await server.ask({ type: 'register', serials, rooms: options.rooms }, 'registered');
    }

    if (processes > 1) await divided(servers, serials.length);
    const storedBefore = await storedFrames(options.database);
    const browser = new BrowserClient(servers[0]!.url);
    const signIn = await browser.signIn('sysadmin@example.com', DEMO_PASSWORD);
    if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}`);

    const perDevice = CHANNELS.length * (seconds + SPARE_SECONDS);
    const times = new SharedArrayBuffer(serials.length * perDevice * 8);
    const published = new Float64Array(times).fill(Number.NaN);
    const indexOf = new Map(serials.map((serial, i) => [serial, i]));
    const latencies = new Float64Array(serials.length * perDevice);
    const seen = new Uint8Array(serials.length * perDevice);
    let received = 0;
    let duplicates = 0;
    let firstPublish = Number.NaN;
    let lastReceive = 0;

    // As many sockets on each process, so that no process carries more viewers than another (the
    // slowest process sets when storage has every frame).
    const socketCount = Math.ceil(options.watched / MAX_DEVICES_PER_SOCKET / processes) * processes;
    const perSocket = Math.max(1, Math.ceil(options.watched / socketCount));
    for (let i = 0; i < options.watched; i += perSocket) {
      const server = servers[(i / perSocket) % processes]!;
      const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}${LIVE_SIGNALS_PATH}`, { headers: { cookie: browser.cookieHeader } });
      await once(socket, 'open');
      const batch = serials.slice(i, Math.min(i + perSocket, options.watched));
      let answered = 0;
      const statuses = new Promise<void>((resolve, reject) => {
        socket.on('message', (data: Buffer, isBinary) => {
          if (!isBinary) {
            const message = JSON.parse(data.toString('utf8')) as { type?: string; message?: string };
            if (message.type === 'error') reject(new Error(`subscription refused: ${message.message}`));
            else if (message.type === 'status' && ++answered === batch.length) resolve();
            return;
          }
          const now = performance.timeOrigin + performance.now();
          const length = data[0]!;
          const device = indexOf.get(data.toString('latin1', 1, 1 + length));
          const frame = data.subarray(1 + length);
          const channel = CHANNEL_INDEX[frame[5]!];
          const sequence = frame.readUInt32LE(12);
          if (device === undefined || channel === undefined || sequence >= seconds + SPARE_SECONDS) return;
          const index = publishedIndex(device, channel, sequence, seconds + SPARE_SECONDS);
          if (seen[index] === 1) {
            duplicates++;
            return;
          }
          seen[index] = 1;
          const sent = published[index]!;
          if (!Number.isNaN(sent)) latencies[received] = now - sent;
          received++;
          lastReceive = now;
        });
      });
      for (const serial of batch) socket.send(JSON.stringify({ type: 'subscribe', serial, channels: CHANNELS }));
      await statuses;
      sockets.push(socket);
    }
    console.log(`  ${sockets.length} WebSocket subscribers over ${processes} process${processes === 1 ? '' : 'es'}; ${serials.length} devices connecting …`);

    const loadBefore = loadavg()[0]!;
    let machineBefore = cpus();
    let brokerCpuBefore = 0;
    const mainLoad = threadLoad();
    devices = new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); })`, {
      eval: true,
      workerData: {
        role: 'devices',
        serials,
        broker: options.broker,
        shape,
        seconds,
        speed,
        times,
        maxSeq: seconds + SPARE_SECONDS,
        replaySeconds: options.replaySeconds,
      } satisfies BenchDevicesData & { role: 'devices' },
    });
    const done = new Promise<{ framesGenerated: number; messagesGenerated: number; framesPublished: number; publishErrors: number }>((resolve, reject) => {
      devices!.on('error', reject);
      devices!.on('message', (message: { type: string; stats?: never }) => {
        if (message.type === 'streaming') {
          firstPublish = performance.timeOrigin + performance.now();
          machineBefore = cpus();
          brokerCpuBefore = processCpuSeconds(options.brokerPid);
          mainLoad.mark();
          for (const server of servers) void server.ask({ type: 'mark' }, 'marked');
        } else if (message.type === 'done') resolve(message.stats!);
      });
    });
    // Stored frames, counted every 200 ms from the first publish: when did storage have them all?
    const storedSamples: { at: number; count: number }[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        if (!Number.isNaN(firstPublish))
          storedSamples.push({ count: (await storedFrames(options.database)) - storedBefore, at: performance.timeOrigin + performance.now() });
      }
    })();
    const stats = await done;
    // The watched devices' frames: what the browsers should get.
    let expected = 0;
    for (let i = 0; i < options.watched * perDevice; i++) if (!Number.isNaN(published[i]!)) expected++;
    const drainUntil = performance.now() + 10_000;
    while (received < expected && performance.now() < drainUntil) await new Promise((resolve) => setTimeout(resolve, 50));
    // A process capped at a fifth of a core may take minutes to store 135,000 frames: waited for.
    const storeUntil = performance.now() + STORE_WAIT_MS;
    while ((storedSamples.at(-1)?.count ?? 0) < stats.framesGenerated && performance.now() < storeUntil)
      await new Promise((resolve) => setTimeout(resolve, 50));
    sampling = false;
    await sampler;
    const allStored = storedSamples.find((sample) => sample.count >= stats.framesGenerated);
    const storedPerSecond = allStored === undefined ? Number.NaN : stats.framesGenerated / ((allStored.at - firstPublish) / 1000);
    const elapsed = (lastReceive - firstPublish) / 1000;
    const busy = machineBusy(machineBefore);
    const brokerCpu = processCpuSeconds(options.brokerPid) - brokerCpuBefore;
    const subscriberLoad = mainLoad.read();
    for (const socket of sockets) socket.close();
    const reports = (await Promise.all(servers.map((server) => server.ask({ type: 'report' }, 'report')))).map(
      (answer) => (answer as { report: ServerReport }).report,
    );
    const sorted = latencies.slice(0, received).sort();
    const result: RunResult = {
      processes,
      framesPerSecond: received / elapsed,
      storedPerSecond,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      lost: expected - received,
      cpuSeconds: reports.map((report) => report.cpuSeconds),
    };
    // QoS 1 may deliver a message twice (duplicates are removed on read): at least every frame.
    const stored = (await storedFrames(options.database)) - storedBefore;
    console.log(
      `  frames generated ${stats.framesGenerated} in ${stats.messagesGenerated} messages (${shape}), acknowledged by the broker ${stats.framesPublished}, publish errors ${stats.publishErrors}`,
    );
    console.log(
      `  frames at the subscribers ${received} of the ${options.watched} watched devices' ${expected} (duplicates ${duplicates}), lost ${result.lost}; stored ${stored}` +
        `, all of them ${allStored === undefined ? `not within ${STORE_WAIT_MS / 1000} s` : `${((allStored.at - firstPublish) / 1000).toFixed(1)} s after the first publish: ${storedPerSecond.toFixed(0)} frames/s`}`,
    );
    console.log(
      `  throughput ${result.framesPerSecond.toFixed(0)} frames/s over ${elapsed.toFixed(1)} s (offered ${(serials.length * CHANNELS.length * speed).toFixed(0)} frames/s)`,
    );
    console.log(`  latency publish → subscriber: p50 ${ms(result.p50)}, p99 ${ms(result.p99)}, max ${ms(percentile(sorted, 100))}`);
    reports.forEach((report, i) => {
      const frames = report.writes.frames;
      console.log(
        `  process ${i + 1}: took ${report.messages} messages (${report.frames} frames), staged ${frames} frames in ${report.writes.writes} commits, storage errors ${report.storageErrors}, retried ${report.retriedMessages} messages, joined ${report.joinedFrames} frames; computes ${report.rooms.computed} of ${report.rooms.known} rooms; ` +
          `CPU ${((report.cpuSeconds / elapsed) * 100).toFixed(0)} % of a core, ${frames > 0 ? ((report.cpuSeconds * 1e6) / frames).toFixed(0) : '–'} µs per stored frame; ${loadLine(report.load)}`,
      );
    });
    console.log(`  Mosquitto: CPU ${((brokerCpu / elapsed) * 100).toFixed(0)} % of a core; subscribers' thread: ${loadLine(subscriberLoad)}`);
    console.log(
      `  machine: ${cpus().length} cores ${(busy * 100).toFixed(0)} % busy (all processes), load average ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
    );
    return result;
  } finally {
    for (const socket of sockets) socket.terminate();
    await devices?.terminate();
    await Promise.all(servers.map((server) => (server.child.connected ? server.ask({ type: 'stop' }, 'stopped').catch(() => undefined) : undefined)));
    await Promise.all(servers.map((server) => server.exited));
    for (const quota of quotas) quota.remove();
  }
}

/** Mosquitto alone: QoS 1 publishers as fast as acknowledged → one `$share` subscriber that acknowledges at once. */
async function ceilingRun(broker: string, shape: MessageShape): Promise<number> {
  const parser = await loadParser();
  const t = Date.now() * 1000;
  const frames = [
    { channel: 'ecg', format: 'int16', sampleRate: 250, scale: 0.005, offset: 0, sequence: 0, startTimeUs: t, raw: new Int16Array(250) },
    { channel: 'respiAxl', format: 'int16', sampleRate: 50, scale: 0.0001, offset: 0, sequence: 0, startTimeUs: t, raw: new Int16Array(150) },
    { channel: 'respiHr', format: 'float32', sampleRate: 1, scale: 1, offset: 0, sequence: 0, startTimeUs: t, values: new Float32Array(2) },
  ] as const;
  const payload = Buffer.from(
    shape === 'multi' ? parser.encodeSmfFrame({ channel: 'multi', sequence: 0, startTimeUs: t, frames: [...frames] }) : parser.encodeSmfFrame(frames[0]),
  );
  const subscriber = await mqtt.connectAsync(broker, { protocolVersion: 4, clean: true, clientId: `ceiling-sub-${Math.random().toString(36).slice(2)}` });
  let delivered = 0;
  let lastDelivery = 0;
  subscriber.on('message', () => {
    delivered++;
    lastDelivery = performance.now();
  });
  await subscriber.subscribeAsync('$share/ceiling/devices/+/frames', { qos: 1 });
  const publishers = 100;
  const perPublisher = 500;
  const clients = await Promise.all(
    Array.from({ length: publishers }, (_, i) =>
      mqtt.connectAsync(broker, { protocolVersion: 4, clientId: `ceiling-${i}-${Math.random().toString(36).slice(2)}`, clean: true }),
    ),
  );
  const started = performance.now();
  await Promise.all(
    clients.map(async (client, i) => {
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < perPublisher) {
          next++;
          await client.publishAsync(`devices/CEIL-${i}/frames`, payload, { qos: 1 });
        }
      };
      await Promise.all(Array.from({ length: 20 }, worker));
    }),
  );
  const total = publishers * perPublisher;
  const until = performance.now() + 10_000;
  while (delivered < total && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
  const rate = delivered / ((lastDelivery - started) / 1000);
  console.log(`\nceiling: the same Mosquitto alone, QoS 1, ${publishers} publishers → 1 $share subscriber, ${payload.byteLength}-byte ${shape} messages`);
  console.log(`  ${delivered} of ${total} delivered: ${rate.toFixed(0)} messages/s`);
  await Promise.all(clients.map((client) => client.endAsync()));
  await subscriber.endAsync();
  return rate;
}

async function main(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      processes: { type: 'string', default: '1,2,3' },
      devices: { type: 'string', default: '3000' },
      seconds: { type: 'string', default: '15' },
      speed: { type: 'string', default: '1' },
      shape: { type: 'string', default: 'multi' },
      /** An existing broker (e.g. mqtt://127.0.0.1:1883, anonymous); default a private Mosquitto. */
      broker: { type: 'string' },
      'skip-ceiling': { type: 'boolean', default: false },
      /** Devices without rooms: no room-state work in the figures. */
      'no-rooms': { type: 'boolean', default: false },
      /** The share of the devices browsers watch live (the first ones), e.g. 0.1; default all. */
      watch: { type: 'string', default: '1' },
      /** Cores each server process may use (a control group each; root), e.g. 0.2. */
      'cpu-quota': { type: 'string' },
      /** Write a CPU profile of each server process here (Chrome DevTools' .cpuprofile). */
      profile: { type: 'string' },
      /** The devices' first N seconds generated, then sent again in turn (benchDevices.ts); default 0: all generated. */
      'replay-seconds': { type: 'string', default: '0' },
    },
  });
  if (args.profile !== undefined) profileDir = resolve(args.profile);
  if (!(MESSAGE_SHAPES as readonly string[]).includes(args.shape)) throw new Error(`--shape must be one of ${MESSAGE_SHAPES.join(', ')}`);
  const shape = args.shape as MessageShape;
  const counts = args.processes.split(',').map(Number);
  const seconds = Number(args.seconds);
  const speed = Number(args.speed);
  const cpuQuota = args['cpu-quota'] === undefined ? undefined : Number(args['cpu-quota']);
  const serials = Array.from({ length: Number(args.devices) }, (_, i) => `BENCHP-${String(i + 1).padStart(5, '0')}`);
  console.log(
    `bench:ingest-processes: ${serials.length} devices × ${CHANNELS.join(', ')} (${shape === 'multi' ? 'one multi frame per device and second' : 'one message per frame'}) at speed ${speed} ` +
      `for ${seconds} s, ${args['no-rooms'] ? 'without rooms' : 'each in a room (room states computed)'}, with ${counts.join(', ')} server processes on PostgreSQL` +
      `${cpuQuota === undefined ? '' : `, each limited to ${cpuQuota} of a core`}; uptime load average ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')}`,
  );
  // The server's QoS 1 window: each message is acknowledged after its commit (docs/operations.md).
  const privateBroker = args.broker === undefined ? await PrivateMosquitto.start({ config: ['max_inflight_messages 1000'] }) : null;
  const broker = args.broker ?? privateBroker!.url;
  console.log(`broker: ${privateBroker ? `a private Mosquitto at ${broker}` : broker}`);
  const schema = await createTestSchema();
  let database: Database | undefined;
  const results: RunResult[] = [];
  try {
    for (const [i, processes] of counts.entries()) {
      // The first server process creates the tables; this connection reads what was stored.
      database ??= await schema.open();
      results.push(
        await run(processes, {
          serials,
          broker,
          brokerPid: privateBroker?.pid,
          database,
          databaseUrl: schema.url,
          first: i === 0,
          shape,
          seconds,
          speed,
          rooms: !args['no-rooms'],
          watched: Math.round(serials.length * Number(args.watch)),
          cpuQuota,
          replaySeconds: Number(args['replay-seconds']),
        }),
      );
    }
    const ceiling = args['skip-ceiling'] ? Number.NaN : await ceilingRun(broker, shape);
    const framesPerMessage = shape === 'multi' ? CHANNELS.length : 1;
    console.log('\nsummary');
    for (const [i, result] of results.entries()) {
      // Against the single process run last before it (--processes 1,2,1,2 pairs the runs of one machine state).
      const one = results
        .slice(0, i + 1)
        .reverse()
        .find((other) => other.processes === 1);
      const ratio = one ? ` (${(result.framesPerSecond / one.framesPerSecond).toFixed(2)}× one process)` : '';
      const storedRatio = one ? ` (${(result.storedPerSecond / one.storedPerSecond).toFixed(2)}×)` : '';
      const ofCeiling = Number.isNaN(ceiling)
        ? ''
        : `, ${((result.storedPerSecond / framesPerMessage / ceiling) * 100).toFixed(0)} % of the broker ceiling in messages/s (stored)`;
      console.log(
        `  ${result.processes} process${result.processes === 1 ? ': ' : 'es:'} stored ${result.storedPerSecond.toFixed(0)} frames/s${storedRatio}; at the browsers ${result.framesPerSecond.toFixed(0)} frames/s${ratio}, p50 ${ms(result.p50)}, p99 ${ms(result.p99)}, lost ${result.lost}${ofCeiling}`,
      );
    }
    if (new Set(counts).size < counts.length) {
      // Repeated counts: the medians, less moved by one run's machine state.
      const medianOf = (processes: number): number => {
        const values = results
          .filter((result) => result.processes === processes)
          .map((result) => result.storedPerSecond)
          .sort((x, y) => x - y);
        const middle = Math.floor(values.length / 2);
        return values.length % 2 === 1 ? values[middle]! : (values[middle - 1]! + values[middle]!) / 2;
      };
      const base = medianOf(1);
      for (const processes of [...new Set(counts)].sort((x, y) => x - y))
        console.log(
          `  median of ${results.filter((result) => result.processes === processes).length} runs, ${processes} process${processes === 1 ? '' : 'es'}: stored ${medianOf(processes).toFixed(0)} frames/s (${(medianOf(processes) / base).toFixed(2)}× the median of one)`,
        );
    }
    console.log(
      `  load average at the end ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await database?.close();
    await schema.drop();
    await privateBroker?.destroy();
  }
  process.exit(0);
}

if (process.env.NEMURI_BENCH_SERVER !== undefined) await serveProcess();
else if (!isMainThread && (workerData as { role?: string }).role === 'devices') await simulateBenchDevices(workerData as BenchDevicesData);
else await main();
