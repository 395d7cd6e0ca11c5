/**
 * The HTTP application: every plugin is registered here, in one place. Building it touches no
 * network; `startServer` (server.ts) opens the database and listens.
 */
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './database/database.ts';
import { healthPlugin } from './health/health.ts';
import { errorsPlugin } from './http/errors.ts';
import { securityHeadersPlugin } from './http/securityHeaders.ts';
import { sessionPlugin } from './session/session.ts';
import { webAppPlugin } from './webApp/webApp.ts';

/** Where log lines (JSON, one per line) go instead of standard output. */
export interface LogDestination {
  write(line: string): void;
}

export interface BuildAppOptions {
  config: Pick<Config, 'webDist' | 'logLevel'>;
  database: Database;
  /** true or absent: log to standard output at config.logLevel; false: no logging; or a destination. */
  logger?: boolean | LogDestination;
}

export async function buildApp({ config, database, logger = true }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger === false ? false : { level: config.logLevel, ...(logger === true ? {} : { stream: logger }) },
    // A line per request drowns what matters at info level; debug and trace bring them back.
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
  });

  await app.register(securityHeadersPlugin);
  await app.register(errorsPlugin);
  await app.register(healthPlugin, { database });
  await app.register(sessionPlugin);
  // Last: it answers everything the plugins above do not.
  await app.register(webAppPlugin, { webDist: config.webDist });
  return app;
}
