// `npm run bench:ingest-path [-- --devices 3000 --seconds 10 --postgres --shape single|multi --window 9000]`:
// the server's write path alone, without broker or WebSockets: messages of pre-encoded device seconds
// go straight into IngestPipeline.ingest (parse → ring buffer → staging write) as fast as their
// acknowledgements (`durable`) come back, at most `window` messages in flight (the devices' QoS 1
// windows). Prints the ceiling of that path in frames/s, the CPU it costs per frame (this process:
// parser, pipeline, driver; with PGlite also its thread), the time to acknowledgement (p50/p99) and
// what the staging writes cost. Compare the shapes and code versions here; `bench:ingest` measures
// the whole pipeline under real device load.
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { loadParser } from '@nemuri/parser/node';
import type { Database } from '../src/database/database.ts';
import { migrate } from '../src/database/migrate.ts';
import { openPglite } from '../src/database/pglite.ts';
import { IngestPipeline } from '../src/ingest/pipeline.ts';
import { DocumentStore } from '../src/documents/store.ts';
import { createDeviceServices } from '../src/devices/deviceServices.ts';
import { createSignalServices } from '../src/signals/signalServices.ts';
import { createTestSchema } from '../src/testing/postgres.ts';

const { values: args } = parseArgs({
  options: {
    devices: { type: 'string', default: '3000' },
    seconds: { type: 'string', default: '10' },
    postgres: { type: 'boolean', default: false },
    shape: { type: 'string', default: 'single' },
    /** Messages awaiting their acknowledgement at most. */
    window: { type: 'string', default: '9000' },
  },
});
const DEVICES = Number(args.devices);
const SECONDS = Number(args.seconds);
const WINDOW = Number(args.window);
if (args.shape !== 'single' && args.shape !== 'multi') throw new Error('--shape must be single or multi');
const MULTI = args.shape === 'multi';

const parser = await loadParser();
const startUs = (Math.floor(Date.now() / 60_000) - 1) * 60_000_000;
const ecg = new Int16Array(250);
const axl = new Int16Array(150);
for (let i = 0; i < ecg.length; i++) ecg[i] = Math.round(400 * Math.sin(i / 7));
for (let i = 0; i < axl.length; i++) axl[i] = Math.round(200 * Math.cos(i / 5));
const hr = new Float32Array([14, 62]);

/** Device d's messages of second s: the three channel frames, alone or nested in one multi frame. */
function messagesOf(second: number): Uint8Array[] {
  const t = startUs + second * 1_000_000;
  const frames = [
    { channel: 'ecg', format: 'int16', sampleRate: 250, scale: 0.005, offset: 0, sequence: second, startTimeUs: t, raw: ecg },
    { channel: 'respiAxl', format: 'int16', sampleRate: 50, scale: 0.0001, offset: 0, sequence: second, startTimeUs: t, raw: axl },
    { channel: 'respiHr', format: 'float32', sampleRate: 1, scale: 1, offset: 0, sequence: second, startTimeUs: t, values: hr },
  ] as const;
  if (MULTI) return [parser.encodeSmfFrame({ channel: 'multi', sequence: second, startTimeUs: t, frames: [...frames] })];
  return frames.map((frame) => parser.encodeSmfFrame(frame));
}

const percentile = (sorted: Float64Array, p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

async function main(): Promise<void> {
  const schema = args.postgres ? await createTestSchema() : null;
  const database: Database = schema ? await schema.open() : await openPglite(null);
  try {
    await migrate(database);
    const silent = { info: () => undefined, warn: () => undefined, error: (object: object, message: string) => console.error(message, object) };
    const signals = createSignalServices(database, silent);
    const { status } = createDeviceServices(database, new DocumentStore(database, silent), signals.hub, silent);
    const pipeline = new IngestPipeline({ signals, status, log: silent });
    // The same bytes for every device: the path does not look at values, only at headers and CRCs.
    const seconds = Array.from({ length: SECONDS }, (_, s) => messagesOf(s));
    const devices = Array.from({ length: DEVICES }, (_, i) => ({
      serial: `PATH-${String(i + 1).padStart(5, '0')}`,
      domainId: 'bench',
      rootDomainId: 'bench',
      credentialHash: null,
      status: 'in_use',
    }));
    const total = SECONDS * DEVICES * seconds[0]!.length;
    const latencies = new Float64Array(total);
    let acknowledged = 0;
    let failed = 0;
    let inFlight = 0;
    let wake: (() => void) | undefined;
    const cpuBefore = process.cpuUsage();
    const machineBefore = cpus();
    const loadBefore = loadavg()[0]!;
    const started = performance.now();
    let sent = 0;
    for (let s = 0; s < SECONDS; s++) {
      for (const device of devices) {
        for (const message of seconds[s]!) {
          while (inFlight >= WINDOW) await new Promise<void>((resolve) => (wake = resolve));
          const at = performance.now();
          inFlight++;
          const index = sent++;
          // The status tracker's "now" is the wall clock; the frames' own times do not matter here.
          pipeline.ingest(device, message).durable.then(
            () => {
              latencies[index] = performance.now() - at;
              acknowledged++;
              inFlight--;
              wake?.();
            },
            () => {
              failed++;
              inFlight--;
              wake?.();
            },
          );
          if (sent % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
        }
      }
    }
    while (inFlight > 0) await new Promise<void>((resolve) => (wake = resolve));
    const wall = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    let busy = 0;
    let all = 0;
    cpus().forEach((now, i) => {
      const was = machineBefore[i]!.times;
      const sum = (t: typeof was): number => t.user + t.nice + t.sys + t.irq + t.idle;
      all += sum(now.times) - sum(was);
      busy += sum(now.times) - sum(was) - (now.times.idle - was.idle);
    });
    const frames = acknowledged * (MULTI ? 3 : 1);
    const sorted = latencies.slice(0, acknowledged).sort();
    const writes = signals.store.writeStats;
    console.log(
      `bench:ingest-path: ${DEVICES} devices × ${SECONDS} s × 3 channels (${args.shape}), window ${WINDOW} messages; ${schema ? 'PostgreSQL' : 'PGlite in memory'}`,
    );
    console.log(
      `  ${frames} frames in ${acknowledged} messages acknowledged (${failed} failed) in ${wall.toFixed(2)} s: ${(frames / wall).toFixed(0)} frames/s, ${(acknowledged / wall).toFixed(0)} messages/s`,
    );
    console.log(`  acknowledgement after ingest: p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`);
    console.log(
      `  this process's CPU: ${((cpu.user + cpu.system) / frames).toFixed(1)} µs per frame (${(((cpu.user + cpu.system) / 1e6 / wall) * 100).toFixed(0)} % of one core)`,
    );
    console.log(
      `  staging writes: ${writes.writes} commits, ${(writes.frames / Math.max(1, writes.writes)).toFixed(0)} frames each, ${(writes.writeMs / Math.max(1, writes.writes)).toFixed(1)} ms each (max ${writes.maxWriteMs.toFixed(1)} ms), ` +
        `${((writes.writeMs * 1000) / Math.max(1, writes.frames)).toFixed(1)} µs of database time per frame`,
    );
    console.log(
      `  machine: ${cpus().length} cores ${((busy / all) * 100).toFixed(0)} % busy (all processes, the database's too), load average ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
    );
    await pipeline.stop();
  } finally {
    await database.close();
    await schema?.drop();
  }
}

await main();
