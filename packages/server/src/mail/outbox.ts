/**
 * GET /api/dev/outbox: the development outbox (mail kept instead of sent when SMTP_URL is not
 * set), newest first, as `{ mails: OutboxMail[] }`. System admins only (level 200): 401
 * `unauthenticated` signed out, 403 `permission-denied` for everyone else.
 */
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import fp from 'fastify-plugin';
import { sendError } from '../http/errors.ts';
import { DEV_OUTBOX_PATH, outboxResponseSchema, type OutboxResponse } from '@nemuri/shared/devOutbox';
import { errorResponses } from '@nemuri/shared/apiErrors';
import { listOutbox } from './mail.ts';

export type { OutboxResponse } from '@nemuri/shared/devOutbox';

export const outboxPlugin = fp(
  async (app) => {
    const { database } = app;
    app.get(
      DEV_OUTBOX_PATH,
      {
        schema: {
          summary: 'The development outbox: mail kept instead of sent (no SMTP_URL), newest first (system admins)',
          response: { 200: outboxResponseSchema, ...errorResponses(401, 403) },
        },
      },
      async (request, reply) => {
        if (request.principal === null) return sendError(reply, 401, 'unauthenticated', 'sign in first');
        if (request.principal.accessLevel < ROLE_LEVELS.systemAdmin) return sendError(reply, 403, 'permission-denied', 'system admins only');
        const body: OutboxResponse = { mails: await listOutbox(database) };
        return body;
      },
    );
  },
  { name: 'outbox', dependencies: ['database', 'principal'], encapsulate: true },
);
