import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSchema, describePostgres, type TestSchema } from '../testing/postgres.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';
import { readAppMeta, recordStart } from './appMeta.ts';
import type { Database } from './database.ts';
import { appliedMigrations, checkMigrationList, migrate } from './migrate.ts';
import { MIGRATIONS, type Migration } from './migrations.ts';
import { openPglite } from './pglite.ts';

const ALL_IDS = MIGRATIONS.map((migration) => migration.id);

async function appliedAt(database: Database): Promise<Record<string, string>> {
  const { rows } = await database.query<{ id: string; applied_at: Date }>('select id, applied_at from schema_migrations');
  return Object.fromEntries(rows.map((row) => [row.id, row.applied_at.toISOString()]));
}

describe('the migration list', () => {
  it('is well formed, starting with 001_app_meta', () => {
    expect(() => checkMigrationList(MIGRATIONS)).not.toThrow();
    expect(ALL_IDS[0]).toBe('001_app_meta');
  });

  it('rejects bad ids and disorder', () => {
    expect(() => checkMigrationList([{ id: 'app_meta', sql: '' }])).toThrow('migration id "app_meta" must look like 001_what_it_does');
    expect(() =>
      checkMigrationList([
        { id: '002_b', sql: '' },
        { id: '001_a', sql: '' },
      ]),
    ).toThrow('migration "001_a" must come after "002_b"');
    expect(() =>
      checkMigrationList([
        { id: '001_a', sql: '' },
        { id: '001_a', sql: '' },
      ]),
    ).toThrow(/must come after/);
  });
});

describe('migrations on PGlite in memory', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openPglite(null);
  }, 60_000);
  afterAll(() => database?.close());

  it('start from nothing', async () => {
    expect(await appliedMigrations(database)).toEqual([]);
  });

  it('apply every migration once, then nothing', async () => {
    expect(await migrate(database)).toEqual({ applied: ALL_IDS });
    expect(await migrate(database)).toEqual({ applied: [] });
    expect(await appliedMigrations(database)).toEqual(ALL_IDS);
  });

  it('create app_meta and count starts', async () => {
    const first = await recordStart(database);
    expect(first).toEqual({ instanceId: expect.stringMatching(/^[0-9a-f-]{36}$/), installedAt: expect.any(String), startCount: 1, firstStart: true });
    expect(Number.isNaN(Date.parse(first.installedAt))).toBe(false);
    const second = await recordStart(database);
    expect(second).toEqual({ ...first, startCount: 2, firstStart: false });
  });

  it('roll a failing migration back entirely and name it', async () => {
    const broken: Migration[] = [...MIGRATIONS, { id: '999_broken', sql: 'create table half_done (x int); select * from no_such_table;' }];
    await expect(migrate(database, broken)).rejects.toThrow(/^migration 999_broken failed: .*no_such_table/);
    expect(await appliedMigrations(database)).toEqual(ALL_IDS);
    const { rows } = await database.query(`select to_regclass('half_done')::text as found`);
    expect(rows).toEqual([{ found: null }]);
  });
});

describe('migrations on PGlite on disk', () => {
  let dir: TempDir;
  beforeAll(async () => {
    dir = await makeTempDir('nemuri-pglite-');
  });
  afterAll(() => dir?.remove());

  it('keep the data across a restart and are not applied again', { timeout: 60_000 }, async () => {
    const dataDir = join(dir.path, 'pglite');

    const first = await openPglite(dataDir);
    expect(existsSync(`${dataDir}.lock`)).toBe(true);
    await expect(openPglite(dataDir)).rejects.toThrow(`${dataDir} is already open in this process`);
    expect(await migrate(first)).toEqual({ applied: ALL_IDS });
    const firstStart = await recordStart(first);
    const firstApplied = await appliedAt(first);
    await first.close();
    expect(existsSync(`${dataDir}.lock`)).toBe(false);

    const second = await openPglite(dataDir);
    try {
      expect(await migrate(second)).toEqual({ applied: [] });
      expect(await appliedAt(second)).toEqual(firstApplied);
      const secondStart = await recordStart(second);
      expect(secondStart).toEqual({ ...firstStart, startCount: 2, firstStart: false });
    } finally {
      await second.close();
    }
  });
});

describePostgres('migrations on PostgreSQL', () => {
  let schema: TestSchema;
  beforeAll(async () => {
    schema = await createTestSchema();
  });
  afterAll(() => schema?.drop());

  it('apply once, count starts, and stay in their schema', async () => {
    const database = await schema.open();
    try {
      expect(await migrate(database)).toEqual({ applied: ALL_IDS });
      expect(await migrate(database)).toEqual({ applied: [] });
      expect((await recordStart(database)).firstStart).toBe(true);
      expect(await readAppMeta(database)).toMatchObject({ startCount: 1 });
      // Other test files may have schemas of their own at the same time: look only here and in public.
      const { rows } = await database.query<{ schema: string }>(
        `select table_schema as schema from information_schema.tables
         where table_name in ('app_meta', 'schema_migrations') and table_schema in ($1, 'public')`,
        [schema.schema],
      );
      expect(rows).toEqual([{ schema: schema.schema }, { schema: schema.schema }]);
    } finally {
      await database.close();
    }
  });
});

describePostgres('migrations on PostgreSQL from two processes at once', () => {
  let schema: TestSchema;
  beforeAll(async () => {
    schema = await createTestSchema();
  });
  afterAll(() => schema?.drop());

  it('apply each migration exactly once', async () => {
    // A slow migration widens the window in which both runners would otherwise apply it.
    const migrations: Migration[] = [
      ...MIGRATIONS,
      { id: '900_slow', sql: 'select pg_sleep(0.3); create table slow_table (x int); insert into slow_table values (1);' },
      { id: '901_after', sql: 'insert into slow_table values (2);' },
    ];
    const [a, b] = await Promise.all([schema.open(), schema.open()]);
    try {
      const results = await Promise.all([migrate(a, migrations), migrate(b, migrations)]);
      const appliedByEither = results.flatMap((result) => result.applied).sort();
      expect(appliedByEither).toEqual(migrations.map((migration) => migration.id));
      const { rows } = await a.query<{ id: string; n: string }>('select id, count(*) as n from schema_migrations group by id order by id');
      expect(rows).toEqual(migrations.map((migration) => ({ id: migration.id, n: '1' })));
      expect((await a.query('select x from slow_table order by x')).rows).toEqual([{ x: 1 }, { x: 2 }]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
