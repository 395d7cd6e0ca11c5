/**
 * The statement and transaction limits (statementLimits.ts) on both databases: PostgreSQL's pooled
 * connections carry them (also when the URL has options of its own), a transaction can ask for its
 * own, and PGlite, which ignores `statement_timeout`, bounds how long a transaction holds it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSchema, describePostgres, TEST_DATABASE_URL, type TestSchema } from '../testing/postgres.ts';
import type { Database } from './database.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgresql.ts';
import { QUERY_CANCELED, STATEMENT_LIMITS } from './statementLimits.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describePostgres('statement limits on PostgreSQL', () => {
  let schema: TestSchema;
  let database: Database;

  beforeAll(async () => {
    schema = await createTestSchema();
    // The schema's URL carries `options=-c search_path=…`: the limits must survive it.
    database = await openPostgres({ url: schema.url });
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    await schema?.drop();
  });

  it('sets the statement, lock and idle-transaction timeouts on every connection, keeping the URL options', async () => {
    const show = async (name: string) => Object.values((await database.query(`show ${name}`)).rows[0] ?? {})[0];
    expect(await show('statement_timeout')).toBe(`${STATEMENT_LIMITS.statementTimeoutMs / 1000}s`);
    expect(await show('lock_timeout')).toBe(`${STATEMENT_LIMITS.lockTimeoutMs / 1000}s`);
    expect(await show('idle_in_transaction_session_timeout')).toBe(`${STATEMENT_LIMITS.idleInTransactionMs / 60_000}min`);
    expect(await show('search_path')).toBe(schema.schema);
    const plain = await openPostgres({ url: TEST_DATABASE_URL, maxConnections: 1 });
    try {
      expect(Object.values((await plain.query('show statement_timeout')).rows[0] ?? {})[0]).toBe(`${STATEMENT_LIMITS.statementTimeoutMs / 1000}s`);
    } finally {
      await plain.close();
    }
  });

  it("cancels a statement over its transaction's own limit, and a longer limit lets it finish", async () => {
    await expect(database.transaction((tx) => tx.query('select pg_sleep(0.5)'), { statementTimeoutMs: 100 })).rejects.toMatchObject({ code: QUERY_CANCELED });
    await expect(database.transaction((tx) => tx.query('select pg_sleep(0.2)'), { statementTimeoutMs: 0 })).resolves.toBeDefined();
    // The connection went back to the pool with the default limit.
    expect(Object.values((await database.query('show statement_timeout')).rows[0] ?? {})[0]).toBe(`${STATEMENT_LIMITS.statementTimeoutMs / 1000}s`);
  });
});

describe('transaction limit on PGlite', () => {
  let database: Database;

  beforeAll(async () => {
    database = await openPglite(null);
    await database.exec('create table items (id int primary key)');
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  it('ignores statement_timeout (why the bound is on the transaction instead)', async () => {
    await database.exec('set statement_timeout = 50');
    const started = performance.now();
    await database.query('select pg_sleep(0.2)');
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    await database.exec('reset statement_timeout');
  });

  it('refuses the next statement of a transaction that held the connection too long, and rolls it back', async () => {
    const held = database.transaction(
      async (tx) => {
        await tx.query('insert into items (id) values (1)');
        await sleep(150);
        await tx.query('insert into items (id) values (2)');
      },
      { statementTimeoutMs: 100 },
    );
    await expect(held).rejects.toMatchObject({ code: QUERY_CANCELED });
    expect((await database.query('select count(*)::int as n from items')).rows).toEqual([{ n: 0 }]);
    // Long work that asks for no limit is not cut.
    await database.transaction(
      async (tx) => {
        await tx.query('insert into items (id) values (3)');
        await sleep(150);
        await tx.query('insert into items (id) values (4)');
      },
      { statementTimeoutMs: 0 },
    );
    expect((await database.query('select count(*)::int as n from items')).rows).toEqual([{ n: 2 }]);
  });
});
