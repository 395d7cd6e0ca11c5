/**
 * Online backup of the embedded database, asked for by `npm run backup` (scripts/backup.mjs) while
 * the server runs: PGlite's data directory is held by this process alone, so the copy is made here.
 *
 * The script writes a request file `DATA_DIR/backup-requests/<id>.json` (`{ "path": "<absolute
 * file>", "checksums": false }`) and sends SIGUSR2 to the pid in `DATA_DIR/pglite.lock`. Each request found is answered
 * with `<id>.done.json`: `{ "ok": true, "bytes": n, "tables": {…} }` or `{ "ok": false, "error": "…" }`. Only a user
 * who may signal the process and write in DATA_DIR can ask: the same as who could stop it.
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { Database, OnlineBackup } from '../database/database.ts';

export const BACKUP_REQUESTS_DIR = 'backup-requests';

interface Log {
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** Answers every request file waiting in DATA_DIR/backup-requests; one backup at a time. */
export async function answerBackupRequests(database: Database, dataDir: string, log: Log): Promise<number> {
  const dir = join(dataDir, BACKUP_REQUESTS_DIR);
  await mkdir(dir, { recursive: true });
  let answered = 0;
  for (const name of (await readdir(dir)).filter((file) => /^[\w-]+\.json$/.test(file) && !file.endsWith('.done.json')).sort()) {
    const requestFile = join(dir, name);
    const doneFile = join(dir, name.replace(/\.json$/, '.done.json'));
    let answer: ({ ok: true } & OnlineBackup) | { ok: false; error: string };
    try {
      const request = JSON.parse(await readFile(requestFile, 'utf8')) as { path?: unknown; checksums?: unknown };
      if (typeof request.path !== 'string' || !isAbsolute(request.path)) throw new Error('the request names no absolute "path"');
      if (database.backupTo === undefined)
        throw new Error('online backup here is for the embedded database; with DATABASE_URL use pg_dump (npm run backup does)');
      const started = performance.now();
      const copy = await database.backupTo(request.path, { checksums: request.checksums === true });
      log.info({ path: request.path, bytes: copy.bytes, ms: Math.round(performance.now() - started) }, 'online backup written');
      answer = { ok: true, ...copy };
    } catch (error) {
      answer = { ok: false, error: error instanceof Error ? error.message : String(error) };
      log.error({ request: name, err: error }, 'online backup failed');
    }
    await writeFile(`${doneFile}.partial`, JSON.stringify(answer));
    await rename(`${doneFile}.partial`, doneFile);
    await rm(requestFile, { force: true });
    answered += 1;
  }
  return answered;
}

/** SIGUSR2 answers the waiting backup requests; resolves the returned function to stop listening. */
export function listenForBackupRequests(database: Database, dataDir: string, log: Log): () => void {
  let running: Promise<unknown> = Promise.resolve();
  const onSignal = (): void => {
    running = running
      .then(() => answerBackupRequests(database, dataDir, log))
      .catch((error: unknown) => log.error({ err: error }, 'online backup requests could not be read'));
  };
  process.on('SIGUSR2', onSignal);
  return () => process.off('SIGUSR2', onSignal);
}
