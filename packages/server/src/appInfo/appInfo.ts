/**
 * GET /api/app-info: what the sign-in page may know before anyone signs in: the version, whether
 * this installation holds the demo data set, and which social providers it offers.
 */
import fp from 'fastify-plugin';
import { appInfoResponseSchema, type AppInfoResponse, type SocialProviderId } from '@nemuri/shared/appInfo';
import { APP_VERSION } from '@nemuri/shared/version';
import { hasDemoData } from '../database/appMeta.ts';

export interface AppInfoPluginOptions {
  socialProviders?: readonly SocialProviderId[];
}

export const appInfoPlugin = fp<AppInfoPluginOptions>(
  async (app, { socialProviders = [] }) => {
    const { database } = app;
    app.get(
      '/api/app-info',
      { schema: { summary: 'What the sign-in page may know', response: { 200: appInfoResponseSchema } } },
      async (): Promise<AppInfoResponse> => ({
        version: APP_VERSION,
        demo: await hasDemoData(database),
        socialProviders: [...socialProviders],
      }),
    );
  },
  { name: 'appInfo', dependencies: ['database'], encapsulate: true },
);
