/**
 * `npm run backup` and `npm run restore` (scripts/backup.mjs, scripts/restore.mjs; docs/operations.md).
 *
 * A backup is a folder: `manifest.json` (version, time, each table's rows and optionally checksums,
 * see tableSums.ts), the database (`database.tar.gz`, PGlite's data directory, or `database.pgdump`,
 * pg_dump's custom format) and `uploads/` (DATA_DIR/uploads). It is made while the server runs:
 * - embedded PGlite: by the running server itself (onlineBackup.ts, asked through a request file and
 *   SIGUSR2), or directly when no server holds the data directory;
 * - PostgreSQL: pg_dump in an exported snapshot, the manifest's sums read in that same snapshot.
 * A restore loads the copy, compares every table with the manifest and only then puts it in place
 * (PGlite: the old data directory is kept beside it as `pglite.before-restore-<time>`).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { APP_VERSION } from '@nemuri/shared/version';
import type { DatabaseConfig } from '../config.ts';
import { openPglite } from '../database/pglite.ts';
import { BACKUP_REQUESTS_DIR } from './onlineBackup.ts';
import { differences, tableSums, type TableSums } from './tableSums.ts';

export const MANIFEST = 'manifest.json';
const PGLITE_FILE = 'database.tar.gz';
const PG_FILE = 'database.pgdump';
const ONLINE_TIMEOUT_MS = 30 * 60_000;

export interface BackupTarget {
  /** DATA_DIR: uploads, and the embedded database's `pglite/`. */
  dataDir: string;
  database: DatabaseConfig;
}

export interface Manifest {
  format: 'nemuri-backup/1';
  version: string;
  createdAt: string;
  database: DatabaseConfig['kind'];
  file: string;
  bytes: number;
  /** How the copy was made: by the running server (online) or with none running. */
  online: boolean;
  tables: TableSums;
  uploads: number;
}

/** The pid of the server holding the embedded database, or null when none runs. */
function runningServerOf(pgliteDir: string): number | null {
  const lockFile = `${pgliteDir}.lock`;
  if (!existsSync(lockFile)) return null;
  return readPid(lockFile);
}

function readPid(lockFile: string): number | null {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(lockFile, 'utf8').trim(), 10);
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

async function run(command: string, args: string[]): Promise<void> {
  await new Promise<void>((done, fail) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => fail(new Error(`${command} could not run (${error.message}): install PostgreSQL's client programs`)));
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`${command} failed (${code}): ${stderr.trim()}`))));
  });
}

async function backUpPglite(pgliteDir: string, file: string, checksums: boolean): Promise<{ bytes: number; tables: TableSums; online: boolean }> {
  const pid = runningServerOf(pgliteDir);
  if (pid === null) {
    if (!existsSync(pgliteDir)) throw new Error(`there is no embedded database at ${pgliteDir}`);
    const database = await openPglite(pgliteDir);
    try {
      if (database.backupTo === undefined) throw new Error('the embedded database cannot copy itself');
      return { ...(await database.backupTo(file, { checksums })), online: false };
    } finally {
      await database.close();
    }
  }
  const requests = join(pgliteDir, '..', BACKUP_REQUESTS_DIR);
  await mkdir(requests, { recursive: true });
  const id = randomUUID();
  const done = join(requests, `${id}.done.json`);
  await writeFile(join(requests, `${id}.json.partial`), JSON.stringify({ path: file, checksums }));
  await rename(join(requests, `${id}.json.partial`), join(requests, `${id}.json`));
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + ONLINE_TIMEOUT_MS;
  while (!existsSync(done)) {
    if (Date.now() > deadline) throw new Error(`the running server (pid ${pid}) did not answer the backup request within ${ONLINE_TIMEOUT_MS / 60_000} min`);
    if (readPid(`${pgliteDir}.lock`) !== pid) throw new Error(`the server (pid ${pid}) stopped before the backup was made: run the backup again`);
    await new Promise((wake) => setTimeout(wake, 200));
  }
  const answer = JSON.parse(await readFile(done, 'utf8')) as { ok: true; bytes: number; tables: TableSums } | { ok: false; error: string };
  await rm(done, { force: true });
  if (!answer.ok) throw new Error(`the running server could not make the backup: ${answer.error}`);
  return { bytes: answer.bytes, tables: answer.tables, online: true };
}

async function backUpPostgresql(url: string, file: string, checksums: boolean): Promise<{ bytes: number; tables: TableSums; online: boolean }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // The sums and pg_dump see the same snapshot: the manifest describes exactly the dump.
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ snapshot: string }>('select pg_export_snapshot() as snapshot');
    const tables = await tableSums((sql) => client.query<Record<string, unknown>>(sql), { checksums });
    await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--snapshot=${rows[0]?.snapshot ?? ''}`, `--file=${file}`, `--dbname=${url}`]);
    await client.query('commit');
    return { bytes: (await stat(file)).size, tables, online: true };
  } finally {
    await client.end();
  }
}

async function countFiles(dir: string): Promise<number> {
  if (!existsSync(dir)) return 0;
  let count = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) count += entry.isDirectory() ? await countFiles(join(dir, entry.name)) : 1;
  return count;
}

/** Writes a backup folder `out` (which must not exist yet); resolves to its manifest. */
export async function backup(target: BackupTarget, out: string, { checksums = false } = {}): Promise<Manifest> {
  out = resolve(out);
  if (existsSync(out)) throw new Error(`${out} exists already: name a new folder`);
  await mkdir(out, { recursive: true });
  try {
    const file = target.database.kind === 'pglite' ? PGLITE_FILE : PG_FILE;
    const copy =
      target.database.kind === 'pglite'
        ? await backUpPglite(target.database.dataDir ?? join(target.dataDir, 'pglite'), join(out, file), checksums)
        : await backUpPostgresql(target.database.url, join(out, file), checksums);
    // Uploads are written once under their id and never changed: copied after the database, every
    // upload the database names is there (one made meanwhile may come along too).
    const uploads = join(target.dataDir, 'uploads');
    if (existsSync(uploads)) await cp(uploads, join(out, 'uploads'), { recursive: true });
    const manifest: Manifest = {
      format: 'nemuri-backup/1',
      version: APP_VERSION,
      createdAt: new Date().toISOString(),
      database: target.database.kind,
      file,
      bytes: copy.bytes,
      online: copy.online,
      tables: copy.tables,
      uploads: await countFiles(join(out, 'uploads')),
    };
    await writeFile(join(out, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    return manifest;
  } catch (error) {
    await rm(out, { recursive: true, force: true });
    throw error;
  }
}

const stamp = (): string => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');

async function restorePglite(pgliteDir: string, from: string, manifest: Manifest): Promise<void> {
  const pid = runningServerOf(pgliteDir);
  if (pid !== null) throw new Error(`a server (pid ${pid}) is using ${pgliteDir}: stop it before restoring`);
  const incoming = `${pgliteDir}.restoring`;
  await rm(incoming, { recursive: true, force: true });
  // A restore onto a new machine starts with no DATA_DIR at all.
  await mkdir(dirname(pgliteDir), { recursive: true });
  const tarball = await readFile(join(from, manifest.file));
  const database = await PGlite.create(incoming, { loadDataDir: new Blob([new Uint8Array(tarball)]) });
  try {
    const problems = differences(
      manifest.tables,
      await tableSums((sql) => database.query<Record<string, unknown>>(sql), { checksums: hasChecksums(manifest) }),
    );
    if (problems.length > 0) throw new Error(`the restored database differs from the backup: ${problems.join('; ')}`);
  } catch (error) {
    await database.close();
    await rm(incoming, { recursive: true, force: true });
    throw error;
  }
  await database.close();
  if (existsSync(pgliteDir)) await rename(pgliteDir, `${pgliteDir}.before-restore-${stamp()}`);
  await rename(incoming, pgliteDir);
}

const hasChecksums = (manifest: Manifest): boolean => Object.values(manifest.tables).some((sum) => sum.md5 !== undefined);

async function restorePostgresql(url: string, from: string, manifest: Manifest): Promise<void> {
  await run('pg_restore', [
    '--clean',
    '--if-exists',
    '--no-owner',
    '--no-privileges',
    '--single-transaction',
    '--exit-on-error',
    `--dbname=${url}`,
    join(from, manifest.file),
  ]);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const problems = differences(manifest.tables, await tableSums((sql) => client.query<Record<string, unknown>>(sql), { checksums: hasChecksums(manifest) }));
    if (problems.length > 0) throw new Error(`the restored database differs from the backup: ${problems.join('; ')}`);
  } finally {
    await client.end();
  }
}

/** Loads the backup folder `from` into the target (no server may run on it); resolves to its manifest. */
export async function restore(target: BackupTarget, from: string): Promise<Manifest> {
  from = resolve(from);
  const manifest = JSON.parse(await readFile(join(from, MANIFEST), 'utf8')) as Manifest;
  if (manifest.format !== 'nemuri-backup/1') throw new Error(`${from} is not a Nemuri Monitor backup`);
  if (manifest.database !== target.database.kind) {
    throw new Error(`the backup holds a ${manifest.database} database, and this configuration uses ${target.database.kind} (set or unset DATABASE_URL)`);
  }
  if (target.database.kind === 'pglite') await restorePglite(target.database.dataDir ?? join(target.dataDir, 'pglite'), from, manifest);
  else await restorePostgresql(target.database.url, from, manifest);
  const uploads = join(target.dataDir, 'uploads');
  if (existsSync(join(from, 'uploads'))) {
    if (existsSync(uploads)) await rename(uploads, `${uploads}.before-restore-${stamp()}`);
    await cp(join(from, 'uploads'), uploads, { recursive: true });
  }
  return manifest;
}
