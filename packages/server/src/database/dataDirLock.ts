/**
 * One process at a time on an embedded database directory: two PGlite instances writing the same
 * files would corrupt them. The lock is a file holding the owner's process id; a lock left by a
 * process that no longer runs (crash, power cut) is taken over.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

export interface DataDirLock {
  release(): void;
}

/** Directories this process holds (a lock file naming our own pid may be from an earlier life of it). */
const heldHere = new Set<string>();

export function lockDataDir(dataDir: string): DataDirLock {
  const lockFile = `${dataDir}.lock`;
  if (heldHere.has(lockFile)) throw new Error(`${dataDir} is already open in this process`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, `${process.pid}\n`, { flag: 'wx' });
      heldHere.add(lockFile);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          heldHere.delete(lockFile);
          rmSync(lockFile, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(readOwner(lockFile), 10);
      if (Number.isInteger(owner) && owner !== process.pid && isRunning(owner)) {
        throw new Error(
          `another Nemuri Monitor process (pid ${owner}) is using ${dataDir}; stop it first (or delete ${lockFile} if that process is not Nemuri Monitor)`,
          { cause: error },
        );
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`cannot lock ${dataDir}: ${lockFile} keeps coming back`);
}

function readOwner(lockFile: string): string {
  try {
    return readFileSync(lockFile, 'utf8').trim();
  } catch {
    return '';
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
