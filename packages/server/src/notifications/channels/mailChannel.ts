/** Mail through the server's mailer (SMTP_URL, or the development outbox). */
import type { Mailer } from '../../mail/mail.ts';
import type { ClaimedNotification } from '../deliveryQueue.ts';
import { refused, resultOfError, sent, type Channel, type SendResult } from './channel.ts';

export function mailChannel(mail: Promise<Mailer> | undefined): Channel {
  return {
    async send(notification: ClaimedNotification): Promise<SendResult> {
      if (mail === undefined) return refused('no mail is configured');
      const { to, subject, text } = notification.payload as { to?: unknown; subject?: unknown; text?: unknown };
      if (typeof to !== 'string' || typeof subject !== 'string' || typeof text !== 'string') return refused('the mail has no address');
      try {
        await (await mail).send({ to, subject, text });
        return sent();
      } catch (error) {
        return resultOfError(error);
      }
    },
  };
}
