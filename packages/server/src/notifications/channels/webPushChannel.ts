/**
 * Web Push (RFC 8030) with VAPID (RFC 8292) and aes128gcm payload encryption (RFC 8291,
 * pushEncryption.ts, in worker threads: pushEncryptionPool.ts). The VAPID header is signed once per push service and reused for
 * 11 of its 12 hours (signing each of 1,000 requests would cost more than encrypting them), and
 * requests go out through node:https with kept-alive connections (httpPost.ts; http for a stand-in
 * push service in tests).
 *
 * `Topic` is the alert's tag: a push service keeps only the newest undelivered message per topic,
 * and a device shows one notification per tag, so a message sent twice (a crash between the push
 * service's answer and the queue's record) replaces itself. A subscription the push service calls
 * gone (404, 410) is deleted. The `web-push` library (VAPID signing) is loaded on first use: a
 * server (or a worktree whose packages predate it) starts without it.
 *
 * An alert reaches 1,000 staff in one batch (`sendAll`): their subscriptions are read in one query,
 * all its messages handed to the encryption workers at once, then posted by a bounded pool of
 * lanes as their bodies come back (a message that could not be encrypted — a bad key, a worker that
 * died — is a failed attempt, tried again later like a refused connection), and the subscriptions' bookkeeping
 * (last success, failures, gone) written in one statement per outcome afterwards — a read and a
 * write per row used to hold the pool on the database (bench:notify).
 */
import { createHash } from 'node:crypto';
import type * as WebPush from 'web-push';
import type { PushMessage } from '@nemuri/shared/notifications';
import type { Queryable } from '../../database/database.ts';
import type { ClaimedNotification } from '../deliveryQueue.ts';
import { isPushEndpointAllowed } from '../targets.ts';
import type { VapidKeys } from '../vapidKeys.ts';
import { httpPost, keptAliveAgents } from './httpPost.ts';
import { PushEncryptionPool } from './pushEncryptionPool.ts';
import { REQUEST_TIMEOUT_MS, refused, resultOfError, resultOfStatus, type Channel, type SendResult, type TimedResult } from './channel.ts';

export interface WebPushOptions {
  db: Queryable;
  keys: () => Promise<VapidKeys>;
  /** `mailto:` or https URL naming the operator (VAPID `sub`). */
  subject: () => Promise<string>;
  extraOrigins: readonly string[];
  now: () => number;
}

interface SubscriptionRow {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** The parts of `web-push` used here (the library itself is loaded on first use). */
type WebPushLibrary = Pick<typeof WebPush, 'getVapidHeaders'>;

/** Connections per push service: beyond the worker's concurrency (64) they would only wait. */
const MAX_CONNECTIONS = 64;
const JWT_LIFETIME_SEC = 12 * 3600;
const JWT_REUSE_MS = 11 * 3600 * 1000;

/** Topic: at most 32 URL-safe characters. */
export function topicOf(tag: string): string {
  return createHash('sha256').update(tag).digest('base64url').slice(0, 32);
}

export function webPushChannel({ db, keys, subject, extraOrigins, now }: WebPushOptions): Channel {
  // Connections to each push service stay open for the next alert (TLS handshakes cost more than the requests).
  const agents = keptAliveAgents(MAX_CONNECTIONS);
  const encryption = new PushEncryptionPool();
  // The signing in progress is shared: 64 lanes starting at once on a cold cache sign once, not 64 times.
  const signed = new Map<string, { authorization: Promise<string>; since: number; until: number }>();
  let loaded: Promise<WebPushLibrary> | undefined;
  const library = () =>
    (loaded ??= import('web-push').then(
      (module) => module.default,
      (error: unknown) => {
        loaded = undefined;
        throw error;
      },
    ));
  const sign = async (audience: string): Promise<string> => {
    const { publicKey, privateKey } = await keys();
    const headers = (await library()).getVapidHeaders(
      audience,
      await subject(),
      publicKey,
      privateKey,
      'aes128gcm',
      Math.floor(now() / 1000) + JWT_LIFETIME_SEC,
    );
    return headers.Authorization;
  };
  const authorizationFor = (audience: string): Promise<string> => {
    const cached = signed.get(audience);
    // A clock set back (NTP, a fake clock) would keep a token whose expiry lies beyond what push services accept: sign anew.
    if (cached !== undefined && cached.since <= now() && cached.until > now()) return cached.authorization;
    const authorization = sign(audience);
    const entry = { authorization, since: now(), until: now() + JWT_REUSE_MS };
    signed.set(audience, entry);
    // A failed signing is not kept: the next request tries again.
    authorization.catch(() => {
      if (signed.get(audience) === entry) signed.delete(audience);
    });
    return authorization;
  };

  /** Posts one encrypted message; `gone` when the push service says the subscription is no more. */
  const post = async (
    subscription: SubscriptionRow,
    notification: ClaimedNotification,
    encrypted: Promise<Buffer | Error>,
  ): Promise<SendResult & { gone?: boolean }> => {
    const message = notification.payload.message as PushMessage;
    const urgent = notification.payload.urgent === true;
    try {
      const body = await encrypted;
      if (body instanceof Error) throw body;
      const answer = await httpPost(new URL(subscription.endpoint), {
        headers: {
          authorization: await authorizationFor(new URL(subscription.endpoint).origin),
          'content-encoding': 'aes128gcm',
          'content-type': 'application/octet-stream',
          ttl: String(urgent ? 3600 : 600),
          urgency: urgent ? 'high' : 'normal',
          topic: topicOf(message.tag),
        },
        body,
        timeoutMs: REQUEST_TIMEOUT_MS,
        agents,
      });
      if (answer.status === 404 || answer.status === 410)
        return { ...refused(`the push service says the subscription is gone (HTTP ${answer.status})`, answer.status), gone: true };
      return resultOfStatus(answer.status, answer.body);
    } catch (error) {
      return resultOfError(error);
    }
  };

  const sendAll = async (notifications: readonly ClaimedNotification[], concurrency: number): Promise<Map<number, TimedResult>> => {
    const results = new Map<number, TimedResult>();
    if (notifications.length === 0) return results;
    // One read for the batch, not one per row: each row's subscription, still its recipient's.
    const { rows } = await db.query<SubscriptionRow & { id: string; user_id: string }>(
      'select id, user_id, endpoint, p256dh, auth from notify_push_subscriptions where id = any($1::text[])',
      [[...new Set(notifications.map((notification) => notification.destination))]],
    );
    const subscriptions = new Map(rows.map((row) => [row.id, row]));
    const usable = (notification: ClaimedNotification) => {
      const subscription = subscriptions.get(notification.destination);
      return subscription === undefined || subscription.user_id !== notification.recipient ? undefined : subscription;
    };
    // Every message to the workers now, so the posts are not held up by encryption (an error is settled here, not left unhandled).
    const encrypted = notifications.map((notification) => {
      const subscription = usable(notification);
      if (subscription === undefined || !isPushEndpointAllowed(subscription.endpoint, extraOrigins)) return null;
      return encryption
        .encrypt({ p256dh: subscription.p256dh, auth: subscription.auth, payload: JSON.stringify(notification.payload.message) })
        .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    });
    const succeeded: string[] = [];
    const failed: string[] = [];
    const gone: string[] = [];
    let next = 0;
    const lane = async () => {
      for (let index = next++; index < notifications.length; index = next++) {
        const notification = notifications[index] as ClaimedNotification;
        const started = performance.now();
        const subscription = usable(notification);
        const body = encrypted[index] ?? null;
        let result: SendResult & { gone?: boolean };
        if (subscription === undefined) result = refused('the subscription was removed');
        else if (body === null) result = refused('the endpoint is not a known push service');
        else {
          result = await post(subscription, notification, body);
          (result.gone === true ? gone : result.ok ? succeeded : failed).push(subscription.id);
        }
        results.set(notification.id, {
          ok: result.ok,
          statusCode: result.statusCode,
          error: result.error,
          retry: result.retry,
          durationMs: performance.now() - started,
        });
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, notifications.length)) }, lane));
    // And one write per outcome for the batch.
    await Promise.all([
      // The device list shows the last success to the minute; rewriting 1,000 rows every alert would not change what it says.
      succeeded.length === 0
        ? null
        : db.query(
            `update notify_push_subscriptions set last_success_at = now(), failures = 0
              where id = any($1::text[]) and (failures > 0 or last_success_at is null or last_success_at < now() - interval '1 minute')`,
            [succeeded],
          ),
      failed.length === 0 ? null : db.query('update notify_push_subscriptions set failures = failures + 1 where id = any($1::text[])', [failed]),
      gone.length === 0 ? null : db.query('delete from notify_push_subscriptions where id = any($1::text[])', [gone]),
    ]);
    return results;
  };

  return {
    sendAll,
    close: () => encryption.close(),
    async send(notification: ClaimedNotification): Promise<SendResult> {
      const result = (await sendAll([notification], 1)).get(notification.id);
      return result === undefined ? refused('not sent') : { ok: result.ok, statusCode: result.statusCode, error: result.error, retry: result.retry };
    },
  };
}
