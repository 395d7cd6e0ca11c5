/**
 * Sends what the queue holds (deliveryQueue.ts): claims due rows with a lease, decides per row
 * whether it goes now, sends the rest concurrently through their channels, and records each
 * attempt. Failures worth another try come back after a backoff (10 s, 30 s, 90 s, …) up to the
 * channel's attempt limit; the others fail at once.
 *
 * Storms: per person, channel and device, at most the domain's `rateLimit.max` notifications in
 * `rateLimit.windowMin`; the rest are `held`, and one summary covers them all once the window
 * allows or a minute after the first was held, whichever comes first (30 rooms going offline at
 * once: three notifications and, a minute later, one summary of the other 27 — not thirty). Critical
 * alerts (no breathing, nurse call) always go at once. In a person's quiet hours only critical
 * alerts reach them; the others are `skipped` (they remain on the station and in the history).
 */
import { randomUUID } from 'node:crypto';
import type { DeliveryChannel, DomainNotificationSettings, PushMessage } from '@nemuri/shared/notifications';
import type { Database } from '../database/database.ts';
import { DEFAULT_NIGHT } from '../monitoring/nightWindow.ts';
import type { Channel, SendResult } from './channels/channel.ts';
import {
  backoffMs,
  claim,
  completeAll,
  enqueue,
  recordAttempts,
  type AttemptRecord,
  type ClaimedNotification,
  type Outcome,
  type QueuedNotification,
} from './deliveryQueue.ts';
import { domainSettingsOf, inQuietHours, preferencesOf } from './notificationSettings.ts';
import { mailSubject, summaryBody, summaryTitle } from './notificationTexts.ts';

export interface WorkerLogger {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface DeliveryWorkerOptions {
  database: Database;
  channels: Readonly<Record<DeliveryChannel, Channel>>;
  log: WorkerLogger;
  now: () => number;
  /** How long a claim holds (default 60 s): longer than any send takes (requests time out after 10 s). */
  leaseMs?: number;
  /** Rows claimed at once (default 2,000: one alert to 1,000 staff in one pass, not two in a row). */
  batch?: number;
  /** Requests in flight at once (default 64). */
  concurrency?: number;
}

/** Attempts before a notification fails for good: a webhook's receiver may be down for a while. */
const MAX_ATTEMPTS: Readonly<Record<DeliveryChannel, number>> = { push: 4, mail: 4, line: 4, webhook: 8 };
const MAX_WINDOW_MIN = 120;
/**
 * Held notifications become their summary this long after the first of them at the latest, even
 * while the window is still full: a floor going offline is one summary a minute later, not one
 * when the window (default 5 minutes) allows. Summaries themselves are not held, so a storm that
 * goes on makes at most one summary per person, channel and device a minute.
 */
export const SUMMARY_AFTER_MS = 60_000;

interface Gate {
  settings: DomainNotificationSettings;
  timeZone: string;
  /** Sent times per recipient/channel/destination within the longest window. */
  sentAt: Map<string, number[]>;
  quiet: Map<string, ReturnType<typeof inQuietHours>>;
}

/** A send that threw: worth another try. */
const failure = (error: unknown): SendResult => ({ ok: false, statusCode: null, error: error instanceof Error ? error.message : String(error), retry: true });

/** Whether quiet hours and the rate limit apply: not to webhooks, critical alerts or summaries. */
const gated = (row: ClaimedNotification) => row.channel !== 'webhook' && row.payload.critical !== true && row.payload.summary !== true;

const keyOf = (row: Pick<ClaimedNotification, 'recipient' | 'channel' | 'destination'>) => `${row.recipient}\n${row.channel}\n${row.destination}`;
const iso = (ms: number) => new Date(ms).toISOString();

export class DeliveryWorker {
  readonly id = `worker-${randomUUID()}`;
  readonly #db: Database;
  readonly #channels: Readonly<Record<DeliveryChannel, Channel>>;
  readonly #log: WorkerLogger;
  readonly #now: () => number;
  readonly #leaseMs: number;
  readonly #batch: number;
  readonly #concurrency: number;
  #running: Promise<void> | null = null;
  #again = false;
  #stopped = false;

  constructor(options: DeliveryWorkerOptions) {
    this.#db = options.database;
    this.#channels = options.channels;
    this.#log = options.log;
    this.#now = options.now;
    this.#leaseMs = options.leaseMs ?? 60_000;
    this.#batch = options.batch ?? 2000;
    this.#concurrency = options.concurrency ?? 64;
  }

  /** Runs a pass soon (again after the current one, if one runs). Resolves when that pass is done. */
  wake(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (this.#running !== null) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      try {
        do {
          this.#again = false;
          await this.#summarize();
          while ((await this.#pass()) === this.#batch && !this.#stopped);
        } while (this.#again && !this.#stopped);
      } catch (error) {
        this.#log.error({ err: error }, 'notifications: a delivery pass failed');
      } finally {
        this.#running = null;
      }
    })();
    return this.#running;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#running;
  }

  /** One claim and its sends; the number claimed. */
  async #pass(): Promise<number> {
    const claimed = await claim(this.#db, this.id, this.#now(), this.#leaseMs, this.#batch);
    if (claimed.length === 0) return 0;
    const gates = await this.#gates(claimed);
    const attempts: AttemptRecord[] = [];
    const outcomes = new Map<number, Outcome>();
    const sending: ClaimedNotification[] = [];
    for (const row of claimed) {
      const held = this.#held(row, gates.get(row.domainId));
      if (held === null) sending.push(row);
      else outcomes.set(row.id, held);
    }
    // Channels that send a batch at once get their rows together; the others one by one, all at the same time.
    const batched = new Map<DeliveryChannel, ClaimedNotification[]>();
    const single: ClaimedNotification[] = [];
    for (const row of sending) {
      if (this.#channels[row.channel].sendAll === undefined) single.push(row);
      else {
        const rows = batched.get(row.channel) ?? [];
        rows.push(row);
        batched.set(row.channel, rows);
      }
    }
    const record = (row: ClaimedNotification, result: SendResult, durationMs: number) => {
      attempts.push({
        queueId: row.id,
        domainId: row.domainId,
        channel: row.channel,
        attempt: row.attempts,
        at: this.#now(),
        ok: result.ok,
        statusCode: result.statusCode,
        error: result.error,
        durationMs,
      });
      outcomes.set(row.id, this.#outcome(row, result));
    };
    let next = 0;
    const lane = async () => {
      for (let index = next++; index < single.length; index = next++) {
        const row = single[index] as ClaimedNotification;
        const started = performance.now();
        record(row, await this.#channels[row.channel].send(row).catch(failure), performance.now() - started);
      }
    };
    const batch = async (channel: DeliveryChannel, rows: ClaimedNotification[]) => {
      const started = performance.now();
      const results = await this.#channels[channel].sendAll?.(rows, this.#concurrency).catch((error: unknown) => {
        this.#log.error({ err: error, channel }, 'notifications: a batch failed');
        return null;
      });
      for (const row of rows) {
        const result = results?.get(row.id);
        record(row, result ?? failure(new Error('not sent')), result?.durationMs ?? performance.now() - started);
      }
    };
    await Promise.all([
      ...Array.from({ length: Math.min(this.#concurrency, single.length) }, lane),
      ...[...batched].map(([channel, rows]) => batch(channel, rows)),
    ]);
    for (const lost of await completeAll(this.#db, this.id, outcomes, this.#now())) {
      this.#log.warn({ notification: lost }, 'notifications: the lease ran out before the result was recorded');
    }
    await recordAttempts(this.#db, attempts);
    return claimed.length;
  }

  #outcome(row: ClaimedNotification, result: SendResult): Outcome {
    if (result.ok) return { status: 'sent' };
    const error = result.error ?? 'failed';
    if (result.retry && row.attempts < MAX_ATTEMPTS[row.channel]) return { status: 'retry', at: this.#now() + backoffMs(row.attempts), error };
    return { status: 'failed', error };
  }

  /** The domain settings, time zones, quiet hours and recent sends the batch's decisions need. */
  async #gates(rows: readonly ClaimedNotification[]): Promise<Map<string, Gate>> {
    const gates = new Map<string, Gate>();
    // Only rows that quiet hours or the rate limit may hold need the look-ups: critical alerts (the
    // ones that must reach 1,000 phones at once) go without waiting for them.
    const personal = rows.filter(gated);
    if (personal.length === 0) return gates;
    const recipients = [...new Set(personal.map((row) => row.recipient))];
    const [preferences, { rows: recent }] = await Promise.all([
      preferencesOf(this.#db, recipients),
      this.#db.query<{ recipient: string; channel: string; destination: string; sent_at: Date | string }>(
        `select recipient, channel, destination, sent_at from notify_queue where status = 'sent' and recipient = any($1::text[]) and sent_at > $2::timestamptz`,
        [recipients, iso(this.#now() - MAX_WINDOW_MIN * 60_000)],
      ),
    ]);
    for (const domainId of new Set(personal.map((row) => row.domainId))) {
      const settings = await domainSettingsOf(this.#db, domainId);
      const timeZone =
        typeof personal.find((row) => row.domainId === domainId)?.payload.timeZone === 'string'
          ? String(personal.find((row) => row.domainId === domainId)?.payload.timeZone)
          : DEFAULT_NIGHT.timeZone;
      const gate: Gate = { settings, timeZone, sentAt: new Map(), quiet: new Map() };
      for (const uid of recipients) gate.quiet.set(uid, inQuietHours(preferences.get(uid)?.quietHours ?? null, this.#now(), timeZone));
      for (const row of recent) {
        const key = keyOf({ recipient: row.recipient, channel: row.channel as DeliveryChannel, destination: row.destination });
        gate.sentAt.set(key, [...(gate.sentAt.get(key) ?? []), new Date(row.sent_at).getTime()]);
      }
      gates.set(domainId, gate);
    }
    return gates;
  }

  /** Why the row does not go now (quiet hours, rate limit), or null: it goes. */
  #held(row: ClaimedNotification, gate: Gate | undefined): Outcome | null {
    if (!gated(row) || gate === undefined) return null;
    if (gate.quiet.get(row.recipient) === true) return { status: 'skipped', error: 'quiet hours' };
    const key = keyOf(row);
    const since = this.#now() - gate.settings.rateLimit.windowMin * 60_000;
    const recent = (gate.sentAt.get(key) ?? []).filter((at) => at > since);
    if (recent.length >= gate.settings.rateLimit.max) return { status: 'held', error: 'rate limit' };
    // Counted as sent for the rest of this batch (a failure then only makes the limit stricter).
    gate.sentAt.set(key, [...recent, this.#now()]);
    return null;
  }

  /** Held notifications become one summary per person, channel and device once the window allows. */
  async #summarize(): Promise<void> {
    const { rows } = await this.#db.query<{
      recipient: string;
      channel: DeliveryChannel;
      destination: string;
      domain_id: string;
      ids: (string | number)[];
      rooms: (string | null)[];
      last: Record<string, unknown>;
      first_at: Date | string;
    }>(
      `select recipient, channel, destination, min(domain_id) as domain_id, array_agg(id order by id) as ids, min(created_at) as first_at,
              array_agg(payload ->> 'roomName' order by id) as rooms, (array_agg(payload order by id desc))[1] as last
         from notify_queue where status = 'held' group by recipient, channel, destination limit 200`,
    );
    for (const group of rows) {
      const settings = await domainSettingsOf(this.#db, group.domain_id);
      const { rows: counted } = await this.#db.query<{ count: string | number }>(
        `select count(*) as count from notify_queue where status = 'sent' and recipient = $1 and channel = $2 and destination = $3 and sent_at > $4::timestamptz`,
        [group.recipient, group.channel, group.destination, iso(this.#now() - settings.rateLimit.windowMin * 60_000)],
      );
      const gathered = this.#now() - new Date(group.first_at).getTime() >= SUMMARY_AFTER_MS;
      if (Number(counted[0]?.count ?? 0) >= settings.rateLimit.max && !gathered) continue;
      const ids = group.ids.map(Number);
      const count = { count: ids.length, rooms: [...new Set(group.rooms.filter((room): room is string => room !== null))] };
      const summary: QueuedNotification = {
        alertId: `summary-${ids[0]}`,
        step: 0,
        recipient: group.recipient,
        channel: group.channel,
        destination: group.destination,
        domainId: group.domain_id,
        payload: this.#summaryPayload(group.channel, group.last, count),
      };
      await this.#db.transaction(async (tx) => {
        await enqueue(tx, [summary], this.#now());
        await tx.query(
          `update notify_queue set status = 'summarized', summary_id = (select id from notify_queue where alert_id = $2 and step = 0 and recipient = $3 and channel = $4 and destination = $5)
            where id = any($1::bigint[]) and status = 'held'`,
          [ids, summary.alertId, group.recipient, group.channel, group.destination],
        );
      });
    }
  }

  #summaryPayload(channel: DeliveryChannel, last: Record<string, unknown>, count: { count: number; rooms: string[] }): Record<string, unknown> {
    const title = summaryTitle(count);
    const body = summaryBody(count);
    const common = { summary: true, timeZone: last.timeZone };
    if (channel === 'push') {
      const message: PushMessage = {
        kind: 'summary',
        title,
        body,
        tag: 'alert-summary',
        alertId: null,
        roomId: null,
        alertType: null,
        url: '/monitoring',
        acknowledgeUrl: null,
      };
      return { ...common, message, urgent: false };
    }
    if (channel === 'mail') return { ...common, to: last.to, subject: mailSubject(title), text: `${body}\n` };
    return { ...common, to: last.to, text: `${title}\n${body}` };
  }
}
