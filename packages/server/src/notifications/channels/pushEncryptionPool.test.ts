import { createECDH, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { decryptAes128gcm } from '../testing/pushServiceStandIn.ts';
import { PushEncryptionPool } from './pushEncryptionPool.ts';

function browserSubscription() {
  const ecdh = createECDH('prime256v1');
  const auth = randomBytes(16);
  return { ecdh, auth, p256dh: ecdh.generateKeys().toString('base64url'), authText: auth.toString('base64url') };
}

describe('push encryption in worker threads', () => {
  const pool = new PushEncryptionPool(1);
  afterEach(() => pool.close());

  it('gives bodies the subscriber decrypts, each with its own ephemeral key and salt', async () => {
    const browser = browserSubscription();
    const messages = Array.from({ length: 100 }, (_, index) => JSON.stringify({ index, title: '無呼吸' }));
    const bodies = await Promise.all(messages.map((payload) => pool.encrypt({ p256dh: browser.p256dh, auth: browser.authText, payload })));
    expect(bodies.map((body) => decryptAes128gcm(body, browser.ecdh, browser.auth).toString('utf8'))).toEqual(messages);
    expect(new Set(bodies.map((body) => body.subarray(0, 86).toString('hex'))).size).toBe(100);
  });

  it('fails only the message whose key is unusable', async () => {
    const browser = browserSubscription();
    const [bad, good] = await Promise.allSettled([
      pool.encrypt({ p256dh: 'AAAA', auth: browser.authText, payload: '{}' }),
      pool.encrypt({ p256dh: browser.p256dh, auth: browser.authText, payload: '{}' }),
    ]);
    expect(bad).toMatchObject({ status: 'rejected', reason: { message: expect.stringContaining('p256dh') } });
    expect(good.status).toBe('fulfilled');
  });

  it('fails the messages a dying worker held, then starts another', async () => {
    const browser = browserSubscription();
    await pool.encrypt({ p256dh: browser.p256dh, auth: browser.authText, payload: '{}' });
    // A burst, ended at once: the worker runs in parallel and may finish some before it stops, but
    // not all 50 (one held message alone raced the worker and was sometimes answered in time).
    const held = Array.from({ length: 50 }, () => pool.encrypt({ p256dh: browser.p256dh, auth: browser.authText, payload: '{}' }));
    await pool.workers[0]?.terminate();
    const outcomes = await Promise.allSettled(held);
    const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [String(outcome.reason)] : []));
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) expect(failure).toMatch(/worker ended/);
    // What it finished before it stopped is whole: nothing half-made is answered.
    for (const outcome of outcomes)
      if (outcome.status === 'fulfilled') expect(decryptAes128gcm(outcome.value, browser.ecdh, browser.auth).toString('utf8')).toBe('{}');
    const body = await pool.encrypt({ p256dh: browser.p256dh, auth: browser.authText, payload: '"again"' });
    expect(decryptAes128gcm(body, browser.ecdh, browser.auth).toString('utf8')).toBe('"again"');
  });

  it('ends its workers on close', async () => {
    const browser = browserSubscription();
    await pool.encrypt({ p256dh: browser.p256dh, auth: browser.authText, payload: '{}' });
    expect(pool.workers).toHaveLength(1);
    await pool.close();
    expect(pool.workers).toHaveLength(0);
  });
});
