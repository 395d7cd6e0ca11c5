/** Compression of API answers: JSON above 1 kB compressed, binary answers and compressed uploads left alone. */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import type { Auth } from './auth/auth.ts';
import { loadConfig } from './config.ts';
import type { Database } from './database/database.ts';
import { migrate } from './database/migrate.ts';
import { openPglite } from './database/pglite.ts';
import { makeTestWebDist, type TempDir } from './testing/webDist.ts';

const LARGE = { rooms: Array.from({ length: 200 }, (_, index) => ({ id: `room-${index}`, name: `居室 ${index}` })) };
const FRAMES = Buffer.alloc(64 * 1024, 7);

describe('API compression', () => {
  let webDist: TempDir;
  let database: Database;
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    webDist = await makeTestWebDist();
    database = await openPglite(null);
    await migrate(database);
    app = await buildApp({
      config: loadConfig({ WEB_DIST: webDist.path, DATA_DIR: join(webDist.path, 'data') }),
      database,
      auth: new Promise<Auth>(() => undefined),
      logger: false,
    });
    app.get('/api/test/large', async () => LARGE);
    app.get('/api/test/small', async () => ({ ok: true }));
    app.get('/api/test/frames', async (_request, reply) => reply.type('application/octet-stream').send(FRAMES));
    app.post('/api/test/echo-size', async (request) => ({ size: JSON.stringify(request.body ?? null).length }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await webDist?.remove();
  });

  function send(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: Buffer,
  ): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('compresses large JSON with brotli or gzip, as accepted', async () => {
    const br = await send('GET', '/api/test/large', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(LARGE);
    expect(br.body.length).toBeLessThan(JSON.stringify(LARGE).length / 3);
    const gz = await send('GET', '/api/test/large', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString())).toEqual(LARGE);
  });

  it('leaves small answers, clients that accept nothing and errors below the threshold alone', async () => {
    expect((await send('GET', '/api/test/small', { 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
    expect((await send('GET', '/api/test/large', {})).headers['content-encoding']).toBeUndefined();
    expect((await send('GET', '/api/nope', { 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
  });

  it('does not compress binary signal frames', async () => {
    const response = await send('GET', '/api/test/frames', { 'accept-encoding': 'gzip, br' });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body.equals(FRAMES)).toBe(true);
  });

  it('does not inflate a compressed request body (a small upload must not become a large one)', async () => {
    const bomb = gzipSync(Buffer.from(JSON.stringify({ fill: 'a'.repeat(5_000_000) })));
    const response = await send('POST', '/api/test/echo-size', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, bomb);
    expect(response.status).not.toBe(200);
  });
});
