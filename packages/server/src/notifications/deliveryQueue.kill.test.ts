/**
 * kill -9 between queueing and sending loses nothing and duplicates nothing: a child process on
 * the same PostgreSQL schema opens an alert and is killed (SIGKILL) once the notifications are
 * queued, or once the worker has claimed them and is about to send; this process then takes over
 * (after the lease) and every notification reaches its receiver exactly once.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { createTestSchema, describePostgres, TEST_DATABASE_URL, type TestSchema } from '../testing/postgres.ts';
import { STAFF, startHarness, type Harness } from './testing/notifyHarness.ts';

const CHILD = fileURLToPath(new URL('./testing/killChild.ts', import.meta.url));
const LINE_ID = `U${'b'.repeat(32)}`;

let schema: TestSchema;
let database: Database;
let h: Harness;

/** Runs the child until it prints `marker`, then kills it with SIGKILL. */
async function runAndKill(mode: 'queued' | 'claimed', alertId: string, marker: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, TEST_DATABASE_URL, schema.schema, mode, alertId], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(marker)) {
        child.kill('SIGKILL');
        resolve();
      }
    });
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? undefined : reject(new Error(`the child exited (${code}) before ${marker}`))));
  });
  await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once('exit', resolve)));
}

describePostgres('notification queue survives kill -9', () => {
  beforeAll(async () => {
    schema = await createTestSchema();
    database = await schema.open();
    await migrate(database);
    h = await startHarness(database, Date.now());
  }, 120_000);

  afterAll(async () => {
    await h.close();
    await database.close();
    await schema.drop();
  });

  beforeEach(async () => {
    await h.reset(Date.now());
    await h.settings({ escalation: [{ target: 'allStaff', afterMin: 0 }] }, 'kill-test-secret');
    await database.query(`update notify_domain_settings set settings = jsonb_set(settings, '{webhookUrl}', to_jsonb($1::text))`, [h.webhook.url]);
    for (const member of [STAFF.unitA, STAFF.unitB, STAFF.admin]) {
      await h.prefer(member.uid, { channels: { push: true, mail: true, line: true }, lineUserId: LINE_ID });
      await h.subscribe(member.uid);
      await h.subscribe(member.uid);
    }
  });

  for (const [mode, marker] of [
    ['queued', 'QUEUED'],
    ['claimed', 'SENDING'],
  ] as const) {
    it(`killed once ${mode}: every notification is sent exactly once afterwards`, async () => {
      const alertId = `kill-${mode}-${Date.now()}`;
      await runAndKill(mode, alertId, marker);
      const before = await h.rows();
      // 3 staff × (2 devices + mail + LINE) + the webhook's opened event.
      expect(before.length).toBe(13);
      expect(new Set(before.map((row) => row.status))).toEqual(new Set([mode === 'queued' ? 'queued' : 'sending']));
      // Another process takes over once the dead one's lease has run out.
      await h.advance(120_000);
      await h.advance(1_000);
      const after = await h.rows();
      expect(after.map((row) => row.status)).toEqual(Array(13).fill('sent'));
      expect(h.push.received.length).toBe(6);
      expect(new Set(h.push.received.map((push) => push.subscriptionId)).size).toBe(6);
      expect(h.push.refused).toEqual([]);
      expect(h.line.pushes.length).toBe(3);
      expect((await h.outbox()).length).toBe(3);
      expect(h.webhook.hooks.map((hook) => [hook.status, hook.signatureValid])).toEqual([[200, true]]);
    }, 120_000);
  }
});
