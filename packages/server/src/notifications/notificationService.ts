/**
 * The notification service of one server process: escalation (escalation.ts) and the delivery
 * worker (deliveryWorker.ts) driven by the document change feed (new, acknowledged and ended
 * alerts) and a tick (due escalation steps, retries, expired leases, summaries). Several processes
 * on one PostgreSQL database share the work through row locks; nothing here is per process.
 */
import type { DeliveryChannel } from '@nemuri/shared/notifications';
import type { Database } from '../database/database.ts';
import type { ChangeBatch, ChangeFeed } from '../documents/changeFeed.ts';
import type { Channel } from './channels/channel.ts';
import { DeliveryWorker, type WorkerLogger } from './deliveryWorker.ts';
import { Escalation } from './escalation.ts';

export interface NotificationServiceOptions {
  database: Database;
  /** The feed the app's document store writes to: alerts are followed through it. */
  changeFeed: ChangeFeed;
  channels: Readonly<Record<DeliveryChannel, Channel>>;
  log: WorkerLogger & { info(object: object, message: string): void };
  publicUrl: () => Promise<string>;
  now?: () => number;
  /** Default 1,000 ms; 0: no timer (tests call tick()). */
  tickMs?: number;
  /** Alerts missed by the change feed are looked for this often (default 30 s). */
  sweepMs?: number;
}

export class NotificationService {
  readonly escalation: Escalation;
  readonly worker: DeliveryWorker;
  readonly #log: NotificationServiceOptions['log'];
  readonly #tickMs: number;
  readonly #sweepMs: number;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  #lastSweep = Number.NEGATIVE_INFINITY;
  #unsubscribe: (() => void) | undefined;
  /** Ticks and change events run one at a time, in order. */
  #chain: Promise<void> = Promise.resolve();

  readonly #changeFeed: ChangeFeed;
  readonly #channels: NotificationServiceOptions['channels'];

  constructor(options: NotificationServiceOptions) {
    this.#changeFeed = options.changeFeed;
    this.#channels = options.channels;
    this.#log = options.log;
    this.#now = options.now ?? Date.now;
    this.#tickMs = options.tickMs ?? 1000;
    this.#sweepMs = options.sweepMs ?? 30_000;
    this.worker = new DeliveryWorker({ database: options.database, channels: options.channels, log: options.log, now: this.#now });
    this.escalation = new Escalation({ database: options.database, now: this.#now, publicUrl: options.publicUrl, queued: () => void this.worker.wake() });
  }

  start(): void {
    this.#unsubscribe = this.#changeFeed.subscribe((batch) => this.#changes(batch));
    if (this.#tickMs === 0) return;
    this.#timer = setInterval(() => void this.tick(), this.#tickMs);
    this.#timer.unref();
    void this.tick();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#unsubscribe?.();
    await this.#chain;
    await this.worker.stop();
    await Promise.all(Object.values(this.#channels).map((channel) => channel.close?.()));
  }

  /** Sweep when due, due escalation steps, then the queue. Resolves when done (tests call it with a fake clock). */
  tick(): Promise<void> {
    return this.#run(async () => {
      if (this.#now() - this.#lastSweep >= this.#sweepMs) {
        this.#lastSweep = this.#now();
        await this.escalation.discover();
      }
      await this.escalation.runDue();
      await this.worker.wake();
    });
  }

  /** Resolves when what was started so far is done. */
  async settled(): Promise<void> {
    await this.#chain;
    await this.worker.wake();
  }

  #run(task: () => Promise<void>): Promise<void> {
    const run = this.#chain.then(task).catch((error: unknown) => this.#log.error({ err: error }, 'notifications: a step failed'));
    this.#chain = run;
    return run;
  }

  #changes(batch: ChangeBatch): void {
    if ('everything' in batch) {
      this.#lastSweep = Number.NEGATIVE_INFINITY;
      void this.tick();
      return;
    }
    const created: string[] = [];
    const updated: string[] = [];
    for (const change of batch.changes) {
      if (change.collection !== 'alerts' || change.op === 'delete') continue;
      const id = change.path.slice('alerts/'.length);
      if (change.op === 'create' || change.op === 'set') created.push(id);
      updated.push(id);
    }
    if (updated.length === 0) return;
    void this.#run(async () => {
      if (created.length > 0 && (await this.escalation.discover(created)) > 0) await this.escalation.runDue();
      await this.escalation.follow(updated);
    });
  }
}
