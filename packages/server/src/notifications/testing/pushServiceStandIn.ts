/**
 * A local push service for tests: it hands out subscriptions as a browser would (its own P-256 key
 * pair and auth secret per subscription), and on each push request checks what a real push
 * service and browser check — the VAPID JWT (RFC 8292: ES256 over the `k=` public key, `aud` = this
 * origin, `exp` within 24 h, a `sub`) — and decrypts the aes128gcm body (RFC 8291 / RFC 8188) with
 * the subscription's keys, written here from the RFCs rather than with the sender's library.
 */
import { createECDH, createDecipheriv, createHmac, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPush {
  subscriptionId: string;
  headers: Record<string, string | string[] | undefined>;
  jwt: { aud: string; exp: number; sub: string };
  /** The decrypted payload, parsed as JSON. */
  message: Record<string, unknown>;
  receivedAt: number;
}

interface StandInSubscription {
  ecdh: ECDH;
  auth: Buffer;
  gone: boolean;
}

const b64url = (bytes: Buffer) => bytes.toString('base64url');
const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** RFC 8291 section 3.4 and RFC 8188 section 2: one record, padding delimiter 2. */
export function decryptAes128gcm(body: Buffer, ecdh: ECDH, authSecret: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body[20] ?? 0;
  const senderPublic = body.subarray(21, 21 + idLength);
  const cipherText = body.subarray(21 + idLength);
  const shared = ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), senderPublic, Buffer.from([1])]);
  const ikm = hmac(hmac(authSecret, shared), keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(cipherText.subarray(cipherText.length - 16));
  const padded = Buffer.concat([decipher.update(cipherText.subarray(0, cipherText.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('no final-record padding delimiter');
  return padded.subarray(0, end);
}

/** Checks `Authorization: vapid t=<jwt>, k=<key>`; the JWT's claims, or an error message. */
export function checkVapid(header: string | undefined, origin: string, nowSec: number): { aud: string; exp: number; sub: string } | string {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header ?? '');
  if (match === null) return 'no vapid authorization';
  const [head, payload, signature] = (match[1] as string).split('.') as [string, string, string];
  const key = Buffer.from(match[2] as string, 'base64url');
  if (key.length !== 65 || key[0] !== 4) return 'k is not an uncompressed P-256 point';
  const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64url(key.subarray(1, 33)), y: b64url(key.subarray(33, 65)) }, format: 'jwk' });
  if (!verify('sha256', Buffer.from(`${head}.${payload}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url')))
    return 'bad JWT signature';
  const header_ = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string };
  if (header_.alg !== 'ES256') return 'JWT alg is not ES256';
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  if (claims.aud !== origin) return `aud ${claims.aud} is not ${origin}`;
  if (!(claims.exp > nowSec) || claims.exp > nowSec + 24 * 3600) return 'exp out of range';
  if (!/^(mailto:|https:)/.test(claims.sub ?? '')) return 'sub is not mailto: or https:';
  return claims;
}

export class PushServiceStandIn {
  readonly received: ReceivedPush[] = [];
  readonly refused: string[] = [];
  readonly #subscriptions = new Map<string, StandInSubscription>();
  readonly #server: Server;
  /** Answer with this status instead (e.g. 500, 410) for the next requests. */
  failNext: { status: number; times: number } | null = null;
  /** When each request began to arrive (performance.now()), for benchmarks. */
  readonly arrivals: number[] = [];
  /** false: answer 201 without checking or decrypting (benchmarks measure the sender, not this). */
  verify = true;
  /** The push service's clock (tests with a fake clock). */
  now: () => number = Date.now;
  #waiters: (() => void)[] = [];
  origin = '';

  private constructor() {
    this.#server = createServer((request, response) => {
      this.arrivals.push(performance.now());
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const id = /^\/push\/([\w-]+)$/.exec(request.url ?? '')?.[1] ?? '';
        const subscription = this.#subscriptions.get(id);
        if (subscription === undefined || subscription.gone) return void response.writeHead(410).end();
        if (!this.verify) {
          for (const wake of this.#waiters.splice(0)) wake();
          return void response.writeHead(201).end();
        }
        if (this.failNext !== null && this.failNext.times > 0) {
          this.failNext.times -= 1;
          return void response.writeHead(this.failNext.status).end('stand-in failure');
        }
        const jwt = checkVapid(request.headers.authorization, this.origin, Math.floor(this.now() / 1000));
        if (typeof jwt === 'string' || request.headers['content-encoding'] !== 'aes128gcm' || request.headers.ttl === undefined) {
          this.refused.push(typeof jwt === 'string' ? jwt : 'headers');
          return void response.writeHead(401).end();
        }
        try {
          const message = JSON.parse(decryptAes128gcm(Buffer.concat(chunks), subscription.ecdh, subscription.auth).toString('utf8')) as Record<string, unknown>;
          this.received.push({ subscriptionId: id, headers: request.headers, jwt, message, receivedAt: performance.now() });
          response.writeHead(201).end();
          for (const wake of this.#waiters.splice(0)) wake();
        } catch (error) {
          this.refused.push(`decrypt: ${String(error)}`);
          response.writeHead(400).end();
        }
      });
    });
  }

  static async start(): Promise<PushServiceStandIn> {
    const standIn = new PushServiceStandIn();
    await new Promise<void>((resolve) => standIn.#server.listen(0, '127.0.0.1', resolve));
    standIn.origin = `http://127.0.0.1:${(standIn.#server.address() as AddressInfo).port}`;
    return standIn;
  }

  /** A new browser subscription (its PushSubscription.toJSON()). */
  subscribe(): { id: string; endpoint: string; keys: { p256dh: string; auth: string } } {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    const id = b64url(randomBytes(12));
    this.#subscriptions.set(id, { ecdh, auth, gone: false });
    return { id, endpoint: `${this.origin}/push/${id}`, keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) } };
  }

  /** The browser unsubscribed: further pushes answer 410. */
  expire(id: string): void {
    const subscription = this.#subscriptions.get(id);
    if (subscription !== undefined) subscription.gone = true;
  }

  /** Resolves once `count` pushes have been received. */
  async waitFor(count: number): Promise<void> {
    while ((this.verify ? this.received.length : this.arrivals.length) < count) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
