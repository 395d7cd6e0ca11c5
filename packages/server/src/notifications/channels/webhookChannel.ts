/**
 * The domain's signed webhook (docs/security.md "Webhook signature"): a JSON POST with
 *   X-Nemuri-Timestamp: <unix seconds>
 *   X-Nemuri-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>
 *   X-Nemuri-Delivery:  <queue id> (the same on every retry: receivers drop copies by it)
 * The body is fixed when queued, so every retry sends the same bytes; the timestamp and signature
 * are those of the attempt, so a receiver can refuse old replays.
 *
 * Every request checks the address again (targets.ts `webhookRefusal`) and connects only to the
 * addresses its own look-up checked (`guardedLookup`): an address that leads inside the network by
 * now (DNS rebinding) is refused, not retried, and says so in the delivery log.
 */
import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import { WEBHOOK_HEADERS } from '@nemuri/shared/notifications';
import type { Queryable } from '../../database/database.ts';
import type { ClaimedNotification } from '../deliveryQueue.ts';
import { guardedLookup, InsideNetworkError, isInsideAddress, isWebhookAllowed, systemResolver, type HostResolver } from '../targets.ts';
import { REQUEST_TIMEOUT_MS, refused, resultOfError, resultOfStatus, type Channel, type SendResult } from './channel.ts';
import { httpPost } from './httpPost.ts';

export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export function webhookChannel(db: Queryable, extraOrigins: readonly string[], now: () => number, resolve: HostResolver = systemResolver): Channel {
  const lookup = guardedLookup(resolve);
  return {
    async send(notification: ClaimedNotification): Promise<SendResult> {
      const { rows } = await db.query<{ url: string | null; secret: string | null }>(
        `select settings ->> 'webhookUrl' as url, webhook_secret as secret from notify_domain_settings where domain_id = $1`,
        [notification.domainId],
      );
      const url = rows[0]?.url ?? null;
      const secret = rows[0]?.secret ?? null;
      if (url === null || secret === null) return refused('the domain has no webhook');
      if (!isWebhookAllowed(url, extraOrigins)) return refused('the webhook address is not allowed');
      const target = new URL(url);
      // The operator's explicit exceptions (NOTIFY_EXTRA_ORIGINS) go wherever they lead; every other host is checked.
      const trusted = extraOrigins.includes(target.origin);
      // An address literal is connected to without a look-up: checked here.
      const literal = target.hostname.replace(/^\[|\]$/g, '');
      if (!trusted && isIP(literal) !== 0 && isInsideAddress(literal)) return refused(`${literal} is inside the network`);
      const body = JSON.stringify({ delivery: notification.id, ...notification.payload });
      const timestamp = String(Math.floor(now() / 1000));
      try {
        const answer = await httpPost(target, {
          headers: {
            'content-type': 'application/json',
            [WEBHOOK_HEADERS.timestamp]: timestamp,
            [WEBHOOK_HEADERS.signature]: webhookSignature(secret, timestamp, body),
            [WEBHOOK_HEADERS.delivery]: String(notification.id),
          },
          body,
          timeoutMs: REQUEST_TIMEOUT_MS,
          ...(trusted ? {} : { lookup }),
        });
        return resultOfStatus(answer.status, answer.body);
      } catch (error) {
        if (error instanceof InsideNetworkError) return refused(error.message);
        return resultOfError(error);
      }
    },
  };
}
