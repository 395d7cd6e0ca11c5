/**
 * Outgoing mail. With SMTP_URL, mail goes through nodemailer to that server; without it, to the
 * development outbox: each mail is logged (one line: to and subject) and kept in the `dev_outbox`
 * table, which system admins list at GET /api/dev/outbox (outbox.ts).
 */
import { PRODUCT_NAME_JA } from '@nemuri/shared/constants';
import { createTransport } from 'nodemailer';
import type { Database } from '../database/database.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Where mail goes: 'smtp' or the development outbox. */
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
}

export interface MailLogger {
  info(details: object, message: string): void;
}

export interface CreateMailerOptions {
  /** SMTP_URL (smtp: or smtps:); null: the development outbox. */
  smtpUrl: string | null;
  database: Database;
  /** The sender address, e.g. `ねむりモニター <no-reply@example.com>`. */
  from: string;
  logger?: MailLogger;
}

/**
 * The sender for mail of the installation at publicUrl: no-reply at its host name, named as the
 * product is named to its users. Nodemailer writes the Japanese name as an RFC 2047 encoded word
 * (`=?UTF-8?B?…?=`), so the header stays ASCII for every mail server on the way.
 */
export function senderOf(publicUrl: string): string {
  const host = new URL(publicUrl).hostname.replace(/^\[|\]$/g, '');
  const domain = /^[\d.:]+$/.test(host) || !host.includes('.') ? 'localhost.localdomain' : host;
  return `${PRODUCT_NAME_JA} <no-reply@${domain}>`;
}

export function createMailer({ smtpUrl, database, from, logger }: CreateMailerOptions): Mailer {
  if (smtpUrl !== null) {
    const transport = createTransport(smtpUrl);
    return {
      kind: 'smtp',
      async send(message) {
        await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text, textEncoding: 'base64' });
        logger?.info({ to: message.to, subject: message.subject }, 'mail sent');
      },
    };
  }
  return {
    kind: 'outbox',
    async send(message) {
      await database.query('insert into dev_outbox (recipient, subject, body) values ($1, $2, $3)', [message.to, message.subject, message.text]);
      logger?.info({ to: message.to, subject: message.subject }, `mail to the development outbox: ${message.to} ${message.subject}`);
    },
  };
}

/** A mail in the development outbox, as GET /api/dev/outbox lists it (shared devOutbox.ts). */
import type { OutboxMail } from '@nemuri/shared/devOutbox';
export type { OutboxMail };

/** The development outbox, newest first. */
export async function listOutbox(database: Database, limit = 100): Promise<OutboxMail[]> {
  const { rows } = await database.query<{ id: number; recipient: string; subject: string; body: string; created_at: Date }>(
    'select id, recipient, subject, body, created_at from dev_outbox order by id desc limit $1',
    [limit],
  );
  return rows.map((row) => ({ id: Number(row.id), to: row.recipient, subject: row.subject, text: row.body, sentAt: new Date(row.created_at).toISOString() }));
}
