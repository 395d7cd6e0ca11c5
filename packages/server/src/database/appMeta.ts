/**
 * Facts about this installation kept in app_meta: when it was installed, a stable instance id, and
 * how many times the server has started on it. Recording a start also tells whether this start is
 * the first one on the database (DEMO unset loads the demo data only then).
 */
import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from './database.ts';

export interface StartRecord {
  instanceId: string;
  /** ISO 8601 time of the first start. */
  installedAt: string;
  /** Starts so far, this one included. */
  startCount: number;
  /** True when this start created the installation (a new database). */
  firstStart: boolean;
}

export function recordStart(database: Database): Promise<StartRecord> {
  return database.transaction(async (tx) => {
    const created = await tx.query<{ key: string }>(
      `insert into app_meta (key, value)
       values ('installed_at', to_jsonb(now())), ('instance_id', to_jsonb($1::text))
       on conflict (key) do nothing
       returning key`,
      [randomUUID()],
    );
    await tx.query(
      `insert into app_meta (key, value) values ('start_count', '1'::jsonb)
       on conflict (key) do update set value = to_jsonb(app_meta.value::int + 1), updated_at = now()`,
    );
    const meta = await readAppMeta(tx);
    return { ...meta, firstStart: created.rows.some((row) => row.key === 'installed_at') };
  });
}

export async function readAppMeta(database: Queryable): Promise<Omit<StartRecord, 'firstStart'>> {
  const { rows } = await database.query<{ key: string; value: unknown }>(
    `select key, value from app_meta where key in ('installed_at', 'instance_id', 'start_count')`,
  );
  const value = (key: string): unknown => rows.find((row) => row.key === key)?.value;
  return {
    instanceId: String(value('instance_id')),
    installedAt: String(value('installed_at')),
    startCount: Number(value('start_count') ?? 0),
  };
}

/** Remembers that this installation holds the demo data set, so later starts still say so. */
export async function markDemoData(database: Queryable): Promise<void> {
  await database.query(
    `insert into app_meta (key, value) values ('demo_data', 'true'::jsonb)
     on conflict (key) do update set value = 'true'::jsonb, updated_at = now()`,
  );
}

export async function hasDemoData(database: Queryable): Promise<boolean> {
  const { rows } = await database.query<{ value: unknown }>(`select value from app_meta where key = 'demo_data'`);
  return rows[0]?.value === true;
}
