/** Picks the database the configuration names: embedded PGlite, or PostgreSQL at DATABASE_URL. */
import type { Config } from '../config.ts';
import type { Database } from './database.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgresql.ts';

export interface OpenDatabaseOptions {
  /** PostgreSQL only: confine the connections to this schema (tests). */
  searchPath?: string;
}

export function openDatabase(config: Pick<Config, 'database'>, options: OpenDatabaseOptions = {}): Promise<Database> {
  const { database } = config;
  if (database.kind === 'pglite') return openPglite(database.dataDir);
  return openPostgres({ url: database.url, ...options });
}
