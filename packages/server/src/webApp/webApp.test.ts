/** The web app plugin on its own (no database needed), over a real socket. */
import { writeFile } from 'node:fs/promises';
import { get, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorsPlugin } from '../http/errors.ts';
import { makeTestWebDist, TEST_INDEX_HTML, type TempDir } from '../testing/webDist.ts';
import { cacheControlFor, IMMUTABLE, REVALIDATE, webAppPlugin } from './webApp.ts';

describe('cacheControlFor', () => {
  it('caches hashed assets for a year and revalidates everything else', () => {
    expect(cacheControlFor('assets/index-3f9a.js')).toBe(IMMUTABLE);
    expect(cacheControlFor('assets/fonts/a.woff2')).toBe(IMMUTABLE);
    expect(cacheControlFor('sw.js')).toBe(REVALIDATE);
    expect(cacheControlFor('index.html')).toBe(REVALIDATE);
    expect(cacheControlFor('manifest.webmanifest')).toBe(REVALIDATE);
    expect(cacheControlFor('icons/icon-192.png')).toBe(REVALIDATE);
  });
});

describe('webAppPlugin', () => {
  let dist: TempDir;
  let app: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    dist = await makeTestWebDist();
    app = Fastify({ logger: false });
    await app.register(errorsPlugin);
    app.get('/api/known', async () => ({ ok: true }));
    await app.register(webAppPlugin, { webDist: dist.path });
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await dist?.remove();
  });

  it('leaves API routes alone', async () => {
    expect(await (await fetch(`${url}/api/known`, { headers: { accept: 'text/html' } })).json()).toEqual({ ok: true });
  });

  it('falls back to index.html for HEAD as for GET', async () => {
    const response = await fetch(`${url}/room/abc/sleep`, { method: 'HEAD', headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(TEST_INDEX_HTML)));
  });

  it('does not fall back for requests that do not ask for a page', async () => {
    const response = await fetch(`${url}/room/abc/sleep`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ code: 'not-found', message: 'no GET /room/abc/sleep' });
  });

  it('falls back for a plain client asking for any type, but not for a missing file', async () => {
    const page = await fetch(`${url}/room/abc/sleep`, { headers: { accept: '*/*' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await fetch(`${url}/missing.js`, { headers: { accept: '*/*' } })).status).toBe(404);
    expect((await fetch(`${url}/assets/missing-chunk`, { headers: { accept: '*/*' } })).status).toBe(404);
  });

  it('does not fall back for other methods', async () => {
    const response = await fetch(`${url}/room/abc/sleep`, { method: 'POST', headers: { accept: 'text/html' } });
    expect(response.status).toBe(404);
  });

  it('answers /api itself with a JSON 404', async () => {
    const response = await fetch(`${url}/api`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'not-found' });
  });

  it('supports conditional requests on index.html', async () => {
    const first = await fetch(`${url}/`, { headers: { accept: 'text/html' } });
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    // node:http, because fetch adds `cache-control: no-cache` to conditional requests.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      get(`${url}/room/abc`, { headers: { accept: 'text/html', 'if-none-match': etag ?? '' } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      }).on('error', reject);
    });
    expect(status).toBe(304);
  });

  it('refuses paths that climb out of the web app folder', async () => {
    // fetch resolves the dots itself, so also send the raw path with node:http.
    for (const path of ['/assets/%2e%2e/%2e%2e/etc/passwd', '/assets/..%2f..%2f..%2fetc%2fpasswd', '/%2e%2e/%2e%2e/etc/passwd']) {
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        get(`${url}${path}`, { headers: { accept: '*/*' } }, (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        }).on('error', reject);
      });
      expect(body, path).not.toContain('root:');
      if (status === 200) expect(body, path).toBe(TEST_INDEX_HTML);
      else expect([400, 403, 404], path).toContain(status);
    }
  });

  it('answers paths for programs with a JSON 404 whatever they accept, never with the app', async () => {
    for (const path of ['/metrics', '/metrics/x', '/api/nope', '/api/v2/rooms']) {
      for (const accept of ['text/html', '*/*', 'text/plain;version=0.0.4']) {
        const response = await fetch(`${url}${path}`, { headers: { accept } });
        expect(response.status, `${path} ${accept}`).toBe(404);
        expect(response.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
        expect(await response.json()).toMatchObject({ code: 'not-found' });
      }
    }
  });

  it("falls back only for the app's own pages: an unknown path is a 404, HTML for a browser and JSON otherwise", async () => {
    for (const path of ['/', '/login', '/room/abc/sleep', '/room/abc', '/agency/partner/p1', '/master/domain/d1/', '/sso/x']) {
      expect((await fetch(`${url}${path}`, { headers: { accept: '*/*' } })).status, path).toBe(200);
    }
    const browser = await fetch(`${url}/no-such-page`, { headers: { accept: 'text/html' } });
    expect(browser.status).toBe(404);
    expect(await browser.text()).toBe(TEST_INDEX_HTML);
    for (const path of ['/no-such-page', '/room/abc/sleep/extra', '/wp-login.php']) {
      const response = await fetch(`${url}${path}`, { headers: { accept: '*/*' } });
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
    }
  });
});

describe('precompressed files', () => {
  let dist: TempDir;
  let app: FastifyInstance;
  let url: string;
  const big = `console.log(${JSON.stringify('nemuri '.repeat(400))});\n`;

  beforeAll(async () => {
    dist = await makeTestWebDist();
    await writeFile(join(dist.path, 'assets', 'big.js'), big);
    await writeFile(join(dist.path, 'assets', 'big.js.br'), brotliCompressSync(big));
    await writeFile(join(dist.path, 'assets', 'big.js.gz'), gzipSync(big));
    await writeFile(join(dist.path, 'index.html.br'), brotliCompressSync(TEST_INDEX_HTML));
    app = Fastify({ logger: false });
    await app.register(errorsPlugin);
    await app.register(webAppPlugin, { webDist: dist.path });
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await dist?.remove();
  });

  function raw(path: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      get(`${url}${path}`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });
  }

  it('sends the brotli copy to a browser that accepts it, with its type, Vary and the asset cache rule', async () => {
    const response = await raw('/assets/big.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(brotliDecompressSync(response.body).toString()).toBe(big);
  });

  it('sends the gzip copy when brotli is not accepted, and the file itself when nothing is', async () => {
    const gz = await raw('/assets/big.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(big);
    const plain = await raw('/assets/big.js', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body.toString()).toBe(big);
  });

  it('sends the compressed index.html for a page route as well', async () => {
    const response = await raw('/room/abc/sleep', { accept: 'text/html', 'accept-encoding': 'br' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe(REVALIDATE);
    expect(brotliDecompressSync(response.body).toString()).toBe(TEST_INDEX_HTML);
  });
});
