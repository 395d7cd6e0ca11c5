/**
 * A small pool of worker threads that encrypt Web Push messages (pushEncryptionWorkerMain.ts), so
 * the server's main thread only posts: one alert to 1,000 phones is 1,000 ECDH agreements, a few
 * hundred milliseconds of CPU that would otherwise delay every request and live frame meanwhile.
 *
 * Size: one worker per core but one (the main thread keeps its own), at least one. Messages asked
 * for in the same tick go out together in chunks of CHUNK (one message per chunk, not per push), to
 * the worker with the least outstanding work; at most MAX_OUTSTANDING messages wait, beyond that a
 * message fails at once (its delivery is tried again later, as for any failed request). A worker
 * that dies fails the messages it held — the durable queue retries them — and is replaced on the
 * next request. Idle workers do not keep the process alive; `close()` ends them (server shutdown).
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { EncryptionJob, EncryptionReply, EncryptionRequest } from './pushEncryptionProtocol.ts';

const WORKER_URL = new URL('./pushEncryptionWorker.mjs', import.meta.url);
const CHUNK = 32;
const MAX_OUTSTANDING = 20_000;

export interface PushToEncrypt {
  p256dh: string;
  auth: string;
  /** The message (JSON text). */
  payload: string;
}

interface Waiting {
  message: PushToEncrypt;
  resolve: (body: Buffer) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  /** Chunks sent and not yet answered, by request id. */
  chunks: Map<number, Waiting[]>;
  outstanding: number;
}

export class PushEncryptionPool {
  readonly #size: number;
  readonly #slots: Slot[] = [];
  #pending: Waiting[] = [];
  #outstanding = 0;
  #nextId = 0;

  constructor(size = Math.max(1, availableParallelism() - 1)) {
    this.#size = size;
  }

  /** The `aes128gcm` request body for one message (RFC 8291); rejects when it cannot be encrypted now. */
  encrypt(message: PushToEncrypt): Promise<Buffer> {
    if (this.#outstanding + this.#pending.length >= MAX_OUTSTANDING) return Promise.reject(new Error('push encryption queue full'));
    return new Promise<Buffer>((resolve, reject) => {
      if (this.#pending.length === 0) queueMicrotask(() => this.#flush());
      this.#pending.push({ message, resolve, reject });
    });
  }

  /** Ends the workers; messages they held fail. A later `encrypt` starts new ones. */
  async close(): Promise<void> {
    const slots = this.#slots.splice(0);
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
    for (const slot of slots) this.#fail(slot, new Error('push encryption stopped'));
  }

  /** Workers running now (tests). */
  get workers(): readonly Worker[] {
    return this.#slots.map((slot) => slot.worker);
  }

  #flush(): void {
    const waiting = this.#pending;
    this.#pending = [];
    for (let start = 0; start < waiting.length; start += CHUNK) {
      const chunk = waiting.slice(start, start + CHUNK);
      const payloads: string[] = [];
      const indexOf = new Map<string, number>();
      const jobs: EncryptionJob[] = chunk.map(({ message }) => {
        let payload = indexOf.get(message.payload);
        if (payload === undefined) indexOf.set(message.payload, (payload = payloads.push(message.payload) - 1));
        return { p256dh: message.p256dh, auth: message.auth, payload };
      });
      const slot = this.#leastBusy();
      const id = this.#nextId++;
      if (slot.outstanding === 0) slot.worker.ref();
      slot.chunks.set(id, chunk);
      slot.outstanding += chunk.length;
      this.#outstanding += chunk.length;
      slot.worker.postMessage({ id, payloads, jobs } satisfies EncryptionRequest);
    }
  }

  #leastBusy(): Slot {
    if (this.#slots.length < this.#size) return this.#start();
    return this.#slots.reduce((best, slot) => (slot.outstanding < best.outstanding ? slot : best));
  }

  #start(): Slot {
    const slot: Slot = { worker: new Worker(WORKER_URL), chunks: new Map(), outstanding: 0 };
    slot.worker.unref();
    slot.worker.on('message', (reply: EncryptionReply) => this.#answered(slot, reply));
    const lost = (error: Error) => {
      const index = this.#slots.indexOf(slot);
      if (index >= 0) this.#slots.splice(index, 1);
      this.#fail(slot, error);
    };
    slot.worker.on('error', (error) => lost(new Error(`push encryption worker failed: ${error.message}`)));
    slot.worker.on('exit', (code) => lost(new Error(`push encryption worker ended (exit code ${code})`)));
    this.#slots.push(slot);
    return slot;
  }

  #answered(slot: Slot, reply: EncryptionReply): void {
    const chunk = slot.chunks.get(reply.id);
    if (chunk === undefined) return;
    this.#settled(slot, reply.id, chunk.length);
    chunk.forEach((waiting, index) => {
      const error = reply.errors[index];
      const end = reply.ends[index] as number;
      const start = index === 0 ? 0 : (reply.ends[index - 1] as number);
      if (error === null || error === undefined) waiting.resolve(Buffer.from(reply.bodies, start, end - start));
      else waiting.reject(new Error(`push encryption: ${error}`));
    });
  }

  #fail(slot: Slot, error: Error): void {
    for (const [id, chunk] of slot.chunks) {
      this.#settled(slot, id, chunk.length);
      for (const waiting of chunk) waiting.reject(error);
    }
  }

  #settled(slot: Slot, id: number, count: number): void {
    slot.chunks.delete(id);
    slot.outstanding -= count;
    this.#outstanding -= count;
    if (slot.outstanding === 0) slot.worker.unref();
  }
}
