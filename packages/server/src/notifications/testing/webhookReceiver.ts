/** A webhook receiver for tests: checks the signature and timestamp as docs/security.md tells receivers to, and fails on demand. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_HEADERS } from '@nemuri/shared/notifications';

export interface ReceivedHook {
  delivery: string;
  body: Record<string, unknown>;
  signatureValid: boolean;
  status: number;
}

export class WebhookReceiver {
  readonly hooks: ReceivedHook[] = [];
  /** Status codes to answer with, in order, before answering 200. */
  failures: number[] = [];
  secret = '';
  /** The receiver's clock (tests with a fake clock). */
  now: () => number = Date.now;
  readonly #server: Server;
  url = '';

  private constructor() {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const timestamp = String(request.headers[WEBHOOK_HEADERS.timestamp] ?? '');
        const expected = Buffer.from(`sha256=${createHmac('sha256', this.secret).update(`${timestamp}.${raw}`).digest('hex')}`);
        const given = Buffer.from(String(request.headers[WEBHOOK_HEADERS.signature] ?? ''));
        const fresh = Math.abs(this.now() / 1000 - Number(timestamp)) < 300;
        const signatureValid = fresh && given.length === expected.length && timingSafeEqual(given, expected);
        const status = !signatureValid ? 401 : (this.failures.shift() ?? 200);
        this.hooks.push({
          delivery: String(request.headers[WEBHOOK_HEADERS.delivery] ?? ''),
          body: JSON.parse(raw) as Record<string, unknown>,
          signatureValid,
          status,
        });
        response.writeHead(status).end();
      });
    });
  }

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await new Promise<void>((resolve) => receiver.#server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(receiver.#server.address() as AddressInfo).port}/hook`;
    return receiver;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
