/**
 * The durable notification queue (table `notify_queue`, migration 008_notifications).
 *
 * A notification is one row per (alert, escalation step, recipient, channel, destination): the
 * unique key makes queueing idempotent, so an escalation step queued twice (two processes, a
 * restart half-way) still sends once. A worker claims due rows with a lease (`status = 'sending'`,
 * `next_attempt_at` = when the lease runs out, `for update skip locked` so that several processes
 * share the work); a worker that dies, even by kill -9, leaves its rows to be claimed again once
 * the lease has run out. Completion is checked against the lease holder, so a worker that outlived
 * its lease cannot overwrite what another did since.
 *
 * What remains at-least-once is the moment between a push service (or LINE, or a webhook
 * receiver) accepting a request and the row being marked sent: a crash exactly there sends again
 * on the next claim. Each channel carries a stable key for that case (push `Topic`, LINE
 * `X-Line-Retry-Key`, webhook `X-Nemuri-Delivery`), so the receiver replaces or drops the copy.
 */
import type { DeliveryChannel, DeliveryStatus } from '@nemuri/shared/notifications';
import type { Queryable } from '../database/database.ts';

export interface QueuedNotification {
  alertId: string;
  step: number;
  /** A staff member's uid, or `domain` for the domain's webhook. */
  recipient: string;
  channel: DeliveryChannel;
  /** A push subscription id, a webhook event; '' for channels with one destination per recipient. */
  destination: string;
  domainId: string;
  payload: Record<string, unknown>;
}

export interface ClaimedNotification extends QueuedNotification {
  id: number;
  attempts: number;
  createdAt: number;
}

interface QueueRow {
  id: string | number;
  alert_id: string;
  step: number;
  recipient: string;
  channel: DeliveryChannel;
  destination: string;
  domain_id: string;
  payload: Record<string, unknown>;
  attempts: number;
  created_at: Date | string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Queues the rows (those already queued are left as they are); the number newly queued. */
export async function enqueue(db: Queryable, rows: readonly QueuedNotification[], now: number): Promise<number> {
  if (rows.length === 0) return 0;
  const { rowCount } = await db.query(
    `insert into notify_queue (alert_id, step, recipient, channel, destination, domain_id, payload, next_attempt_at, created_at)
     select r.alert_id, r.step, r.recipient, r.channel, r.destination, r.domain_id, r.payload, $2::timestamptz, $2::timestamptz
       from jsonb_to_recordset($1::jsonb) as r(alert_id text, step integer, recipient text, channel text, destination text, domain_id text, payload jsonb)
     on conflict (alert_id, step, recipient, channel, destination) do nothing`,
    [
      JSON.stringify(
        rows.map((row) => ({
          alert_id: row.alertId,
          step: row.step,
          recipient: row.recipient,
          channel: row.channel,
          destination: row.destination,
          domain_id: row.domainId,
          payload: row.payload,
        })),
      ),
      iso(now),
    ],
  );
  return rowCount ?? 0;
}

/** Claims up to `limit` due rows (queued, or sending with an expired lease) for `leaseMs`. */
export async function claim(db: Queryable, worker: string, now: number, leaseMs: number, limit: number): Promise<ClaimedNotification[]> {
  const { rows } = await db.query<QueueRow>(
    `update notify_queue set status = 'sending', leased_by = $1, next_attempt_at = $3::timestamptz, attempts = attempts + 1
      where id in (select id from notify_queue where status in ('queued', 'sending') and next_attempt_at <= $2::timestamptz
                    order by next_attempt_at, id limit $4 for update skip locked)
      returning id, alert_id, step, recipient, channel, destination, domain_id, payload, attempts, created_at`,
    [worker, iso(now), iso(now + leaseMs), limit],
  );
  return rows
    .map((row) => ({
      id: Number(row.id),
      alertId: row.alert_id,
      step: row.step,
      recipient: row.recipient,
      channel: row.channel,
      destination: row.destination,
      domainId: row.domain_id,
      payload: row.payload,
      attempts: row.attempts,
      createdAt: new Date(row.created_at).getTime(),
    }))
    .sort((a, b) => a.id - b.id);
}

export type Outcome = { status: 'sent' } | { status: 'retry'; at: number; error: string } | { status: 'failed' | 'skipped' | 'held'; error: string | null };

/**
 * Ends many claims in one statement (a pass's results): a pass of 500 pushes used to wait for 500
 * sequential updates before the next pass could claim. The ids whose lease was lost meanwhile
 * (another worker has them now) are returned.
 */
export async function completeAll(db: Queryable, worker: string, outcomes: ReadonlyMap<number, Outcome>, now: number): Promise<number[]> {
  if (outcomes.size === 0) return [];
  const rows = [...outcomes].map(([id, outcome]) => ({
    id,
    status: (outcome.status === 'retry' ? 'queued' : outcome.status) satisfies DeliveryStatus,
    next_attempt_at: outcome.status === 'retry' ? iso(outcome.at) : null,
    last_error: outcome.status === 'sent' ? null : outcome.error,
  }));
  const { rows: done } = await db.query<{ id: string | number }>(
    `update notify_queue q set status = r.status, leased_by = null,
        next_attempt_at = coalesce(r.next_attempt_at, q.next_attempt_at),
        sent_at = case when r.status = 'sent' then $3::timestamptz else q.sent_at end,
        last_error = r.last_error
       from jsonb_to_recordset($1::jsonb) as r(id bigint, status text, next_attempt_at timestamptz, last_error text)
      where q.id = r.id and q.leased_by = $2 and q.status = 'sending'
      returning q.id`,
    [JSON.stringify(rows), worker, iso(now)],
  );
  const completed = new Set(done.map((row) => Number(row.id)));
  return rows.filter((row) => !completed.has(row.id)).map((row) => row.id);
}

export interface AttemptRecord {
  queueId: number;
  domainId: string;
  channel: DeliveryChannel;
  attempt: number;
  at: number;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** Every attempt, for the delivery log (GET …/domains/:id/deliveries). */
export async function recordAttempts(db: Queryable, attempts: readonly AttemptRecord[]): Promise<void> {
  if (attempts.length === 0) return;
  await db.query(
    `insert into notify_attempts (queue_id, domain_id, channel, attempt, at, ok, status_code, error, duration_ms)
     select r.queue_id, r.domain_id, r.channel, r.attempt, r.at, r.ok, r.status_code, r.error, r.duration_ms
       from jsonb_to_recordset($1::jsonb) as r(queue_id bigint, domain_id text, channel text, attempt integer, at timestamptz, ok boolean, status_code integer, error text, duration_ms integer)`,
    [
      JSON.stringify(
        attempts.map((a) => ({
          queue_id: a.queueId,
          domain_id: a.domainId,
          channel: a.channel,
          attempt: a.attempt,
          at: iso(a.at),
          ok: a.ok,
          status_code: a.statusCode,
          error: a.error?.slice(0, 500) ?? null,
          duration_ms: Math.round(a.durationMs),
        })),
      ),
    ],
  );
}

/** Retry delays: 10 s, 30 s, 90 s, 4.5 min, 13.5 min, capped at 30 min. */
export function backoffMs(attempt: number): number {
  return Math.min(10_000 * 3 ** Math.max(0, attempt - 1), 30 * 60_000);
}
