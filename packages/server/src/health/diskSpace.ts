/**
 * Free space on the data directory's file system (statfs), for readiness and /metrics: a disk that
 * is nearly full makes every write fail soon (PGlite's files, uploads), so the server stops counting
 * as ready before that happens rather than after.
 */
import { statfs } from 'node:fs/promises';

export interface DiskSpace {
  freeBytes: number;
  sizeBytes: number;
}

/** Nearly full: less free than this share of the disk or this many bytes, whichever is smaller. */
export const DISK_NEARLY_FULL = { share: 0.05, bytes: 512 * 1024 * 1024 };

/** How long one reading is reused (a scrape and a ready check in the same moment ask once). */
const READ_EVERY_MS = 2000;

export class DiskSpaceProbe {
  readonly #dir: string;
  #last: { at: number; reading: Promise<DiskSpace> } | undefined;

  constructor(dir: string) {
    this.#dir = dir;
  }

  get dir(): string {
    return this.#dir;
  }

  read(nowMs = Date.now()): Promise<DiskSpace> {
    if (this.#last === undefined || nowMs - this.#last.at > READ_EVERY_MS) {
      const reading = statfs(this.#dir).then((stats) => ({ freeBytes: stats.bavail * stats.bsize, sizeBytes: stats.blocks * stats.bsize }));
      // A failed reading is not kept: the next check asks again.
      reading.catch(() => (this.#last = undefined));
      this.#last = { at: nowMs, reading };
    }
    return this.#last.reading;
  }
}

/** The free space under which the disk counts as nearly full. */
export function nearlyFullBelow(sizeBytes: number): number {
  return Math.min(DISK_NEARLY_FULL.bytes, sizeBytes * DISK_NEARLY_FULL.share);
}

export function isNearlyFull({ freeBytes, sizeBytes }: DiskSpace): boolean {
  return freeBytes < nearlyFullBelow(sizeBytes);
}
