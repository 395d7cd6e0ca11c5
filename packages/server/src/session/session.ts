/**
 * GET /api/me: who is signed in, from the Better Auth session cookie: `{ user: SignedInUser }`,
 * or `{ user: null }` when nobody is (no cookie, an ended or unknown session).
 */
import { currentUserResponseSchema, type CurrentUserResponse } from '@nemuri/shared/user';
import fp from 'fastify-plugin';
import type { Auth } from '../auth/auth.ts';
import { sessionOf } from '../auth/principal.ts';
import { phoneNumberOf } from '../account/accountPlugin.ts';
import { toSignedInUser } from '../auth/signedInUser.ts';

export interface SessionPluginOptions {
  auth: Auth | Promise<Auth>;
}

export const sessionPlugin = fp<SessionPluginOptions>(
  async (app, { auth }) => {
    const { database } = app;
    const secondFactor = app.secondFactor;
    app.get(
      '/api/me',
      { schema: { summary: 'Who is signed in: `{ user }`, null when nobody is', response: { 200: currentUserResponseSchema } } },
      async (request, reply): Promise<CurrentUserResponse> => {
        const session = await sessionOf(auth, request, reply);
        if (session === null) return { user: null };
        const context = await (await auth).$context;
        const accounts = await context.internalAdapter.findAccounts(session.user.id);
        return { user: toSignedInUser(session, accounts, await secondFactor.requires(session.user.domainId), await phoneNumberOf(database, session.user.id)) };
      },
    );
  },
  { name: 'session', dependencies: ['database', 'secondFactor', 'principal'], encapsulate: true },
);
