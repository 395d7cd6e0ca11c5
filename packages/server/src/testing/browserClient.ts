/**
 * A small HTTP client that behaves like the web app in a browser, for sign-in tests: it keeps the
 * cookies the server sets, sends them back, and sends an Origin header on every POST (as browsers
 * do). It can connect from another loopback address (127.0.0.2 ...), so that tests can play
 * several clients: the rate limits count per client address.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface ClientOptions {
  /** Local address to connect from, e.g. '127.0.0.5'. Default: the system's choice (127.0.0.1). */
  from?: string;
  /** Origin header of POST requests; null sends none. Default: the server's own origin. */
  origin?: string | null;
}

export interface ClientReply {
  status: number;
  headers: IncomingHttpHeaders;
  /** Set-Cookie headers of this answer. */
  setCookies: string[];
  text: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  body: unknown;
}

export class BrowserClient {
  readonly #base: URL;
  readonly #options: ClientOptions;
  readonly #cookies = new Map<string, string>();

  constructor(baseUrl: string, options: ClientOptions = {}) {
    this.#base = new URL(baseUrl);
    this.#options = options;
  }

  /** The Cookie header this client sends, e.g. to replay it from elsewhere. */
  get cookieHeader(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** Copies another client's cookies (the same browser, another tab). */
  useCookies(header: string): void {
    this.#cookies.clear();
    for (const pair of header.split('; ')) {
      const at = pair.indexOf('=');
      if (at > 0) this.#cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }

  get(path: string, headers: Record<string, string> = {}): Promise<ClientReply> {
    return this.send('GET', path, undefined, headers);
  }

  post(path: string, json: unknown = {}, headers: Record<string, string> = {}): Promise<ClientReply> {
    return this.send('POST', path, JSON.stringify(json), { 'content-type': 'application/json', ...headers });
  }

  signUp(fields: { name: string; email: string; password: string } & Record<string, unknown>): Promise<ClientReply> {
    return this.post('/api/auth/sign-up/email', fields);
  }

  signIn(email: string, password: string): Promise<ClientReply> {
    return this.post('/api/auth/sign-in/email', { email, password });
  }

  signOut(): Promise<ClientReply> {
    return this.post('/api/auth/sign-out');
  }

  async me(): Promise<unknown> {
    const reply = await this.get('/api/me');
    if (reply.status !== 200) throw new Error(`GET /api/me answered ${reply.status}: ${reply.text}`);
    return (reply.body as { user: unknown }).user;
  }

  send(method: string, path: string, body: string | undefined, headers: Record<string, string> = {}): Promise<ClientReply> {
    const url = new URL(path, this.#base);
    const origin = this.#options.origin === undefined ? this.#base.origin : this.#options.origin;
    const allHeaders: Record<string, string> = {
      ...(method !== 'GET' && method !== 'HEAD' && origin !== null ? { origin } : {}),
      ...(this.#cookies.size > 0 ? { cookie: this.cookieHeader } : {}),
      ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
      ...headers,
    };
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          method,
          headers: allHeaders,
          ...(this.#options.from ? { localAddress: this.#options.from } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const setCookies = res.headers['set-cookie'] ?? [];
            this.#keep(setCookies);
            let parsed: unknown;
            try {
              parsed = JSON.parse(text);
            } catch {
              parsed = undefined;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, setCookies, text, body: parsed });
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  #keep(setCookies: readonly string[]): void {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const name = pair.slice(0, at);
      const expired = attributes.some((attribute) => /^max-age=(0|-\d+)$/i.test(attribute)) || pair.slice(at + 1) === '';
      if (expired) this.#cookies.delete(name);
      else this.#cookies.set(name, pair.slice(at + 1));
    }
  }
}
