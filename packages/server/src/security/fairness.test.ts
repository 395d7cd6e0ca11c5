/**
 * Fair sharing (security issue, finding 4: a commit of 1,000 updates delayed another tenant's read
 * by 4.6 s). Tenant A runs the heaviest load it is allowed (fairnessScenario.ts: concurrent
 * 500-write commits, month PDFs, live subscriptions) while tenant B reads its room record.
 *  - PostgreSQL: B's p99 read latency stays under 250 ms.
 *  - PGlite has one connection, and a commit holds it for its whole transaction: its commits are
 *    capped at 100 writes (MAX_WRITES_PER_COMMIT_EMBEDDED), and B's read waits for at most one of
 *    A's commits, however many A sends (one big commit at a time per process, and a pause after each
 *    that lets the waiting reads finish). The bound is on how many of A's commits finish while a
 *    read of B waits (counted, not timed, so that a loaded machine does not fail it; unloaded, the
 *    read's p99 is ~200 ms).
 * Over the limits, A gets 429 `resource-exhausted` with Retry-After and a Japanese message.
 * The load is bounded in time (FAIRNESS_TEST_SECONDS, default 8) and stops by itself.
 */
import { maxWritesPerCommit } from '@nemuri/shared/documents/transaction';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadConfig } from '../config.ts';
import { startServer, type RunningServer } from '../server.ts';
import { createTestSchema, describePostgres, type TestSchema } from '../testing/postgres.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';
import { FAIR_SHARE } from '../http/fairShare.ts';
import { fillMonth, registerTenant, runFairness, type Tenant } from './fairnessScenario.ts';

const SECONDS = Number(process.env.FAIRNESS_TEST_SECONDS ?? 8);

function fairnessHolds(kind: 'pglite' | 'postgresql'): void {
  let schema: TestSchema | null = null;
  let dir: TempDir;
  let server: RunningServer;
  let a: Tenant;
  let b: Tenant;

  beforeAll(async () => {
    if (kind === 'postgresql') schema = await createTestSchema();
    dir = await makeTempDir('nemuri-fairness-');
    server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATABASE_URL: schema?.url ?? 'memory://',
        DATA_DIR: dir.path,
        DEMO: '0',
        SIMULATE: '0',
        WEB_DIST: join(dir.path, 'no-web'),
        AUTH_RATE_LIMIT_MAX: '10000',
      }),
      { logger: false },
    );
    a = await registerTenant(server.url, `${kind}-a`, '127.0.8.1');
    b = await registerTenant(server.url, `${kind}-b`, '127.0.8.2');
    await fillMonth(a);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await schema?.drop();
    await dir?.remove();
  });

  const bigCommit = (tag: string) =>
    a.client.post('/api/documents/commit', {
      reads: [],
      writes: Array.from({ length: maxWritesPerCommit(kind) }, (_, i) => ({ op: 'update', path: `rooms/${a.roomId}`, data: { residentNote: `${tag}-${i}` } })),
    });

  it('refuses commits beyond the queue with 429 resource-exhausted and Retry-After, and B is unaffected', async () => {
    const { perUser, queuePerTenant } = FAIR_SHARE.commit;
    // A burst of more commits than the running turn and the queue can hold.
    const replies = await Promise.all(Array.from({ length: perUser + queuePerTenant + 3 }, (_, i) => bigCommit(`burst-${i}`)));
    const refused = replies.filter((reply) => reply.status === 429);
    // On PGlite the requests reach the limiter more slowly (their sign-in checks wait for the one
    // connection too), so fewer of them find the queue full.
    expect(refused.length).toBeGreaterThanOrEqual(kind === 'postgresql' ? 3 : 1);
    // Those that waited longer than maxWaitMs are refused too: on a loaded machine, more of them.
    expect(replies.filter((reply) => reply.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(replies.every((reply) => reply.status === 200 || reply.status === 429)).toBe(true);
    expect(refused[0]?.headers['retry-after']).toBe(String(FAIR_SHARE.commit.retryAfterSeconds));
    expect(refused[0]?.body).toMatchObject({ code: 'resource-exhausted', message: expect.stringContaining('混み合っています') });
    // Another tenant's commit is not refused meanwhile: the queue is per tenant.
    expect(
      (
        await b.client.post('/api/documents/commit', {
          reads: [],
          writes: Array.from({ length: 50 }, (_, i) => ({ op: 'update', path: `rooms/${b.roomId}`, data: { residentNote: `b-${i}` } })),
        })
      ).status,
    ).toBe(200);
  }, 120_000);

  it(`keeps tenant B's reads ${kind === 'postgresql' ? 'under 250 ms at p99' : "within one of A's commits"} while A runs its heaviest allowed load`, async () => {
    // One commit alone, twice: what "one of A's commits" costs on this machine now.
    let alone = 0;
    for (const tag of ['alone-1', 'alone-2']) {
      const started = performance.now();
      expect((await bigCommit(tag)).status).toBe(200);
      alone = Math.max(alone, performance.now() - started);
    }
    const result = await runFairness(server.url, a, b, {
      durationMs: SECONDS * 1000,
      commitLoops: 6,
      pdfLoops: 3,
      liveSockets: 4,
      writesPerCommit: maxWritesPerCommit(kind),
    });
    console.log(
      `fairness on ${kind}: B reads ${JSON.stringify(result.reads)}, A's commits finished during one ${JSON.stringify(result.commitsDuringRead)}; one commit alone ${alone.toFixed(0)} ms; A ${JSON.stringify(result.commits)} commits, ${JSON.stringify(result.pdfs)} PDFs, ${result.liveMessages} live messages`,
    );
    expect(result.failedReads).toBe(0);
    expect(result.reads.count).toBeGreaterThanOrEqual(kind === 'postgresql' ? 20 : 2);
    expect(result.commits.ok).toBeGreaterThan(0);
    expect(result.pdfs.ok).toBeGreaterThan(0);
    if (kind === 'postgresql') expect(result.reads.p99).toBeLessThan(250);
    // At most one of A's commits ahead of B's read (its few database turns follow within the pause):
    // counted, since the time a commit takes follows the machine's load (the alone figure is logged).
    // One more at the edges: a commit whose reply was already on its way when B's read began.
    else expect(result.commitsDuringRead.p99).toBeLessThanOrEqual(2);
  }, 180_000);
}

describePostgres('fair sharing on PostgreSQL', () => {
  fairnessHolds('postgresql');
});

describe('fair sharing on PGlite', () => {
  fairnessHolds('pglite');
});
