/**
 * The data disk filling up under ingest (issue 25), on a real file system: the embedded database on
 * a small tmpfs (mounted by the test, so it needs root; elsewhere skipped, loudly) filled by a file
 * while devices publish. Readiness must turn false, ingest must resume within 10 s of space coming
 * back, and no acknowledged frame may be lost.
 */
import { execFile } from 'node:child_process';
import { open, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { CountingDevice, countFault, eventually, pastMinute, storedSequences } from './faultTesting.ts';
import { registerDevice, requireForFaults, SKIP_FAULTS, signedInClient, startIngestServer, uniqueSerial, type IngestTestServer } from './testing.ts';

const run = promisify(execFile);
const ROOT = userInfo().uid === 0;
if (!ROOT) console.warn('\n*** not root: the disk-full test (a tmpfs mount) is SKIPPED ***\n');

/** Writes zeros into `path` until the disk is full; returns the bytes written. */
async function fill(path: string): Promise<number> {
  const file = await open(path, 'w');
  const block = Buffer.alloc(1024 * 1024);
  let written = 0;
  try {
    for (;;) {
      const { bytesWritten } = await file.write(block);
      written += bytesWritten;
      if (bytesWritten < block.byteLength) break;
    }
  } catch {
    // ENOSPC: full.
  } finally {
    await file.close();
  }
  return written;
}

describe.skipIf(SKIP_FAULTS)('the data disk filling up under ingest (a small tmpfs)', () => {
  beforeAll(() => requireForFaults(!!ROOT, 'root (it mounts a small tmpfs)'));
  let dir: string;
  let base: IngestTestServer | undefined;
  afterAll(async () => {
    await base?.stop();
    if (dir !== undefined) {
      await run('umount', [dir]).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('turns not ready, resumes within 10 s of space coming back, and loses no acknowledged frame', { timeout: 600_000 }, async () => {
    dir = await mkdtemp(join(tmpdir(), 'nemuri-full-'));
    await run('mount', ['-t', 'tmpfs', '-o', 'size=256m', 'tmpfs', dir]);
    base = await startIngestServer({ DATABASE_URL: '' }, join(dir, 'data'));
    const url = base.server.url;
    const startMs = pastMinute();
    const serials = Array.from({ length: 3 }, (_, i) => uniqueSerial(`full${i}`));
    for (const serial of serials) await registerDevice(base.server, serial, 'full-secret', DEMO_DOMAINS.facilityA);
    const devices = await Promise.all(serials.map((serial) => CountingDevice.connect({ url: base!.server.mqttUrl, serial, secret: 'full-secret', startMs })));
    const filler = join(dir, 'filler');
    try {
      for (const device of devices) device.start();
      await eventually(() => devices.every((device) => device.acked.size >= 20) || undefined, 'frames acknowledged before the disk fills', 30_000);
      await fill(filler);
      const notReady = await eventually(
        async () => {
          const response = await fetch(`${url}/api/health/ready`);
          const body = (await response.json()) as { checks: Record<string, string> };
          return response.status === 503 && body.checks.disk === 'down' ? body : undefined;
        },
        'readiness turning false with the disk check down',
        20_000,
        200,
      );
      expect(notReady.checks.disk).toBe('down');
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await rm(filler);
      const backAt = Date.now();
      const resumedAt = await eventually(
        () => {
          const firsts = devices.map((device) => device.firstAckAfter(backAt));
          return firsts.every((at) => at !== null) ? Math.max(...(firsts as number[])) : undefined;
        },
        'every device acknowledged again',
        30_000,
      );
      await eventually(async () => ((await fetch(`${url}/api/health/ready`)).status === 200 ? true : undefined), 'ready again', 30_000, 200);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await Promise.all(devices.map((device) => device.stop()));
      const browser = await signedInClient(base.server, 'staff@example.com');
      const stored = new Map<string, Set<number>>();
      for (const device of devices) stored.set(device.serial, await storedSequences(url, browser.cookieHeader, device.serial, startMs, startMs + 60_000));
      const figures = countFault('data disk (tmpfs, embedded PGlite) filled up under ingest, then space freed', devices, stored, resumedAt - backAt);
      expect(figures.lost).toBe(0);
      expect(figures.resumeMs).toBeLessThan(10_000);
      for (const device of devices) expect(device.acked.size).toBe(device.sent);
    } finally {
      await rm(filler, { force: true });
      await Promise.all(devices.map((device) => device.close()));
    }
  });
});
