/**
 * The end of `npm run bench` (alone: `node --import tsx packages/server/bench/fairness.bench.ts`):
 * tenant B's read latency while tenant A runs the heaviest load the fair-share limits allow
 * (security/fairnessScenario.ts), on PGlite and,
 * when TEST_DATABASE_URL's PostgreSQL answers, on PostgreSQL. Prints p50/p95/p99/max of B's reads
 * and what A got through. FAIRNESS_SECONDS sets how long the load runs (default 15).
 */
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { fillMonth, registerTenant, runFairness } from '../src/security/fairnessScenario.ts';
import { startServer } from '../src/server.ts';
import { createTestSchema, type TestSchema } from '../src/testing/postgres.ts';
import { makeTempDir } from '../src/testing/webDist.ts';

const seconds = Number(process.env.FAIRNESS_SECONDS ?? 15);

async function run(kind: 'pglite' | 'postgresql'): Promise<void> {
  let schema: TestSchema | null = null;
  if (kind === 'postgresql') {
    try {
      schema = await createTestSchema();
    } catch (error) {
      console.log(`fairness on PostgreSQL: skipped (${error instanceof Error ? error.message.split('.')[0] : String(error)})`);
      return;
    }
  }
  const dir = await makeTempDir('nemuri-fairness-');
  const server = await startServer(
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
  try {
    const a = await registerTenant(server.url, 'tenant-a', '127.0.7.1');
    const b = await registerTenant(server.url, 'tenant-b', '127.0.7.2');
    await fillMonth(a);
    const result = await runFairness(server.url, a, b, { durationMs: seconds * 1000, commitLoops: 6, pdfLoops: 3, liveSockets: 4 });
    const { reads } = result;
    const ms = (value: number) => `${value.toFixed(0)} ms`;
    console.log(
      `fairness on ${kind} (${seconds} s): tenant B reads p50 ${ms(reads.p50)}, p95 ${ms(reads.p95)}, p99 ${ms(reads.p99)}, max ${ms(reads.max)} over ${reads.count} reads (${result.failedReads} failed); ` +
        `tenant A: ${result.commits.ok} commits of 500 writes (${result.commits.refused} refused with 429, ${result.commits.other} other), ${result.pdfs.ok} month PDFs (${result.pdfs.refused} refused, ${result.pdfs.other} other), ${result.liveMessages} live messages`,
    );
  } finally {
    await server.stop();
    await schema?.drop();
    await dir.remove();
  }
}

for (const kind of (process.env.FAIRNESS_DATABASES ?? 'postgresql,pglite').split(',') as ('pglite' | 'postgresql')[]) await run(kind);
