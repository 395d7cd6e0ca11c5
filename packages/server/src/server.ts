/**
 * Starting and stopping one server: open the database, migrate it, record the start, build the
 * app and listen. Used by main.ts and by tests, which listen on port 0.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildAppOptions } from './app.ts';
import { resolveDemo, type Config } from './config.ts';
import { recordStart, type StartRecord } from './database/appMeta.ts';
import type { Database } from './database/database.ts';
import { migrate } from './database/migrate.ts';
import { openDatabase } from './database/open.ts';

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  /** Where the server answers, e.g. `http://127.0.0.1:3000` (the real port when PORT is 0). */
  url: string;
  port: number;
  start: StartRecord;
  /** Whether the demo data set is due at this start (loading it is a later issue). */
  demo: boolean;
  /** Stops accepting, waits for requests in flight, then closes the database. Safe to call twice. */
  stop(): Promise<void>;
}

export interface StartServerOptions {
  /** See BuildAppOptions.logger. */
  logger?: BuildAppOptions['logger'];
}

export async function startServer(config: Config, options: StartServerOptions = {}): Promise<RunningServer> {
  const database = await openDatabase(config);
  let app: FastifyInstance | undefined;
  try {
    await migrate(database);
    const start = await recordStart(database);
    const demo = resolveDemo(config.demo, { embedded: database.kind === 'pglite', firstStart: start.firstStart });
    app = await buildApp({ config, database, ...(options.logger === undefined ? {} : { logger: options.logger }) });
    await listen(app, config);
    const { port } = app.server.address() as AddressInfo;
    const url = `http://${displayHost(config.host)}:${port}`;
    const running = app;
    let stopping: Promise<void> | undefined;
    const stop = (): Promise<void> => {
      stopping ??= (async () => {
        try {
          await running.close();
        } finally {
          await database.close();
        }
      })();
      return stopping;
    };
    return { app: running, database, url, port, start, demo, stop };
  } catch (error) {
    await app?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw error;
  }
}

async function listen(app: FastifyInstance, config: Pick<Config, 'host' | 'port'>): Promise<void> {
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new Error(`port ${config.port} on ${config.host} is already in use: stop the other server or set PORT`, { cause: error });
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new Error(`cannot listen on HOST ${config.host}: no such address here`, { cause: error });
    if (code === 'EACCES') throw new Error(`not allowed to listen on port ${config.port}: use a port above 1023`, { cause: error });
    throw error;
  }
}

/** The host to show in URLs: a wildcard address means "this machine". */
export function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]') return 'localhost';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
