/**
 * A demo start (server.ts) loads the demo data set after creating the demo accounts, logs one line,
 * and a second start on the same data directory finds it there. Under Vitest the set is loaded
 * only on request (NEMURI_DEMO_DATA=1, see demoDataWanted).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.ts';
import { startServer } from '../server.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';

let dir: TempDir;

beforeAll(async () => {
  dir = await makeTempDir('nemuri-demo-start-');
  vi.stubEnv('NEMURI_DEMO_DATA', '1');
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await dir?.remove();
});

async function start(): Promise<{ lines: string[]; rooms: number; stop(): Promise<void> }> {
  const lines: string[] = [];
  const server = await startServer(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', MQTT_PORT: '0', DATA_DIR: dir.path, DEMO: '1', SIMULATE: '0', WEB_DIST: join(dir.path, 'no-web') }),
    { logger: { write: (line) => lines.push(line) } },
  );
  const { rows } = await server.database.query<{ n: number }>(`select count(*)::int as n from documents where collection = 'rooms'`);
  return { lines, rooms: rows[0]?.n ?? 0, stop: () => server.stop() };
}

// Two whole starts on a database on disk, the first loading every demo record: ~10 s on a quiet
// machine, over 30 s on a loaded one.
it('loads the demo data set once, at the first demo start', { timeout: 180_000 }, async () => {
  const first = await start();
  await first.stop();
  expect(first.rooms).toBe(24);
  expect(first.lines.join('\n')).toMatch(
    /demo data: 7 domains, 24 staff, 24 rooms, 30 devices, 660 sleep days, \d+ alerts, \d+ records in all written in \d+ ms/,
  );
  const second = await start();
  await second.stop();
  expect(second.rooms).toBe(24);
  expect(second.lines.join('\n')).toMatch(/demo data: already there \(7 domains, 24 staff/);
});
