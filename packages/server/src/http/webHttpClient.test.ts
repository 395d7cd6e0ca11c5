/**
 * The web app's one HTTP client (packages/web/src/lib/http/httpClient.ts), the real code: against
 * the real server, a failure is one ApiError with the server's code and the request id the server
 * logged; against a small HTTP server that answers what a busy server answers, a 429 with a short
 * Retry-After is waited out and tried again for reads only, and a long one is the caller's.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../web/src/lib/http/apiError.ts';
import { createHttpClient, REQUEST_ID_HEADER, type FetchLike } from '../../../web/src/lib/http/httpClient.ts';
import { startTestServer, type TestServer } from '../documents/testing.ts';
import { freePort } from '../testing/freePort.ts';

describe('the web HTTP client against the real server', () => {
  let test: TestServer;
  beforeAll(async () => {
    test = await startTestServer('pglite');
  });
  afterAll(async () => {
    await test?.stop();
  });

  it('reads JSON, and fails with the server code, message and the request id it sent and the server logged', async () => {
    const sent: string[] = [];
    const recording: FetchLike = (url, init) => {
      sent.push(init.headers[REQUEST_ID_HEADER] ?? '');
      return fetch(url, init);
    };
    const http = createHttpClient({ baseUrl: test.server.url, fetch: recording });
    expect(await http.json<{ user: unknown }>('GET', '/api/me')).toEqual({ user: null });
    const failure = await http.json('GET', '/api/no-such-thing').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    const error = failure as ApiError;
    expect(error).toMatchObject({ status: 404, code: 'not-found', message: 'no GET /api/no-such-thing' });
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatch(/^[0-9a-f]{32}$/);
    // The server kept the page's id: the same id is in its log line for this call.
    expect(error.requestId).toBe(sent[1]);
  });

  it('says that no answer came, as code network', async () => {
    const http = createHttpClient({ baseUrl: `http://127.0.0.1:${await freePort()}` });
    const error = (await http.json('GET', '/api/me').catch((caught: unknown) => caught)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, code: 'network', isNetworkFailure: true });
  });
});

describe('the web HTTP client against a busy server (429 Retry-After)', () => {
  let server: Server;
  let base = '';
  /** What the server answers next, per path: a queue of [status, retry-after]. */
  const script = new Map<string, [number, string | null][]>();
  const hits = new Map<string, number[]>();

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      const path = request.url ?? '';
      hits.set(path, [...(hits.get(path) ?? []), Date.now()]);
      const [status, retryAfter] = script.get(path)?.shift() ?? [200, null];
      response.writeHead(status, { 'content-type': 'application/json', ...(retryAfter === null ? {} : { 'retry-after': retryAfter }) });
      response.end(status === 200 ? '{"ok":true}' : '{"code":"resource-exhausted","message":"busy"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('waits a short Retry-After out and reads again', async () => {
    script.set('/read', [[429, '1']]);
    const http = createHttpClient({ baseUrl: base });
    expect(await http.json('GET', '/read')).toEqual({ ok: true });
    const [first = 0, second = 0] = hits.get('/read') ?? [];
    expect(hits.get('/read')).toHaveLength(2);
    expect(second - first).toBeGreaterThanOrEqual(950);
  });

  it('does the same for a read sent as POST when the caller says it is one', async () => {
    script.set('/query', [[429, '0']]);
    expect(await createHttpClient({ baseUrl: base }).json('POST', '/query', { body: {}, idempotent: true })).toEqual({ ok: true });
    expect(hits.get('/query')).toHaveLength(2);
  });

  it('never sends a write twice: the 429 is the caller’s, with the wait the server asked for', async () => {
    script.set('/write', [[429, '1']]);
    const error = (await createHttpClient({ baseUrl: base })
      .json('POST', '/write', { body: {} })
      .catch((caught: unknown) => caught)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 'resource-exhausted', message: 'busy', retryAfterSeconds: 1 });
    expect(hits.get('/write')).toHaveLength(1);
  });

  it('does not wait minutes behind the user’s back (a sign-in lock): fails at once', async () => {
    script.set('/locked', [[429, '900']]);
    const started = Date.now();
    const error = (await createHttpClient({ baseUrl: base })
      .json('GET', '/locked')
      .catch((caught: unknown) => caught)) as ApiError;
    expect(error.retryAfterSeconds).toBe(900);
    expect(Date.now() - started).toBeLessThan(500);
    expect(hits.get('/locked')).toHaveLength(1);
  });

  it('gives up after three tries', async () => {
    script.set('/always', [
      [429, '0'],
      [429, '0'],
      [429, '0'],
      [429, '0'],
    ]);
    const error = (await createHttpClient({ baseUrl: base })
      .json('GET', '/always')
      .catch((caught: unknown) => caught)) as ApiError;
    expect(error.status).toBe(429);
    expect(hits.get('/always')).toHaveLength(3);
  });
});
