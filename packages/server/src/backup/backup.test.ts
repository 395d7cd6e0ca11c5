/**
 * `npm run backup` / `npm run restore` round trips, against a real server process that keeps storing
 * the demo devices' frames meanwhile: the restored database holds every record and stored signal of
 * the copy (each table's rows and checksum equal the manifest's, taken at the moment of the copy).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { freePort } from '../testing/freePort.ts';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import type { Database } from '../database/database.ts';
import { openPglite } from '../database/pglite.ts';
import { openPostgres } from '../database/postgresql.ts';
import { describePostgres, TEST_DATABASE_URL } from '../testing/postgres.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';
import { backup, MANIFEST, restore, type Manifest } from './backupTool.ts';
import { answerBackupRequests, BACKUP_REQUESTS_DIR } from './onlineBackup.ts';
import { tableSums } from './tableSums.ts';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const started: ChildProcess[] = [];
const temps: TempDir[] = [];

afterAll(async () => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  for (const temp of temps) await temp.remove();
});

async function tempDir(): Promise<string> {
  const temp = await makeTempDir();
  temps.push(temp);
  return temp.path;
}

/** The real server process on the demo data, with its simulated devices storing frames. */
async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; stop(): Promise<void> }> {
  // A port of its own for the embedded broker: the simulated devices connect to it.
  const mqttPort = String(await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      MQTT_URL: '',
      SMTP_URL: '',
      HOST: '127.0.0.1',
      PORT: '0',
      MQTT_PORT: mqttPort,
      DEMO: '1',
      NEMURI_DEMO_DATA: '1',
      SIMULATE: '1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within 180 s:\n${output}`)), 180_000);
    const check = (): void => {
      if (!/ ready at /.test(output)) return;
      clearTimeout(timer);
      resolve();
    };
    child.stdout?.on('data', check);
    child.on('exit', (code) => reject(new Error(`the server ended (${code}) before it was ready:\n${output}`)));
  });
  return {
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Waits until the running server has stored frames of the demo devices. */
async function waitForStoredSignals(database: () => Promise<Database>): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const db = await database();
    try {
      const { rows } = await db.query<{ n: string }>('select (select count(*) from signal_chunks) + (select count(*) from signal_frames_pending) as n');
      if (Number(rows[0]?.n) > 0) return;
    } finally {
      await db.close();
    }
    if (Date.now() > deadline) throw new Error('the demo devices stored no frames within 60 s');
    await new Promise((wake) => setTimeout(wake, 1_000));
  }
}

function expectSignals(manifest: Manifest): void {
  const stored = (manifest.tables['public.signal_chunks']?.rows ?? 0) + (manifest.tables['public.signal_frames_pending']?.rows ?? 0);
  expect(stored).toBeGreaterThan(0);
  expect(manifest.tables['public.documents']?.rows ?? 0).toBeGreaterThan(0);
  for (const sum of Object.values(manifest.tables)) expect(sum.md5).toMatch(/^[0-9a-f]{32}$/);
}

it('PGlite: an online backup of a running server restores into a new data directory with every record and signal', { timeout: 420_000 }, async () => {
  const dataDir = await tempDir();
  await mkdir(join(dataDir, 'uploads'), { recursive: true });
  await writeFile(join(dataDir, 'uploads', 'upload-1'), 'recording bytes');
  const server = await startServer({ DATA_DIR: dataDir });
  const out = join(await tempDir(), 'backup');
  let manifest: Manifest;
  try {
    // The server holds the data directory: it answers its own copy (online), so wait for frames
    // through the copy rather than opening the database a second time.
    for (let attempt = 0; ; attempt++) {
      manifest = await backup({ dataDir, database: { kind: 'pglite', dataDir: join(dataDir, 'pglite') } }, out, { checksums: true });
      const stored = (manifest.tables['public.signal_chunks']?.rows ?? 0) + (manifest.tables['public.signal_frames_pending']?.rows ?? 0);
      if (stored > 0 || attempt >= 30) break;
      await rm(out, { recursive: true, force: true });
      await new Promise((wake) => setTimeout(wake, 2_000));
    }
  } finally {
    await server.stop();
  }
  expect(manifest.online).toBe(true);
  expect(manifest.uploads).toBe(1);
  expectSignals(manifest);

  // Onto a new machine: DATA_DIR does not exist yet.
  const restoredDir = join(await tempDir(), 'new-data-dir');
  const target = { dataDir: restoredDir, database: { kind: 'pglite' as const, dataDir: join(restoredDir, 'pglite') } };
  await restore(target, out);
  const restored = await openPglite(join(restoredDir, 'pglite'));
  try {
    expect(await tableSums((sql) => restored.query(sql), { checksums: true })).toEqual(manifest.tables);
  } finally {
    await restored.close();
  }
  expect(await readFile(join(restoredDir, 'uploads', 'upload-1'), 'utf8')).toBe('recording bytes');

  // A damaged manifest (one row fewer than the copy holds) fails the restore, and nothing is replaced.
  const damaged = JSON.parse(await readFile(join(out, MANIFEST), 'utf8')) as Manifest;
  const documents = damaged.tables['public.documents'];
  if (documents === undefined) throw new Error('no documents table in the manifest');
  documents.rows -= 1;
  await writeFile(join(out, MANIFEST), JSON.stringify(damaged));
  await expect(restore(target, out)).rejects.toThrow(/public\.documents: \d+ rows, the backup has/);
  const still = await openPglite(join(restoredDir, 'pglite'));
  await still.close();
});

it(
  'answers only well-formed requests with an absolute path; anything else gets an error answer, and odd names are left alone',
  { timeout: 120_000 },
  async () => {
    const dataDir = await tempDir();
    const requests = join(dataDir, BACKUP_REQUESTS_DIR);
    await mkdir(requests, { recursive: true });
    await writeFile(join(requests, 'relative.json'), JSON.stringify({ path: '../../etc/backup.tar.gz' }));
    await writeFile(join(requests, 'junk.json'), '{not json');
    await writeFile(join(requests, '..odd name.json'), JSON.stringify({ path: join(dataDir, 'x.tar.gz') }));
    const good = join(dataDir, 'good.tar.gz');
    await writeFile(join(requests, 'good.json'), JSON.stringify({ path: good }));
    const database = await openPglite(null);
    const errors: object[] = [];
    try {
      const answered = await answerBackupRequests(database, dataDir, { info: () => undefined, error: (fields) => errors.push(fields) });
      expect(answered).toBe(3);
    } finally {
      await database.close();
    }
    const answerOf = async (name: string) =>
      JSON.parse(await readFile(join(requests, `${name}.done.json`), 'utf8')) as { ok: boolean; error?: string; bytes?: number };
    expect(await answerOf('relative')).toMatchObject({ ok: false, error: expect.stringMatching(/absolute/) });
    expect((await answerOf('junk')).ok).toBe(false);
    expect((await answerOf('good')).ok).toBe(true);
    expect((await readFile(good)).byteLength).toBeGreaterThan(1000);
    expect(errors).toHaveLength(2);
    // A name outside [\w-] is not a request: never read, never answered.
    await expect(readFile(join(requests, '..odd name.done.json'))).rejects.toThrow(/ENOENT/);
  },
);

describePostgres('PostgreSQL', () => {
  it('pg_dump while the server runs, restored over a changed database, keeps every record and signal', { timeout: 420_000 }, async () => {
    const name = `nemuri_backup_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    const databaseUrl = url.toString();
    await admin.query(`create database ${name}`);
    try {
      const dataDir = await tempDir();
      const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
      const out = join(await tempDir(), 'backup');
      const target = { dataDir, database: { kind: 'postgresql' as const, url: databaseUrl } };
      let manifest: Manifest;
      try {
        await waitForStoredSignals(() => openPostgres({ url: databaseUrl, maxConnections: 1 }));
        manifest = await backup(target, out, { checksums: true });
      } finally {
        await server.stop();
      }
      expectSignals(manifest);

      // Changes after the copy are undone by the restore.
      const db = await openPostgres({ url: databaseUrl, maxConnections: 1 });
      try {
        await db.query('delete from signal_chunks');
        await db.query('delete from documents where ctid in (select ctid from documents limit 5)');
      } finally {
        await db.close();
      }
      await restore(target, out);
      const restored = await openPostgres({ url: databaseUrl, maxConnections: 1 });
      try {
        expect(await tableSums((sql) => restored.query(sql), { checksums: true })).toEqual(manifest.tables);
      } finally {
        await restored.close();
      }
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
