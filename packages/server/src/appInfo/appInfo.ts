/**
 * GET /api/app-info: what the sign-in page may know before anyone signs in: the version, and
 * whether this installation holds the demo data set (then the page lists the demo accounts).
 */
import type { FastifyPluginAsync } from 'fastify';
import { APP_VERSION } from '@nemuri/shared/version';
import { hasDemoData } from '../database/appMeta.ts';
import type { Database } from '../database/database.ts';

export interface AppInfoResponse {
  version: string;
  demo: boolean;
}

export const appInfoPlugin: FastifyPluginAsync<{ database: Database }> = async (app, { database }) => {
  app.get('/api/app-info', async (): Promise<AppInfoResponse> => ({ version: APP_VERSION, demo: await hasDemoData(database) }));
};
