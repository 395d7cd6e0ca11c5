/**
 * Worker thread of the push encryption pool (pushEncryptionPool.ts): encrypts the messages it is
 * sent (pushEncryption.ts) so that 1,000 ECDH agreements per alert never hold up the server's
 * event loop. A job that cannot be encrypted (a bad key) answers its error; the others go on.
 */
import { parentPort } from 'node:worker_threads';
import { encryptPushMessage, subscriberKeys, type SubscriberKeys } from './pushEncryption.ts';
import type { EncryptionReply, EncryptionRequest } from './pushEncryptionProtocol.ts';

const port = parentPort;
if (port === null) throw new Error('pushEncryptionWorkerMain.ts runs as a worker thread (pushEncryptionWorker.mjs)');

/** Decoded keys by subscription: the staff of a facility are told again at every alert. */
const known = new Map<string, SubscriberKeys>();
const KNOWN_LIMIT = 50_000;

function keysOf(p256dh: string, auth: string): SubscriberKeys {
  const key = `${p256dh} ${auth}`;
  let keys = known.get(key);
  if (keys === undefined) {
    keys = subscriberKeys(p256dh, auth);
    if (known.size >= KNOWN_LIMIT) known.clear();
    known.set(key, keys);
  }
  return keys;
}

port.on('message', (request: EncryptionRequest) => {
  const payloads = request.payloads.map((text) => Buffer.from(text, 'utf8'));
  const bodies: (Buffer | null)[] = [];
  const errors: (string | null)[] = [];
  for (const job of request.jobs) {
    try {
      bodies.push(encryptPushMessage(keysOf(job.p256dh, job.auth), payloads[job.payload] as Buffer));
      errors.push(null);
    } catch (error) {
      bodies.push(null);
      errors.push(error instanceof Error ? error.message : String(error));
    }
  }
  // One buffer for the chunk, handed over rather than copied.
  const ends: number[] = [];
  let length = 0;
  for (const body of bodies) ends.push((length += body?.length ?? 0));
  const all = new Uint8Array(length);
  bodies.forEach((body, index) => body?.copy(all, (ends[index] as number) - body.length));
  const reply: EncryptionReply = { id: request.id, bodies: all.buffer, ends, errors };
  port.postMessage(reply, [all.buffer]);
});
