/**
 * GET /api/me: who is signed in. Nobody can sign in yet, so it answers `{ user: null }`; the
 * sign-in issue mounts Better Auth under /api/auth and fills this from its session.
 */
import type { CurrentUserResponse } from '@nemuri/shared/user';
import type { FastifyPluginAsync } from 'fastify';

export const sessionPlugin: FastifyPluginAsync = async (app) => {
  app.get('/api/me', async (): Promise<CurrentUserResponse> => ({ user: null }));
};
