/** X-Request-Id: kept when sane, made otherwise, returned on every answer and in the request's log lines. */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, REQUEST_ID_HEADER } from './app.ts';
import type { Auth } from './auth/auth.ts';
import { loadConfig } from './config.ts';
import type { Database } from './database/database.ts';
import { migrate } from './database/migrate.ts';
import { openPglite } from './database/pglite.ts';
import { makeTestWebDist, type TempDir } from './testing/webDist.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids', () => {
  let webDist: TempDir;
  let database: Database;
  let app: FastifyInstance;
  let url: string;
  const logLines: { reqId?: string; msg?: string }[] = [];

  beforeAll(async () => {
    webDist = await makeTestWebDist();
    database = await openPglite(null);
    await migrate(database);
    const auth = new Promise<Auth>(() => undefined);
    app = await buildApp({
      config: loadConfig({ WEB_DIST: webDist.path, DATA_DIR: join(webDist.path, 'data'), LOG_LEVEL: 'info' }),
      database,
      auth,
      logger: { write: (line) => logLines.push(JSON.parse(line) as { reqId?: string; msg?: string }) },
    });
    app.get('/api/test/logs', async (request) => {
      request.log.info('first line');
      request.log.warn('second line');
      return { ok: true };
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await webDist?.remove();
  });

  it('keeps a sane incoming id and returns it', async () => {
    const response = await fetch(`${url}/api/health/live`, { headers: { [REQUEST_ID_HEADER]: 'proxy-7f3a.42' } });
    expect(response.headers.get(REQUEST_ID_HEADER)).toBe('proxy-7f3a.42');
  });

  it('makes one when none comes, on pages, files, API answers and 404s', async () => {
    const seen = new Set<string>();
    for (const path of ['/', '/assets/x.js', '/api/health/live', '/api/nope', '/assets/missing.js']) {
      const id = (await fetch(`${url}${path}`, { headers: { accept: 'text/html' } })).headers.get(REQUEST_ID_HEADER);
      expect(id, path).toMatch(UUID);
      seen.add(id ?? '');
    }
    expect(seen.size).toBe(5);
  });

  it('replaces an id an attacker crafted: too long, or with characters that would forge log lines or headers', async () => {
    for (const bad of ['a'.repeat(129), 'x"}{"level":60', 'a b', '<script>', 'ü']) {
      const response = await fetch(`${url}/api/health/live`, { headers: { [REQUEST_ID_HEADER]: bad } }).catch(() => null);
      // undici refuses some values itself; those never reach a server either.
      if (response === null) continue;
      expect(response.headers.get(REQUEST_ID_HEADER), bad).toMatch(UUID);
    }
  });

  it('puts the id in every log line of that request', async () => {
    logLines.length = 0;
    const response = await fetch(`${url}/api/test/logs`, { headers: { [REQUEST_ID_HEADER]: 'trace-123' } });
    expect(response.headers.get(REQUEST_ID_HEADER)).toBe('trace-123');
    const lines = logLines.filter((line) => line.msg === 'first line' || line.msg === 'second line');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.reqId).toBe('trace-123');
  });
});
