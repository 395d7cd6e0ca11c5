/**
 * The `documents` service (docs/architecture.md, "Services"): the server's one document store and
 * the change feed its writes go to, as `app.documents` and `app.changeFeed`. Every capability reads
 * and writes records through this store, so scope, level guards, the collection rules and the feed
 * apply the same way everywhere, and every listener (live results, room directory, notifications,
 * staff rules) hears every write. On PostgreSQL the feed also listens for other processes' writes
 * from the app's start to its close.
 */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../database/database.ts';
import { ChangeFeed } from './changeFeed.ts';
import { DocumentStore, type Logger } from './store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The document engine (documents/store.ts): the one store of this process. */
    documents: DocumentStore;
    /** Committed changes of records, this process's and (PostgreSQL) other processes' (documents/changeFeed.ts). */
    changeFeed: ChangeFeed;
  }
}

export interface DocumentServices {
  store: DocumentStore;
  changeFeed: ChangeFeed;
}

/**
 * The store and its feed over a database. server.ts makes them before the app (device ingest starts
 * first and writes device states through the store); a tool without a server makes its own.
 */
export function createDocumentServices(database: Database, log: Logger): DocumentServices {
  const changeFeed = new ChangeFeed(database);
  return { store: new DocumentStore(database, log, changeFeed), changeFeed };
}

/**
 * The `documents` service plugin over `made` (server.ts makes it before the app), or over a store
 * made here on `app.database`. A test replaces it with another plugin named `documents` (app.ts).
 */
export function documentServicesPlugin(made?: DocumentServices): FastifyPluginAsync {
  return fp(
    async (app) => {
      const { store, changeFeed } = made ?? createDocumentServices(app.database, app.log);
      app.decorate('documents', store);
      app.decorate('changeFeed', changeFeed);
      // Other processes' changes (PostgreSQL): listening starts with the server and ends before the
      // database closes (server.ts closes the app first).
      app.addHook('onReady', async () => {
        await changeFeed.start(app.log);
      });
      app.addHook('onClose', async () => {
        await changeFeed.stop();
      });
    },
    { name: 'documents', dependencies: ['database'] },
  );
}
