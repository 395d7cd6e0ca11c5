/**
 * The server process: `node --import tsx packages/server/src/main.ts`, or, built to
 * packages/server/dist/main.mjs (scripts/serverBuild.mjs), imported by
 * scripts/start.mjs (`npm start`). Importing this module starts the server: tests and other code
 * use `startServer` from server.ts instead. Reads the configuration, starts the server, prints one
 * line when it is ready, and shuts down cleanly on SIGTERM/SIGINT (a second signal, or a shutdown
 * longer than 10 s, ends the process at once with code 1). A failed start prints one line and
 * exits with code 1.
 */
import { APP_VERSION } from '@nemuri/shared/version';
import { loadConfig, type Config } from './config.ts';
import type { RunningServer } from './server.ts';

const SHUTDOWN_TIMEOUT_MS = 10_000;
/**
 * Ctrl+C under `npm start` arrives twice (from the terminal and forwarded by npm): a repeat this
 * soon is the same request, not an impatient second one.
 */
const REPEATED_SIGNAL_MS = 1_000;

function readyLine(config: Config, server: Pick<RunningServer, 'url' | 'database'>): string {
  const data = config.database.kind === 'pglite' && config.database.dataDir === null ? 'memory://' : config.dataDir;
  return `Nemuri Monitor ${APP_VERSION} ready at ${server.url} (database: ${server.database.kind}, data: ${data})`;
}

async function main(env: NodeJS.ProcessEnv): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    failStart(error);
  }

  // Loaded once the configuration is known good, so that a bad one is reported at once.
  const starting = import('./server.ts').then(({ startServer }) => startServer(config));
  let shuttingDown = false;
  let firstSignalAt = 0;
  const shutDown = (signal: NodeJS.Signals): void => {
    if (shuttingDown) {
      if (Date.now() - firstSignalAt < REPEATED_SIGNAL_MS) return;
      console.error(`Nemuri Monitor: ${signal} again, exiting without finishing the shutdown`);
      process.exit(1);
    }
    shuttingDown = true;
    firstSignalAt = Date.now();
    console.log(`Nemuri Monitor: ${signal} received, shutting down`);
    setTimeout(() => {
      console.error(`Nemuri Monitor: shutdown took more than ${SHUTDOWN_TIMEOUT_MS / 1000} s, exiting`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    starting
      .then((server) => server.stop())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(`Nemuri Monitor: shutdown failed: ${describe(error)}`);
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', shutDown);
  process.on('SIGINT', shutDown);

  let server: RunningServer;
  try {
    server = await starting;
  } catch (error) {
    failStart(error);
  }
  if (config.database.kind === 'pglite' && config.database.dataDir !== null) {
    // Loaded here, not at the top: a bad configuration is reported before anything else loads.
    const { listenForBackupRequests } = await import('./backup/onlineBackup.ts');
    listenForBackupRequests(server.database, config.dataDir, server.app.log);
  }
  if (!shuttingDown) console.log(readyLine(config, server));
}

function failStart(error: unknown): never {
  console.error(`Nemuri Monitor could not start: ${describe(error)}`);
  process.exit(1);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

await main(process.env);
