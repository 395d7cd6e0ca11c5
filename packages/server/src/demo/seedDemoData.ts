/**
 * The demo data set (PRODUCT.md section 2: `npm start` on a fresh clone shows a working product):
 * a maker, an agency with two partners and their bills, a corporation with three facilities, a
 * household, 24 rooms with residents and devices NM-0001…NM-0024 (the simulator's serials, with
 * credentials for the simulator's demo secrets), six devices in the agency's stock, master data,
 * 30 nights of sleep per occupied room and recent alerts.
 *
 * Everything is written through the document engine as the system, so every record passes the
 * registry's schema and gets its tenant columns exactly as an API write would. Writes go in a few
 * large transactions (one per part of the set), which is several times faster than one each.
 * A second run finds its mark in app_meta and does nothing; the mark is set only after the last
 * transaction, and a run cut short is completed by the next one, which rewrites the same records
 * (every id is deterministic).
 */
import { DEMO_ACCOUNTS } from '@nemuri/shared/demoAccounts';
import type { Queryable } from '../database/database.ts';
import type { DocumentStore } from '../documents/store.ts';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { buildDemoRecords, type DemoRecord } from './demoRecords.ts';
import { tokyoDay } from './tokyoTime.ts';

/** The app_meta key marking a completed demo data set; its value holds when and what was written. */
export const DEMO_DATA_SET_KEY = 'demo_data_set';

export interface DemoLogger {
  info(message: string): void;
  warn(message: string): void;
  error(object: object, message: string): void;
}

export interface SeedDemoDataOptions {
  /** Now (default: the clock); the set's 30 sleep days end the day before this day in Tokyo. */
  now?: Date;
  /**
   * Writes per transaction. Default 250: on PGlite one large transaction is several times faster
   * than many small ones (the change feed splits a commit's notifications to fit PostgreSQL's limit).
   */
  batchSize?: number;
  /** Write even if the set was written before (the records are replaced, never duplicated). */
  force?: boolean;
}

export interface DemoDataCounts {
  /** False when the set was there already and nothing was written. */
  written: boolean;
  /** Records per collection (registry name, e.g. `rooms/sleeps`), as written or as recorded then. */
  collections: Record<string, number>;
  total: number;
  /** Demo accounts without a user (they got no staff record). */
  missingAccounts: string[];
  milliseconds: number;
}

function collectionOf(path: string): string {
  return path
    .split('/')
    .filter((_, index) => index % 2 === 0)
    .join('/');
}

/** The user ids of the demo accounts, from Better Auth's `user` table (absent before sign-in starts). */
export async function demoUserIds(database: Queryable, accounts: typeof DEMO_ACCOUNTS = DEMO_ACCOUNTS): Promise<Map<string, string>> {
  const { rows: tables } = await database.query<{ found: string | null }>(`select to_regclass('"user"')::text as found`);
  if (tables[0]?.found === null || tables[0]?.found === undefined) return new Map();
  const emails = accounts.map((account) => account.email.toLowerCase());
  const { rows } = await database.query<{ id: string; email: string }>('select id, email from "user" where email = any($1::text[])', [emails]);
  return new Map(rows.map((row) => [row.email, row.id]));
}

async function recorded(database: Queryable): Promise<{ collections: Record<string, number>; total: number } | null> {
  const { rows } = await database.query<{ value: { collections?: Record<string, number>; total?: number } }>('select value from app_meta where key = $1', [
    DEMO_DATA_SET_KEY,
  ]);
  const value = rows[0]?.value;
  return value === undefined ? null : { collections: value.collections ?? {}, total: value.total ?? 0 };
}

/** Writes through `store` (the app's, so that live screens and the room directory hear the records). */
export async function seedDemoData(store: DocumentStore, logger: DemoLogger, options: SeedDemoDataOptions = {}): Promise<DemoDataCounts> {
  const { database } = store;
  const started = performance.now();
  const previous = options.force === true ? null : await recorded(database);
  if (previous !== null) return { written: false, ...previous, missingAccounts: [], milliseconds: Math.round(performance.now() - started) };

  const now = options.now ?? new Date();
  const today = tokyoDay(now);
  const userIds = await demoUserIds(database);
  const missingAccounts = DEMO_ACCOUNTS.map((account) => account.email).filter((email) => !userIds.has(email));
  if (missingAccounts.length > 0) logger.warn(`demo data: no user for ${missingAccounts.join(', ')}: written without their staff records`);
  const records = buildDemoRecords({ today, userIds });

  const batchSize = options.batchSize ?? 250;
  for (let start = 0; start < records.length; start += batchSize) {
    const writes = records.slice(start, start + batchSize).map((record: DemoRecord) => ({ op: 'set', path: record.path, data: record.data, merge: false }));
    await store.commit(SYSTEM_PRINCIPAL, { reads: [], writes });
  }

  // Planner statistics for the new rows: PGlite has no autovacuum, so without this every query
  // plans as if the table were empty (a few rows per collection) until someone runs ANALYZE.
  await database.exec('analyze documents');

  const collections: Record<string, number> = {};
  for (const record of records) {
    const name = collectionOf(record.path);
    collections[name] = (collections[name] ?? 0) + 1;
  }
  await database.query(
    `insert into app_meta (key, value) values ($1, $2::jsonb)
     on conflict (key) do update set value = excluded.value, updated_at = now()`,
    [DEMO_DATA_SET_KEY, JSON.stringify({ writtenAt: now.toISOString(), endsAt: today, collections, total: records.length })],
  );
  return { written: true, collections, total: records.length, missingAccounts, milliseconds: Math.round(performance.now() - started) };
}

/** One line for the start-up log. */
export function describeCounts(counts: DemoDataCounts): string {
  const c = counts.collections;
  const parts = `${c.domains ?? 0} domains, ${c['domains/staff'] ?? 0} staff, ${c.rooms ?? 0} rooms, ${c.devices ?? 0} devices, ${c['rooms/sleeps'] ?? 0} sleep days, ${c.alerts ?? 0} alerts, ${counts.total} records in all`;
  return counts.written ? `demo data: ${parts} written in ${counts.milliseconds} ms` : `demo data: already there (${parts})`;
}

/**
 * Whether a demo start loads the data set. NEMURI_DEMO_DATA=0 or 1 decides; unset, yes, except
 * under Vitest: the server tests start servers with DEMO=1 for the demo accounts and expect an
 * otherwise empty document store (documents/tenancyMatrix.fixture.ts), so they opt in with NEMURI_DEMO_DATA=1.
 */
export function demoDataWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  const setting = env.NEMURI_DEMO_DATA;
  if (setting === '1' || setting === 'true') return true;
  if (setting === '0' || setting === 'false') return false;
  return env.VITEST === undefined;
}

/** The demo start's step (server.ts): load the set unless it is there or not wanted, and log one line. */
export async function loadDemoDataAtStart(store: DocumentStore, logger: DemoLogger): Promise<DemoDataCounts | null> {
  if (!demoDataWanted()) return null;
  const counts = await seedDemoData(store, logger);
  logger.info(describeCounts(counts));
  return counts;
}
