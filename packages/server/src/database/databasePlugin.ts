/**
 * The `database` service, the root of the server's core (docs/architecture.md, "Services"): the
 * one Database (PGlite or PostgreSQL) as `app.database`. server.ts (or a test) opens and closes it;
 * every other service and capability reaches it through the app.
 */
import fp from 'fastify-plugin';
import type { Database } from './database.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The product's database (database/database.ts). */
    database: Database;
  }
}

export interface DatabasePluginOptions {
  database: Database;
}

export const databasePlugin = fp<DatabasePluginOptions>(
  async (app, { database }) => {
    app.decorate('database', database);
  },
  { name: 'database' },
);
