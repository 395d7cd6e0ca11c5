/** A local stand-in of the LINE Messaging API's push endpoint, checking what LINE checks. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LinePush {
  token: string;
  retryKey: string | undefined;
  to: string;
  text: string;
}

export class LineStandIn {
  readonly pushes: LinePush[] = [];
  readonly #server: Server;
  readonly #seenKeys = new Set<string>();
  url = '';

  private constructor(readonly validToken: string) {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const send = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        if (request.method !== 'POST' || request.url !== '/v2/bot/message/push') return send(404, { message: 'Not found' });
        if (request.headers.authorization !== `Bearer ${this.validToken}`) return send(401, { message: 'Authentication failed' });
        const retryKey = request.headers['x-line-retry-key'] as string | undefined;
        if (retryKey !== undefined && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(retryKey))
          return send(400, { message: 'The retry key is invalid' });
        if (retryKey !== undefined && this.#seenKeys.has(retryKey)) return send(409, { message: 'The retry key is already accepted' });
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { to?: string; messages?: { type: string; text: string }[] };
        const text = body.messages?.[0];
        if (typeof body.to !== 'string' || text?.type !== 'text') return send(400, { message: 'The request body has 1 error(s)' });
        if (retryKey !== undefined) this.#seenKeys.add(retryKey);
        this.pushes.push({ token: this.validToken, retryKey, to: body.to, text: text.text });
        send(200, { sentMessages: [{ id: String(this.pushes.length) }] });
      });
    });
  }

  static async start(validToken: string): Promise<LineStandIn> {
    const standIn = new LineStandIn(validToken);
    await new Promise<void>((resolve) => standIn.#server.listen(0, '127.0.0.1', resolve));
    standIn.url = `http://127.0.0.1:${(standIn.#server.address() as AddressInfo).port}`;
    return standIn;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
