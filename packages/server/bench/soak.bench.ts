// `npm run bench:soak [-- --devices 1000 --minutes 30 --warm-up 5 --postgres]`: does the server's memory
// level off under a steady device load (issue 25)? The server runs as an operator runs it (`main.ts` in a
// process of its own, the embedded database on disk under a temporary DATA_DIR, or with --postgres a fresh
// schema of TEST_DATABASE_URL); this process plays the devices: the simulator's ECG 250 Hz, 3-axis
// acceleration 50 Hz and respiHr 1 Hz, one frame per channel and second each, real time, QoS 1 through
// the embedded broker. Every minute it prints the server's RSS, heap, event-loop delay (read from
// /metrics, so what an operator's scraper sees) and the ingest latency (publish to PUBACK: a frame is
// acknowledged once stored) of that minute; at the end a verdict: memory flat after the warm-up when
// the RSS and heap trends (least squares over the minutes after it) would add less than 10 % an hour.
// The last column is how long the minute's last checkpoint of the embedded database held it (timed
// on the database's thread, from /metrics). The heap judged is the heap after a full garbage collection, read through the inspector
// (inspectorSession.ts): the heap in use between collections rises and falls with the collector's
// timing and showed a trend where nothing was kept. With --snapshots the bench also takes a heap
// snapshot at the end of the warm-up and at the end, and prints which constructors grew and what
// holds them (heapSnapshotDiff.ts).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { loadParser } from '@nemuri/parser/node';
import { startSimulation, type SimulatedChannel, type Simulation } from '@nemuri/simulator/index';
import { registerDevice, startIngestServer } from '../src/ingest/testing.ts';
import { createTestSchema } from '../src/testing/postgres.ts';
import { makeTempDir } from '../src/testing/webDist.ts';
import { freePort } from '../src/testing/freePort.ts';
import { describeHeapGrowth, summarizeHeapSnapshot } from './heapSnapshotDiff.ts';
import { InspectorSession, inspectorUrlIn } from './inspectorSession.ts';

const { values: args } = parseArgs({
  options: {
    devices: { type: 'string', default: '1000' },
    minutes: { type: 'string', default: '30' },
    /** Minutes left out of the verdict: the code warms up, rings and caches fill. */
    'warm-up': { type: 'string', default: '5' },
    postgres: { type: 'boolean', default: false },
    /** Heap snapshots at the end of the warm-up and at the end, and what grew between them. */
    snapshots: { type: 'boolean', default: false },
  },
});
const DEVICES = Number(args.devices);
const MINUTES = Number(args.minutes);
const WARM_UP = Math.min(Number(args['warm-up']), Math.max(0, MINUTES - 3));
if (!(DEVICES > 0 && MINUTES > 0 && WARM_UP >= 0)) throw new RangeError('--devices and --minutes must be positive, --warm-up not negative');
const CHANNELS: SimulatedChannel[] = ['ecg', 'respiAxl', 'respiHr'];
const SECRET = 'soak-device-secret';
/** Devices connecting at once: under the broker's limit of connections waiting for authentication per address. */
const CONNECT_GROUP = 25;
/** Growth an hour, as a share of the mean, below which memory counts as flat. */
const FLAT_SHARE_PER_HOUR = 0.1;
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The value of an unlabelled (but for `service`) sample of the Prometheus text. */
function sample(text: string, name: string): number {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
  return match === null ? Number.NaN : Number(match[1]);
}

/** Least-squares slope of y over x. */
function slope(points: readonly (readonly [number, number])[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((sum, [x]) => sum + x, 0) / n;
  const my = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

interface Minute {
  minute: number;
  rss: number;
  /** Heap in use as /metrics reads it, between collections. */
  heap: number;
  /** Heap in use right after a full collection: what the verdict judges. */
  heapAfterGc: number;
  external: number;
  loopP99Ms: number;
  loopMaxMs: number;
  acked: number;
  failed: number;
  latencyP50: number;
  latencyP99: number;
  latencyMax: number;
  /** The embedded database's checkpoints: the last one's hold on the database (timed on its thread), and the longest since start; NaN on PostgreSQL. */
  checkpointLastMs: number;
  checkpointMaxMs: number;
}

async function main(): Promise<void> {
  const dir = await makeTempDir('nemuri-soak-');
  const schema = args.postgres ? await createTestSchema() : null;
  const token = randomBytes(24).toString('hex');
  const env = {
    DATA_DIR: dir.path,
    DATABASE_URL: schema?.url ?? '',
    PORT: String(await freePort()),
    MQTT_PORT: String(await freePort()),
    WEB_DIST: join(dir.path, 'no-web'),
    METRICS_TOKEN: token,
  };
  const serials = Array.from({ length: DEVICES }, (_, i) => `SOAK-${String(i + 1).padStart(5, '0')}`);

  // The devices registered by a server in this process on the same database, which then stops.
  const setup = await startIngestServer({ ...env, DATABASE_URL: schema?.url ?? '', PORT: '0', MQTT_PORT: '0' }, dir.path);
  const registering = performance.now();
  for (const serial of serials) {
    // On a loaded machine one registration may outlast the embedded database's transaction limit: try again.
    for (let attempt = 1; ; attempt++) {
      try {
        await registerDevice(setup.server, serial, SECRET, DEMO_DOMAINS.facilityA);
        break;
      } catch (error) {
        if (attempt === 3) throw error;
        console.error(`soak: registering ${serial} failed (${(error as Error).message}); again`);
      }
    }
  }
  console.log(`soak: ${DEVICES} devices registered in ${((performance.now() - registering) / 1000).toFixed(1)} s`);
  await setup.stop();

  const logFile = join(dir.path, 'server.log');
  const log = createWriteStream(logFile);
  // The inspector on a port of its own, on the loopback only, for the heap after a collection.
  const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', '--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DEMO: '', MQTT_URL: '', SMTP_URL: '', HOST: '127.0.0.1', SIMULATE: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A bench that fails halfway leaves no server behind.
  process.on('exit', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let readyUrl: string | undefined;
  const ready = new Promise<string>((resolve, reject) => {
    let head = '';
    child.stdout.on('data', (chunk: Buffer) => {
      log.write(chunk);
      if (readyUrl !== undefined) return;
      head += chunk.toString('utf8');
      const found = /ready at (http:\/\/\S+) /.exec(head);
      if (found !== null) resolve((readyUrl = found[1]!));
    });
    child.on('exit', (code) => reject(new Error(`the server ended with code ${code} before it was ready (log: ${logFile})`)));
  });
  const inspectorUrl = new Promise<string>((resolve) => {
    let head = '';
    const read = (chunk: Buffer) => {
      log.write(chunk);
      head += chunk.toString('utf8');
      const found = inspectorUrlIn(head);
      if (found !== undefined) {
        resolve(found);
        child.stderr.off('data', read);
        child.stderr.on('data', (rest: Buffer) => log.write(rest));
      }
    };
    child.stderr.on('data', read);
  });
  const url = await ready;
  const inspector = await InspectorSession.connect(await inspectorUrl);
  const mqttUrl = `mqtt://127.0.0.1:${env.MQTT_PORT}`;
  console.log(
    `soak: server pid ${child.pid} at ${url}, ${DEVICES} devices × ${CHANNELS.join(', ')} for ${MINUTES} min (warm-up ${WARM_UP} min), ${schema === null ? 'PGlite on disk' : 'PostgreSQL'}; server log ${logFile}`,
  );

  let latencies: number[] = [];
  let failed = 0;
  let errors = 0;
  // The broker lets one address have only a few connections waiting for their authentication (all
  // of these come from 127.0.0.1, real devices from addresses of their own): so they connect a few
  // at a time, each group a simulation of its own.
  const parser = await loadParser();
  const simulations: Simulation[] = [];
  const connecting = performance.now();
  const startGroup = async (group: string[]): Promise<Simulation> => {
    // A loaded machine may let a CONNACK take longer than the simulator waits: the group tries again.
    for (let attempt = 1; ; attempt++) {
      try {
        return await startGroupOnce(group);
      } catch (error) {
        if (attempt === 5) throw error;
        console.error(`soak: ${(error as Error).message}; the group of ${group[0]} connects again`);
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    }
  };
  const startGroupOnce = (group: string[]): Promise<Simulation> =>
    startSimulation({
      serials: group,
      broker: mqttUrl,
      secretFor: () => SECRET,
      channels: CHANNELS,
      seed: 'soak',
      parser,
      durationSeconds: MINUTES * 60,
      onPublished: (_serial, ms, error) => {
        // mqtt.js ends a publish with a null error when acknowledged.
        if (error) failed++;
        else latencies.push(ms);
      },
      onError: (error) => {
        // A few lines are enough: a thousand devices failing at once would bury the figures.
        if (errors++ < 5) console.error(`simulator: ${error.message}`);
      },
    });
  for (let i = 0; i < serials.length; i += CONNECT_GROUP) simulations.push(await startGroup(serials.slice(i, i + CONNECT_GROUP)));
  console.log(`soak: ${DEVICES} devices connected in ${((performance.now() - connecting) / 1000).toFixed(1)} s`);
  const total = (key: 'framesPublished' | 'framesGenerated' | 'publishErrors'): number =>
    simulations.reduce((sum, simulation) => sum + simulation.stats[key], 0);

  const minutes: Minute[] = [];
  const scrape = async (): Promise<string> => {
    const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
    return response.text();
  };
  // Resets the event-loop figures, so that each minute's are its own.
  await scrape();
  const snapshotDir = join(tmpdir(), `nemuri-soak-snapshots-${process.pid}`);
  const snapshotAt = (name: string) => join(snapshotDir, `${name}.heapsnapshot`);
  console.log('min  RSS      heap  after GC   external  loop p99  loop max  frames/min  latency p50 / p99 / max      failed  checkpoint');
  const began = Date.now();
  for (let minute = 1; minute <= MINUTES; minute++) {
    const due = began + minute * 60_000 - Date.now();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due)));
    const text = await scrape();
    // After /metrics, so that its figures are the minute's, not the collection's pause.
    const heapAfterGc = await inspector.heapAfterGc();
    const sorted = latencies.sort((a, b) => a - b);
    latencies = [];
    const row: Minute = {
      minute,
      rss: sample(text, 'process_resident_memory_bytes'),
      heap: sample(text, 'nodejs_heap_size_used_bytes'),
      heapAfterGc,
      external: sample(text, 'nodejs_external_memory_bytes'),
      loopP99Ms: sample(text, 'nodejs_eventloop_lag_p99_seconds') * 1000,
      loopMaxMs: sample(text, 'nodejs_eventloop_lag_max_seconds') * 1000,
      acked: sorted.length,
      failed,
      latencyP50: percentile(sorted, 50),
      latencyP99: percentile(sorted, 99),
      latencyMax: sorted.at(-1) ?? Number.NaN,
      checkpointLastMs: sample(text, 'nemuri_pglite_checkpoint_last_seconds') * 1000,
      checkpointMaxMs: sample(text, 'nemuri_pglite_checkpoint_max_seconds') * 1000,
    };
    failed = 0;
    minutes.push(row);
    console.log(
      [
        String(minute).padStart(3),
        mb(row.rss).padStart(7),
        mb(row.heap).padStart(7),
        mb(row.heapAfterGc).padStart(8),
        mb(row.external).padStart(8),
        `${row.loopP99Ms.toFixed(0)} ms`.padStart(8),
        `${row.loopMaxMs.toFixed(0)} ms`.padStart(8),
        String(row.acked).padStart(10),
        `${row.latencyP50.toFixed(0)} / ${row.latencyP99.toFixed(0)} / ${row.latencyMax.toFixed(0)} ms`.padStart(26),
        String(row.failed).padStart(9),
        Number.isNaN(row.checkpointLastMs) ? '' : `${row.checkpointLastMs.toFixed(0)} ms`.padStart(10),
      ].join('  '),
    );
    if (args.snapshots && (minute === WARM_UP || minute === MINUTES)) {
      const at = performance.now();
      await mkdir(snapshotDir, { recursive: true });
      await inspector.heapSnapshot(snapshotAt(minute === MINUTES ? 'end' : 'warm'));
      console.log(`soak: heap snapshot of minute ${minute} taken in ${((performance.now() - at) / 1000).toFixed(1)} s (the server paused meanwhile)`);
    }
  }

  // A server far behind holds its acknowledgements for minutes: the figures do not wait for them.
  await Promise.race([Promise.all(simulations.map((simulation) => simulation.stop())), new Promise((resolve) => setTimeout(resolve, 30_000))]);
  const settled = minutes.filter((row) => row.minute > WARM_UP);
  const verdictOf = (what: string, read: (row: Minute) => number): boolean => {
    const perMinute = slope(settled.map((row) => [row.minute, read(row)]));
    const mean = settled.reduce((sum, row) => sum + read(row), 0) / Math.max(1, settled.length);
    const share = (perMinute * 60) / mean;
    const flat = share < FLAT_SHARE_PER_HOUR;
    console.log(
      `${what}: ${mb(read(settled[0] ?? minutes[0]!))} → ${mb(read(settled.at(-1) ?? minutes.at(-1)!))} after the warm-up, trend ${(perMinute / 1024 / 1024).toFixed(2)} MB/min (${(share * 100).toFixed(1)} % an hour): ${flat ? 'flat' : 'GROWING'}`,
    );
    return flat;
  };
  const rssFlat = verdictOf('RSS', (row) => row.rss);
  const heapFlat = verdictOf('heap after a full collection', (row) => row.heapAfterGc);
  verdictOf('(heap between collections, for comparison)', (row) => row.heap);
  inspector.close();
  if (args.snapshots && WARM_UP > 0) {
    for (const line of describeHeapGrowth(await summarizeHeapSnapshot(snapshotAt('warm')), await summarizeHeapSnapshot(snapshotAt('end')))) console.log(line);
  }
  await rm(snapshotDir, { recursive: true, force: true });
  const all = minutes.filter((row) => row.minute > WARM_UP);
  console.log(
    `ingest latency after the warm-up: worst minute p99 ${Math.max(...all.map((row) => row.latencyP99)).toFixed(0)} ms, max ${Math.max(...all.map((row) => row.latencyMax)).toFixed(0)} ms; frames acknowledged ${total('framesPublished')} of ${total('framesGenerated')} generated, ${total('publishErrors')} failed`,
  );
  const checkpointMaxMs = minutes.at(-1)?.checkpointMaxMs ?? Number.NaN;
  if (!Number.isNaN(checkpointMaxMs))
    console.log(`embedded database checkpoints (every 30 s, timed on its thread): the longest held the database ${checkpointMaxMs.toFixed(0)} ms`);
  console.log(
    `verdict: memory ${rssFlat && heapFlat ? 'FLAT' : 'NOT FLAT'} after a ${WARM_UP}-minute warm-up (${settled.length} minutes judged; flat = trend under ${FLAT_SHARE_PER_HOUR * 100} % of the mean an hour)`,
  );

  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  log.end();
  await schema?.drop();
  await dir.remove();
  if (!(rssFlat && heapFlat)) process.exitCode = 1;
}

await main();
