import { describe, expect, it } from 'vitest';
import { DocumentError, MESSAGES } from './errors.ts';
import { runTransaction, type CommitRequest, type TransactionTransport } from './transaction.ts';

/** A transport whose commit aborts the first `failures` times. */
function fakeTransport(failures: number, error = new DocumentError('aborted', 'changed')): TransactionTransport & { commits: CommitRequest[] } {
  const commits: CommitRequest[] = [];
  return {
    commits,
    get: async (path) => ({ document: { path }, version: 7 }),
    async commit(request) {
      commits.push(request);
      if (commits.length <= failures) throw error;
    },
  };
}

describe('runTransaction', () => {
  it.each([0, -1, 1.5])('refuses maxAttempts %s with the exact message', async (maxAttempts) => {
    await expect(runTransaction(fakeTransport(0), async () => 1, { maxAttempts })).rejects.toMatchObject({
      code: 'invalid-argument',
      message: MESSAGES.maxAttempts,
    });
  });

  it('sends the versions read with the writes', async () => {
    const transport = fakeTransport(0);
    const result = await runTransaction(transport, async (tx) => {
      await tx.get('rooms/r1');
      tx.update('rooms/r1', { name: 'x' }).set('rooms/r2', { name: 'y' }, { merge: true }).delete('rooms/r3');
      return 'done';
    });
    expect(result).toBe('done');
    expect(transport.commits).toEqual([
      {
        reads: [{ path: 'rooms/r1', version: 7 }],
        writes: [
          { op: 'update', path: 'rooms/r1', data: { name: 'x' } },
          { op: 'set', path: 'rooms/r2', data: { name: 'y' }, merge: true },
          { op: 'delete', path: 'rooms/r3' },
        ],
      },
    ]);
  });

  it.each([
    [0, 1, 'succeeds'],
    [4, 5, 'succeeds'],
    [5, 5, 'aborted'],
  ])('after %i aborted commits: %i attempts by default, %s', async (failures, attempts, outcome) => {
    const transport = fakeTransport(failures);
    const run = runTransaction(transport, async () => 'ok');
    if (outcome === 'succeeds') await expect(run).resolves.toBe('ok');
    else await expect(run).rejects.toMatchObject({ code: 'aborted' });
    expect(transport.commits).toHaveLength(attempts);
  });

  it('does not retry other errors, and refuses reads after writes', async () => {
    const transport = fakeTransport(3, new DocumentError('permission-denied', 'no'));
    await expect(runTransaction(transport, async () => 1)).rejects.toMatchObject({ code: 'permission-denied' });
    expect(transport.commits).toHaveLength(1);
    await expect(
      runTransaction(fakeTransport(0), async (tx) => {
        tx.delete('rooms/r1');
        await tx.get('rooms/r1');
      }),
    ).rejects.toMatchObject({ code: 'invalid-argument' });
  });
});
