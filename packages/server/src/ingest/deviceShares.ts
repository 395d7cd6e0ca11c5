/**
 * Storage by owner (docs/scaling.md, "Storage by owner"): with MQTT_SHARED_GROUP each registered
 * device has a shared subscription of its own, `$share/<group>/devices/<serial>/frames` (QoS 1, on
 * the storing connection), which its owner process (processGroup.ts) holds. So each message reaches
 * one process, which stores it, computes the device's room and feeds its viewers from that one copy;
 * with one shared subscription for all devices, each process took every message of the devices it
 * owns a second time for their rooms.
 *
 * A device's share must never be without a holder: the broker drops a message nobody subscribes to,
 * after the device had its PUBACK. So a process lets go of a device's share only once the device's
 * owner says it holds it (its retained `nemuri/stores/<group>/<id>` message lists the device); while
 * both hold it, the broker hands each message to one of them (each stores what it gets). Likewise:
 * - a process joining subscribes to its devices before it announces itself (the others keep theirs
 *   until then, and after, until its stores message lists them);
 * - a process stopping cleanly leaves the group first, waits until the others list its devices, then
 *   lets go of them; what nobody took over (it was alone) stays in its persistent session at the
 *   broker, which queues the messages until it starts again;
 * - a process that died keeps its shares in its persistent session: the new owner holds the share
 *   beside it (and takes plain copies for the room state meanwhile: processGroup.ts), and the process
 *   gives them up once it runs again and sees the owners hold them;
 * - a device registered or given a new secret is subscribed to by the process that registers it
 *   before its broker account is provisioned (DeviceRegistry.beforeProvision), so that its first
 *   message finds a holder.
 */
import type { MqttClient } from 'mqtt';
import type { ChangeFeed } from '../documents/changeFeed.ts';
import { changesKnownDevice, type DeviceRegistry } from '../devices/deviceRegistry.ts';
import type { PipelineLogger } from './pipeline.ts';
import { storesTopic, type ProcessGroup } from './processGroup.ts';

/** Topics per SUBSCRIBE or UNSUBSCRIBE packet. */
const TOPICS_PER_PACKET = 500;
/** How long a process stopping cleanly waits for the others to take its devices' shares over. */
export const HAND_OVER_MS = 1200;

export const deviceShareTopic = (group: string, serial: string): string => `$share/${group}/devices/${serial}/frames`;

export interface DeviceSharesOptions {
  /** The storing connection (a persistent session with MQTT_CLIENT_ID). */
  client: MqttClient;
  group: ProcessGroup;
  groupName: string;
  registry: DeviceRegistry;
  changes: ChangeFeed;
  log: PipelineLogger;
}

export class DeviceShares {
  readonly #client: MqttClient;
  readonly #group: ProcessGroup;
  readonly #groupName: string;
  readonly #registry: DeviceRegistry;
  readonly #changes: ChangeFeed;
  readonly #log: PipelineLogger;
  /** Devices that may send: registered and not retired. */
  #registered = new Set<string>();
  /** Shares this session holds (the broker answered the subscription). */
  readonly #held = new Set<string>();
  /** Shares an earlier run of this session may still hold: given up like held ones. */
  readonly #maybe = new Set<string>();
  /** Subscriptions and unsubscriptions sent and not yet answered. */
  readonly #subscribing = new Set<string>();
  readonly #unsubscribing = new Set<string>();
  /** Shares the broker refused to this account (its ACL): not asked for again, the error is logged once. */
  readonly #refused = new Set<string>();
  #unfollow: (() => void) | undefined;
  #reconcileQueued = false;
  #storesQueued = false;
  #stopped = false;
  /** Waiters of a hand-over (close), woken whenever a share is given up. */
  #onReleased: (() => void) | undefined;

  constructor({ client, group, groupName, registry, changes, log }: DeviceSharesOptions) {
    this.#client = client;
    this.#group = group;
    this.#groupName = groupName;
    this.#registry = registry;
    this.#changes = changes;
    this.#log = log;
    group.storesHere = (serial) => this.#held.has(serial);
    group.onChange = () => this.#queueReconcile();
  }

  /** How many devices' shares this session holds (tests, logs). */
  get held(): number {
    return this.#held.size;
  }

  holds(serial: string): boolean {
    return this.#held.has(serial);
  }

  /**
   * Reads the registered devices, subscribes to the shares of those this process owns and waits for
   * the broker's answer; then follows device changes. `leaveShared` is a subscription of an earlier
   * version (one share for every device) that this session may still hold: left once the devices'
   * own are in place.
   */
  async start(leaveShared: string | null): Promise<void> {
    for (const serial of this.#group.storedBefore) this.#maybe.add(serial);
    // Followed before the read, so that a device registered meanwhile is not missed: read again after it.
    let reading = true;
    let readAgain = false;
    const changedWhileReading = new Set<string>();
    this.#unfollow = this.#changes.subscribe((batch) => {
      if (!('changes' in batch)) {
        if (reading) readAgain = true;
        else void this.#reload();
        return;
      }
      for (const change of batch.changes) {
        if (change.collection !== 'devices' || !changesKnownDevice(change)) continue;
        const serial = change.path.slice('devices/'.length);
        if (reading) changedWhileReading.add(serial);
        else void this.#recheck(serial);
      }
    });
    this.#registered = new Set(await this.#registry.serials());
    reading = false;
    if (readAgain) void this.#reload();
    for (const serial of changedWhileReading) void this.#recheck(serial);
    await this.#reconcile();
    if (leaveShared !== null) await this.#client.unsubscribeAsync(leaveShared).catch(() => undefined);
    this.#log.info({ held: this.#held.size, registered: this.#registered.size }, 'MQTT: subscribed to the shares of the devices this process owns');
  }

  /** Holds the device's share from now on (until its owner does): before its broker account exists. */
  async take(serial: string): Promise<void> {
    this.#registered.add(serial);
    if (this.#held.has(serial)) return;
    await this.#subscribe([serial]);
  }

  /**
   * Stops taking devices (the group has been left: the others own them all) and waits until the
   * others hold the shares this session holds, giving each up then; at most HAND_OVER_MS. Returns
   * how many shares stay here (queued by the broker for this session while it is away).
   */
  async handOver(): Promise<number> {
    const until = Date.now() + HAND_OVER_MS;
    this.#stopped = true;
    await this.#reconcile();
    while (this.#held.size + this.#maybe.size > 0 && Date.now() < until) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, until - Date.now()));
        this.#onReleased = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#onReleased = undefined;
    }
    this.#unfollow?.();
    return this.#held.size + this.#maybe.size;
  }

  async #reload(): Promise<void> {
    try {
      this.#registered = new Set(await this.#registry.serials());
      this.#queueReconcile();
    } catch (error) {
      this.#log.warn({ err: error }, 'MQTT: the registered devices could not be read again; device shares stay as they are');
    }
  }

  async #recheck(serial: string): Promise<void> {
    this.#registry.forget(serial);
    try {
      const device = await this.#registry.find(serial);
      if (device === null || device.status === 'retired') this.#registered.delete(serial);
      else this.#registered.add(serial);
      this.#queueReconcile();
    } catch (error) {
      this.#log.warn({ serial, err: error }, 'MQTT: a changed device could not be read; its share stays as it is');
    }
  }

  #queueReconcile(): void {
    if (this.#reconcileQueued) return;
    this.#reconcileQueued = true;
    setImmediate(() => {
      this.#reconcileQueued = false;
      void this.#reconcile();
    });
  }

  /** Subscribes to the shares of the devices this process owns, and gives up those whose owner holds them. */
  async #reconcile(): Promise<void> {
    const group = this.#group;
    const take: string[] = [];
    if (!this.#stopped)
      for (const serial of this.#registered)
        if (group.owns(serial) && !this.#held.has(serial) && !this.#subscribing.has(serial) && !this.#refused.has(serial)) take.push(serial);
    const release: string[] = [];
    for (const serial of [...this.#held, ...this.#maybe]) {
      if (this.#unsubscribing.has(serial)) continue;
      // A retired or deleted device's frames are dropped anyway: nobody needs its share.
      if (!this.#registered.has(serial)) release.push(serial);
      else if (this.#stopped || !group.owns(serial)) {
        const owner = group.ownerOf(serial);
        if (owner !== undefined && owner !== group.processId && group.holds(owner, serial)) release.push(serial);
      }
    }
    await Promise.all([this.#subscribe(take), this.#unsubscribe(release)]);
  }

  async #subscribe(serials: readonly string[]): Promise<void> {
    if (serials.length === 0) return;
    for (const serial of serials) this.#subscribing.add(serial);
    try {
      for (let i = 0; i < serials.length; i += TOPICS_PER_PACKET) {
        const part = serials.slice(i, i + TOPICS_PER_PACKET);
        const granted = await this.#client.subscribeAsync(
          part.map((serial) => deviceShareTopic(this.#groupName, serial)),
          { qos: 1 },
        );
        const refused = new Set(granted.filter((grant) => grant.qos === 128).map((grant) => grant.topic));
        for (const serial of part) {
          if (refused.has(deviceShareTopic(this.#groupName, serial))) {
            this.#refused.add(serial);
            continue;
          }
          this.#held.add(serial);
          this.#maybe.delete(serial);
        }
        if (refused.size > 0)
          this.#log.error(
            { refused: refused.size, example: [...refused][0] },
            "MQTT: the broker refused device shares to this server's account (it needs read on $share/<group>/devices/+/frames): their frames are not stored here",
          );
      }
    } catch (error) {
      this.#log.warn({ err: error instanceof Error ? error.message : String(error) }, 'MQTT: subscribing to device shares failed; tried again');
      setTimeout(() => this.#queueReconcile(), 1000).unref();
    } finally {
      for (const serial of serials) this.#subscribing.delete(serial);
      this.#changedHeld();
    }
  }

  async #unsubscribe(serials: readonly string[]): Promise<void> {
    if (serials.length === 0) return;
    for (const serial of serials) this.#unsubscribing.add(serial);
    try {
      for (let i = 0; i < serials.length; i += TOPICS_PER_PACKET) {
        const part = serials.slice(i, i + TOPICS_PER_PACKET);
        await this.#client.unsubscribeAsync(part.map((serial) => deviceShareTopic(this.#groupName, serial)));
        for (const serial of part) {
          this.#held.delete(serial);
          this.#maybe.delete(serial);
        }
      }
    } catch (error) {
      this.#log.warn({ err: error instanceof Error ? error.message : String(error) }, 'MQTT: giving up device shares failed; tried again');
      setTimeout(() => this.#queueReconcile(), 1000).unref();
    } finally {
      for (const serial of serials) this.#unsubscribing.delete(serial);
      this.#changedHeld();
      this.#onReleased?.();
    }
  }

  /** The shares held here changed: plain copies, this session's stores message (once per turn), and another look (owners may have moved meanwhile). */
  #changedHeld(): void {
    this.#group.refreshPlain();
    if (!this.#stopped) this.#queueReconcile();
    if (this.#storesQueued) return;
    this.#storesQueued = true;
    setImmediate(() => {
      this.#storesQueued = false;
      this.#publishStores();
    });
  }

  /** This session's stores message (`ending`: none, the session ends), retained, and the broker's answer. */
  #stores(ending = false): Promise<unknown> {
    // What an earlier run may hold counts too: the others then take plain copies rather than trust a share that is not theirs alone.
    const serials = ending ? [] : [...new Set([...this.#held, ...this.#maybe])];
    const payload = serials.length === 0 ? Buffer.alloc(0) : Buffer.from(JSON.stringify(serials));
    return this.#client.publishAsync(storesTopic(this.#groupName, this.#group.processId), payload, { qos: 1, retain: true });
  }

  #publishStores(): void {
    this.#stores().catch((error: unknown) =>
      this.#log.warn({ err: error instanceof Error ? error.message : String(error) }, 'MQTT: the device shares held here could not be announced'),
    );
  }

  /** Publishes the current stores message now (`ending`: none, the session ends) and waits for the broker (at close). */
  async flush(ending = false): Promise<void> {
    await this.#stores(ending);
  }
}
