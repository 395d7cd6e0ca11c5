/**
 * The devices the ingest knows: the `devices/{serial}` records of the document store, read straight
 * from the `documents` table by path (the ingest acts for no user), cached briefly so that HTTP
 * batches and reconnect storms do not cost a query each. Checks device secrets against the record's
 * `credentialHash` (devices/deviceSecret.ts).
 */
import type { Database } from '../database/database.ts';
import { verifyDeviceSecret } from '../devices/deviceSecret.ts';

export interface KnownDevice {
  serial: string;
  /** The record's tenant columns: scope of the stored signals. */
  domainId: string | null;
  rootDomainId: string | null;
  credentialHash: string | null;
  status: string | null;
}

/** Serials as they may appear in a topic or URL path: no slash, no MQTT wildcard, no spaces. */
export const SERIAL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

const CACHE_MS = 10_000;

export class DeviceRegistry {
  readonly #database: Database;
  readonly #cache = new Map<string, { device: KnownDevice | null; until: number }>();
  /** Lookups under way: concurrent callers share one, so answers come back in call order. */
  readonly #reading = new Map<string, Promise<KnownDevice | null>>();

  constructor(database: Database) {
    this.#database = database;
  }

  /** The device record, or null for an unknown (or malformed) serial. */
  async find(serial: string, nowMs = Date.now()): Promise<KnownDevice | null> {
    if (!SERIAL_PATTERN.test(serial)) return null;
    const cached = this.#cache.get(serial);
    if (cached !== undefined && cached.until > nowMs) return cached.device;
    let reading = this.#reading.get(serial);
    if (reading === undefined) {
      reading = this.#read(serial, nowMs).finally(() => this.#reading.delete(serial));
      this.#reading.set(serial, reading);
    }
    return reading;
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
    this.#cache.set(serial, { device, until: nowMs + (device === null ? 2000 : CACHE_MS) });
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

  /** Forgets the cached record, e.g. after the device was re-registered. */
  forget(serial: string): void {
    this.#cache.delete(serial);
  }
}
