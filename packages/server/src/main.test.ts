/** The real process: `node --import tsx packages/server/src/main.ts`, started, signalled and restarted. */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APP_VERSION } from '@nemuri/shared/version';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAppMeta } from './database/appMeta.ts';
import { appliedMigrations } from './database/migrate.ts';
import { MIGRATIONS } from './database/migrations.ts';
import { openPglite } from './database/pglite.ts';
import { makeTempDir, makeTestWebDist, type TempDir } from './testing/webDist.ts';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const READY = /^Nemuri Monitor (\S+) ready at (http:\/\/127\.0\.0\.1:(\d+)) \(database: (\w+), data: (.+)\)$/m;

interface ServerProcess {
  child: ChildProcess;
  output(): { stdout: string; stderr: string };
  /** Resolves with the ready line's URL; rejects if the process ends first. */
  ready(timeoutMs?: number): Promise<{ url: string; match: RegExpMatchArray }>;
  exit(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: ChildProcess[] = [];

function runMain(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: REPO_ROOT,
    // Empty values count as unset: the developer's own settings must not leak in.
    env: { ...process.env, DATABASE_URL: '', DEMO: '', MQTT_URL: '', SMTP_URL: '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  const describeOutput = () => `\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`;

  return {
    child,
    output: () => ({ stdout, stderr }),
    ready(timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ready line within ${timeoutMs} ms${describeOutput()}`)), timeoutMs);
        const check = () => {
          const match = READY.exec(stdout);
          if (match?.[2] === undefined) return;
          clearTimeout(timer);
          child.stdout?.off('data', check);
          resolve({ url: match[2], match });
        };
        child.stdout?.on('data', check);
        check();
        void exited.then(({ code }) => {
          clearTimeout(timer);
          reject(new Error(`the server ended with code ${code} before it was ready${describeOutput()}`));
        });
      });
    },
    exit(timeoutMs = 10_000) {
      return Promise.race([
        exited,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still running after ${timeoutMs} ms${describeOutput()}`)), timeoutMs)),
      ]);
    },
  };
}

async function health(url: string): Promise<unknown> {
  const response = await fetch(`${url}/api/health`);
  expect(response.status).toBe(200);
  return response.json();
}

afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe('main.ts', () => {
  let dataDir: TempDir;
  let webDist: TempDir;
  beforeAll(async () => {
    dataDir = await makeTempDir('nemuri-data-');
    webDist = await makeTestWebDist();
  });
  afterAll(async () => {
    await dataDir?.remove();
    await webDist?.remove();
  });

  it('starts, shuts down cleanly on SIGTERM and SIGINT, and keeps its data', { timeout: 90_000 }, async () => {
    const env = { DATA_DIR: dataDir.path, WEB_DIST: webDist.path };

    const first = runMain(env);
    const { url, match } = await first.ready();
    expect(match[0]).toBe(`Nemuri Monitor ${APP_VERSION} ready at ${url} (database: pglite, data: ${dataDir.path})`);
    expect(await health(url)).toEqual({ status: 'ok', version: APP_VERSION, database: 'pglite' });

    // At once: a second process on the same data directory is refused before it touches the
    // files, and another server wanting the same port says so.
    const port = match[3] ?? '';
    const intruder = runMain(env);
    const samePort = runMain({ DATABASE_URL: 'memory://', WEB_DIST: webDist.path, PORT: port });
    expect(await intruder.exit()).toEqual({ code: 1, signal: null });
    expect(intruder.output().stderr.trim()).toMatch(
      new RegExp(`^Nemuri Monitor could not start: another Nemuri Monitor process \\(pid ${first.child.pid}\\) is using ${join(dataDir.path, 'pglite')};`),
    );
    expect(await samePort.exit(30_000)).toEqual({ code: 1, signal: null });
    expect(samePort.output().stderr.trim()).toBe(
      `Nemuri Monitor could not start: port ${port} on 127.0.0.1 is already in use: stop the other server or set PORT`,
    );

    first.child.kill('SIGTERM');
    expect(await first.exit(5_000)).toEqual({ code: 0, signal: null });
    expect(first.output().stdout).toContain('SIGTERM received, shutting down');
    expect(existsSync(join(dataDir.path, 'pglite.lock'))).toBe(false);

    const second = runMain(env);
    const again = await second.ready();
    expect(await health(again.url)).toEqual({ status: 'ok', version: APP_VERSION, database: 'pglite' });
    // Ctrl+C under `npm start`: the terminal and npm both deliver it.
    second.child.kill('SIGINT');
    second.child.kill('SIGINT');
    expect(await second.exit(5_000)).toEqual({ code: 0, signal: null });

    const database = await openPglite(join(dataDir.path, 'pglite'));
    try {
      expect(await appliedMigrations(database)).toEqual(MIGRATIONS.map((migration) => migration.id));
      expect(await readAppMeta(database)).toMatchObject({ startCount: 2 });
    } finally {
      await database.close();
    }
  });

  it('refuses a bad configuration with one clear line and code 1', async () => {
    const server = runMain({ PORT: 'abc', DATA_DIR: dataDir.path });
    expect(await server.exit()).toEqual({ code: 1, signal: null });
    expect(server.output().stderr).toBe(
      'Nemuri Monitor could not start: invalid configuration: PORT must be a whole number from 0 to 65535 (0 picks a free port), got "abc"\n',
    );
  });

  it('says so when PostgreSQL cannot be reached', async () => {
    const server = runMain({ DATABASE_URL: 'postgres://nobody:pw@127.0.0.1:1/nemuri', DATA_DIR: dataDir.path });
    expect(await server.exit()).toEqual({ code: 1, signal: null });
    expect(server.output().stderr).toMatch(
      /^Nemuri Monitor could not start: cannot reach PostgreSQL at postgres:\/\/nobody:\*\*\*@127\.0\.0\.1:1\/nemuri: connect ECONNREFUSED 127\.0\.0\.1:1\n$/,
    );
  });
});
