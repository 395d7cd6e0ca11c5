/**
 * GET /metrics on a real server (PGlite, and PostgreSQL for the pool's figures): who may read it,
 * what an outsider sees (the same 404 as an unknown path), and that the text parses as Prometheus'
 * exposition format with the figures docs/operations.md lists.
 */
import { join } from 'node:path';
import { MONITORING_LIVE_PATH } from '@nemuri/shared/monitoring';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { loadConfig } from '../config.ts';
import { signedIn } from '../documents/testing.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient, type ClientReply } from '../testing/browserClient.ts';
import { createTestSchema, describePostgres, type TestSchema } from '../testing/postgres.ts';
import { makeTempDir } from '../testing/webDist.ts';
import { tokenMatches } from './metricsPlugin.ts';

const TOKEN = 'scrape-6f1d0c9a2b7e4e58a3c1d2f0b9e8a7c6';

const EXPECTED_METRICS = [
  'process_cpu_seconds_total',
  'nodejs_eventloop_lag_seconds',
  'nodejs_heap_size_used_bytes',
  'nemuri_ingest_messages_total',
  'nemuri_ingest_frames_total',
  'nemuri_ingest_bytes_total',
  'nemuri_ingest_rejected_messages_total',
  'nemuri_ingest_storage_errors_total',
  'nemuri_ingest_retried_messages_total',
  'nemuri_ingest_joined_frames_total',
  'nemuri_live_sockets',
  'nemuri_live_subscriptions',
  'nemuri_live_users',
  'nemuri_rooms',
];
const POOL_METRICS = ['nemuri_db_pool_connections', 'nemuri_db_pool_idle', 'nemuri_db_pool_waiting'];
const CHECKPOINT_METRICS = [
  'nemuri_pglite_checkpoints',
  'nemuri_pglite_checkpoint_last_seconds',
  'nemuri_pglite_checkpoint_max_seconds',
  'nemuri_pglite_checkpoint_seconds_total',
];

/** `# TYPE` names, after checking that every other line is a comment or a well-formed sample. */
function metricNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type !== null) names.add(type[1]!);
    // Prometheus reads NaN in any case; prom-client writes `Nan` before the event-loop monitor has a sample.
    else if (!line.startsWith('# HELP ')) expect(line).toMatch(/^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? (-?[0-9.e+-]+|nan|[+-]inf)$/i);
  }
  return names;
}

function expectHidden(reply: ClientReply, unknown: ClientReply): void {
  expect(reply.status).toBe(404);
  expect(reply.body).toEqual(unknown.body);
  expect(reply.text).not.toContain('nemuri_');
}

function metricsHold(choice: 'pglite' | 'postgresql'): void {
  let server: RunningServer;
  let schema: TestSchema | null = null;
  let removeDir: () => Promise<void>;
  let anonymous: BrowserClient;
  /** What an unknown program path answers, to compare the refusals with. */
  let unknown: ClientReply;

  beforeAll(async () => {
    const dir = await makeTempDir('nemuri-metrics-');
    removeDir = () => dir.remove();
    schema = choice === 'postgresql' ? await createTestSchema() : null;
    server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATABASE_URL: schema?.url ?? 'memory://',
        DATA_DIR: dir.path,
        DEMO: '1',
        WEB_DIST: join(dir.path, 'no-web'),
        AUTH_RATE_LIMIT_MAX: '10000',
        METRICS_TOKEN: TOKEN,
      }),
      { logger: false },
    );
    anonymous = new BrowserClient(server.url);
    const other = await anonymous.get('/metrics/nothing');
    unknown = { ...other, body: { ...(other.body as object), message: (other.body as { message: string }).message.replace('/metrics/nothing', '/metrics') } };
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await schema?.drop();
    await removeDir?.();
  });

  it('answers a signed-out request with the 404 of an unknown path', async () => {
    expectHidden(await anonymous.get('/metrics'), unknown);
    expectHidden(await anonymous.get('/metrics', { accept: 'text/html' }), unknown);
  });

  it('answers staff, a domain owner and a developer below level 200 with the 404 of an unknown path', async () => {
    for (const email of ['staff@example.com', 'owner@example.com', 'super@example.com']) {
      expectHidden(await (await signedIn(server, email)).get('/metrics'), unknown);
    }
  });

  it('shows a system administrator the figures in Prometheus text format', async () => {
    const sysadmin = await signedIn(server, 'sysadmin@example.com');
    const reply = await sysadmin.get('/metrics');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(reply.headers['cache-control']).toBe('no-store');
    const names = metricNames(reply.text);
    for (const name of EXPECTED_METRICS) expect(names, name).toContain(name);
    for (const name of POOL_METRICS) expect(names.has(name), name).toBe(choice === 'postgresql');
    for (const name of CHECKPOINT_METRICS) expect(names.has(name), name).toBe(choice === 'pglite');
    // The live sockets' per-channel figures and the room states are labelled series.
    expect(reply.text).toMatch(/^nemuri_rooms\{state="offline",service="nemuri-monitor"\} \d+$/m);
  });

  it('shows a scraper with the bearer token the figures', async () => {
    const reply = await anonymous.get('/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(reply.status).toBe(200);
    expect(metricNames(reply.text)).toContain('nemuri_ingest_frames_total');
  });

  it('counts an open live socket under its channel, and no longer once it is closed', async () => {
    const scrape = async (): Promise<string> => (await anonymous.get('/metrics', { authorization: `Bearer ${TOKEN}` })).text;
    const staff = await signedIn(server, 'staff@example.com');
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}${MONITORING_LIVE_PATH}`, { headers: { cookie: staff.cookieHeader, origin: server.url } });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    try {
      const text = await scrape();
      expect(text).toMatch(/^nemuri_live_sockets\{channel="monitoring",service="nemuri-monitor"\} 1$/m);
      expect(text).toMatch(/^nemuri_live_users\{service="nemuri-monitor"\} 1$/m);
    } finally {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.close();
      });
    }
    await expect.poll(scrape, { timeout: 5000 }).not.toMatch(/^nemuri_live_sockets\{channel="monitoring"/m);
  });

  it('refuses a wrong, partial or misplaced token as an unknown path (attack)', async () => {
    const attempts: Record<string, string>[] = [
      { authorization: 'Bearer wrong-token-wrong-token-wrong-token' },
      // Prefixes and extensions of the right token: a compare that stops early would let these in.
      { authorization: `Bearer ${TOKEN.slice(0, 1)}` },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.toUpperCase()}` },
      { authorization: 'Bearer ' },
      { authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}` },
      { authorization: TOKEN },
      { 'x-metrics-token': TOKEN },
    ];
    for (const headers of attempts) expectHidden(await anonymous.get('/metrics', headers), unknown);
    expectHidden(await anonymous.get(`/metrics?token=${TOKEN}`), unknown);
  });
}

describe('tokenMatches', () => {
  it('accepts only the whole token, never a prefix, an extension or the empty string', () => {
    expect(tokenMatches(TOKEN, TOKEN)).toBe(true);
    for (let length = 0; length < TOKEN.length; length++) expect(tokenMatches(TOKEN.slice(0, length), TOKEN)).toBe(false);
    expect(tokenMatches(`${TOKEN}a`, TOKEN)).toBe(false);
    expect(tokenMatches(`${TOKEN}\0`, TOKEN)).toBe(false);
  });
});

describe('GET /metrics on PGlite', () => {
  metricsHold('pglite');
});

describePostgres('GET /metrics on PostgreSQL', () => {
  metricsHold('postgresql');
});
