/**
 * The operator alert of issue 25: when ingest stops for a domain's devices, its administrators hear of
 * it by mail (and the domain's webhook, if it has one), once per episode, and again when frames arrive
 * again. Delivered through the notification queue (notifications/deliveryQueue.ts), so retries, the
 * delivery log and several processes sharing the work come with it.
 *
 * A domain is stalled when it has devices in use, at least one of which has ever sent a frame, and
 * none has sent one for {@link STALL_AFTER_MS} (their `lastSeenAt`, which every process keeps in the
 * device records), or when frames reach this process but cannot be stored for that long (the storage
 * readiness check). A restart does not count as silence: devices get {@link STALL_AFTER_MS} from the
 * process start to come back. An episode is named by the domain and the last frame before the
 * silence, so every process (and every check) that finds the same silence queues the same rows,
 * which the queue keeps once; the recovery is step 1 of the same episode. While the database itself
 * is down nothing can be queued: readiness and /metrics say so then (docs/operations.md).
 */
import { PRODUCT_NAME_JA } from '@nemuri/shared/constants';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { Database } from '../database/database.ts';
import { enqueue, type QueuedNotification } from '../notifications/deliveryQueue.ts';
import { domainSettingsOf } from '../notifications/notificationSettings.ts';
import { staffOf } from '../notifications/recipients.ts';
import type { RuntimeState } from '../health/readiness.ts';
import { nightWindowOf } from '../monitoring/nightWindow.ts';

export const STALL_AFTER_MS = 5 * 60_000;
export const STALL_CHECK_EVERY_MS = 60_000;
const EPISODE_PREFIX = 'ingest-stall-';

export interface StallLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface StallWatchOptions {
  database: Database;
  log: StallLogger;
  /** The storage readiness check (frames can be stored); absent: not watched. */
  storage?: () => RuntimeState;
  now?: () => number;
  stallAfterMs?: number;
  /** 0: no timer (tests call check()). */
  everyMs?: number;
}

interface DomainDevices {
  domainId: string;
  devices: number;
  lastSeenMs: number | null;
}

export class StallWatch {
  readonly #db: Database;
  readonly #log: StallLogger;
  readonly #storage: (() => RuntimeState) | undefined;
  readonly #now: () => number;
  readonly #stallAfterMs: number;
  readonly #startedMs: number;
  #timer: NodeJS.Timeout | undefined;
  #storageDownSince: number | null = null;
  #checking: Promise<void> | undefined;

  constructor(options: StallWatchOptions) {
    this.#db = options.database;
    this.#log = options.log;
    this.#storage = options.storage;
    this.#now = options.now ?? Date.now;
    this.#stallAfterMs = options.stallAfterMs ?? STALL_AFTER_MS;
    this.#startedMs = this.#now();
    const everyMs = options.everyMs ?? STALL_CHECK_EVERY_MS;
    if (everyMs > 0) {
      this.#timer = setInterval(() => void this.check(), everyMs);
      this.#timer.unref();
    }
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** One look at every domain: queues what is due. Never throws (a database away is tried again later). */
  check(): Promise<void> {
    this.#checking ??= this.#check()
      .catch((error: unknown) => this.#log.warn({ err: error }, `ingest stall check failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => (this.#checking = undefined));
    return this.#checking;
  }

  async #check(): Promise<void> {
    const now = this.#now();
    const storage = this.#storage?.() ?? { state: 'ok' };
    if (storage.state === 'ok') this.#storageDownSince = null;
    else this.#storageDownSince ??= now;
    const storageStalled = this.#storageDownSince !== null && now - this.#storageDownSince >= this.#stallAfterMs;
    const open = await this.#openEpisodes();
    for (const domain of await this.#domains()) {
      if (domain.lastSeenMs === null) continue;
      // Silent since the last frame, or since this process started when that was later (a restart).
      const silentMs = now - Math.max(domain.lastSeenMs, this.#startedMs);
      const silent = silentMs >= this.#stallAfterMs;
      const episodes = open.get(domain.domainId) ?? [];
      const stalled = silent || storageStalled;
      // Storage down while frames still arrive: the episode is named by when storing stopped.
      const sinceMs = silent ? domain.lastSeenMs : (this.#storageDownSince ?? now);
      const current = `${EPISODE_PREFIX}${domain.domainId}-${sinceMs}`;
      for (const episode of episodes) {
        if (stalled && episode === current) continue;
        // Over once a frame came after it began (not merely because this process has just started)
        // and frames are stored again.
        const began = Number(episode.slice(episode.lastIndexOf('-') + 1));
        if (!(domain.lastSeenMs > began) || storage.state !== 'ok') continue;
        const queued = await this.#queue(domain, episode, 1, { silent: false, sinceMs: began, reason: null });
        this.#log.info({ domainId: domain.domainId, episode, queued }, "ingest resumed for the domain's devices");
      }
      if (!stalled || episodes.includes(current)) continue;
      const queued = await this.#queue(domain, current, 0, { silent, sinceMs, reason: silent ? null : storage.state === 'down' ? storage.reason : null });
      if (queued > 0)
        this.#log.warn(
          { domainId: domain.domainId, episode: current, devices: domain.devices },
          `ingest stopped for the domain's devices: ${queued} notifications queued`,
        );
    }
  }

  /** Each domain's devices in use and the newest frame any of them sent. */
  async #domains(): Promise<DomainDevices[]> {
    const { rows } = await this.#db.query<{ domain_id: string; devices: number | string; last_seen: string | null }>(
      `select domain_id, count(*) as devices, max(data ->> 'lastSeenAt') as last_seen
         from documents where collection = 'devices' and domain_id is not null and data ->> 'status' = 'in_use'
        group by domain_id`,
    );
    return rows.map((row) => ({
      domainId: row.domain_id,
      devices: Number(row.devices),
      lastSeenMs: row.last_seen === null ? null : Date.parse(row.last_seen),
    }));
  }

  /** Episodes alerted (step 0 queued) and not yet recovered (no step 1), by domain. */
  async #openEpisodes(): Promise<Map<string, string[]>> {
    const { rows } = await this.#db.query<{ domain_id: string; alert_id: string }>(
      `select domain_id, alert_id from notify_queue where alert_id like $1
        group by domain_id, alert_id having max(step) = 0`,
      [`${EPISODE_PREFIX}%`],
    );
    const open = new Map<string, string[]>();
    for (const row of rows) open.set(row.domain_id, [...(open.get(row.domain_id) ?? []), row.alert_id]);
    return open;
  }

  /** Mail to each administrator of the domain and the domain's webhook; the number newly queued. */
  async #queue(domain: DomainDevices, episode: string, step: 0 | 1, what: { silent: boolean; sinceMs: number; reason: string | null }): Promise<number> {
    const now = this.#now();
    const settings = await domainSettingsOf(this.#db, domain.domainId);
    const { rows: domainRows } = await this.#db.query<{ data: { dates?: { nightStart?: unknown; nightEnd?: unknown }; timeZone?: unknown } }>(
      'select data from documents where path = $1',
      [`domains/${domain.domainId}`],
    );
    const { timeZone } = nightWindowOf(domainRows[0]?.data.dates, domainRows[0]?.data.timeZone);
    const admins = (await staffOf(this.#db, [domain.domainId])).filter((member) => member.accessLevel >= ROLE_LEVELS.administrator);
    const since = formatTime(what.sinceMs, timeZone);
    const subject = step === 0 ? `【${PRODUCT_NAME_JA}】機器からのデータが届いていません` : `【${PRODUCT_NAME_JA}】機器からのデータの受信が再開しました`;
    const text =
      step === 0
        ? [
            what.silent
              ? `${since} 以降、この施設の機器（使用中 ${domain.devices} 台）からデータが1件も届いていません。`
              : `${since} 以降、機器から届いたデータを保存できていません${what.reason === null ? '' : `（${what.reason}）`}。`,
            'この間、見守りの状態表示とアラートは働きません。機器の電源・ネットワーク、サーバーの状態を確認してください。',
            '受信が再開したら、もう一度お知らせします。',
          ].join('\n')
        : [`機器からのデータの受信が再開しました（${formatTime(now, timeZone)}）。`, '見守りの状態表示とアラートは再び働いています。'].join('\n');
    const base = { alertId: episode, step, domainId: domain.domainId };
    const rows: QueuedNotification[] = admins.map((admin) => ({
      ...base,
      recipient: admin.uid,
      channel: 'mail',
      destination: '',
      payload: { kind: 'ingest', to: admin.email, subject, text },
    }));
    if (settings.webhookUrl !== null) {
      const event = step === 0 ? 'ingest.stalled' : 'ingest.resumed';
      rows.push({
        ...base,
        recipient: 'domain',
        channel: 'webhook',
        destination: event,
        payload: {
          event,
          at: new Date(now).toISOString(),
          domainId: domain.domainId,
          devices: domain.devices,
          since: new Date(what.sinceMs).toISOString(),
          cause: what.silent ? 'devices-silent' : step === 0 ? 'storage' : null,
        },
      });
    }
    return enqueue(this.#db, rows, now);
  }
}

function formatTime(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('ja-JP', { timeZone, month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit' }).format(new Date(ms));
}
