/** The same behaviour from both databases: what the rest of the server relies on. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSchema, describePostgres, type TestSchema } from '../testing/postgres.ts';
import type { Database } from './database.ts';
import { openPglite } from './pglite.ts';

function behavesAsADatabase(open: () => Promise<{ database: Database; cleanUp(): Promise<void> }>): void {
  let database: Database;
  let cleanUp: () => Promise<void>;

  beforeAll(async () => {
    ({ database, cleanUp } = await open());
    await database.exec('create table items (id int primary key, name text not null); create table other (x int)');
  }, 60_000);
  afterAll(async () => {
    await cleanUp?.();
  });

  it('runs queries with parameters', async () => {
    await database.query('insert into items (id, name) values ($1, $2), ($3, $4)', [1, 'futon', 2, 'makura']);
    const { rows } = await database.query<{ id: number; name: string }>('select id, name from items where id = $1', [2]);
    expect(rows).toEqual([{ id: 2, name: 'makura' }]);
  });

  it('returns the same value types', async () => {
    const { rows } = await database.query(
      `select 9007199254740993::int8 as big, 1.50::numeric as num, 2::int4 as small, 1.5::float8 as float,
              true as yes, '2024-01-02'::date as day, '2024-01-02T03:04:05Z'::timestamptz as at,
              '{"a":[1]}'::jsonb as doc, 'x'::text as txt, null::text as nothing, '\\x0102'::bytea as bytes`,
    );
    const row = rows[0] ?? {};
    expect({ ...row, bytes: undefined }).toEqual({
      big: '9007199254740993',
      num: '1.50',
      small: 2,
      float: 1.5,
      yes: true,
      day: '2024-01-02',
      at: new Date('2024-01-02T03:04:05Z'),
      doc: { a: [1] },
      txt: 'x',
      nothing: null,
      bytes: undefined,
    });
    expect(row.bytes).toBeInstanceOf(Uint8Array);
    expect([...(row.bytes as Uint8Array)]).toEqual([1, 2]);
  });

  it('takes bytea parameters byte for byte, whatever their bytes and wherever their view starts', async () => {
    // Every byte value, in a view that starts inside a larger buffer (as the staging write's Buffer.concat may).
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const backing = new Uint8Array(300);
    backing.set(all, 7);
    const view = backing.subarray(7, 7 + 256);
    const { rows } = await database.query<{ bytes: Uint8Array; n: number; sliced: Uint8Array }>(
      'select $1::bytea as bytes, length($1::bytea) as n, substring($2::bytea from 3 for 2) as sliced',
      [view, Buffer.from([9, 8, 7, 6])],
    );
    expect(rows[0]?.n).toBe(256);
    expect([...(rows[0]?.bytes ?? [])]).toEqual([...all]);
    expect([...(rows[0]?.sliced ?? [])]).toEqual([7, 6]);
    const empty = await database.query<{ n: number }>('select length($1::bytea) as n', [new Uint8Array(0)]);
    expect(empty.rows[0]?.n).toBe(0);
  });

  it('commits a transaction and returns its result', async () => {
    const result = await database.transaction(async (tx) => {
      await tx.query('insert into items (id, name) values ($1, $2)', [10, 'kakebuton']);
      return 'done';
    });
    expect(result).toBe('done');
    expect((await database.query('select 1 from items where id = 10')).rows).toHaveLength(1);
  });

  it('rolls a transaction back when it throws', async () => {
    await expect(
      database.transaction(async (tx) => {
        await tx.query('insert into items (id, name) values ($1, $2)', [20, 'lost']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await database.query('select 1 from items where id = 20')).rows).toHaveLength(0);
  });

  it('refuses database calls inside a transaction instead of deadlocking', async () => {
    await expect(database.transaction(async () => database.query('select 1'))).rejects.toThrow(
      "database.query() called inside a transaction: use the transaction's tx argument instead",
    );
    await expect(database.transaction(async () => database.transaction(async () => 1))).rejects.toThrow(/database.transaction\(\) called inside/);
  });

  it('runs queries issued during a transaction after it, not inside it', async () => {
    let releaseTransaction!: () => void;
    const held = new Promise<void>((resolve) => (releaseTransaction = resolve));
    const transaction = database.transaction(async (tx) => {
      await tx.query('insert into other (x) values (1)');
      await held;
      await tx.query('insert into other (x) values (2)');
      throw new Error('roll back');
    });
    // Issued while the transaction is open, from outside it.
    const outside = database.query('insert into other (x) values (3)');
    releaseTransaction();
    await expect(transaction).rejects.toThrow('roll back');
    await outside;
    expect((await database.query<{ x: number }>('select x from other order by x')).rows).toEqual([{ x: 3 }]);
  });

  it('reports how many rows a statement returned or changed', async () => {
    await database.exec('create table counted (x int)');
    expect((await database.query('insert into counted (x) values (1), (2), (3)')).rowCount).toBe(3);
    expect((await database.query('update counted set x = x + 10 where x > 1')).rowCount).toBe(2);
    expect((await database.query('delete from counted where x = 13')).rowCount).toBe(1);
    expect((await database.query('select x from counted')).rowCount).toBe(2);
    expect((await database.query('create table uncounted (y int)')).rowCount).toBeNull();
    const inTransaction = await database.transaction((tx) => tx.query('delete from counted'));
    expect(inTransaction.rowCount).toBe(2);
  });

  it('gives an exclusive session that others do not join', async () => {
    await database.exec('create table sessions (x int)');
    const session = await database.connect();
    // From outside, meanwhile: never part of the session's transaction (PGlite runs it after the
    // session; PostgreSQL on another connection, whose commit the session may already see).
    let outside: Promise<unknown> | undefined;
    try {
      await session.query('begin');
      expect((await session.query('insert into sessions (x) values ($1)', [1])).rowCount).toBe(1);
      outside = database.query('insert into sessions (x) values (2)');
      expect((await session.query<{ x: number }>('select x from sessions order by x')).rows).toContainEqual({ x: 1 });
      await session.query('rollback');
    } finally {
      await session.release();
    }
    await outside;
    expect((await database.query<{ x: number }>('select x from sessions order by x')).rows).toEqual([{ x: 2 }]);
  });

  it('rolls back a transaction a session left open, and refuses a released session', async () => {
    const session = await database.connect();
    await session.query('begin');
    await session.query('insert into sessions (x) values (3)');
    await session.release();
    await session.release(); // twice is fine
    await expect(session.query('select 1')).rejects.toThrow(/released/);
    expect((await database.query<{ x: number }>('select x from sessions order by x')).rows).toEqual([{ x: 2 }]);
    const next = await database.connect();
    try {
      expect((await next.query('insert into sessions (x) values (4)')).rowCount).toBe(1);
    } finally {
      await next.release();
    }
    expect((await database.query('select x from sessions where x = 4')).rows).toHaveLength(1);
  });

  it('keeps a session usable after a failed statement until it is released', async () => {
    const session = await database.connect();
    try {
      await expect(session.query('select * from no_such_table')).rejects.toThrow(/no_such_table/);
      expect((await session.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await session.release();
    }
  });

  it('refuses a session inside a transaction instead of deadlocking', async () => {
    await expect(database.transaction(async () => database.connect())).rejects.toThrow(/database.connect\(\) called inside a transaction/);
  });

  it('reports SQL errors and stays usable', async () => {
    await expect(database.query('select * from no_such_table')).rejects.toThrow(/no_such_table/);
    expect((await database.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });
}

describe('PGlite in memory', () => {
  behavesAsADatabase(async () => {
    const database = await openPglite(null);
    return { database, cleanUp: () => database.close() };
  });

  describe('with its one connection', () => {
    let database: Database;
    beforeAll(async () => {
      database = await openPglite(null);
    }, 60_000);
    afterAll(() => database?.close());

    it('runs queries, transactions and sessions one at a time, first come first served', async () => {
      const order: string[] = [];
      const session = await database.connect();
      const query = database.query('select 1').then(() => order.push('query'));
      const transaction = database.transaction(async (tx) => tx.query('select 1')).then(() => order.push('transaction'));
      const nextSession = database.connect().then(async (next) => {
        order.push('next session');
        await next.release();
      });
      await session.query('select 1');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(order).toEqual([]); // all waiting for the first session
      order.push('released');
      await session.release();
      await Promise.all([query, transaction, nextSession]);
      expect(order).toEqual(['released', 'query', 'transaction', 'next session']);
    });
  });
});

describePostgres('PostgreSQL', () => {
  behavesAsADatabase(async () => {
    const schema: TestSchema = await createTestSchema();
    const database = await schema.open();
    return {
      database,
      async cleanUp() {
        await database.close();
        await database.close(); // twice is fine
        await schema.drop();
      },
    };
  });
});
