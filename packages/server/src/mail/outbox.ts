/**
 * GET /api/dev/outbox: the development outbox (mail kept instead of sent when SMTP_URL is not
 * set), newest first, as `{ mails: OutboxMail[] }`. System admins only (level 200): 401
 * `unauthenticated` signed out, 403 `permission-denied` for everyone else.
 */
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import fp from 'fastify-plugin';
import { sendError } from '../http/errors.ts';
import { listOutbox, type OutboxMail } from './mail.ts';

export interface OutboxResponse {
  mails: OutboxMail[];
}

export const outboxPlugin = fp(
  async (app) => {
    const { database } = app;
    app.get('/api/dev/outbox', async (request, reply) => {
      if (request.principal === null) return sendError(reply, 401, 'unauthenticated', 'sign in first');
      if (request.principal.accessLevel < ROLE_LEVELS.systemAdmin) return sendError(reply, 403, 'permission-denied', 'system admins only');
      const body: OutboxResponse = { mails: await listOutbox(database) };
      return body;
    });
  },
  { name: 'outbox', dependencies: ['database', 'principal'], encapsulate: true },
);
