/**
 * The devices the server knows: the `devices/{serial}` records of the document store, read straight
 * from the `documents` table by path (the ingest acts for no user), cached briefly so that HTTP
 * batches and reconnect storms do not cost a query each. Checks device secrets against the record's
 * `credentialHash` (devices/deviceSecret.ts).
 *
 * While the database does not answer, a device read within the last LAST_KNOWN_GOOD_MS is answered
 * from its last good read (docs/device-protocol.md, "Guarantees"), so that devices reconnecting
 * during a database outage are not refused. The record is re-read every CACHE_MS while the database
 * answers, and `forget` (a new credential, a re-registration) drops the last good read too, so an
 * outage never revives a credential that was replaced while the database could be read.
 */
import type { Database } from '../database/database.ts';
import { mayChange, type DocumentChange } from '../documents/changeFeed.ts';
import { verifyDeviceSecret } from './deviceSecret.ts';

/** Where a device's credentials go besides the database (the production broker: ingest/brokerAccounts.ts). */
export interface DeviceAccounts {
  /** The device's account now has this secret (created if absent, enabled). */
  provision(serial: string, secret: string): Promise<void>;
  /** The device's account is gone (retired or deleted device); nothing to do when absent. */
  remove(serial: string): Promise<void>;
}

export interface KnownDevice {
  serial: string;
  /** The record's tenant columns: scope of the stored signals. */
  domainId: string | null;
  rootDomainId: string | null;
  credentialHash: string | null;
  status: string | null;
}

/** The device record's fields a KnownDevice is read from (its tenant columns follow domainId). */
const KNOWN_DEVICE_FIELDS = ['status', 'credentialHash', 'domainId'];

/** Whether a change of `devices/…` may change what the registry knows of the device (not its lastSeenAt, say). */
export function changesKnownDevice(change: DocumentChange): boolean {
  return mayChange(change, KNOWN_DEVICE_FIELDS);
}

/** Serials as they may appear in a topic or URL path: no slash, no MQTT wildcard, no spaces. */
export const SERIAL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

const CACHE_MS = 10_000;
/** How old a last good read may be to stand in for the database during an outage. */
export const LAST_KNOWN_GOOD_MS = 24 * 3_600_000;
/**
 * A lookup that has not answered by then is answered from the last good read, if there is one:
 * a database that does not refuse but hangs must not hold devices past their CONNECT timeout.
 */
const LOOKUP_PATIENCE_MS = 3000;
/** After a failed read, the last good read answers without asking the database again for this long. */
const RETRY_AFTER_FAILURE_MS = 1000;

interface CachedDevice {
  device: KnownDevice | null;
  /** Fresh until then: answered without a query. */
  until: number;
  /** When the database last answered for this serial. */
  readAt: number;
}

export interface DeviceRegistryOptions {
  /** LAST_KNOWN_GOOD_MS unless given (tests). */
  lastKnownGoodMs?: number;
  /** LOOKUP_PATIENCE_MS unless given (tests). */
  lookupPatienceMs?: number;
}

export class DeviceRegistry {
  readonly #database: Database;
  readonly #cache = new Map<string, CachedDevice>();
  readonly #lastKnownGoodMs: number;
  readonly #lookupPatienceMs: number;
  /** Answers given from a last good read because the database failed (for logs and health). */
  staleAnswers = 0;
  /** Lookups under way: concurrent callers share one, so answers come back in call order. */
  readonly #reading = new Map<string, Promise<KnownDevice | null>>();

  constructor(database: Database, options: DeviceRegistryOptions = {}) {
    this.#database = database;
    this.#lastKnownGoodMs = options.lastKnownGoodMs ?? LAST_KNOWN_GOOD_MS;
    this.#lookupPatienceMs = options.lookupPatienceMs ?? LOOKUP_PATIENCE_MS;
  }

  /**
   * The device record, or null for an unknown (or malformed) serial. Rejects when the database
   * fails and no good read of the device is recent enough to stand in for it.
   */
  async find(serial: string, nowMs = Date.now()): Promise<KnownDevice | null> {
    if (!SERIAL_PATTERN.test(serial)) return null;
    const cached = this.#cache.get(serial);
    if (cached !== undefined && cached.until > nowMs) return cached.device;
    let reading = this.#reading.get(serial);
    if (reading === undefined) {
      reading = this.#read(serial, nowMs).finally(() => this.#reading.delete(serial));
      this.#reading.set(serial, reading);
    }
    const lastGood = cached !== undefined && cached.device !== null && nowMs - cached.readAt <= this.#lastKnownGoodMs ? cached : undefined;
    if (lastGood === undefined) return reading;
    let patience: NodeJS.Timeout | undefined;
    const slow = new Promise<'slow'>((resolve) => {
      patience = setTimeout(() => resolve('slow'), this.#lookupPatienceMs);
      patience.unref();
    });
    try {
      const answer = await Promise.race([reading, slow]);
      if (answer !== 'slow') return answer;
    } catch {
      // Falls through to the last good read.
    } finally {
      clearTimeout(patience);
    }
    // Unless forgotten meanwhile (a new credential): then the database must answer.
    if (this.#cache.get(serial) !== lastGood) return reading;
    this.staleAnswers++;
    lastGood.until = Date.now() + RETRY_AFTER_FAILURE_MS;
    return lastGood.device;
  }

  async #read(serial: string, nowMs: number): Promise<KnownDevice | null> {
    const { rows } = await this.#database.query<{ data: Record<string, unknown>; domain_id: string | null; root_domain_id: string | null }>(
      'select data, domain_id, root_domain_id from documents where path = $1',
      [`devices/${serial}`],
    );
    const row = rows[0];
    const device: KnownDevice | null =
      row === undefined
        ? null
        : {
            serial,
            domainId: row.domain_id,
            rootDomainId: row.root_domain_id,
            credentialHash: typeof row.data.credentialHash === 'string' ? row.data.credentialHash : null,
            status: typeof row.data.status === 'string' ? row.data.status : null,
          };
    if (this.#cache.size > 100_000) this.#cache.clear();
    // An unknown serial is re-read sooner: the device may be registered any moment.
    this.#cache.set(serial, { device, until: nowMs + (device === null ? 2000 : CACHE_MS), readAt: nowMs });
    return device;
  }

  /**
   * The device when `secret` is its secret; null for an unknown serial, a device without a
   * credential, a retired device, or a wrong secret (callers must not tell these apart to the client).
   */
  async authenticate(serial: string, secret: string): Promise<KnownDevice | null> {
    const device = await this.find(serial);
    if (device === null || device.status === 'retired') return null;
    return verifyDeviceSecret(secret, device.credentialHash) ? device : null;
  }

  /** The production broker's device accounts (MQTT_DEVICE_ACCOUNTS); null: the broker keeps its own (or is embedded). */
  accounts: DeviceAccounts | null = null;

  /**
   * Called before a device's broker account is provisioned: with several processes, this one takes
   * the device's share of the broker's messages (ingest/deviceShares.ts), so that its first message
   * finds a subscriber. Null with one process.
   */
  beforeProvision: ((serial: string) => Promise<void>) | null = null;

  /**
   * A new secret of the device was committed: the cached record is forgotten (the old secret stops
   * working here at once) and the broker's account, if the broker keeps them, gets the new one.
   */
  async credentialChanged(serial: string, secret: string): Promise<void> {
    this.forget(serial);
    await this.beforeProvision?.(serial);
    await this.accounts?.provision(serial, secret);
  }

  /** Every device that may send: registered and not retired (read from the database, not the cache). */
  async serials(): Promise<string[]> {
    const { rows } = await this.#database.query<{ id: string }>(
      "select id from documents where collection = 'devices' and coalesce(data ->> 'status', '') <> 'retired'",
    );
    return rows.map((row) => row.id).filter((serial) => SERIAL_PATTERN.test(serial));
  }

  /** Forgets the cached record, e.g. after the device was re-registered. */
  forget(serial: string): void {
    this.#cache.delete(serial);
  }
}
