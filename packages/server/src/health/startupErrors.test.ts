/**
 * Start-up on a data directory that cannot hold the data (issue 25), on real file systems: a
 * read-only mount and a tiny tmpfs (mounted by the test, so it needs root; elsewhere these are
 * skipped, loudly). The start fails with one sentence naming the cause, and leaves no half-built
 * database behind.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireForFaults, SKIP_FAULTS } from '../ingest/testing.ts';
import { loadConfig } from '../config.ts';
import { startServer } from '../server.ts';

const run = promisify(execFile);
const ROOT = userInfo().uid === 0;
if (!ROOT) console.warn('\n*** not root: the start-up tests on a read-only and a full file system (tmpfs mounts) are SKIPPED ***\n');

const mounted: string[] = [];

async function mountTmpfs(options: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'nemuri-mount-'));
  await run('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]);
  mounted.push(dir);
  return dir;
}

afterEach(async () => {
  for (const dir of mounted.splice(0)) {
    await run('umount', [dir]).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
});

function configFor(dataDir: string) {
  return loadConfig({ PORT: '0', HOST: '127.0.0.1', MQTT_PORT: '0', DATA_DIR: dataDir, DEMO: '0', SIMULATE: '0', WEB_DIST: join(dataDir, 'no-web') });
}

describe.skipIf(SKIP_FAULTS)('starting on a data directory that cannot hold the data', () => {
  beforeAll(() => requireForFaults(!!ROOT, 'root (it mounts a small tmpfs)'));
  it('names a read-only file system', { timeout: 60_000 }, async () => {
    const dir = await mountTmpfs('ro,size=1m');
    await expect(startServer(configFor(join(dir, 'data')), { logger: false })).rejects.toThrow(/read-only file system .*mount it read-write or set DATA_DIR/);
    await expect(startServer(configFor(dir), { logger: false })).rejects.toThrow(/is on a read-only file system \(writing a test file\)/);
  });

  it('names a full disk, and removes the half-built database', { timeout: 120_000 }, async () => {
    const dir = await mountTmpfs('size=8m');
    await expect(startServer(configFor(dir), { logger: false })).rejects.toThrow(/no space left on the disk of .*pglite .*the half-built database was removed/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('names a disk with no room even for a small file', { timeout: 60_000 }, async () => {
    const dir = await mountTmpfs('size=32k');
    await expect(startServer(configFor(dir), { logger: false })).rejects.toThrow(
      /no space left on the disk of .* \(writing a test file\): free some space or set DATA_DIR/,
    );
    expect(await readdir(dir)).toEqual([]);
  });
});
