/**
 * A facility for notification tests on a bare database (PGlite in memory, or a PostgreSQL test
 * schema): a domain with two units, staff on each, an administrator and an owner, rooms, and the
 * notification service wired to real local stand-ins (push service, LINE, webhook receiver, the
 * development outbox for mail) with a fake clock.
 */
import {
  DEFAULT_DOMAIN_SETTINGS,
  DEFAULT_PREFERENCES,
  type DeliveryChannel,
  type DomainNotificationSettings,
  type NotificationPreferences,
  type ShiftAssignment,
} from '@nemuri/shared/notifications';
import { alertDocument } from '@nemuri/analysis/alerts';
import type { AlertTypeName } from '@nemuri/shared/monitoring';
import type { Database } from '../../database/database.ts';
import { DocumentStore, serverIdentity } from '../../documents/store.ts';
import { createMailer } from '../../mail/mail.ts';
import type { Channel } from '../channels/channel.ts';
import { lineChannel } from '../channels/lineChannel.ts';
import { mailChannel } from '../channels/mailChannel.ts';
import { webhookChannel } from '../channels/webhookChannel.ts';
import { webPushChannel } from '../channels/webPushChannel.ts';
import { NotificationService } from '../notificationService.ts';
import { vapidKeysOf } from '../vapidKeys.ts';
import { LineStandIn } from './lineStandIn.ts';
import { PushServiceStandIn } from './pushServiceStandIn.ts';
import { WebhookReceiver } from './webhookReceiver.ts';

export const DOMAIN = 'notify-facility';
export const ROOT = 'notify-corporation';
export const LINE_TOKEN = 'line-channel-access-token-for-tests';
export const STAFF = {
  unitA: { uid: 'u-staff-a', email: 'staff-a@example.com', level: 2, unit: 'A' },
  unitB: { uid: 'u-staff-b', email: 'staff-b@example.com', level: 2, unit: 'B' },
  admin: { uid: 'u-admin', email: 'admin-n@example.com', level: 3, unit: null },
  owner: { uid: 'u-owner', email: 'owner-n@example.com', level: 5, unit: null },
} as const;

const silent = { info: () => undefined, warn: () => undefined, error: (object: object, message: string) => console.error(message, object) };

export interface Harness {
  database: Database;
  store: DocumentStore;
  service: NotificationService;
  push: PushServiceStandIn;
  line: LineStandIn;
  webhook: WebhookReceiver;
  clock: { now: number };
  /** A push subscription of the stand-in, stored for the user. */
  subscribe(uid: string): Promise<string>;
  prefer(uid: string, preferences: Partial<NotificationPreferences>): Promise<void>;
  settings(settings: Partial<DomainNotificationSettings>, webhookSecret?: string): Promise<void>;
  onDuty(day: string, shift: 'day' | 'night', assignments: ShiftAssignment[]): Promise<void>;
  openAlert(roomId: string, type: AlertTypeName): Promise<string>;
  /** Advances the fake clock and runs a tick (escalation steps, then the queue). */
  advance(ms: number): Promise<void>;
  rows(channel?: DeliveryChannel): Promise<{ alert_id: string; step: number; recipient: string; channel: string; status: string; attempts: number }[]>;
  outbox(): Promise<{ recipient: string; subject: string; body: string }[]>;
  /** Back to the start: no alerts, notifications, settings, schedules or subscriptions; the clock at `start`. */
  reset(start: number): Promise<void>;
  close(): Promise<void>;
}

let alertCounter = 0;

export async function startHarness(database: Database, start: number, channels?: Partial<Record<DeliveryChannel, Channel>>): Promise<Harness> {
  const clock = { now: start };
  const now = () => clock.now;
  const store = new DocumentStore(database, silent);
  const me = serverIdentity('notify-test');
  const [push, line, webhook] = await Promise.all([PushServiceStandIn.start(), LineStandIn.start(LINE_TOKEN), WebhookReceiver.start()]);
  webhook.now = now;
  push.now = now;
  await store.set(me, `domains/${ROOT}`, { name: 'ねむり会', kind: 'corporation' }, false);
  await store.set(me, `domains/${DOMAIN}`, { name: 'ねむり園', kind: 'facility', parentDomainId: ROOT, rootDomainId: ROOT }, false);
  for (const member of Object.values(STAFF)) {
    const domain = member.level === 5 ? ROOT : DOMAIN;
    await store.set(me, `domains/${domain}/staff/${member.uid}`, { displayName: member.uid, email: member.email, accessLevel: member.level }, false);
  }
  for (let index = 1; index <= 40; index += 1) {
    await store.set(
      me,
      `rooms/room-${index}`,
      { domainId: DOMAIN, rootDomainId: ROOT, name: `${100 + index}号室`, unit: index % 2 === 1 ? 'A' : 'B', floor: '1F', residentName: `入居者${index}` },
      false,
    );
  }
  const extraOrigins = [push.origin, new URL(webhook.url).origin];
  let keys: ReturnType<typeof vapidKeysOf> | undefined;
  const service = new NotificationService({
    database,
    changeFeed: store.changes,
    log: silent,
    now,
    tickMs: 0,
    sweepMs: 60_000,
    publicUrl: async () => 'https://nemuri.example',
    channels: {
      push: webPushChannel({ db: database, keys: () => (keys ??= vapidKeysOf(database)), subject: async () => 'mailto:ops@nemuri.example', extraOrigins, now }),
      mail: mailChannel(Promise.resolve(createMailer({ smtpUrl: null, database, from: 'ねむりモニター <no-reply@nemuri.example>' }))),
      line: lineChannel(database, line.url),
      webhook: webhookChannel(database, extraOrigins, now),
      ...channels,
    },
  });
  service.start();
  return {
    database,
    store,
    service,
    push,
    line,
    webhook,
    clock,
    async subscribe(uid) {
      const subscription = push.subscribe();
      const id = `sub-${subscription.id}`;
      await database.query('insert into notify_push_subscriptions (id, user_id, endpoint, p256dh, auth) values ($1, $2, $3, $4, $5)', [
        id,
        uid,
        subscription.endpoint,
        subscription.keys.p256dh,
        subscription.keys.auth,
      ]);
      return id;
    },
    async prefer(uid, preferences) {
      await database.query(
        'insert into notify_preferences (user_id, preferences) values ($1, $2::jsonb) on conflict (user_id) do update set preferences = excluded.preferences',
        [uid, JSON.stringify({ ...DEFAULT_PREFERENCES, ...preferences })],
      );
    },
    async settings(settings, webhookSecret) {
      if (webhookSecret !== undefined) webhook.secret = webhookSecret;
      await database.query(
        `insert into notify_domain_settings (domain_id, settings, line_token, webhook_secret) values ($1, $2::jsonb, $3, $4)
         on conflict (domain_id) do update set settings = excluded.settings, line_token = excluded.line_token, webhook_secret = coalesce(excluded.webhook_secret, notify_domain_settings.webhook_secret)`,
        [DOMAIN, JSON.stringify({ ...DEFAULT_DOMAIN_SETTINGS, ...settings }), LINE_TOKEN, webhookSecret ?? null],
      );
    },
    async onDuty(day, shift, assignments) {
      await database.query(
        'insert into notify_shifts (domain_id, day, shift, assignments) values ($1, $2::date, $3, $4::jsonb) on conflict (domain_id, day, shift) do update set assignments = excluded.assignments',
        [DOMAIN, day, shift, JSON.stringify(assignments)],
      );
    },
    async openAlert(roomId, type) {
      alertCounter += 1;
      const id = `alert-${alertCounter}-${Math.random().toString(36).slice(2, 8)}`;
      await store.set(me, `alerts/${id}`, alertDocument({ domainId: DOMAIN, roomId }, { type, startedAt: clock.now, soundedAt: clock.now }), false);
      await service.settled();
      return id;
    },
    async advance(ms) {
      clock.now += ms;
      await service.tick();
      await service.settled();
    },
    async rows(channel) {
      const { rows } = await database.query<{ alert_id: string; step: number; recipient: string; channel: string; status: string; attempts: number }>(
        `select alert_id, step, recipient, channel, status, attempts from notify_queue ${channel === undefined ? '' : 'where channel = $1'} order by id`,
        channel === undefined ? [] : [channel],
      );
      return rows;
    },
    async outbox() {
      const { rows } = await database.query<{ recipient: string; subject: string; body: string }>(
        'select recipient, subject, body from dev_outbox order by id',
      );
      return rows;
    },
    async reset(start) {
      await service.settled();
      clock.now = start;
      await database.query(
        `truncate notify_attempts, notify_queue, notify_escalation_steps, notify_escalations, notify_push_subscriptions, notify_preferences, notify_domain_settings, notify_shifts, dev_outbox`,
      );
      await database.query(`delete from documents where collection = 'alerts'`);
      push.received.length = 0;
      push.refused.length = 0;
      line.pushes.length = 0;
      webhook.hooks.length = 0;
      webhook.failures = [];
    },
    async close() {
      await service.stop();
      await Promise.all([push.close(), line.close(), webhook.close()]);
    },
  };
}
