/**
 * LINE Messaging API push messages (`POST /v2/bot/message/push`) to a staff member who linked the
 * facility's official account, with the domain's channel access token. LINE_API_URL (default
 * https://api.line.me) points tests at a stand-in. `X-Line-Retry-Key` is derived from the queue
 * row, so a message sent again after a crash is recognised by LINE (409: accepted already).
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../../database/database.ts';
import type { ClaimedNotification } from '../deliveryQueue.ts';
import { REQUEST_TIMEOUT_MS, refused, resultOfError, resultOfStatus, sent, type Channel, type SendResult } from './channel.ts';

export const DEFAULT_LINE_API_URL = 'https://api.line.me';

/** A UUID (the format LINE requires) that is the same for every attempt of one notification. */
export function retryKeyOf(notification: Pick<ClaimedNotification, 'alertId' | 'step' | 'recipient'>): string {
  const hex = createHash('sha256').update(`${notification.alertId}\n${notification.step}\n${notification.recipient}\nline`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function lineChannel(db: Queryable, apiUrl: string): Channel {
  return {
    async send(notification: ClaimedNotification): Promise<SendResult> {
      const { rows } = await db.query<{ line_token: string | null }>('select line_token from notify_domain_settings where domain_id = $1', [
        notification.domainId,
      ]);
      const token = rows[0]?.line_token ?? null;
      if (token === null) return refused('the domain has no LINE channel access token');
      const { to, text } = notification.payload as { to?: unknown; text?: unknown };
      if (typeof to !== 'string' || typeof text !== 'string') return refused('no LINE user id');
      try {
        const response = await fetch(new URL('/v2/bot/message/push', apiUrl), {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-line-retry-key': retryKeyOf(notification) },
          body: JSON.stringify({ to, messages: [{ type: 'text', text: text.slice(0, 5000) }] }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const body = await response.text();
        // 409 with a retry key: LINE accepted this very message before.
        if (response.status === 409) return sent(409);
        return resultOfStatus(response.status, body);
      } catch (error) {
        return resultOfError(error);
      }
    },
  };
}
