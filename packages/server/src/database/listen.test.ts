/**
 * `Database.listen` on PGlite and PostgreSQL: notifications arrive after commit only, stop when
 * asked, and on PostgreSQL the listening connection comes back after it was killed, saying so.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSchema, describePostgres, type TestSchema } from '../testing/postgres.ts';
import type { Database } from './database.ts';
import { openPglite } from './pglite.ts';

function channelName(): string {
  return `test_${randomBytes(6).toString('hex')}`;
}

async function eventually(test: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function listenWorks(open: () => Promise<{ database: Database; close(): Promise<void> }>): void {
  let database: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ database, close } = await open());
  });
  afterAll(async () => {
    await close?.();
  });

  it('delivers notifications of committed transactions only, until stopped', async () => {
    const channel = channelName();
    const received: string[] = [];
    const stop = await database.listen(channel, (payload) => received.push(payload));
    await database.query('select pg_notify($1, $2)', [channel, 'one']);
    await database.transaction(async (tx) => {
      await tx.query('select pg_notify($1, $2)', [channel, 'two']);
    });
    await database
      .transaction(async (tx) => {
        await tx.query('select pg_notify($1, $2)', [channel, 'rolled back']);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await eventually(() => received.length >= 2);
    await stop();
    await database.query('select pg_notify($1, $2)', [channel, 'after stop']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received).toEqual(['one', 'two']);
  });

  it('refuses channel names that are not plain identifiers', async () => {
    await expect(database.listen('x; drop table documents', () => undefined)).rejects.toThrow(/invalid notification channel/);
  });
}

describe('listen on PGlite', () => {
  listenWorks(async () => {
    const database = await openPglite(null);
    return { database, close: () => database.close() };
  });
});

describePostgres('listen on PostgreSQL', () => {
  let schema: TestSchema;
  beforeAll(async () => {
    schema = await createTestSchema();
  });
  afterAll(async () => {
    await schema?.drop();
  });

  listenWorks(async () => {
    const database = await schema.open();
    return { database, close: () => database.close() };
  });

  it('listens again after its connection was killed, and says so', async () => {
    const database = await schema.open();
    try {
      const channel = channelName();
      const received: string[] = [];
      let reconnects = 0;
      await database.listen(
        channel,
        (payload) => received.push(payload),
        () => reconnects++,
      );
      const { rows } = await database.query<{ killed: boolean }>('select pg_terminate_backend(pid) as killed from pg_stat_activity where query = $1', [
        `listen ${channel}`,
      ]);
      expect(rows).toEqual([{ killed: true }]);
      await eventually(() => reconnects === 1);
      await database.query('select pg_notify($1, $2)', [channel, 'back']);
      await eventually(() => received.includes('back'));
    } finally {
      // Also stops the listener (close ends every listener still open).
      await database.close();
    }
  });
});
