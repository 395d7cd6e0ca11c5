/**
 * The data directory checked before anything is written into it (issue 25): created if missing,
 * then a small file written, synced and removed, so that a start on a read-only, full or foreign
 * directory fails at once with one line naming the cause and what to do, instead of a misleading
 * `ENOENT … mkdir` or `[object Object]` from deep inside the embedded database, after it left
 * half-built files behind.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rm, statfs } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What a start-up check found, as one sentence for the operator. */
export class DataDirError extends Error {
  constructor(
    message: string,
    readonly code: string,
    options?: { cause: unknown },
  ) {
    super(message, options);
    this.name = 'DataDirError';
  }
}

/** How a file system error reads to an operator, naming `dir` and the cause. */
export function describeStorageError(error: unknown, dir: string, doing: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOSPC':
      return `no space left on the disk of ${dir} (${doing}): free some space or set DATA_DIR to a larger disk`;
    case 'EDQUOT':
      return `the disk quota of the server's user is used up on ${dir} (${doing}): raise it or free some space`;
    case 'EROFS':
      return `${dir} is on a read-only file system (${doing}): mount it read-write or set DATA_DIR to a writable directory`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied on ${dir} (${doing}): the server's user (uid ${process.getuid?.() ?? '?'}) must be able to write there; chown it or set DATA_DIR`;
    case 'ENOTDIR':
    case 'EEXIST':
      return `${dir} (or a parent) is a file, not a directory (${doing}): set DATA_DIR to a directory`;
    case 'EFBIG':
      return `a file in ${dir} reached the file size limit (${doing}): raise the limit (ulimit -f) for the server's user`;
    default:
      return `cannot use ${dir} (${doing}): ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * Node's recursive mkdir reports ENOENT when a parent is read-only or forbidden (the misleading
 * `ENOENT … mkdir` of issue 25): creating the first missing directory alone gives the real cause.
 */
async function realMkdirError(dir: string, error: unknown): Promise<unknown> {
  let missing = dir;
  while (dirname(missing) !== missing && !existsSync(dirname(missing))) missing = dirname(missing);
  try {
    await mkdir(missing);
  } catch (real) {
    return real;
  }
  return error;
}

/** Creates `dir` if needed and proves that the server can write there; a DataDirError says why not. */
export async function prepareDataDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    const real = await realMkdirError(dir, error);
    throw new DataDirError(describeStorageError(real, dir, 'creating the data directory'), (real as NodeJS.ErrnoException).code ?? 'unknown', { cause: error });
  }
  // A few kilobytes, as the first files of a database would be: a full disk fails here, not halfway.
  const probe = join(dir, `.write-check-${randomBytes(4).toString('hex')}`);
  try {
    const file = await open(probe, 'w');
    try {
      const size = 64 * 1024;
      const { bytesWritten } = await file.write(Buffer.alloc(size));
      // A nearly full disk may take part of it without an error.
      if (bytesWritten < size) throw Object.assign(new Error(`only ${bytesWritten} of ${size} bytes written`), { code: 'ENOSPC' });
      await file.sync();
    } finally {
      await file.close();
    }
  } catch (error) {
    throw new DataDirError(describeStorageError(error, dir, 'writing a test file'), (error as NodeJS.ErrnoException).code ?? 'unknown', { cause: error });
  } finally {
    await rm(probe, { force: true }).catch(() => undefined);
  }
}

/** Below this much free space a failed first start of the embedded database counts as "no space". */
const NEW_DATABASE_BYTES = 64 * 1024 * 1024;

/**
 * Opens the embedded database in `dir` with `openIt`; when that fails on a directory that was new or
 * empty, the half-built files are removed (the next start begins clean instead of failing on them),
 * and a disk left nearly full by the attempt is named as the cause (PGlite's own error then reads
 * `[object Object]`).
 */
export async function openWithoutLeftovers<T>(dir: string, openIt: () => Promise<T>): Promise<T> {
  const fresh = await readdir(dir).then(
    (entries) => entries.length === 0,
    () => true,
  );
  try {
    return await openIt();
  } catch (error) {
    const space = await statfs(dir).catch(() => null);
    if (fresh) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    const freeBytes = space === null ? null : space.bavail * space.bsize;
    if (fresh && freeBytes !== null && freeBytes < NEW_DATABASE_BYTES) {
      const leftover = '; the half-built database was removed';
      throw new DataDirError(
        `${describeStorageError(Object.assign(new Error('no space'), { code: 'ENOSPC' }), dir, `creating the embedded database: it needs about ${NEW_DATABASE_BYTES / 1024 / 1024} MiB, ${Math.floor(freeBytes / 1024)} KiB were free`)}${leftover}`,
        'ENOSPC',
        { cause: error },
      );
    }
    if (fresh) throw new Error(`${error instanceof Error ? error.message : String(error)} (the half-built database in ${dir} was removed)`, { cause: error });
    throw error;
  }
}
