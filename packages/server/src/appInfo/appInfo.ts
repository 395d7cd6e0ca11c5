/**
 * GET /api/app-info: what the sign-in page may know before anyone signs in: the version, whether
 * this installation holds the demo data set, and which social providers it offers.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { AppInfoResponse, SocialProviderId } from '@nemuri/shared/appInfo';
import { APP_VERSION } from '@nemuri/shared/version';
import { hasDemoData } from '../database/appMeta.ts';
import type { Database } from '../database/database.ts';

export interface AppInfoPluginOptions {
  database: Database;
  socialProviders?: readonly SocialProviderId[];
}

export const appInfoPlugin: FastifyPluginAsync<AppInfoPluginOptions> = async (app, { database, socialProviders = [] }) => {
  app.get('/api/app-info', async (): Promise<AppInfoResponse> => ({ version: APP_VERSION, demo: await hasDemoData(database), socialProviders: [...socialProviders] }));
};
