/** The Kysely dialect on both databases: what Better Auth relies on. */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSchema, describePostgres, type TestSchema } from '../testing/postgres.ts';
import type { Database } from './database.ts';
import { createKysely } from './kysely.ts';
import { openPglite } from './pglite.ts';

interface Tables {
  pillow: { id: number; name: string; firmness: number };
}

function worksThroughKysely(open: () => Promise<{ database: Database; cleanUp(): Promise<void> }>): void {
  let database: Database;
  let cleanUp: () => Promise<void>;
  let db: Kysely<Tables>;

  beforeAll(async () => {
    ({ database, cleanUp } = await open());
    db = createKysely<Tables>(database);
    await db.schema
      .createTable('pillow')
      .addColumn('id', 'integer', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('firmness', 'integer', (column) => column.notNull())
      .execute();
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
    await cleanUp?.();
  });

  it('inserts, selects, updates and deletes, counting the rows affected', async () => {
    const inserted = await db
      .insertInto('pillow')
      .values([
        { id: 1, name: 'soba', firmness: 3 },
        { id: 2, name: 'feather', firmness: 1 },
        { id: 3, name: 'latex', firmness: 2 },
      ])
      .executeTakeFirstOrThrow();
    expect(inserted.numInsertedOrUpdatedRows).toBe(3n);

    const returned = await db.insertInto('pillow').values({ id: 4, name: 'foam', firmness: 2 }).returning(['id', 'name']).execute();
    expect(returned).toEqual([{ id: 4, name: 'foam' }]);

    expect(await db.selectFrom('pillow').select(['name']).where('firmness', '=', 2).orderBy('id').execute()).toEqual([{ name: 'latex' }, { name: 'foam' }]);

    const updated = await db.updateTable('pillow').set({ firmness: 5 }).where('firmness', '<', 3).executeTakeFirstOrThrow();
    expect(updated.numUpdatedRows).toBe(3n);
    const none = await db.updateTable('pillow').set({ firmness: 0 }).where('id', '=', 99).executeTakeFirstOrThrow();
    expect(none.numUpdatedRows).toBe(0n);

    const deleted = await db.deleteFrom('pillow').where('firmness', '=', 5).executeTakeFirstOrThrow();
    expect(deleted.numDeletedRows).toBe(3n);
    expect(await db.selectFrom('pillow').select(['id', 'name', 'firmness']).execute()).toEqual([{ id: 1, name: 'soba', firmness: 3 }]);
  });

  it('runs raw SQL', async () => {
    const { rows } = await sql<{ answer: number }>`select ${41}::int + 1 as answer`.execute(db);
    expect(rows).toEqual([{ answer: 42 }]);
  });

  it('commits a transaction', async () => {
    const result = await db.transaction().execute(async (trx) => {
      await trx.insertInto('pillow').values({ id: 10, name: 'buckwheat', firmness: 4 }).execute();
      return trx.selectFrom('pillow').select('name').where('id', '=', 10).executeTakeFirstOrThrow();
    });
    expect(result).toEqual({ name: 'buckwheat' });
    expect(await db.selectFrom('pillow').select('id').where('id', '=', 10).execute()).toEqual([{ id: 10 }]);
  });

  it('rolls a transaction back when it throws, and with settings', async () => {
    await expect(
      db
        .transaction()
        .setIsolationLevel('serializable')
        .execute(async (trx) => {
          await trx.insertInto('pillow').values({ id: 20, name: 'lost', firmness: 1 }).execute();
          throw new Error('changed my mind');
        }),
    ).rejects.toThrow('changed my mind');
    expect(await db.selectFrom('pillow').select('id').where('id', '=', 20).execute()).toEqual([]);
  });

  it('rolls back to a savepoint', async () => {
    const trx = await db.startTransaction().execute();
    await trx.insertInto('pillow').values({ id: 30, name: 'kept', firmness: 1 }).execute();
    const saved = await trx.savepoint('before "second"').execute();
    await saved.insertInto('pillow').values({ id: 31, name: 'undone', firmness: 1 }).execute();
    const back = await saved.rollbackToSavepoint('before "second"').execute();
    await back.commit().execute();
    expect(await db.selectFrom('pillow').select('id').where('id', '>=', 30).orderBy('id').execute()).toEqual([{ id: 30 }]);
  });

  it('keeps queries from outside out of a transaction under way', async () => {
    let resume!: () => void;
    const held = new Promise<void>((resolve) => (resume = resolve));
    let inside!: () => void;
    const started = new Promise<void>((resolve) => (inside = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('pillow').values({ id: 40, name: 'rolled back', firmness: 1 }).execute();
      inside();
      await held;
      await trx.insertInto('pillow').values({ id: 41, name: 'rolled back too', firmness: 1 }).execute();
      throw new Error('roll back');
    });
    await started;
    // Issued while the transaction is open, from outside it, through Kysely and directly.
    const outside = Promise.all([
      db.insertInto('pillow').values({ id: 42, name: 'outside', firmness: 1 }).execute(),
      database.query('insert into pillow (id, name, firmness) values (43, $1, 1)', ['outside too']),
      db.selectFrom('pillow').select('id').where('id', '>=', 40).execute(),
    ]);
    resume();
    await expect(transaction).rejects.toThrow('roll back');
    const [, , seenOutside] = await outside;
    expect(seenOutside.map((row) => row.id)).not.toContain(40);
    expect(await db.selectFrom('pillow').select('id').where('id', '>=', 40).orderBy('id').execute()).toEqual([{ id: 42 }, { id: 43 }]);
  });

  it('reports SQL errors and stays usable', async () => {
    await expect(sql`select * from no_such_table`.execute(db)).rejects.toThrow(/no_such_table/);
    await expect(db.transaction().execute(async (trx) => sql`select * from no_such_table`.execute(trx))).rejects.toThrow(/no_such_table/);
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
  });

  it('introspects the tables', async () => {
    const tables = await db.introspection.getTables();
    expect(
      tables
        .find((table) => table.name === 'pillow')
        ?.columns.map((column) => column.name)
        .sort(),
    ).toEqual(['firmness', 'id', 'name']);
  });
}

describe('Kysely on PGlite in memory', () => {
  worksThroughKysely(async () => {
    const database = await openPglite(null);
    return { database, cleanUp: () => database.close() };
  });
});

describePostgres('Kysely on PostgreSQL', () => {
  worksThroughKysely(async () => {
    const schema: TestSchema = await createTestSchema();
    const database = await schema.open();
    return {
      database,
      async cleanUp() {
        await database.close();
        await schema.drop();
      },
    };
  });
});
