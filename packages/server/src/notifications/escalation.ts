/**
 * Escalation of each alert (table `notify_escalations`, one row per alert; `notify_escalation_steps`,
 * one per step taken): step 0 at once, each next step `afterMin` minutes after the previous one,
 * for as long as nobody has acknowledged the alert and it has not ended. A step resolves its
 * recipients (recipients.ts), queues one notification per recipient and enabled channel, and
 * records itself — all in one transaction with the escalation row locked, so two processes or a
 * restart never take a step twice (and the queue's unique key would drop a copy anyway). A step
 * without recipients (nobody on duty) records itself and the next follows at once.
 *
 * Alerts are found through the document change feed (monitoring/roomStateService.ts writes them)
 * and, so that none is missed while the server was down or between a write and its event, by a
 * sweep over the open alerts of the last hour.
 */
import { ALERT_SEVERITY, type AlertTypeName } from '@nemuri/shared/monitoring';
import {
  acknowledgePath,
  type DomainNotificationSettings,
  type EscalationTarget,
  type NotificationPreferences,
  type PushMessage,
} from '@nemuri/shared/notifications';
import type { Database, Queryable } from '../database/database.ts';
import { nightWindowOf, type NightWindow } from '../monitoring/nightWindow.ts';
import { enqueue, type QueuedNotification } from './deliveryQueue.ts';
import { alertBody, alertMail, alertTitle, type AlertSubject } from './notificationTexts.ts';
import { domainSettingsOf, preferencesOf } from './notificationSettings.ts';
import { recipientsOf, type AlertRoom, type StaffMember } from './recipients.ts';

/** Alerts that opened longer ago than this when first seen are not notified any more (a long outage). */
export const CATCH_UP_MS = 60 * 60_000;

export type WebhookEvent = 'opened' | 'acknowledged' | 'ended';

interface AlertData {
  domainId?: unknown;
  roomId?: unknown;
  type?: unknown;
  startedAt?: unknown;
  endedAt?: unknown;
  acknowledgedAt?: unknown;
  acknowledgedBy?: unknown;
}

interface AlertRow {
  id: string;
  domain_id: string;
  root_domain_id: string | null;
  data: AlertData;
}

/** What every notification of one step says. */
interface StepContext {
  room: AlertRoom | null;
  night: NightWindow;
  subject: AlertSubject;
  publicUrl: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
const filled = (value: unknown): boolean => typeof value === 'string' && value !== '';

export interface EscalationOptions {
  database: Database;
  now: () => number;
  /** Absolute base of links in mail, e.g. `https://nemuri.example`. */
  publicUrl: () => Promise<string>;
  /** Called after notifications were queued (the worker sends them at once). */
  queued: () => void;
}

export class Escalation {
  readonly #db: Database;
  readonly #now: () => number;
  readonly #publicUrl: () => Promise<string>;
  readonly #queued: () => void;

  constructor(options: EscalationOptions) {
    this.#db = options.database;
    this.#now = options.now;
    this.#publicUrl = options.publicUrl;
    this.#queued = options.queued;
  }

  /** Starts escalating the open, unacknowledged alerts of the last hour not yet known (all, or those of `alertIds`). */
  async discover(alertIds?: readonly string[]): Promise<number> {
    const now = this.#now();
    const { rowCount } = await this.#db.query(
      `insert into notify_escalations (alert_id, domain_id, room_id, alert_type, opened_at, next_step, next_step_at)
       select d.id, d.domain_id, nullif(d.data ->> 'roomId', ''), d.data ->> 'type', (d.data ->> 'startedAt')::timestamptz, 0, $1::timestamptz
         from documents d
        where d.collection = 'alerts' and d.data ->> 'startedAt' >= $2 and d.domain_id is not null
          and coalesce(d.data ->> 'acknowledgedAt', '') = '' and coalesce(d.data ->> 'endedAt', '') = ''
          ${alertIds === undefined ? '' : 'and d.path = any($3::text[])'}
       on conflict (alert_id) do nothing`,
      alertIds === undefined ? [iso(now), iso(now - CATCH_UP_MS)] : [iso(now), iso(now - CATCH_UP_MS), alertIds.map((id) => `alerts/${id}`)],
    );
    return rowCount ?? 0;
  }

  /** Acknowledged or ended alerts: their escalation stops and the webhook hears of it. */
  async follow(alertIds: readonly string[]): Promise<void> {
    if (alertIds.length === 0) return;
    const { rows } = await this.#db.query<AlertRow & { closed: boolean }>(
      `select d.id, d.domain_id, d.root_domain_id, d.data, e.closed_at is not null as closed
         from notify_escalations e join documents d on d.path = 'alerts/' || e.alert_id
        where e.alert_id = any($1::text[])`,
      [alertIds],
    );
    let queued = 0;
    for (const row of rows) {
      const event: WebhookEvent | null = filled(row.data.acknowledgedAt) ? 'acknowledged' : filled(row.data.endedAt) ? 'ended' : null;
      if (event === null) continue;
      queued += await this.#db.transaction(async (tx) => {
        if (!row.closed) await this.#close(tx, row.id, event);
        return this.#queueWebhook(tx, row, event);
      });
    }
    if (queued > 0) this.#queued();
  }

  /** Takes every step that is due; the number taken. */
  async runDue(): Promise<number> {
    const { rows } = await this.#db.query<{ alert_id: string }>(
      `select alert_id from notify_escalations where closed_at is null and next_step_at <= $1::timestamptz order by next_step_at limit 100`,
      [iso(this.#now())],
    );
    let taken = 0;
    for (const { alert_id: alertId } of rows) {
      // Steps without recipients lead to the next one at once: take those too.
      for (let guard = 0; guard < 10; guard += 1) {
        const outcome = await this.#db.transaction((tx) => this.#step(tx, alertId));
        if (outcome === 'none') break;
        taken += 1;
        if (outcome === 'queued') this.#queued();
        if (outcome !== 'empty') break;
      }
    }
    return taken;
  }

  async #close(tx: Queryable, alertId: string, reason: string): Promise<void> {
    await tx.query(
      `update notify_escalations set closed_at = $2::timestamptz, closed_reason = $3, next_step_at = null where alert_id = $1 and closed_at is null`,
      [alertId, iso(this.#now()), reason],
    );
  }

  async #step(tx: Queryable, alertId: string): Promise<'none' | 'closed' | 'empty' | 'queued'> {
    const now = this.#now();
    const { rows: escalations } = await tx.query<{ next_step: number }>(
      `select next_step from notify_escalations where alert_id = $1 and closed_at is null and next_step_at <= $2::timestamptz for update skip locked`,
      [alertId, iso(now)],
    );
    const escalation = escalations[0];
    if (escalation === undefined) return 'none';
    const { rows: alerts } = await tx.query<AlertRow>('select id, domain_id, root_domain_id, data from documents where path = $1', [`alerts/${alertId}`]);
    const alert = alerts[0];
    if (alert === undefined) {
      await this.#close(tx, alertId, 'deleted');
      return 'closed';
    }
    if (filled(alert.data.acknowledgedAt) || filled(alert.data.endedAt)) {
      await this.#close(tx, alertId, filled(alert.data.acknowledgedAt) ? 'acknowledged' : 'ended');
      return 'closed';
    }
    const settings = await domainSettingsOf(tx, alert.domain_id);
    const step = escalation.next_step;
    const target = settings.escalation[step]?.target;
    if (target === undefined) {
      await this.#close(tx, alertId, 'exhausted');
      return 'closed';
    }
    const context = await this.#context(tx, alert, settings);
    const recipients = await recipientsOf(tx, {
      target,
      domainId: alert.domain_id,
      rootDomainId: alert.root_domain_id,
      room: context.room,
      night: context.night,
      at: now,
    });
    const rows = await this.#notifications(tx, alert, context, step, recipients);
    if (step === 0) await this.#queueWebhook(tx, alert, 'opened', context, settings);
    const queued = await enqueue(tx, rows, now);
    await this.#record(tx, alertId, step, target, new Set(rows.map((row) => row.recipient)).size);
    const next = settings.escalation[step + 1];
    if (next === undefined)
      await tx.query(
        `update notify_escalations set next_step = $2, next_step_at = null, closed_at = $3::timestamptz, closed_reason = 'exhausted' where alert_id = $1`,
        [alertId, step + 1, iso(now)],
      );
    else {
      const at = recipients.length === 0 ? now : now + next.afterMin * 60_000;
      await tx.query('update notify_escalations set next_step = $2, next_step_at = $3::timestamptz where alert_id = $1', [alertId, step + 1, iso(at)]);
    }
    if (recipients.length === 0) return next === undefined ? 'closed' : 'empty';
    return queued > 0 ? 'queued' : 'closed';
  }

  async #record(tx: Queryable, alertId: string, step: number, target: EscalationTarget, recipients: number): Promise<void> {
    await tx.query(
      `insert into notify_escalation_steps (alert_id, step, target, at, recipients) values ($1, $2, $3, $4::timestamptz, $5) on conflict (alert_id, step) do nothing`,
      [alertId, step, target, iso(this.#now()), recipients],
    );
  }

  async #context(tx: Queryable, alert: AlertRow, settings: DomainNotificationSettings): Promise<StepContext> {
    const roomId = typeof alert.data.roomId === 'string' && alert.data.roomId !== '' ? alert.data.roomId : null;
    const [{ rows: rooms }, { rows: domains }] = await Promise.all([
      roomId === null
        ? Promise.resolve({ rows: [] as { data: Record<string, unknown> }[] })
        : tx.query<{ data: Record<string, unknown> }>('select data from documents where path = $1', [`rooms/${roomId}`]),
      tx.query<{ data: { dates?: { nightStart?: unknown; nightEnd?: unknown }; timeZone?: unknown } }>('select data from documents where path = $1', [
        `domains/${alert.domain_id}`,
      ]),
    ]);
    const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
    const roomData = rooms[0]?.data;
    const room: AlertRoom | null =
      roomId === null || roomData === undefined
        ? null
        : { roomId, name: text(roomData.name) ?? roomId, unit: text(roomData.unit), floor: text(roomData.floor), residentName: text(roomData.residentName) };
    const domain = domains[0]?.data;
    const night = nightWindowOf(domain?.dates, domain?.timeZone);
    const subject: AlertSubject = {
      alertId: alert.id,
      type: alert.data.type as AlertTypeName,
      startedAt: String(alert.data.startedAt),
      roomId,
      roomName: room?.name ?? null,
      unit: room?.unit ?? room?.floor ?? null,
      residentName: settings.showResidentName ? (room?.residentName ?? null) : null,
    };
    return { room, night, subject, publicUrl: await this.#publicUrl() };
  }

  async #notifications(tx: Queryable, alert: AlertRow, context: StepContext, step: number, recipients: readonly StaffMember[]): Promise<QueuedNotification[]> {
    const { subject, night } = context;
    const preferences = await preferencesOf(
      tx,
      recipients.map((member) => member.uid),
    );
    const wanted = (prefs: NotificationPreferences | undefined): prefs is NotificationPreferences =>
      prefs !== undefined && prefs.alertTypes.includes(subject.type);
    const pushUsers = recipients
      .filter((member) => {
        const prefs = preferences.get(member.uid);
        return wanted(prefs) && prefs.channels.push;
      })
      .map((member) => member.uid);
    const { rows: subscriptions } =
      pushUsers.length === 0
        ? { rows: [] }
        : await tx.query<{ id: string; user_id: string }>('select id, user_id from notify_push_subscriptions where user_id = any($1::text[])', [pushUsers]);
    const devicesOf = new Map<string, string[]>();
    for (const row of subscriptions) devicesOf.set(row.user_id, [...(devicesOf.get(row.user_id) ?? []), row.id]);
    const critical = ALERT_SEVERITY[subject.type] === 'critical';
    const roomPath = subject.roomId === null ? '/monitoring' : `/room/${encodeURIComponent(subject.roomId)}`;
    const title = alertTitle(subject);
    const body = alertBody(subject, night.timeZone, step);
    const message: PushMessage = {
      kind: 'alert',
      title,
      body,
      tag: `alert-${subject.alertId}`,
      alertId: subject.alertId,
      roomId: subject.roomId,
      alertType: subject.type,
      url: roomPath,
      acknowledgeUrl: acknowledgePath(subject.alertId),
    };
    const common = { critical, roomName: subject.roomName, timeZone: night.timeZone };
    const rows: QueuedNotification[] = [];
    const base = { alertId: alert.id, step, domainId: alert.domain_id };
    for (const member of recipients) {
      const prefs = preferences.get(member.uid);
      if (!wanted(prefs)) continue;
      if (prefs.channels.push)
        for (const subscription of devicesOf.get(member.uid) ?? [])
          rows.push({ ...base, recipient: member.uid, channel: 'push', destination: subscription, payload: { ...common, message, urgent: critical } });
      if (prefs.channels.mail)
        rows.push({
          ...base,
          recipient: member.uid,
          channel: 'mail',
          destination: '',
          payload: { ...common, to: member.email, ...alertMail(subject, night.timeZone, step, new URL(roomPath, context.publicUrl).toString()) },
        });
      if (prefs.channels.line && prefs.lineUserId !== null)
        rows.push({
          ...base,
          recipient: member.uid,
          channel: 'line',
          destination: '',
          payload: { ...common, to: prefs.lineUserId, text: `${title}\n${body}` },
        });
    }
    return rows;
  }

  /** The webhook's event of an alert, when the domain has a webhook for its type; the number queued. */
  async #queueWebhook(tx: Queryable, alert: AlertRow, event: WebhookEvent, known?: StepContext, knownSettings?: DomainNotificationSettings): Promise<number> {
    const settings = knownSettings ?? (await domainSettingsOf(tx, alert.domain_id));
    const type = alert.data.type as AlertTypeName;
    if (settings.webhookUrl === null || !settings.webhookAlertTypes.includes(type)) return 0;
    const context = known ?? (await this.#context(tx, alert, settings));
    const payload = {
      event: `alert.${event}`,
      at: iso(this.#now()),
      alert: {
        id: alert.id,
        type,
        severity: ALERT_SEVERITY[type],
        domainId: alert.domain_id,
        roomId: context.subject.roomId,
        roomName: context.subject.roomName,
        unit: context.subject.unit,
        residentName: context.subject.residentName,
        startedAt: context.subject.startedAt,
        endedAt: filled(alert.data.endedAt) ? alert.data.endedAt : null,
        acknowledgedAt: filled(alert.data.acknowledgedAt) ? alert.data.acknowledgedAt : null,
      },
    };
    return enqueue(
      tx,
      [{ alertId: alert.id, step: 0, recipient: 'domain', channel: 'webhook', destination: event, domainId: alert.domain_id, payload }],
      this.#now(),
    );
  }
}
