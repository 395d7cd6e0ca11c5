/**
 * The change feed across processes on PostgreSQL, with feeds of their own (as separate server
 * processes have): many changes split over notifications under PostgreSQL's 8000 bytes, a change
 * too large to send becomes "everything", a feed skips its own notifications and those of other
 * schemas, and nothing is sent for a rolled-back transaction.
 */
import type { RecordTenant } from '@nemuri/shared/documents/access';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { createTestSchema, describePostgres, type TestSchema } from '../testing/postgres.ts';
import { ChangeFeed, type ChangeBatch, type DocumentChange } from './changeFeed.ts';

const tenant: RecordTenant = { domainId: 'd', rootDomainId: 'r', roomId: null };
const quiet = { warn: () => undefined };

function change(index: number, idLength = 40): DocumentChange {
  const id = `${index}-`.padEnd(idLength, 'x');
  return { path: `rooms/${id}`, collection: 'rooms', collectionGroup: 'rooms', op: 'update', tenant };
}

async function eventually(test: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describePostgres('the change feed across processes (PostgreSQL)', () => {
  let schema: TestSchema;
  let other: TestSchema;
  let writerDb: Database;
  let readerDb: Database;
  let otherDb: Database;
  let writer: ChangeFeed;
  let reader: ChangeFeed;
  let otherWriter: ChangeFeed;
  const received: ChangeBatch[] = [];
  const heardByWriter: ChangeBatch[] = [];

  beforeAll(async () => {
    [schema, other] = await Promise.all([createTestSchema(), createTestSchema()]);
    [writerDb, readerDb, otherDb] = await Promise.all([schema.open(), schema.open(), other.open()]);
    await migrate(writerDb);
    writer = new ChangeFeed(writerDb);
    reader = new ChangeFeed(readerDb);
    otherWriter = new ChangeFeed(otherDb);
    await Promise.all([writer.start(quiet), reader.start(quiet)]);
    reader.subscribe((batch) => received.push(batch));
    writer.subscribe((batch) => heardByWriter.push(batch));
  });
  afterAll(async () => {
    await Promise.all([writer?.stop(), reader?.stop()]);
    await Promise.all([writerDb?.close(), readerDb?.close(), otherDb?.close()]);
    await Promise.all([schema?.drop(), other?.drop()]);
  });

  it('carries many changes in several notifications, each under 8000 bytes, in order', async () => {
    received.length = 0;
    const changes = Array.from({ length: 300 }, (_, index) => change(index));
    await writerDb.transaction((tx) => writer.notify(tx, changes));
    await eventually(() => received.flatMap((batch) => ('changes' in batch ? batch.changes : [])).length === 300);
    expect(received.length).toBeGreaterThan(1);
    expect(received.flatMap((batch) => ('changes' in batch ? batch.changes : []))).toEqual(changes);
  });

  it('turns a change too large for one notification into "everything"', async () => {
    received.length = 0;
    await writerDb.transaction((tx) => writer.notify(tx, [change(1), change(2, 9000), change(3)]));
    await eventually(
      () => received.some((batch) => 'everything' in batch) && received.flatMap((batch) => ('changes' in batch ? batch.changes : [])).length === 2,
    );
  });

  it('sends nothing for a rolled-back transaction, and skips its own and other schemas’ notifications', async () => {
    received.length = 0;
    heardByWriter.length = 0;
    await writerDb
      .transaction(async (tx) => {
        await writer.notify(tx, [change(7)]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await otherDb.transaction((tx) => otherWriter.notify(tx, [change(8)]));
    await writerDb.transaction((tx) => writer.notify(tx, [change(9)]));
    await eventually(() => received.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received).toEqual([{ changes: [change(9)] }]);
    // The writer's own process publishes locally (store.ts); its notifications are not heard again.
    expect(heardByWriter).toEqual([]);
  });
});
