// `npm run bench:db`: operations per second of the document engine (documents/store.ts) beside
// hand-written SQL doing the same work on the same `documents` table in the same run, and the
// ratio. PGlite in memory by default; `--postgres` uses TEST_DATABASE_URL (default
// postgres://root@127.0.0.1:5432/test) in a fresh schema, dropped afterwards.
// Options: --records N (default 10000), --seconds S per measurement (default 3), --demo (also time
// the demo data set, demo/seedDemoData.ts, on a database of its own), --explain (print the SQL
// statements one call of each engine operation runs, with their times and query plans),
// --skip-fanout (leave out the live fan-out to 1,000 subscribers, fanout.bench.ts, run at the end).
//
// The data: N rooms spread over 50 facilities under 10 corporations (200 rooms a facility), written
// through the engine (so the audit log holds N rows too), and one agency with 3 corporations as
// partners. The raw side reads what the engine reads (path, data and timestamps) and checks the
// same scope in JavaScript or SQL, but without the engine's work: claims to scope, query
// validation, schema checks on read and write, the audit log, the change feed.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Claims } from '@nemuri/shared/documents/access';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { hashSeed, Random } from '@nemuri/simulator/random';
import type { Database } from '../src/database/database.ts';
import { migrate } from '../src/database/migrate.ts';
import { openPglite } from '../src/database/pglite.ts';
import { openPostgres } from '../src/database/postgresql.ts';
import { seedDemoData } from '../src/demo/seedDemoData.ts';
import { DocumentStore } from '../src/documents/store.ts';

const { values: args } = parseArgs({
  options: {
    postgres: { type: 'boolean', default: false },
    records: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '3' },
    demo: { type: 'boolean', default: false },
    explain: { type: 'boolean', default: false },
    'skip-fanout': { type: 'boolean', default: false },
  },
});
const RECORDS = Number(args.records);
const SECONDS = Number(args.seconds);
/**
 * Writes per seeding transaction. On PostgreSQL a transaction's change notifications must stay
 * within pg_notify's 8000-byte payloads (documents/changeFeed.ts), as in demo/seedDemoData.ts.
 */
const SEED_BATCH = args.postgres ? 10 : 500;
const FACILITIES = 50;
const ROOTS = 10;
const quiet = { error: (object: object, message: string) => console.error(message, object), info: () => undefined, warn: () => undefined };

interface Opened {
  database: Database;
  label: string;
  close(): Promise<void>;
}

async function open(): Promise<Opened> {
  if (!args.postgres) {
    const database = await openPglite(null);
    return { database, label: 'PGlite (in memory)', close: () => database.close() };
  }
  const url = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
  const admin = await openPostgres({ url, maxConnections: 1 });
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  await admin.exec(`create schema ${schema}`);
  const database = await openPostgres({ url, searchPath: schema });
  return {
    database,
    label: `PostgreSQL (${new URL(url).host}, schema ${schema})`,
    async close() {
      try {
        await database.close();
      } finally {
        await admin.exec(`drop schema if exists ${schema} cascade`);
        await admin.close();
      }
    },
  };
}

const facilityOf = (n: number): string => `bench-facility-${n % FACILITIES}`;
const rootOf = (facility: number): string => `bench-corp-${facility % ROOTS}`;
const roomId = (n: number): string => `bench-room-${String(n).padStart(6, '0')}`;
const SYSTEM: Claims = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
const STAFF: Claims = { uid: 'bench-staff', accessLevel: ROLE_LEVELS.generalStaff, domainId: facilityOf(7), rootDomainId: rootOf(7) };
const ADMIN: Claims = { ...STAFF, uid: 'bench-admin', accessLevel: ROLE_LEVELS.administrator };
const INDIVIDUAL: Claims = { uid: 'bench-individual', accessLevel: ROLE_LEVELS.individualUser, domainId: facilityOf(7), rootDomainId: rootOf(7) };
const AGENCY: Claims = { uid: 'bench-agency', accessLevel: ROLE_LEVELS.agency, domainId: 'bench-agency', rootDomainId: 'bench-agency' };
const PARTNERS = [rootOf(1), rootOf(2), rootOf(3)];

function roomData(n: number): Record<string, unknown> {
  const random = new Random(hashSeed('bench-room', n));
  return {
    domainId: facilityOf(n),
    name: `${100 + (n % 200)}号室`,
    floor: `${1 + (n % 4)}F`,
    unit: n % 2 === 0 ? '東ユニット' : '西ユニット',
    sortOrder: Math.floor(random.next() * 1000),
    residentName: `入居者 ${n}`,
    residentNote: random.next() < 0.3 ? '夜間トイレ介助あり' : null,
    ownerUids: n % 1000 === 7 ? [INDIVIDUAL.uid] : [],
    status: random.next() < 0.9 ? 'active' : 'vacant',
  };
}

async function seed(store: DocumentStore): Promise<number> {
  const started = performance.now();
  const writes: { op: 'set'; path: string; data: Record<string, unknown> }[] = [];
  for (let facility = 0; facility < FACILITIES; facility++) {
    writes.push({ op: 'set', path: `domains/${rootOf(facility)}`, data: { name: rootOf(facility), kind: 'corporation' } });
    writes.push({
      op: 'set',
      path: `domains/bench-facility-${facility}`,
      data: { name: `施設 ${facility}`, kind: 'facility', parentDomainId: rootOf(facility), rootDomainId: rootOf(facility) },
    });
  }
  writes.push({ op: 'set', path: 'domains/bench-agency', data: { name: '代理店', kind: 'agency' } });
  for (const partner of PARTNERS) writes.push({ op: 'set', path: `domains/bench-agency/partners/${partner}`, data: { name: partner } });
  for (let start = 0; start < writes.length; start += SEED_BATCH) await store.commit(SYSTEM, { reads: [], writes: writes.slice(start, start + SEED_BATCH) });
  for (let start = 0; start < RECORDS; start += SEED_BATCH) {
    const batch = Array.from({ length: Math.min(SEED_BATCH, RECORDS - start) }, (_, i) => ({
      op: 'set',
      path: `rooms/${roomId(start + i)}`,
      data: roomData(start + i),
    }));
    await store.commit(SYSTEM, { reads: [], writes: batch });
  }
  const rate = ((RECORDS + writes.length) / (performance.now() - started)) * 1000;
  // The steady state of a live database: PostgreSQL's autovacuum would have analysed the table by
  // now; PGlite has no autovacuum, which is why demo/seedDemoData.ts ends with the same.
  await store.database.exec('analyze documents');
  return rate;
}

/**
 * Operations per second of `engine` and of `raw`, calls one after another, each over SECONDS in
 * all: after a short warm-up, the two take turns in ten slices, so that both see the same load
 * on a shared machine and the ratio stays meaningful when the absolute figures wobble.
 */
async function measurePair(engine: (i: number) => Promise<unknown>, raw: (i: number) => Promise<unknown>): Promise<{ engine: number; raw: number }> {
  let i = 0;
  const slice = async (run: (i: number) => Promise<unknown>, ms: number): Promise<[count: number, ms: number]> => {
    const started = performance.now();
    const until = started + ms;
    let count = 0;
    let now = started;
    while (now < until) {
      await run(i++);
      count++;
      now = performance.now();
    }
    return [count, now - started];
  };
  const warm = Math.min(300, SECONDS * 100);
  await slice(engine, warm);
  await slice(raw, warm);
  const totals = { engine: { count: 0, ms: 0 }, raw: { count: 0, ms: 0 } };
  for (let round = 0; round < 10; round++) {
    for (const [side, run] of [
      ['engine', engine],
      ['raw', raw],
    ] as const) {
      const [count, ms] = await slice(run, (SECONDS * 1000) / 10);
      totals[side].count += count;
      totals[side].ms += ms;
    }
  }
  const rate = ({ count, ms }: { count: number; ms: number }): number => (count / ms) * 1000;
  return { engine: rate(totals.engine), raw: rate(totals.raw) };
}

interface Row {
  path: string;
  id: string;
  data: Record<string, unknown>;
  domain_id: string | null;
  root_domain_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const asRecord = (row: Row): Record<string, unknown> => ({
  ...row.data,
  documentReferenceId: row.id,
  documentPath: row.path,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});
const COLUMNS = 'path, id, data, domain_id, root_domain_id, created_at, updated_at';

async function rawGet(database: Database, path: string, visible: (row: Row) => boolean): Promise<Record<string, unknown> | null> {
  const { rows } = await database.query<Row>(`select ${COLUMNS} from documents where path = $1`, [path]);
  const row = rows[0];
  if (row === undefined) return null;
  if (!visible(row)) throw new Error('permission-denied');
  return asRecord(row);
}

/** Rooms of facility 7 (staff and individual) and of the agency's partners, for point reads. */
const staffRooms = Array.from({ length: RECORDS }, (_, n) => n).filter((n) => facilityOf(n) === STAFF.domainId);
const ownedRooms = staffRooms.filter((n) => (roomData(n).ownerUids as string[]).length > 0);
const agencyRooms = Array.from({ length: RECORDS }, (_, n) => n).filter((n) => PARTNERS.includes(rootOf(n % FACILITIES)));
const pick = (list: readonly number[], i: number): string => `rooms/${roomId(list[(i * 7919) % list.length] as number)}`;

const QUERY = { collection: 'rooms', where: [['status', '==', 'active']], orderBy: [['sortOrder', 'asc']], limit: 50 };
const RAW_QUERY = `select ${COLUMNS} from documents where collection = 'rooms' and domain_id = $1 and data -> 'status' = '"active"'::jsonb and data -> 'sortOrder' is not null order by data -> 'sortOrder', path limit 50`;
const RAW_AGENCY_QUERY = `select ${COLUMNS} from documents where collection = 'rooms' and (domain_id = any($1::text[]) or root_domain_id = any($1::text[])) and data -> 'status' = '"active"'::jsonb and data -> 'sortOrder' is not null order by data -> 'sortOrder', path limit 50`;
const RAW_COUNT = `select count(*)::int as n from documents where collection = 'rooms' and domain_id = $1 and data -> 'status' = '"active"'::jsonb`;

/** The statements `run` sends through `database`, with their times (ms), and their plans. */
async function explain(database: Database, run: () => Promise<unknown>): Promise<string[]> {
  const seen: { sql: string; params: readonly unknown[]; ms: number }[] = [];
  const query = database.query.bind(database);
  const transaction = database.transaction.bind(database);
  const traced = <T>(target: { query: Database['query'] }): Database['query'] =>
    (async (sql: string, params: readonly unknown[] = []) => {
      const started = performance.now();
      const result = await target.query<T>(sql, params);
      seen.push({ sql, params, ms: performance.now() - started });
      return result;
    }) as Database['query'];
  database.query = traced({ query });
  database.transaction = (fn) => transaction((tx) => fn({ ...tx, query: traced(tx) }));
  try {
    await run();

    if (!args['skip-fanout']) {
      // The time for one write to reach 1,000 live subscribers: a server of its own, in a process of its own.
      console.log('\nlive fan-out (fanout.bench.ts):');
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(new URL('./fanout.bench.ts', import.meta.url)), ...(args.postgres ? ['--postgres'] : [])],
        { stdio: 'inherit' },
      );
      const [code] = (await once(child, 'exit')) as [number | null];
      if (code !== 0) process.exitCode = code ?? 1;
    }
  } finally {
    database.query = query;
    database.transaction = transaction;
  }
  const lines: string[] = [];
  for (const statement of seen) {
    lines.push(`    ${statement.ms.toFixed(2).padStart(7)} ms  ${statement.sql.replace(/\s+/g, ' ').slice(0, 400)}`);
    if (/^\s*select/i.test(statement.sql) && !statement.sql.includes('pg_advisory')) {
      const { rows } = await database.query<Record<string, string>>(`explain analyze ${statement.sql}`, statement.params);
      for (const row of rows) lines.push(`               | ${Object.values(row)[0]}`);
    }
  }
  return lines;
}

interface Result {
  name: string;
  engine: number;
  raw: number;
}

async function run(): Promise<void> {
  const opened = await open();
  const { database } = opened;
  try {
    await migrate(database);
    const store = new DocumentStore(database, quiet);
    console.log(`${opened.label}: seeding ${RECORDS} rooms through the engine…`);
    const seedRate = await seed(store);
    console.log(`seeded at ${seedRate.toFixed(0)} writes/s (transactions of ${SEED_BATCH}); measuring ${SECONDS} s per operation\n`);
    const agencyScope = ['bench-agency', ...PARTNERS];
    let written = 0;
    const results: Result[] = [];
    const pair = async (name: string, engine: (i: number) => Promise<unknown>, raw: (i: number) => Promise<unknown>): Promise<void> => {
      const result = { name, ...(await measurePair(engine, raw)) };
      results.push(result);
      console.log(`  ${name}: ${result.engine.toFixed(0)} / ${result.raw.toFixed(0)} ops/s`);
    };

    // Sanity: both sides answer the same.
    const engineFirst = await store.query(STAFF, QUERY);
    const rawFirst = (await database.query<Row>(RAW_QUERY, [STAFF.domainId])).rows.map(asRecord);
    if (JSON.stringify(engineFirst) !== JSON.stringify(rawFirst)) throw new Error('the engine and the raw query disagree');
    const countQuery = { collection: 'rooms', where: [['status', '==', 'active']] };
    if ((await store.count(STAFF, countQuery)) !== (await database.query<{ n: number }>(RAW_COUNT, [STAFF.domainId])).rows[0]?.n)
      throw new Error('the engine and the raw count disagree');

    await pair(
      'point read, level 2 (get)',
      (i) => store.get(STAFF, pick(staffRooms, i)),
      (i) => rawGet(database, pick(staffRooms, i), (row) => row.domain_id === STAFF.domainId),
    );
    await pair(
      'point read, level 1 (owned rooms)',
      (i) => store.get(INDIVIDUAL, pick(ownedRooms, i)),
      (i) => rawGet(database, pick(ownedRooms, i), (row) => (row.data.ownerUids as string[]).includes(INDIVIDUAL.uid)),
    );
    await pair(
      'point read, level 50 (agency)',
      (i) => store.get(AGENCY, pick(agencyRooms, i)),
      (i) => rawGet(database, pick(agencyRooms, i), (row) => agencyScope.includes(row.domain_id ?? '') || agencyScope.includes(row.root_domain_id ?? '')),
    );
    await pair(
      'query 50: filter+order+limit, level 2',
      () => store.query(STAFF, QUERY),
      async () => (await database.query<Row>(RAW_QUERY, [STAFF.domainId])).rows.map(asRecord),
    );
    await pair(
      'query 50: filter+order+limit, level 50',
      () => store.query(AGENCY, QUERY),
      async () => (await database.query<Row>(RAW_AGENCY_QUERY, [agencyScope])).rows.map(asRecord),
    );
    await pair(
      'count (filter), level 2',
      () => store.count(STAFF, countQuery),
      async () => (await database.query<{ n: number }>(RAW_COUNT, [STAFF.domainId])).rows[0]?.n,
    );
    await pair(
      'write: set a new room, level 3',
      () => store.set(ADMIN, `rooms/bench-new-${written++}`, { ...roomData(written), domainId: ADMIN.domainId }, false),
      // The same inserts as a hand-written repository would make them: the record and its audit
      // row, in one transaction (the issue's measure: "raw SQL doing the same inserts").
      () =>
        database.transaction(async (tx) => {
          const id = `bench-raw-${written++}`;
          await tx.query(
            `insert into documents (path, collection, collection_group, parent_path, id, data, domain_id, root_domain_id, room_id, created_at, updated_at)
             values ($1, 'rooms', 'rooms', '', $2, $3::jsonb, $4, $5, $2, now(), now())
             on conflict (path) do update set data = excluded.data, updated_at = now(), version = documents.version + 1`,
            [`rooms/${id}`, id, JSON.stringify({ ...roomData(written), domainId: ADMIN.domainId }), ADMIN.domainId, ADMIN.rootDomainId],
          );
          const auditId = randomUUID();
          await tx.query(
            `insert into documents (path, collection, collection_group, parent_path, id, data, domain_id, root_domain_id, room_id, created_at, updated_at)
             values ($1, 'auditLogs', 'auditLogs', '', $2, $3::jsonb, $4, $5, $6, now(), now())`,
            [
              `auditLogs/${auditId}`,
              auditId,
              JSON.stringify({ who: ADMIN.uid, when: new Date().toISOString(), path: `rooms/${id}`, operation: 'create', changedKeys: [] }),
              ADMIN.domainId,
              ADMIN.rootDomainId,
              id,
            ],
          );
        }),
    );

    if (args.explain) {
      const plans: [string, () => Promise<unknown>][] = [
        ['point read, level 2', () => store.get(STAFF, pick(staffRooms, 1))],
        ['point read, level 1', () => store.get(INDIVIDUAL, pick(ownedRooms, 1))],
        ['point read, level 50', () => store.get(AGENCY, pick(agencyRooms, 1))],
        ['query 50, level 2', () => store.query(STAFF, QUERY)],
        ['query 50, raw', () => database.query(RAW_QUERY, [STAFF.domainId])],
        ['count, level 2', () => store.count(STAFF, countQuery)],
        ['count, raw', () => database.query(RAW_COUNT, [STAFF.domainId])],
        ['write, level 3', () => store.set(ADMIN, `rooms/bench-explain`, { ...roomData(1), domainId: ADMIN.domainId }, false)],
      ];
      for (const [name, call] of plans) console.log(`\n  ${name}:\n${(await explain(database, call)).join('\n')}`);
    }

    console.log(`\n${opened.label}, ${RECORDS} rooms (+ as many audit rows), ${SECONDS} s each, one caller at a time:\n`);
    const pad = (text: string, width: number): string => text.padEnd(width);
    const num = (value: number): string => value.toFixed(0).padStart(12);
    console.log(`${pad('operation', 40)}${'engine ops/s'.padStart(12)}${'raw ops/s'.padStart(12)}${'engine/raw'.padStart(12)}`);
    for (const result of results) {
      const ratio = (100 * result.engine) / result.raw;
      const goal = result.name.startsWith('write') ? '' : ratio >= 70 ? '' : '  < 70 %';
      console.log(`${pad(result.name, 40)}${num(result.engine)}${num(result.raw)}${`${ratio.toFixed(0)} %`.padStart(12)}${goal}`);
    }
  } finally {
    await opened.close();
  }
  if (args.demo) {
    const demo = await open();
    try {
      await migrate(demo.database);
      const cpu = process.cpuUsage();
      const counts = await seedDemoData(new DocumentStore(demo.database, quiet), quiet);
      const used = process.cpuUsage(cpu);
      // On PGlite the database runs in this process, so its CPU time is the whole cost, whatever the load.
      console.log(
        `\ndemo data set (${demo.label}, without accounts): ${counts.total} records in ${counts.milliseconds} ms, ${Math.round((used.user + used.system) / 1000)} ms CPU in this process`,
      );
    } finally {
      await demo.close();
    }
  }
}

await run();

if (!args['skip-fanout']) {
  // The time for one write to reach 1,000 live subscribers: a server of its own, in a process of its own.
  console.log('\nlive fan-out (fanout.bench.ts):');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./fanout.bench.ts', import.meta.url)), ...(args.postgres ? ['--postgres'] : [])],
    { stdio: 'inherit' },
  );
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) process.exitCode = code ?? 1;
}
