// Time from an alert opening to its push requests leaving the server, with N staff (default 1000)
// each subscribed on one device and all notified at the first escalation step: for each alert,
// from just before the monitoring's write of the alert record until each request reaches a local
// push service (the tests' stand-in answering 201 without decrypting, in a process of its own,
// bench/pushReceiver.ts, as a real push service is another machine); p50, p99 and max over all
// requests of all alerts. Goal (issue 20): p99 under 1 s. Alerts follow one another once the
// previous one's bookkeeping is written. Also printed: the CPU time this process (server and, with
// PGlite, its database thread; with the push encryption workers) spent per alert, how long of it the
// main thread was busy (what holds up the server's other requests), and the machine's load average — on a shared
// machine the wall-clock figures are as good as the CPU this process was given.
// The first alerts warm up and are printed but not counted (VAPID keys made, JWT signed, connections
// opened, and V8 tiering up the database's wasm and the encryption code over the first few thousand
// calls — measured: the first alert after a cold start p99 1.9 s, the second 0.9–1.1 s, later ones
// 0.35–0.55 s on PGlite; a server in service has done that long before its first alert).
//   node --import tsx packages/server/bench/notify.bench.ts [--staff 1000] [--alerts 5] [--warm-up 2] [--postgres]
// PGlite in memory by default; `--postgres` uses TEST_DATABASE_URL in a fresh schema, dropped afterwards.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { alertDocument } from '@nemuri/analysis/alerts';
import { DEFAULT_PREFERENCES } from '@nemuri/shared/notifications';
import type { Database } from '../src/database/database.ts';
import { migrate } from '../src/database/migrate.ts';
import { openPglite } from '../src/database/pglite.ts';
import { openPostgres } from '../src/database/postgresql.ts';
import { DocumentStore, serverIdentity } from '../src/documents/store.ts';
import { webPushChannel } from '../src/notifications/channels/webPushChannel.ts';
import type { Channel } from '../src/notifications/channels/channel.ts';
import { NotificationService } from '../src/notifications/notificationService.ts';
import { vapidKeysOf } from '../src/notifications/vapidKeys.ts';

const { values } = parseArgs({
  options: {
    staff: { type: 'string', default: '1000' },
    alerts: { type: 'string', default: '5' },
    'warm-up': { type: 'string', default: '2' },
    postgres: { type: 'boolean', default: false },
  },
});
const STAFF = Number(values.staff);
const ALERTS = Number(values.alerts);
const WARM_UP = Number(values['warm-up']);
const DOMAIN = 'bench-facility';
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';

async function open(): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (!values.postgres) {
    const database = await openPglite(null);
    return { database, drop: () => database.close() };
  }
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const admin = await openPostgres({ url: TEST_DATABASE_URL, maxConnections: 1 });
  await admin.exec(`create schema ${schema}`);
  const database = await openPostgres({ url: TEST_DATABASE_URL, searchPath: schema });
  return {
    database,
    drop: async () => {
      await database.close();
      await admin.exec(`drop schema ${schema} cascade`);
      await admin.close();
    },
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

interface Receiver {
  origin: string;
  subscriptions: { endpoint: string; keys: { p256dh: string; auth: string } }[];
  /** Epoch times (ms, with fractions) of the first `count` requests, once that many arrived. */
  arrivals(count: number): Promise<number[]>;
  close(): void;
}

async function startReceiver(subscriptions: number): Promise<Receiver> {
  const child = fork(new URL('./pushReceiver.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
  const next = <T>() => new Promise<T>((resolve) => child.once('message', (message) => resolve(message as T)));
  await next<{ ready: true }>();
  child.send({ subscribe: subscriptions });
  const { origin, subscriptions: made } = await next<Pick<Receiver, 'origin' | 'subscriptions'>>();
  return {
    origin,
    subscriptions: made,
    async arrivals(count) {
      child.send({ waitFor: count });
      return (await next<{ arrivals: number[] }>()).arrivals;
    },
    close: () => child.disconnect(),
  };
}

const epochNow = () => performance.timeOrigin + performance.now();
const { database, drop } = await open();
const push = await startReceiver(STAFF);
try {
  await migrate(database);
  const log = { info: () => undefined, warn: () => undefined, error: (object: object, message: string) => console.error(message, object) };
  const store = new DocumentStore(database, log);
  const me = serverIdentity('bench');
  await store.set(me, `domains/${DOMAIN}`, { name: 'ベンチ園', kind: 'facility' }, false);
  await store.set(me, 'rooms/bench-room', { domainId: DOMAIN, name: '101号室', unit: 'A' }, false);
  const staff = Array.from({ length: STAFF }, (_, index) => ({ uid: `bench-staff-${index}`, email: `staff${index}@bench.example` }));
  const subscriptions = staff.map((member, index) => ({ ...member, subscription: push.subscriptions[index] as Receiver['subscriptions'][number] }));
  // Staff records straight into the table (1,000 documents, as the document store would write them).
  await database.query(
    `insert into documents (path, collection, collection_group, parent_path, id, data, domain_id, root_domain_id, created_at, updated_at)
     select 'domains/${DOMAIN}/staff/' || s.uid, 'domains/${DOMAIN}/staff', 'staff', 'domains/${DOMAIN}', s.uid,
            jsonb_build_object('displayName', s.uid, 'email', s.email, 'accessLevel', 2), '${DOMAIN}', '${DOMAIN}', now(), now()
       from jsonb_to_recordset($1::jsonb) as s(uid text, email text)`,
    [JSON.stringify(staff)],
  );
  await database.query(
    `insert into notify_push_subscriptions (id, user_id, endpoint, p256dh, auth)
     select 'sub-' || s.uid, s.uid, s.endpoint, s.p256dh, s.auth from jsonb_to_recordset($1::jsonb) as s(uid text, endpoint text, p256dh text, auth text)`,
    [JSON.stringify(subscriptions.map((entry) => ({ uid: entry.uid, endpoint: entry.subscription.endpoint, ...entry.subscription.keys })))],
  );
  await database.query(`insert into notify_preferences (user_id, preferences) select s.uid, $2::jsonb from jsonb_to_recordset($1::jsonb) as s(uid text)`, [
    JSON.stringify(staff),
    JSON.stringify({ ...DEFAULT_PREFERENCES, channels: { push: true, mail: false, line: false } }),
  ]);
  await database.query(`insert into notify_domain_settings (domain_id, settings) values ($1, $2::jsonb)`, [
    DOMAIN,
    JSON.stringify({
      showResidentName: false,
      escalation: [{ target: 'allStaff', afterMin: 0 }],
      rateLimit: { max: 60, windowMin: 1 },
      webhookUrl: null,
      webhookAlertTypes: [],
    }),
  ]);
  const unused: Channel = { send: async () => ({ ok: false, statusCode: null, error: 'unused', retry: false }) };
  const service = new NotificationService({
    database,
    changeFeed: store.changes,
    log,
    tickMs: 0,
    publicUrl: async () => 'https://nemuri.example',
    channels: {
      push: webPushChannel({
        db: database,
        keys: () => vapidKeysOf(database),
        subject: async () => 'mailto:ops@nemuri.example',
        extraOrigins: [push.origin],
        now: Date.now,
      }),
      mail: unused,
      line: unused,
      webhook: unused,
    },
  });
  service.start();
  const latencies: number[] = [];
  const cpuPerAlert: number[] = [];
  const mainPerAlert: number[] = [];
  const loadBefore = loadavg();
  for (let round = 0; round < WARM_UP + ALERTS; round += 1) {
    const before = round * STAFF;
    const cpu = process.cpuUsage();
    const busy = performance.eventLoopUtilization();
    const started = epochNow();
    await store.set(
      me,
      `alerts/bench-${round}`,
      alertDocument({ domainId: DOMAIN, roomId: 'bench-room' }, { type: round % 2 === 0 ? 'button' : 'noBreathing', startedAt: Date.now() }),
      false,
    );
    const round_ = (await push.arrivals(before + STAFF)).slice(before).map((at) => at - started);
    const used = process.cpuUsage(cpu);
    const mainBusy = performance.eventLoopUtilization(busy).active;
    if (round >= WARM_UP) {
      latencies.push(...round_);
      cpuPerAlert.push((used.user + used.system) / 1000);
      mainPerAlert.push(mainBusy);
    }
    const sorted = [...round_].sort((a, b) => a - b);
    console.log(
      `${round < WARM_UP ? `warm-up ${round + 1}` : `alert ${round - WARM_UP + 1}`}: ${STAFF} pushes, first ${sorted[0]?.toFixed(0)} ms, p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms, last ${sorted[sorted.length - 1]?.toFixed(0)} ms; CPU ${((used.user + used.system) / 1000).toFixed(0)} ms, main thread busy ${mainBusy.toFixed(0)} ms`,
    );
    // The next alert starts once this one's bookkeeping (results, delivery log) is written.
    await service.settled();
  }
  await service.stop();
  const sorted = latencies.sort((a, b) => a - b);
  const loadAfter = loadavg();
  console.log(`\nalert opened → push request at the push service, ${STAFF} subscribed staff, ${ALERTS} alerts (${database.kind}):`);
  console.log(
    `  p50 ${percentile(sorted, 50).toFixed(0)} ms   p99 ${percentile(sorted, 99).toFixed(0)} ms   max ${sorted[sorted.length - 1]?.toFixed(0)} ms   (goal: p99 < 1000 ms)`,
  );
  console.log(`  CPU of this process per alert: ${cpuPerAlert.map((ms) => ms.toFixed(0)).join(', ')} ms`);
  console.log(`  main thread busy per alert: ${mainPerAlert.map((ms) => ms.toFixed(0)).join(', ')} ms`);
  console.log(`  machine: ${availableParallelism()} cores, load average (1 min) ${loadBefore[0]?.toFixed(1)} before, ${loadAfter[0]?.toFixed(1)} after`);
} finally {
  push.close();
  await drop();
}
