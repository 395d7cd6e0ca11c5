/** The release note shown in help: the highest version among the `histories` records, the later date on a tie. */
export interface ReleaseNote {
  version: string;
  date: string;
  title: string;
  body: string;
}

/** Compares dotted versions part by part as numbers (`0.10.0` is after `0.9.9`). */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map((part) => Number.parseInt(part, 10) || 0);
  const right = b.split('.').map((part) => Number.parseInt(part, 10) || 0);
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

export function newestRelease<T extends ReleaseNote>(notes: readonly T[]): T | null {
  let newest: T | null = null;
  for (const note of notes) {
    if (newest === null) {
      newest = note;
      continue;
    }
    const byVersion = compareVersions(note.version, newest.version);
    if (byVersion > 0 || (byVersion === 0 && note.date > newest.date)) newest = note;
  }
  return newest;
}
