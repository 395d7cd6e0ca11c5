/**
 * Request headers the HTTP layer itself reads (issue 22): X-Request-Id goes into every log line
 * and back out in a header, Content-Encoding could make a small body a large one. Sent as an
 * outsider would, over a raw socket where a client library would refuse the bytes:
 * - a forged X-Request-Id (quotes and braces to forge JSON log fields, spaces, 129 characters,
 *   non-ASCII) is replaced by a UUID, and no log line carries it;
 * - a gzip-compressed body is never inflated, on JSON routes, sign-in and device ingest;
 * and the server answers normally afterwards.
 */
import { connect } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { startServer, type RunningServer } from '../server.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One raw HTTP/1.1 exchange: the status line and headers of the answer. */
function rawRequest(port: number, head: string, body: Buffer = Buffer.alloc(0)): Promise<{ status: number; headers: Map<string, string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(Buffer.concat([Buffer.from(`${head}\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n`, 'latin1'), body]));
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [statusLine = '', ...lines] = text.split('\r\n\r\n')[0]?.split('\r\n') ?? [];
      const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()] as const));
      resolve({ status: Number(statusLine.split(' ')[1]), headers });
    });
  });
}

describe('headers the HTTP layer reads', () => {
  let dir: TempDir;
  let server: RunningServer;
  const logLines: string[] = [];

  beforeAll(async () => {
    dir = await makeTempDir('nemuri-operational-');
    server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        MQTT_PORT: '0',
        LOG_LEVEL: 'debug',
        DATABASE_URL: 'memory://',
        DATA_DIR: dir.path,
        DEMO: '0',
        SIMULATE: '0',
        WEB_DIST: join(dir.path, 'no-web'),
      }),
      { logger: { write: (line) => logLines.push(line) } },
    );
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await dir?.remove();
  });

  it('replaces a forged X-Request-Id and keeps it out of the log', async () => {
    const forged = ['FORGED1"},"level":60,"msg":"x', 'FORGED2 with spaces', `FORGED3${'a'.repeat(129)}`, 'FORGED4\u00e9\u00e9', 'FORGED5<script>'];
    for (const value of forged) {
      const { status, headers } = await rawRequest(server.port, `GET /api/health/live HTTP/1.1\r\nX-Request-Id: ${value}`);
      expect(status, value).toBe(200);
      expect(headers.get('x-request-id'), value).toMatch(UUID);
    }
    const forging = logLines.filter((line) => line.includes('FORGED'));
    expect(forging).toEqual([]);
    // Every line stays one JSON object with at most the level pino gave it.
    for (const line of logLines) expect((JSON.parse(line) as { level: number }).level).toBeLessThan(60);
  });

  it('never inflates a compressed body', async () => {
    const bomb = gzipSync(Buffer.from(JSON.stringify({ email: 'a@example.com', password: 'x', fill: 'a'.repeat(20_000_000) })));
    expect(bomb.length).toBeLessThan(100_000);
    for (const [path, type] of [
      ['/api/auth/sign-in/email', 'application/json'],
      ['/api/documents/query', 'application/json'],
      ['/api/devices/NM-0001/frames', 'application/octet-stream'],
    ] as const) {
      const before = process.memoryUsage().rss;
      const { status } = await rawRequest(
        server.port,
        `POST ${path} HTTP/1.1\r\nContent-Type: ${type}\r\nContent-Encoding: gzip\r\nOrigin: ${server.url}`,
        bomb,
      );
      expect(status, path).toBeGreaterThanOrEqual(400);
      expect(status, path).not.toBe(404);
      expect(status, path).toBeLessThan(500);
      // Inflating it would take 20 MB at once.
      expect(process.memoryUsage().rss - before, path).toBeLessThan(15_000_000);
    }
    expect((await fetch(`${server.url}/api/health/ready`)).status).toBe(200);
  });
});
