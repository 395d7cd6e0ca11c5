/**
 * Periodic checkpoints of the embedded database (issue 25: a start after kill -9 replays only the
 * log written since the last one), on a real PGlite on disk.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';
import { startCheckpoints } from './checkpoints.ts';
import type { Database } from './database.ts';
import { checkpointStatsOf, openPglite } from './pglite.ts';

describe('embedded database checkpoints', () => {
  let dir: TempDir | undefined;
  let database: Database | undefined;
  afterAll(async () => {
    await database?.close();
    await dir?.remove();
  });

  it('move the redo point forward while the database is written', { timeout: 120_000 }, async () => {
    dir = await makeTempDir('nemuri-checkpoints-');
    const db = await openPglite(dir.path);
    database = db;
    const redo = async (): Promise<string> => (await db.query<{ lsn: string }>('select redo_lsn::text as lsn from pg_control_checkpoint()')).rows[0]!.lsn;
    await db.exec('create table written (id serial primary key, note text)');
    const before = await redo();
    const checkpoints = startCheckpoints(db, { warn: () => undefined }, 50);
    try {
      await db.query(`insert into written (note) select repeat('x', 200) from generate_series(1, 2000)`);
      const deadline = Date.now() + 60_000;
      while (checkpoints.count < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(checkpoints.count).toBeGreaterThanOrEqual(2);
      expect(await redo()).not.toBe(before);
      // Each timed on the database's thread (/metrics shows these).
      const stats = checkpointStatsOf(db)!;
      expect(stats.count).toBeGreaterThanOrEqual(2);
      expect(stats.maxMs).toBeGreaterThan(0);
      expect(stats.lastMs).toBeLessThanOrEqual(stats.maxMs);
      expect(stats.totalMs).toBeGreaterThanOrEqual(stats.maxMs);
    } finally {
      checkpoints.stop();
    }
  });

  it('are not run on PostgreSQL, which checkpoints by itself', () => {
    // Only the kind and exec are read.
    const fake = { kind: 'postgresql', exec: () => Promise.reject(new Error('not expected')) } as unknown as Database;
    const checkpoints = startCheckpoints(fake, { warn: () => undefined }, 10);
    checkpoints.stop();
    expect(checkpoints.count).toBe(0);
  });
});
