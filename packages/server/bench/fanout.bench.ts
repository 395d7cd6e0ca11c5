// Fan-out of live subscriptions: N WebSocket subscribers (default 1000) of one query on one server,
// then one write at a time; for each write, how long until every subscriber had its new snapshot
// (p50, p99 and max over the subscribers, from just before the write's HTTP request).
//   node --import tsx packages/server/bench/fanout.bench.ts [--subscribers 1000] [--writes 5] [--postgres]
// PGlite in memory by default; `--postgres` uses TEST_DATABASE_URL (default
// postgres://root@127.0.0.1:5432/test) in a fresh schema, dropped afterwards.
//
// Three cases:
// - shared: every subscriber has the same query; they are signed in as 8 demo accounts that all see
//   facility A, so the server keeps 8 results current per write (live/liveResults.ts shares a result
//   among subscribers with the same claims and target) and sends N snapshots;
// - distinct: one account, but every subscriber's query differs (a filter that every room passes),
//   so the server evaluates N results per write: the cost when nobody shares. Each result takes the
//   changed room in memory (live/queryWindow.ts);
// - paged: as distinct, with pages of 10 of the 20 rooms named `room …` (the demo facility's own
//   rooms left out by a name range); each write takes another room off every page. Each result
//   read 2 rooms beyond its page: the first two writes are taken in memory, the third finds the
//   reserve used up and every result is evaluated through the database again (the worst case),
//   reading 12 deep again for the next ones.
// The server runs in a worker thread, so that the subscribers' JSON parsing here does not queue
// behind (or in front of) the server's work on one event loop.
import { once } from 'node:events';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import WebSocket from 'ws';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { BrowserClient } from '../src/testing/browserClient.ts';
import { createTestSchema, type TestSchema } from '../src/testing/postgres.ts';
import { makeTempDir } from '../src/testing/webDist.ts';

const FACILITY = 'demo-facility-a';
const READERS = [
  'staff@example.com',
  'admin@example.com',
  'privilege@example.com',
  'owner@example.com',
  'developer@example.com',
  'senior@example.com',
  'super@example.com',
  'sysadmin@example.com',
];

async function serve(databaseUrl: string): Promise<void> {
  const dir = await makeTempDir('nemuri-fanout-');
  const server = await startServer(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dir.path,
      DEMO: '1',
      // Without the 24 simulated demo devices: their room states each second would share the thread with the fan-out measured.
      SIMULATE: '0',
      WEB_DIST: join(dir.path, 'no-web'),
      AUTH_RATE_LIMIT_MAX: '100000',
    }),
    { logger: false },
  );
  // 1,000 sockets of a few accounts measure the fan-out, not the per-user limits (docs/security.md).
  server.app.live.configure({ limits: { socketsPerUser: Infinity, subscriptionsPerUser: Infinity, subscriptionsPerTenant: Infinity } });
  parentPort?.postMessage({ url: server.url });
  parentPort?.on('message', async (message: unknown) => {
    if (message === 'stats') parentPort?.postMessage({ stats: { ...server.app.liveResults.stats } });
    if (message !== 'stop') return;
    await server.stop();
    await dir.remove();
    parentPort?.postMessage('stopped');
  });
}

if (!isMainThread) {
  await serve((workerData as { databaseUrl: string }).databaseUrl);
} else {
  await main();
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function signIn(url: string, email: string): Promise<BrowserClient> {
  const client = new BrowserClient(url);
  const reply = await client.signIn(email, DEMO_PASSWORD);
  if (reply.status !== 200) throw new Error(`sign-in as ${email}: ${reply.status} ${reply.text}`);
  return client;
}

/** What a snapshot must show for the write to have arrived. */
type Arrived = (snapshot: string) => boolean;

interface Subscriber {
  socket: WebSocket;
  /** Resolves when a snapshot shows the write arrived. */
  waitFor(arrived: Arrived): Promise<number>;
}

async function subscriber(url: string, cookie: string, query: unknown): Promise<Subscriber> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/live`, { headers: { cookie } });
  await once(socket, 'open');
  let latest = '';
  let waiting: { arrived: Arrived; resolve: (at: number) => void } | null = null;
  let first: (() => void) | null = null;
  const ready = new Promise<void>((resolve) => {
    first = resolve;
  });
  // The subscribers' side stands for a thousand browsers: each message is only searched, not
  // parsed, so that this one process's parsing does not add to the times.
  socket.on('message', (data) => {
    const text = String(data);
    if (!text.startsWith('{"type":"snapshot"')) throw new Error(`subscription failed: ${text}`);
    latest = text;
    first?.();
    if (waiting !== null && waiting.arrived(text)) {
      waiting.resolve(performance.now());
      waiting = null;
    }
  });
  socket.send(JSON.stringify({ type: 'subscribe', id: 1, target: { query } }));
  await ready;
  return {
    socket,
    waitFor: (arrived) =>
      arrived(latest)
        ? Promise.resolve(performance.now())
        : new Promise((resolve) => {
            waiting = { arrived, resolve };
          }),
  };
}

/** How the server kept its results current so far (liveResults.ts). */
async function liveStats(worker: Worker): Promise<{ taken: number; evaluated: number }> {
  worker.postMessage('stats');
  const [{ stats }] = (await once(worker, 'message')) as [{ stats: { taken: number; evaluated: number } }];
  return stats;
}

function showsName(name: string): Arrived {
  const field = `"name":${JSON.stringify(name)}`;
  return (snapshot) => snapshot.includes(field);
}

/** One write of a case: which room gets which name, and what its subscribers then see. */
interface Rename {
  room: string;
  name: string;
  arrived: Arrived;
}

/** `writes` renames (by default room fanout-0 to `<label>-<n>`), timing the arrivals of each. */
async function measure(
  label: string,
  writer: BrowserClient,
  subscribers: Subscriber[],
  writes: number,
  renameOf = (write: number): Rename => ({ room: 'fanout-0', name: `${label}-${write}`, arrived: showsName(`${label}-${write}`) }),
): Promise<void> {
  const rows: string[] = [];
  for (let write = 0; write < writes; write++) {
    const { room, name, arrived } = renameOf(write);
    const arrivals = subscribers.map((one) => one.waitFor(arrived));
    const start = performance.now();
    const reply = await writer.send('PATCH', `/api/documents/rooms/${room}`, JSON.stringify({ data: { name } }), { 'content-type': 'application/json' });
    if (reply.status !== 200) throw new Error(`write: ${reply.status} ${reply.text}`);
    const written = performance.now() - start;
    const times = (await Promise.all(arrivals)).map((at) => at - start).sort((a, b) => a - b);
    rows.push(
      `  write ${write + 1}: HTTP ${written.toFixed(1)} ms; every subscriber: p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms, max ${(times.at(-1) ?? 0).toFixed(1)} ms`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  console.log(`${label}: ${subscribers.length} subscribers`);
  for (const row of rows) console.log(row);
}

async function main(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      subscribers: { type: 'string', default: '1000' },
      writes: { type: 'string', default: '5' },
      postgres: { type: 'boolean', default: false },
      rooms: { type: 'string', default: '20' },
    },
  });
  const count = Number(args.subscribers);
  const writes = Number(args.writes);
  let schema: TestSchema | undefined;
  if (args.postgres) schema = await createTestSchema();
  // A worker thread does not inherit tsx's loader (Node 20): it registers it, then loads this file.
  const entry = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const worker = new Worker(entry, { eval: true, workerData: { databaseUrl: schema?.url ?? 'memory://' } });
  const [{ url }] = (await once(worker, 'message')) as [{ url: string }];
  console.log(
    `server ${url} on ${args.postgres ? 'PostgreSQL' : 'PGlite (in memory)'}; ${args.rooms} rooms added to facility A, whose rooms the shared and distinct results hold`,
  );
  try {
    const writer = await signIn(url, 'developer@example.com');
    for (let room = 0; room < Number(args.rooms); room++) {
      const reply = await writer.send(
        'PUT',
        `/api/documents/rooms/fanout-${room}`,
        JSON.stringify({ data: { domainId: FACILITY, name: `room ${String(room).padStart(3, '0')}`, floor: '1F' } }),
        { 'content-type': 'application/json' },
      );
      if (reply.status !== 200) throw new Error(`seed: ${reply.status} ${reply.text}`);
    }
    const readers = await Promise.all(READERS.map((email) => signIn(url, email)));
    const query = { collection: 'rooms', where: [['domainId', '==', FACILITY]], orderBy: [['name']] };

    let started = performance.now();
    const shared: Subscriber[] = [];
    for (let index = 0; index < count; index += 50) {
      shared.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(50, count - index) }, (_, offset) =>
            subscriber(url, (readers[(index + offset) % readers.length] as BrowserClient).cookieHeader, query),
          ),
        )),
      );
    }
    console.log(`shared: ${count} sockets subscribed in ${(performance.now() - started).toFixed(0)} ms`);
    let before = await liveStats(worker);
    await measure('shared', writer, shared, writes);
    let after = await liveStats(worker);
    console.log(`  results kept current in memory ${after.taken - before.taken} times, evaluated ${after.evaluated - before.evaluated} times`);
    for (const one of shared) one.socket.close();

    started = performance.now();
    const distinct: Subscriber[] = [];
    const developer = readers[4] as BrowserClient;
    for (let index = 0; index < count; index += 50) {
      distinct.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(50, count - index) }, (_, offset) =>
            subscriber(url, developer.cookieHeader, { ...query, where: [...query.where, ['floor', '!=', `not ${index + offset}`]] }),
          ),
        )),
      );
    }
    console.log(`distinct: ${count} sockets subscribed in ${(performance.now() - started).toFixed(0)} ms`);
    before = await liveStats(worker);
    await measure('distinct', writer, distinct, writes);
    after = await liveStats(worker);
    console.log(`  results kept current in memory ${after.taken - before.taken} times, evaluated ${after.evaluated - before.evaluated} times`);
    for (const one of distinct) one.socket.close();

    // Pages losing rooms: each write takes another room off every full page. The first ones are
    // replaced from the rooms each result read ahead (queryWindow.ts); once those are used up,
    // every result is evaluated through the database again (the worst case).
    const reset = await writer.send('PATCH', '/api/documents/rooms/fanout-0', JSON.stringify({ data: { name: 'room 000' } }), {
      'content-type': 'application/json',
    });
    if (reset.status !== 200) throw new Error(`write: ${reset.status} ${reset.text}`);
    started = performance.now();
    const paged: Subscriber[] = [];
    for (let index = 0; index < count; index += 50) {
      paged.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(50, count - index) }, (_, offset) =>
            subscriber(url, developer.cookieHeader, {
              ...query,
              where: [...query.where, ['name', '>=', 'room'], ['floor', '!=', `not ${index + offset}`]],
              limit: 10,
            }),
          ),
        )),
      );
    }
    console.log(`paged (distinct queries, 10 of ${args.rooms} rooms a page): ${count} sockets subscribed in ${(performance.now() - started).toFixed(0)} ms`);
    before = await liveStats(worker);
    await measure('paged', writer, paged, writes, (write) => ({
      room: `fanout-${write}`,
      name: `zz paged ${write}`,
      arrived: (snapshot) => !snapshot.includes(`"documentReferenceId":"fanout-${write}"`),
    }));
    after = await liveStats(worker);
    console.log(
      '  (each write takes another room off every page of 10, read 12 deep: the third finds the reserve used up and every result reads its page again, 12 deep)',
    );
    console.log(`  results kept current in memory ${after.taken - before.taken} times, evaluated ${after.evaluated - before.evaluated} times`);
    for (const one of paged) one.socket.close();
  } finally {
    worker.postMessage('stop');
    await once(worker, 'message');
    await worker.terminate();
    await schema?.drop();
  }
}
