/**
 * Alerts that reach staff away from the station (issue 20; docs/api.md "Notifications"). Owns the
 * notification service (notificationService.ts) and these routes, all under /api/notifications:
 *
 *   GET    /vapid-public-key                    → { publicKey }                 (signed in)
 *   GET    /preferences, PUT /preferences       the caller's channels, alert types, quiet hours, LINE id (staff 2–5)
 *   GET    /subscriptions, POST /subscriptions  the caller's push subscriptions (devices); `replaces`: a renewed one
 *   DELETE /subscriptions/:id                   the caller's own only (else 404)
 *   POST   /test                                a test notification on the caller's channels
 *   POST   /alerts/:alertId/acknowledge         acknowledge (the service worker's 確認), through the document engine
 *   GET    /alerts/:alertId/escalation          the alert's steps and deliveries (staff who may read the alert)
 *   GET|PUT /domains/:domainId/settings         escalation, privacy, rate limit, LINE token, webhook (administrators 3+)
 *   POST   /domains/:domainId/webhook-secret    a new webhook secret, shown once
 *   GET    /domains/:domainId/deliveries        the delivery log, paged (?before=&limit=)
 *   GET    /domains/:domainId/shifts?from=&days=, PUT /domains/:domainId/shifts/:day/:shift   the on-duty schedule
 *
 * Out of scope answers 404 like missing; wrong levels 403; every body and query is a shared zod schema.
 */
import fp from 'fastify-plugin';
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod/v3';
import { isAgencyLevel, type Claims } from '@nemuri/shared/documents/access';
import { DocumentError } from '@nemuri/shared/documents/errors';
import {
  alertAcknowledgedSchema,
  alertEscalationViewSchema,
  DEFAULT_PREFERENCES,
  deliveryPageQuery,
  deliveryPageViewSchema,
  domainSettingsInput,
  domainSettingsViewSchema,
  NOTIFICATIONS_API,
  notificationPreferencesSchema,
  pushSubscriptionInput,
  pushSubscriptionsSchema,
  shiftInput,
  shiftParams,
  shiftRangeQuery,
  shiftScheduleSchema,
  shiftViewSchema,
  testNotificationSchema,
  type AlertEscalationView,
  type DeliveryAttemptView,
  type DeliveryPageView,
  type DeliveryView,
  type DomainSettingsView,
  type EscalationStepView,
  type PushMessage,
  type PushSubscriptionView,
  type ShiftView,
  vapidPublicKeySchema,
  webhookSecretSchema,
} from '@nemuri/shared/notifications';
import { errorResponses } from '@nemuri/shared/apiErrors';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { Queryable } from '../database/database.ts';
import { ApiError } from '../http/errors.ts';
import type { ZodTypeProvider } from '../http/zodRouteSchemas.ts';
import { acknowledgeAlert } from '../monitoring/acknowledgeAlert.ts';
import { senderOf, type Mailer } from '../mail/mail.ts';
import type { Principal } from '../auth/signedInUser.ts';
import { lineChannel, DEFAULT_LINE_API_URL } from './channels/lineChannel.ts';
import { mailChannel } from './channels/mailChannel.ts';
import { webhookChannel } from './channels/webhookChannel.ts';
import { webPushChannel } from './channels/webPushChannel.ts';
import { enqueue, type QueuedNotification } from './deliveryQueue.ts';
import { NotificationService } from './notificationService.ts';
import { domainSettingsOf, preferencesOf } from './notificationSettings.ts';
import { TEST_BODY, TEST_TITLE } from './notificationTexts.ts';
import { staffOf } from './recipients.ts';
import { extraOriginsFrom, isPushEndpointAllowed, systemResolver, webhookRefusal, type HostResolver } from './targets.ts';
import { vapidKeysOf, type VapidKeys } from './vapidKeys.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Escalation and delivery of alert notifications (notifications/notificationService.ts). */
    notifications: NotificationService;
  }
}

export interface NotificationsPluginOptions {
  mail?: Promise<Mailer>;
  /** Where links in mail point (PUBLIC_URL, or the server's own address once it listens). */
  publicUrl?: Promise<string>;
  /** Settings from the environment (default process.env): NOTIFY_EXTRA_ORIGINS, LINE_API_URL, VAPID_SUBJECT. */
  env?: Record<string, string | undefined>;
  /** Time source (tests with a fake clock). */
  now?: () => number;
  /** Whether the service runs its own timer (default true; tests with a fake clock call tick()). */
  autoStart?: boolean;
  /** Resolves webhook hosts (default the system resolver; tests give names their own addresses). */
  resolveHost?: HostResolver;
}

/** A person keeps at most this many devices; a new one beyond replaces the oldest. */
const MAX_SUBSCRIPTIONS = 10;
/** One test notification per person in this time. */
const TEST_INTERVAL_MS = 10_000;

const domainParams = z.object({ domainId: z.string() });
const alertParams = z.object({ alertId: z.string() });

function signedIn(principal: Principal | null): Principal {
  if (principal === null) throw new ApiError(401, 'unauthenticated', 'Sign in first');
  return principal;
}

/** Staff of a facility (2–5): the people alerts are for. */
function staff(principal: Principal | null): Principal {
  const caller = signedIn(principal);
  if (caller.accessLevel < ROLE_LEVELS.generalStaff || isAgencyLevel(caller) || caller.accessLevel >= ROLE_LEVELS.developer)
    throw new ApiError(403, 'permission-denied', 'Notifications are for facility staff');
  return caller;
}

const notFound = () => new ApiError(404, 'not-found', 'Not found');
const isoOf = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

// Not encapsulated: `app.notifications` is the server's (tests drive the service through it).
export const notificationsPlugin = fp<NotificationsPluginOptions>(
  async (app: FastifyInstance, options) => {
    const { database } = app;
    const env = options.env ?? process.env;
    const now = options.now ?? Date.now;
    const extraOrigins = extraOriginsFrom(env);
    const resolveHost = options.resolveHost ?? systemResolver;
    const store = app.documents;
    let keys: Promise<VapidKeys> | undefined;
    const vapid = () =>
      (keys ??= vapidKeysOf(database).catch((error: unknown) => {
        keys = undefined;
        throw error;
      }));
    const publicUrl = async () => (await options.publicUrl) ?? 'http://localhost';
    // VAPID `sub`: the operator's contact (Apple's push service refuses a localhost one).
    const subject = async () => env.VAPID_SUBJECT ?? `mailto:${/<(.+)>/.exec(senderOf(await publicUrl()))?.[1] ?? 'no-reply@localhost.localdomain'}`;
    const service = new NotificationService({
      database,
      changeFeed: app.changeFeed,
      log: app.log,
      now,
      publicUrl,
      channels: {
        push: webPushChannel({ db: database, keys: vapid, subject, extraOrigins, now }),
        mail: mailChannel(options.mail),
        line: lineChannel(database, env.LINE_API_URL ?? DEFAULT_LINE_API_URL),
        webhook: webhookChannel(database, extraOrigins, now, resolveHost),
      },
    });
    app.decorate('notifications', service);
    if (options.autoStart !== false) {
      app.addHook('onReady', async () => service.start());
      app.addHook('onClose', () => service.stop());
    }

    /** The domain, when the caller administers it (3+, not an agency); else 404 or 403. */
    const administered = async (principal: Principal | null, domainId: string): Promise<Principal> => {
      const caller = signedIn(principal);
      if (isAgencyLevel(caller)) throw notFound();
      const found = await store.get(caller as Claims, `domains/${domainId}`).catch((error: unknown) => {
        if (error instanceof DocumentError) return null;
        throw error;
      });
      if (found === null) throw notFound();
      if (caller.accessLevel < ROLE_LEVELS.administrator) throw new ApiError(403, 'permission-denied', 'Administrators only');
      return caller;
    };

    /** The alert, when the caller may read it (staff levels); else 404. */
    const readableAlert = async (principal: Principal | null, alertId: string) => {
      const caller = signedIn(principal);
      if (!/^[A-Za-z0-9_-]{1,128}$/.test(alertId) || caller.accessLevel < ROLE_LEVELS.generalStaff || isAgencyLevel(caller)) throw notFound();
      const found = await store.get(caller as Claims, `alerts/${alertId}`).catch((error: unknown) => {
        if (error instanceof DocumentError) return null;
        throw error;
      });
      if (found === null) throw notFound();
      return { caller, alert: found.document };
    };

    const base = NOTIFICATIONS_API;
    const api = app.withTypeProvider<ZodTypeProvider>();

    app.get(
      `${base}/vapid-public-key`,
      { schema: { summary: 'The Web Push application server key', response: { 200: vapidPublicKeySchema, ...errorResponses(401) } } },
      async (request) => {
        signedIn(request.principal);
        return { publicKey: (await vapid()).publicKey };
      },
    );

    app.get(
      `${base}/preferences`,
      { schema: { summary: "The signed-in user's notification preferences", response: { 200: notificationPreferencesSchema, ...errorResponses(401, 403) } } },
      async (request, reply) => {
        const { uid } = staff(request.principal);
        reply.header('cache-control', 'no-store');
        return (await preferencesOf(database, [uid])).get(uid) ?? DEFAULT_PREFERENCES;
      },
    );

    api.put(
      `${base}/preferences`,
      {
        schema: {
          summary: "Sets the signed-in user's notification preferences",
          body: notificationPreferencesSchema,
          response: { 200: notificationPreferencesSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => {
        const { uid } = staff(request.principal);
        const preferences = request.body;
        await database.query(
          `insert into notify_preferences (user_id, preferences) values ($1, $2::jsonb) on conflict (user_id) do update set preferences = excluded.preferences, updated_at = now()`,
          [uid, JSON.stringify(preferences)],
        );
        return preferences;
      },
    );

    const subscriptionsOf = async (uid: string): Promise<PushSubscriptionView[]> => {
      const { rows } = await database.query<{ id: string; label: string | null; endpoint: string; created_at: Date; last_success_at: Date | null }>(
        'select id, label, endpoint, created_at, last_success_at from notify_push_subscriptions where user_id = $1 order by created_at desc',
        [uid],
      );
      return rows.map((row) => ({
        id: row.id,
        label: row.label,
        service: new URL(row.endpoint).host,
        createdAt: new Date(row.created_at).toISOString(),
        lastSuccessAt: isoOf(row.last_success_at),
      }));
    };

    app.get(
      `${base}/subscriptions`,
      { schema: { summary: "The signed-in user's push subscriptions", response: { 200: pushSubscriptionsSchema, ...errorResponses(401, 403) } } },
      async (request, reply) => {
        const { uid } = staff(request.principal);
        reply.header('cache-control', 'no-store');
        return { subscriptions: await subscriptionsOf(uid) };
      },
    );

    api.post(
      `${base}/subscriptions`,
      {
        schema: {
          summary: 'Registers a Web Push subscription',
          body: pushSubscriptionInput,
          response: { 200: pushSubscriptionsSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => {
        const { uid } = staff(request.principal);
        const input = request.body;
        if (!isPushEndpointAllowed(input.endpoint, extraOrigins)) throw new ApiError(400, 'invalid-argument', 'endpoint: not a known push service');
        await database.transaction(async (tx) => {
          if (input.replaces !== undefined && input.replaces !== input.endpoint) {
            // The browser renewed this device's subscription: the same device (id, label, queued
            // notifications) on the new endpoint. Someone else's endpoint is left alone.
            const { rowCount } = await tx.query(
              `update notify_push_subscriptions set endpoint = $3, p256dh = $4, auth = $5, label = coalesce($6, label), failures = 0
            where endpoint = $1 and user_id = $2 and not exists (select 1 from notify_push_subscriptions where endpoint = $3)`,
              [input.replaces, uid, input.endpoint, input.keys.p256dh, input.keys.auth, input.label ?? null],
            );
            if ((rowCount ?? 0) > 0) return;
            await tx.query('delete from notify_push_subscriptions where endpoint = $1 and user_id = $2', [input.replaces, uid]);
          }
          // An endpoint is one browser: whoever subscribes it last receives on it.
          await tx.query(
            `insert into notify_push_subscriptions (id, user_id, endpoint, p256dh, auth, label) values ($1, $2, $3, $4, $5, $6)
         on conflict (endpoint) do update set user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth, label = excluded.label, failures = 0`,
            [randomUUID(), uid, input.endpoint, input.keys.p256dh, input.keys.auth, input.label ?? null],
          );
          await tx.query(
            `delete from notify_push_subscriptions where user_id = $1 and id not in (select id from notify_push_subscriptions where user_id = $1 order by created_at desc limit $2)`,
            [uid, MAX_SUBSCRIPTIONS],
          );
        });
        return { subscriptions: await subscriptionsOf(uid) };
      },
    );

    app.delete<{ Params: { id: string } }>(
      `${base}/subscriptions/:id`,
      {
        schema: {
          summary: 'Removes one of the signed-in user’s push subscriptions',
          response: { 200: pushSubscriptionsSchema, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => {
        const { uid } = staff(request.principal);
        const { rowCount } = await database.query('delete from notify_push_subscriptions where id = $1 and user_id = $2', [request.params.id, uid]);
        if ((rowCount ?? 0) === 0) throw notFound();
        return { subscriptions: await subscriptionsOf(uid) };
      },
    );

    app.post(
      `${base}/test`,
      {
        schema: {
          summary: 'Sends a test notification on the caller’s channels (one per 10 seconds)',
          response: { 200: testNotificationSchema, ...errorResponses(401, 403, 412, 429) },
        },
      },
      async (request) => {
        const caller = staff(request.principal);
        if (caller.domainId === null) throw new ApiError(412, 'failed-precondition', 'No domain');
        const { rows: recent } = await database.query(
          'select 1 from notify_queue where recipient = $1 and alert_id like $2 and created_at > $3::timestamptz limit 1',
          [caller.uid, 'test-%', new Date(now() - TEST_INTERVAL_MS).toISOString()],
        );
        if (recent.length > 0) throw new ApiError(429, 'resource-exhausted', 'One test notification per 10 seconds');
        const preferences = (await preferencesOf(database, [caller.uid])).get(caller.uid) ?? DEFAULT_PREFERENCES;
        const me = (await staffOf(database, [caller.domainId])).find((member) => member.uid === caller.uid);
        const message: PushMessage = {
          kind: 'test',
          title: TEST_TITLE,
          body: TEST_BODY,
          tag: 'test',
          alertId: null,
          roomId: null,
          alertType: null,
          url: '/account-info',
          acknowledgeUrl: null,
        };
        const row = { alertId: `test-${randomUUID()}`, step: 0, recipient: caller.uid, domainId: caller.domainId };
        const rows: QueuedNotification[] = [];
        if (preferences.channels.push)
          for (const subscription of await subscriptionsOf(caller.uid))
            rows.push({ ...row, channel: 'push', destination: subscription.id, payload: { critical: true, message, urgent: false } });
        if (preferences.channels.mail && me !== undefined)
          rows.push({ ...row, channel: 'mail', destination: '', payload: { critical: true, to: me.email, subject: TEST_TITLE, text: `${TEST_BODY}\n` } });
        if (preferences.channels.line && preferences.lineUserId !== null)
          rows.push({ ...row, channel: 'line', destination: '', payload: { critical: true, to: preferences.lineUserId, text: `${TEST_TITLE}\n${TEST_BODY}` } });
        const queued = await enqueue(database, rows, now());
        void service.worker.wake();
        return { queued };
      },
    );

    api.post(
      `${base}/alerts/:alertId/acknowledge`,
      {
        schema: {
          summary: 'Acknowledges an alert (the notification’s 確認)',
          params: alertParams,
          response: { 200: alertAcknowledgedSchema, ...errorResponses(401, 404) },
        },
      },
      async (request) => {
        const { caller } = await readableAlert(request.principal, request.params.alertId);
        try {
          const { acknowledgedAt } = await acknowledgeAlert(store, caller as Claims, request.params.alertId);
          return { acknowledged: true as const, acknowledgedAt };
        } catch (error) {
          if (error instanceof DocumentError && (error.code === 'not-found' || error.code === 'permission-denied')) throw notFound();
          throw error;
        }
      },
    );

    api.get(
      `${base}/alerts/:alertId/escalation`,
      {
        schema: {
          summary: 'An alert’s escalation: its steps and deliveries',
          params: alertParams,
          response: { 200: alertEscalationViewSchema, ...errorResponses(401, 404) },
        },
      },
      async (request, reply) => {
        const { alert } = await readableAlert(request.principal, request.params.alertId);
        const alertId = request.params.alertId;
        const [{ rows: escalations }, { rows: steps }, { rows: deliveries }] = await Promise.all([
          database.query<{ opened_at: Date; closed_at: Date | null; closed_reason: string | null; next_step_at: Date | null }>(
            'select opened_at, closed_at, closed_reason, next_step_at from notify_escalations where alert_id = $1',
            [alertId],
          ),
          database.query<{ step: number; target: EscalationStepView['target']; at: Date; recipients: number }>(
            'select step, target, at, recipients from notify_escalation_steps where alert_id = $1 order by step',
            [alertId],
          ),
          database.query<DeliveryRow>(`select ${DELIVERY_COLUMNS} from notify_queue where alert_id = $1 order by id limit 500`, [alertId]),
        ]);
        const escalation = escalations[0];
        reply.header('cache-control', 'no-store');
        const view: AlertEscalationView = {
          alertId,
          openedAt: escalation === undefined ? String(alert.startedAt) : new Date(escalation.opened_at).toISOString(),
          closedAt: isoOf(escalation?.closed_at ?? null),
          closedReason: escalation?.closed_reason ?? null,
          nextStepAt: isoOf(escalation?.next_step_at ?? null),
          steps: steps.map((step) => ({ step: step.step, target: step.target, at: new Date(step.at).toISOString(), recipients: step.recipients })),
          deliveries: deliveries.map(deliveryView),
        };
        return view;
      },
    );

    api.get(
      `${base}/domains/:domainId/settings`,
      {
        schema: {
          summary: 'A domain’s notification settings (administrators)',
          params: domainParams,
          response: { 200: domainSettingsViewSchema, ...errorResponses(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await administered(request.principal, request.params.domainId);
        reply.header('cache-control', 'no-store');
        const view: DomainSettingsView = await domainSettingsOf(database, request.params.domainId);
        return view;
      },
    );

    api.put(
      `${base}/domains/:domainId/settings`,
      {
        schema: {
          summary: 'Sets a domain’s notification settings (administrators)',
          params: domainParams,
          body: domainSettingsInput,
          response: { 200: domainSettingsViewSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        await administered(request.principal, request.params.domainId);
        const { lineChannelAccessToken, ...settings } = request.body;
        const refusal = settings.webhookUrl === null ? null : await webhookRefusal(settings.webhookUrl, extraOrigins, resolveHost);
        if (refusal !== null) throw new ApiError(400, 'invalid-argument', `webhookUrl: ${refusal}`);
        await database.query(
          `insert into notify_domain_settings (domain_id, settings, line_token) values ($1, $2::jsonb, $3)
       on conflict (domain_id) do update set settings = excluded.settings, updated_at = now(),
         line_token = case when $4 then excluded.line_token else notify_domain_settings.line_token end`,
          [request.params.domainId, JSON.stringify(settings), lineChannelAccessToken ?? null, lineChannelAccessToken !== undefined],
        );
        const view: DomainSettingsView = await domainSettingsOf(database, request.params.domainId);
        return view;
      },
    );

    api.post(
      `${base}/domains/:domainId/webhook-secret`,
      {
        schema: {
          summary: 'A new webhook signing secret, shown once (administrators)',
          params: domainParams,
          response: { 200: webhookSecretSchema, ...errorResponses(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await administered(request.principal, request.params.domainId);
        const secret = randomBytes(32).toString('base64url');
        const current = await domainSettingsOf(database, request.params.domainId);
        const { lineConfigured: _line, webhookSecretSet: _secret, ...settings } = current;
        await database.query(
          `insert into notify_domain_settings (domain_id, settings, webhook_secret) values ($1, $2::jsonb, $3)
       on conflict (domain_id) do update set webhook_secret = excluded.webhook_secret, updated_at = now()`,
          [request.params.domainId, JSON.stringify(settings), secret],
        );
        reply.header('cache-control', 'no-store');
        return { secret };
      },
    );

    api.get(
      `${base}/domains/:domainId/deliveries`,
      {
        schema: {
          summary: 'Notification delivery log, paged',
          params: domainParams,
          querystring: deliveryPageQuery,
          response: { 200: deliveryPageViewSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        await administered(request.principal, request.params.domainId);
        const { before, limit } = request.query;
        const { rows } = await database.query<DeliveryRow>(
          `select ${DELIVERY_COLUMNS} from notify_queue where domain_id = $1 and ($2::bigint is null or id < $2) order by id desc limit $3`,
          [request.params.domainId, before ?? null, limit],
        );
        const ids = rows.map((row) => Number(row.id));
        const { rows: attempts } =
          ids.length === 0
            ? { rows: [] }
            : await database.query<AttemptRow>(
                'select id, queue_id, channel, attempt, at, ok, status_code, error, duration_ms from notify_attempts where queue_id = any($1::bigint[]) order by id',
                [ids],
              );
        reply.header('cache-control', 'no-store');
        const views: DeliveryView[] = rows.map(deliveryView);
        const attemptViews: DeliveryAttemptView[] = attempts.map((row) => ({
          id: Number(row.id),
          queueId: Number(row.queue_id),
          channel: row.channel,
          attempt: row.attempt,
          at: new Date(row.at).toISOString(),
          ok: row.ok,
          statusCode: row.status_code,
          error: row.error,
          durationMs: row.duration_ms,
        }));
        const recipientNames = await recipientNamesOf(
          database,
          request.params.domainId,
          views.map((view) => view.recipient),
        );
        const page: DeliveryPageView = {
          deliveries: views,
          attempts: attemptViews,
          recipientNames,
          nextBefore: rows.length === limit ? (ids[ids.length - 1] ?? null) : null,
        };
        return page;
      },
    );

    api.get(
      `${base}/domains/:domainId/shifts`,
      {
        schema: {
          summary: 'On-duty schedule',
          params: domainParams,
          querystring: shiftRangeQuery,
          response: { 200: shiftScheduleSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        await administered(request.principal, request.params.domainId);
        const { from, days } = request.query;
        const { rows } = await database.query<{ day: string; shift: ShiftView['shift']; assignments: ShiftView['assignments'] }>(
          `select to_char(day, 'YYYY-MM-DD') as day, shift, assignments from notify_shifts where domain_id = $1 and day >= $2::date and day < $2::date + $3::int order by day, shift`,
          [request.params.domainId, from, days],
        );
        const staffList = await staffOf(database, [request.params.domainId]);
        reply.header('cache-control', 'no-store');
        return {
          shifts: rows satisfies ShiftView[],
          staff: staffList.map((member) => ({ uid: member.uid, displayName: member.displayName, accessLevel: member.accessLevel })),
        };
      },
    );

    api.put(
      `${base}/domains/:domainId/shifts/:day/:shift`,
      {
        schema: {
          summary: 'Staff on duty for one shift',
          params: shiftParams.extend({ domainId: z.string() }),
          body: shiftInput,
          response: { 200: shiftViewSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const caller = await administered(request.principal, request.params.domainId);
        const { day, shift } = request.params;
        const { assignments } = request.body;
        const members = new Set((await staffOf(database, [request.params.domainId])).map((member) => member.uid));
        const unknown = assignments.find((assignment) => !members.has(assignment.uid));
        if (unknown !== undefined) throw new ApiError(400, 'invalid-argument', `assignments: ${unknown.uid} is not staff of this domain`);
        await database.query(
          `insert into notify_shifts (domain_id, day, shift, assignments, updated_by) values ($1, $2::date, $3, $4::jsonb, $5)
       on conflict (domain_id, day, shift) do update set assignments = excluded.assignments, updated_by = excluded.updated_by, updated_at = now()`,
          [request.params.domainId, day, shift, JSON.stringify(assignments), caller.uid],
        );
        const view: ShiftView = { day, shift, assignments };
        return view;
      },
    );
  },
  { name: 'notifications', dependencies: ['documents', 'principal'] },
);

interface DeliveryRow {
  id: string | number;
  alert_id: string;
  step: number;
  channel: DeliveryView['channel'];
  recipient: string;
  status: DeliveryView['status'];
  attempts: number;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
}

interface AttemptRow {
  id: string | number;
  queue_id: string | number;
  channel: DeliveryAttemptView['channel'];
  attempt: number;
  at: Date;
  ok: boolean;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

const DELIVERY_COLUMNS = 'id, alert_id, step, channel, recipient, status, attempts, last_error, created_at, sent_at';

/**
 * The display names of staff uids, looked up in the domain and its corporation (owners are staff of
 * the root domain): the log shows people, not ids. Disabled staff keep their name here.
 */
async function recipientNamesOf(database: Queryable, domainId: string, uids: readonly string[]): Promise<Record<string, string>> {
  const wanted = [...new Set(uids)].filter((uid) => uid !== 'domain');
  if (wanted.length === 0) return {};
  const { rows } = await database.query<{ id: string; name: unknown }>(
    `select s.id, s.data -> 'displayName' as name
       from documents s
      where s.id = any($2::text[])
        and s.collection = any(array['domains/' || $1::text || '/staff',
                                     'domains/' || coalesce((select d.root_domain_id from documents d where d.path = 'domains/' || $1::text), $1::text) || '/staff'])`,
    [domainId, wanted],
  );
  const names: Record<string, string> = {};
  for (const row of rows) if (typeof row.name === 'string' && row.name !== '') names[row.id] = row.name;
  return names;
}

function deliveryView(row: DeliveryRow): DeliveryView {
  return {
    id: Number(row.id),
    alertId: row.alert_id,
    step: row.step,
    channel: row.channel,
    recipient: row.recipient,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    createdAt: new Date(row.created_at).toISOString(),
    sentAt: isoOf(row.sent_at),
  };
}
