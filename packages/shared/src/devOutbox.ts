/**
 * GET /api/dev/outbox (server mail/outbox.ts): the development outbox, the mail the server kept
 * instead of sending when no SMTP_URL is set, newest first. System admins only.
 */
import { z } from 'zod/v3';

export const DEV_OUTBOX_PATH = '/api/dev/outbox';

export const outboxMailSchema = z
  .object({
    id: z.number().int(),
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    /** ISO 8601. */
    sentAt: z.string(),
  })
  .strict();
export type OutboxMail = z.infer<typeof outboxMailSchema>;

export const outboxResponseSchema = z.object({ mails: z.array(outboxMailSchema) }).strict();
export type OutboxResponse = z.infer<typeof outboxResponseSchema>;
