/** When storage counts as stalled (readiness's storage check), from the writes' own promises. */
import { describe, expect, it } from 'vitest';
import { StorageBacklog } from './storageBacklog.ts';

function pending(): { promise: Promise<void>; resolve(): void; reject(): void } {
  let resolve!: () => void;
  let reject!: () => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = () => rej(new Error('write failed'));
  });
  return { promise, resolve, reject };
}

const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('StorageBacklog', () => {
  it('is ok while writes complete, and counts what waits', async () => {
    const backlog = new StorageBacklog();
    const write = pending();
    backlog.track(3, 300, write.promise, 1000);
    expect([backlog.frames, backlog.bytes]).toEqual([3, 300]);
    expect(backlog.state(2000)).toEqual({ state: 'ok' });
    write.resolve();
    await settled();
    expect([backlog.frames, backlog.bytes]).toEqual([0, 0]);
    expect(backlog.lastStoredAt).toBeGreaterThan(0);
    expect(backlog.state()).toEqual({ state: 'ok' });
  });

  it('is down when frames wait longer than the bound with no write succeeding', () => {
    const backlog = new StorageBacklog({ maxStallMs: 10_000 });
    backlog.track(1, 10, pending().promise, 1000);
    expect(backlog.state(10_999).state).toBe('ok');
    expect(backlog.state(11_001)).toMatchObject({ state: 'down', reason: expect.stringContaining('no frames stored for over 10 s') });
  });

  it('is down when the backlog is over its bound in frames or bytes', () => {
    const byFrames = new StorageBacklog({ maxBacklogFrames: 5 });
    byFrames.track(6, 60, pending().promise);
    expect(byFrames.state().state).toBe('down');
    const byBytes = new StorageBacklog({ maxBacklogBytes: 100 });
    byBytes.track(1, 101, pending().promise);
    expect(byBytes.state()).toMatchObject({ state: 'down', reason: expect.stringContaining('101 bytes') });
  });

  it('is down after a failed write until one succeeds, or for a while when nothing comes', async () => {
    const backlog = new StorageBacklog({ failureMemoryMs: 30_000 });
    const failed = pending();
    backlog.track(1, 10, failed.promise);
    failed.reject();
    await settled();
    expect(backlog.frames).toBe(0);
    expect(backlog.state()).toMatchObject({ state: 'down', reason: 'the last write of device frames failed' });
    expect(backlog.state(Date.now() + 31_000).state).toBe('ok');
    const next = pending();
    backlog.track(1, 10, next.promise);
    next.resolve();
    await settled();
    expect(backlog.state().state).toBe('ok');
  });

  it('counts messages held for another try until released, once', () => {
    const backlog = new StorageBacklog({ maxStallMs: 10_000 });
    const release = backlog.holdForRetry(500);
    expect([backlog.retryMessages, backlog.retryBytes]).toEqual([1, 500]);
    expect(backlog.state(Date.now() + 11_000)).toMatchObject({ state: 'down', reason: '1 device messages wait to be stored again' });
    release();
    release();
    expect([backlog.retryMessages, backlog.retryBytes]).toEqual([0, 0]);
  });
});
