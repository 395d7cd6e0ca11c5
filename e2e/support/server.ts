import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The built web app the test servers serve; E2E_WEB_DIST points a parallel checkout's run at its own build. */
export const WEB_DIST = process.env.E2E_WEB_DIST ?? join(REPO_ROOT, 'packages/web/dist');

export interface RunningServer {
  url: string;
  dataDir: string;
  output: () => string;
  stop: () => Promise<number | null>;
}

export interface ServerOptions {
  env?: Record<string, string>;
  /** Keep the data directory after stopping (the caller removes it). */
  keepData?: boolean;
  dataDir?: string;
}

/** Starts the real server the way `npm start` does, on a free port, and waits for its ready line. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'nemuri-e2e-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '0', DATABASE_URL: '', WEB_DIST, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const url = await new Promise<string>((resolve, reject) => {
    // A busy shared machine may need longer (E2E_SERVER_READY_SECONDS).
    const seconds = Number(process.env.E2E_SERVER_READY_SECONDS ?? 60);
    const timer = setTimeout(() => reject(new Error(`server did not get ready in ${seconds} s:\n${log}`)), seconds * 1000);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      const match = /ready at (http:\/\/\S+)/.exec(log);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1].replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before it was ready:\n${log}`));
    });
  });

  return {
    url,
    dataDir,
    output: () => log,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      if (!options.keepData && !options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
