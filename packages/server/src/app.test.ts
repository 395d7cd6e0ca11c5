/** The whole HTTP application over real sockets, on both databases. */
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { APP_VERSION } from '@nemuri/shared/version';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v3';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { ApiError } from './http/errors.ts';
import { CONTENT_SECURITY_POLICY } from './http/securityHeaders.ts';
import { startServer, type RunningServer } from './server.ts';
import { createTestSchema, describePostgres, type TestSchema } from './testing/postgres.ts';
import { makeTestWebDist, TEST_ASSET_JS, TEST_INDEX_HTML, type TempDir } from './testing/webDist.ts';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

let webDist: TempDir;
beforeAll(async () => {
  webDist = await makeTestWebDist();
});
afterAll(() => webDist?.remove());

function testConfig(env: Record<string, string>) {
  return loadConfig({ PORT: '0', HOST: '127.0.0.1', WEB_DIST: webDist.path, DATA_DIR: join(webDist.path, 'data'), ...env });
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

function expectSecurityHeaders(response: Response): void {
  expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
}

describe('the server on PGlite', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(testConfig({ DATABASE_URL: 'memory://' }), { logger: false });
  }, 60_000);
  afterAll(() => server?.stop());

  it('listens on the port it reports', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
    expect(server.start).toMatchObject({ startCount: 1, firstStart: true });
    expect(server.demo).toBe(true); // DEMO unset, new embedded database
  });

  it('GET /api/health answers ok with the version and database', async () => {
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toBe(JSON.stringify({ status: 'ok', version: APP_VERSION, database: 'pglite' }));
  });

  it('GET /api/me answers that nobody is signed in', async () => {
    const response = await fetch(`${server.url}/api/me`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ user: null });
  });

  it('serves index.html for app routes (history API fallback)', async () => {
    for (const path of ['/room/abc/sleep', '/login?redirect=%2Fhelp', '/master/domain/x/history']) {
      const response = await fetch(`${server.url}${path}`, { headers: HTML });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toBe(TEST_INDEX_HTML);
    }
  });

  it('serves / as index.html, revalidated on each use', async () => {
    const response = await fetch(`${server.url}/`, { headers: HTML });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toBe(TEST_INDEX_HTML);
  });

  it('serves sw.js and the manifest revalidated, hashed assets for a year', async () => {
    const sw = await fetch(`${server.url}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    expect(sw.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);

    const manifest = await fetch(`${server.url}/manifest.webmanifest`);
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('cache-control')).toBe('no-cache');

    const asset = await fetch(`${server.url}/assets/x.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe(TEST_ASSET_JS);
  });

  it('answers unknown API paths with a JSON 404, even for pages', async () => {
    for (const init of [{}, { headers: HTML }, { method: 'POST' }]) {
      const response = await fetch(`${server.url}/api/nope`, init);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await response.json()).toEqual({ code: 'not-found', message: expect.stringMatching(/\/api\/nope$/) });
    }
  });

  it('answers a missing asset with a 404, not with index.html', async () => {
    const response = await fetch(`${server.url}/assets/missing.js`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'not-found' });
  });

  it('sends the security headers on pages, files, API answers and errors', async () => {
    for (const path of ['/', '/room/abc/sleep', '/assets/x.js', '/api/health', '/api/nope']) {
      expectSecurityHeaders(await fetch(`${server.url}${path}`, { headers: HTML }));
    }
  });

  describe('errors', () => {
    let url: string;
    let app: FastifyInstance;
    const logLines: string[] = [];

    beforeAll(async () => {
      app = await buildApp({ config: testConfig({}), database: server.database, auth: server.auth, logger: { write: (line) => logLines.push(line) } });
      app.post(
        '/api/test/echo',
        // Routes declare their input as zod schemas (http/zodRouteSchemas.ts).
        { schema: { body: z.object({ name: z.string() }) } },
        async (request) => request.body,
      );
      app.get('/api/test/boom', async () => {
        throw new Error('secret detail');
      });
      app.get('/api/test/conflict', async () => {
        throw new ApiError(409, 'already-exists', 'that room exists');
      });
      url = await listen(app);
    });
    afterAll(() => app?.close());

    it('answers invalid input with 400 invalid-argument', async () => {
      const response = await fetch(`${url}/api/test/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ code: 'invalid-argument', message: 'name: Required' });
      expectSecurityHeaders(response);
    });

    it('answers malformed JSON with 400 invalid-argument', async () => {
      const response = await fetch(`${url}/api/test/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'invalid-argument' });
    });

    it('answers an unexpected failure with 500 internal, the detail only in the log', async () => {
      const response = await fetch(`${url}/api/test/boom`);
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ code: 'internal', message: 'internal error' });
      expect(text).not.toContain('secret');
      expect(logLines.join('')).toContain('secret detail');
    });

    it('answers an ApiError with its status and code', async () => {
      const response = await fetch(`${url}/api/test/conflict`);
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({ code: 'already-exists', message: 'that room exists' });
    });
  });

  describe('without a built web app', () => {
    let url: string;
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await buildApp({ config: testConfig({ WEB_DIST: join(webDist.path, 'not-built') }), database: server.database, auth: server.auth, logger: false });
      url = await listen(app);
    });
    afterAll(() => app?.close());

    it('answers pages and files with 503 and how to build', async () => {
      for (const path of ['/', '/room/abc/sleep', '/assets/x.js', '/sw.js']) {
        const response = await fetch(`${url}${path}`, { headers: HTML });
        expect(response.status, path).toBe(503);
        expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
        expect(await response.text()).toContain('npm run build');
        expectSecurityHeaders(response);
      }
    });

    it('still answers the API', async () => {
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
      expect((await fetch(`${url}/api/nope`)).status).toBe(404);
    });
  });

  // Last: it closes the database under the running server.
  it('GET /api/health answers 503 when the database fails', async () => {
    await server.database.close();
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'error', version: APP_VERSION, database: 'pglite', message: 'the database does not answer' });
  });
});

describePostgres('the server on PostgreSQL', () => {
  let schema: TestSchema;
  let server: RunningServer;
  beforeAll(async () => {
    schema = await createTestSchema();
    server = await startServer(testConfig({ DATABASE_URL: schema.url }), { logger: false });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await schema?.drop();
  });

  it('GET /api/health answers ok with the version and database', async () => {
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(JSON.stringify({ status: 'ok', version: APP_VERSION, database: 'postgresql' }));
  });

  it('works in the schema named by DATABASE_URL and keeps demo data off', async () => {
    // Other test files may have schemas of their own at the same time: look only here and in public.
    const { rows } = await server.database.query<{ schema: string }>(
      `select table_schema as schema from information_schema.tables where table_name = 'app_meta' and table_schema in ($1, 'public')`,
      [schema.schema],
    );
    expect(rows).toEqual([{ schema: schema.schema }]);
    expect(server.start.firstStart).toBe(true);
    expect(server.demo).toBe(false);
    expect(await (await fetch(`${server.url}/api/app-info`)).json()).toEqual({ version: APP_VERSION, demo: false, socialProviders: [] });
  });

  it('GET /api/me answers that nobody is signed in', async () => {
    expect(await (await fetch(`${server.url}/api/me`)).json()).toEqual({ user: null });
  });
});
