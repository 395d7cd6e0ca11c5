/**
 * Transactions with optimistic concurrency over HTTP, on PGlite and on PostgreSQL: stale reads
 * abort, commits are all or nothing, and concurrent increments retried by the client end exactly
 * at N.
 */
import { DocumentError, MESSAGES, type DocumentErrorCode } from '@nemuri/shared/documents/errors';
import { runTransaction, type TransactionTransport } from '@nemuri/shared/documents/transaction';
import type { Data } from '@nemuri/shared/documents/update';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describePostgres } from '../testing/postgres.ts';
import { ok, signedIn, startTestServer, type DatabaseChoice, type DocumentsClient, type TestServer } from './testing.ts';

function transportOf(client: DocumentsClient): TransactionTransport & { commits: number } {
  const transport = {
    commits: 0,
    async get(path: string) {
      const reply = await client.getDocument(path);
      if (reply.status === 404) return { document: null, version: 0 };
      return ok(reply).body as { document: Data; version: number };
    },
    async commit(request: unknown) {
      transport.commits++;
      const reply = await client.post('/api/documents/commit', request);
      if (reply.status !== 200) {
        const body = reply.body as { code: DocumentErrorCode; message: string };
        throw new DocumentError(body.code, body.message);
      }
    },
  };
  return transport;
}

function transactionsWork(choice: DatabaseChoice): void {
  let test: TestServer;
  let dev: DocumentsClient;
  const counter = { key: 'counter', value: 0, type: 'number' };

  beforeAll(async () => {
    test = await startTestServer(choice);
    // A senior developer (101): the transactions write master data, which level 100 only reads.
    dev = await signedIn(test.server, 'senior@example.com');
  });
  afterAll(async () => {
    await test?.stop();
  });

  const increment = (transport: TransactionTransport, path: string, maxAttempts?: number) =>
    runTransaction(
      transport,
      async (tx) => {
        const current = await tx.get(path);
        tx.update(path, { value: (current?.value as number) + 1 });
      },
      maxAttempts === undefined ? {} : { maxAttempts },
    );

  it('needs at least one attempt', async () => {
    await expect(runTransaction(transportOf(dev), async () => undefined, { maxAttempts: 0 })).rejects.toMatchObject({
      code: 'invalid-argument',
      message: MESSAGES.maxAttempts,
    });
  });

  it('aborts a commit whose read changed, and commits all or nothing', async () => {
    ok(await dev.setDocument('parameters/stale', counter));
    const { version } = ok(await dev.getDocument('parameters/stale')).body as { version: number };
    expect(version).toBe(1);
    ok(await dev.updateDocument('parameters/stale', { value: 5 }));
    const stale = await dev.post('/api/documents/commit', {
      reads: [{ path: 'parameters/stale', version }],
      writes: [{ op: 'update', path: 'parameters/stale', data: { value: 1 } }],
    });
    expect([stale.status, stale.body]).toEqual([409, { code: 'aborted', message: MESSAGES.versionMismatch('parameters/stale') }]);
    const half = await dev.post('/api/documents/commit', {
      reads: [],
      writes: [
        { op: 'set', path: 'parameters/new', data: counter },
        { op: 'update', path: 'parameters/stale', data: { value: 'not a number', type: 7 } },
      ],
    });
    expect(half.status).toBe(400);
    expect((await dev.getDocument('parameters/new')).status).toBe(404);
    expect((ok(await dev.getDocument('parameters/stale')).body as { document: Data }).document.value).toBe(5);
  });

  it('ends exactly at N after N concurrent increments (default 5 attempts)', async () => {
    ok(await dev.setDocument('parameters/five', counter));
    const transports = Array.from({ length: 5 }, () => transportOf(dev));
    await Promise.all(transports.map((transport) => increment(transport, 'parameters/five')));
    expect((ok(await dev.getDocument('parameters/five')).body as { document: Data }).document.value).toBe(5);
  });

  it('retries under contention and gives up after maxAttempts with aborted', async () => {
    ok(await dev.setDocument('parameters/many', counter));
    const transports = Array.from({ length: 12 }, () => transportOf(dev));
    await Promise.all(transports.map((transport) => increment(transport, 'parameters/many', 12)));
    expect((ok(await dev.getDocument('parameters/many')).body as { document: Data }).document.value).toBe(12);
    const attempts = transports.reduce((sum, transport) => sum + transport.commits, 0);
    expect(attempts).toBeGreaterThanOrEqual(12);

    const always = transportOf(dev);
    const failing = runTransaction(
      always,
      async (tx) => {
        await tx.get('parameters/many');
        ok(await dev.updateDocument('parameters/many', { unit: `x${always.commits}` }));
        tx.update('parameters/many', { value: 0 });
      },
      { maxAttempts: 2 },
    );
    await expect(failing).rejects.toMatchObject({ code: 'aborted' });
    expect(always.commits).toBe(2);
  });

  it('creates a record once when two transactions race to create it', async () => {
    const create = (transport: TransactionTransport) =>
      runTransaction(transport, async (tx) => {
        const current = await tx.get('parameters/once');
        if (current === null) tx.set('parameters/once', counter);
        else tx.update('parameters/once', { value: (current.value as number) + 1 });
      });
    await Promise.all([create(transportOf(dev)), create(transportOf(dev)), create(transportOf(dev))]);
    expect((ok(await dev.getDocument('parameters/once')).body as { document: Data }).document.value).toBe(2);
  });
}

describe('transactions on PGlite in memory', () => {
  transactionsWork('pglite');
});

describePostgres('transactions on PostgreSQL', () => {
  transactionsWork('postgresql');
});
