// The real recordings of ../shared/data (beside the repository: /work/shared/data next to /work/main,
// and in CI a fresh clone with shared/ beside it). Missing data fails the tests loudly, never skips.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** packages/parser/src/testing/ → ../../../../../shared/data/ = <repository>/../shared/data/ */
export const DATA_DIR = new URL('../../../../../shared/data/', import.meta.url);

export function dataFile(relative: string, dataDir: URL = DATA_DIR): Uint8Array {
  const dir = fileURLToPath(dataDir);
  if (!existsSync(dir)) {
    throw new Error(
      `Test data folder not found: looked for ${dir} (the shared/data folder beside the repository, "../shared/data" from its root). The parser tests need those real recordings.`,
    );
  }
  const path = fileURLToPath(new URL(relative, dataDir));
  if (!existsSync(path)) throw new Error(`Test data file not found: ${path}`);
  const bytes = readFileSync(path);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
