/**
 * Which room each device watches, each domain's alert numbers and each room's own alert settings
 * (shared/roomAlertSettings.ts, overriding its domain's): read from the documents table
 * (the monitoring acts for no user) and kept current through the change feed, with a full re-read
 * every minute as a safety net.
 */
import { resolveAlertNumbers, type AlertNumbers } from '@nemuri/analysis/alerts';
import type { AlertTypeName } from '@nemuri/shared/monitoring';
import { alertTypeEnabled, roomAlertSettingsOf, withRoomNight, withRoomNumbers, type RoomAlertSettings } from '@nemuri/shared/roomAlertSettings';
import type { Database } from '../database/database.ts';
import type { ChangeBatch, ChangeFeed } from '../documents/changeFeed.ts';
import { DEFAULT_SLEEP_DAY, sleepDayRuleOf, type SleepDayRule } from '../sleep/sleepDay.ts';
import { DEFAULT_NIGHT, nightWindowOf, type NightWindow } from './nightWindow.ts';

export interface MonitoredRoom {
  roomId: string;
  name: string;
  domainId: string;
  rootDomainId: string | null;
  serial: string;
  /** The room's own alert settings; null: the domain's throughout. */
  alertSettings: RoomAlertSettings | null;
}

const REREAD_MS = 60_000;
/** After a failed read in the background (a lost connection, a restarting database), the next try. */
const RETRY_MS = 5_000;

/** Where a failed background read is told; the directory keeps what it read last. */
export interface RoomDirectoryLogger {
  warn(object: object, message: string): void;
}

export class RoomDirectory {
  readonly #database: Database;
  #bySerial = new Map<string, MonitoredRoom>();
  #numbers = new Map<string, AlertNumbers>();
  #nights = new Map<string, NightWindow>();
  #sleepDays = new Map<string, SleepDayRule>();
  #reading: Promise<void> | null = null;
  #again = false;
  #timer: NodeJS.Timeout | undefined;
  #retry: NodeJS.Timeout | undefined;
  #stopped = false;
  #unsubscribe: (() => void) | undefined;

  readonly #changeFeed: ChangeFeed;
  readonly #log: RoomDirectoryLogger;

  constructor(database: Database, changeFeed: ChangeFeed, log: RoomDirectoryLogger) {
    this.#database = database;
    this.#changeFeed = changeFeed;
    this.#log = log;
  }

  /** Reads the rooms once (rejects if it cannot: a server must not monitor from nothing), then follows them. */
  async start(): Promise<void> {
    this.#unsubscribe = this.#changeFeed.subscribe((batch) => {
      if (this.#concerns(batch)) this.#refreshInBackground();
    });
    this.#timer = setInterval(() => this.#refreshInBackground(), REREAD_MS);
    this.#timer.unref();
    await this.refresh();
  }

  stop(): void {
    this.#stopped = true;
    this.#unsubscribe?.();
    clearInterval(this.#timer);
    clearTimeout(this.#retry);
  }

  // A read nobody awaits must not reject unhandled (Node.js ends the process on that): a lost
  // database connection keeps the last rooms read and tries again shortly, since a change it missed
  // would otherwise wait for the minute's re-read.
  #refreshInBackground(): void {
    this.refresh().catch((error: unknown) => {
      this.#log.warn({ err: error }, `room directory: the rooms could not be read again (trying again in ${RETRY_MS / 1000} s)`);
      if (this.#retry !== undefined || this.#stopped) return;
      this.#retry = setTimeout(() => {
        this.#retry = undefined;
        this.#refreshInBackground();
      }, RETRY_MS);
      this.#retry.unref();
    });
  }

  #concerns(batch: ChangeBatch): boolean {
    return 'everything' in batch || batch.changes.some((change) => change.collection === 'rooms' || change.collection === 'domains');
  }

  /** Reads everything again; calls during a read are folded into one more read after it. */
  refresh(): Promise<void> {
    if (this.#reading !== null) {
      this.#again = true;
      return this.#reading;
    }
    this.#reading = (async () => {
      try {
        do {
          this.#again = false;
          await this.#read();
        } while (this.#again);
      } finally {
        this.#reading = null;
      }
    })();
    return this.#reading;
  }

  async #read(): Promise<void> {
    const { rows } = await this.#database.query<{ id: string; data: Record<string, unknown>; domain_id: string | null; root_domain_id: string | null }>(
      `select id, data, domain_id, root_domain_id from documents
        where collection = 'rooms' and coalesce(data ->> 'deviceSerial', '') <> '' and coalesce(data ->> 'status', 'active') <> 'inactive'`,
    );
    const bySerial = new Map<string, MonitoredRoom>();
    for (const row of rows) {
      const serial = row.data.deviceSerial;
      if (typeof serial !== 'string' || row.domain_id === null) continue;
      bySerial.set(serial, {
        roomId: row.id,
        name: typeof row.data.name === 'string' ? row.data.name : row.id,
        domainId: row.domain_id,
        rootDomainId: row.root_domain_id,
        serial,
        alertSettings: roomAlertSettingsOf(row.data.alertSettings),
      });
    }
    const domainIds = [...new Set([...bySerial.values()].map((room) => room.domainId))];
    const numbers = new Map<string, AlertNumbers>();
    const nights = new Map<string, NightWindow>();
    const sleepDays = new Map<string, SleepDayRule>();
    if (domainIds.length > 0) {
      const { rows: domains } = await this.#database.query<{
        id: string;
        numbers: Record<string, number | null> | null;
        dates: Record<string, unknown> | null;
        time_zone: string | null;
      }>(
        `select id, data -> 'numbers' as numbers, data -> 'dates' as dates, data ->> 'timeZone' as time_zone
           from documents where collection = 'domains' and id = any($1::text[])`,
        [domainIds],
      );
      for (const domain of domains) {
        numbers.set(domain.id, resolveAlertNumbers(domain.numbers));
        nights.set(domain.id, nightWindowOf(domain.dates, domain.time_zone));
        sleepDays.set(domain.id, sleepDayRuleOf(domain.dates, domain.time_zone));
      }
    }
    this.#bySerial = bySerial;
    this.#numbers = numbers;
    this.#nights = nights;
    this.#sleepDays = sleepDays;
  }

  roomOf(serial: string): MonitoredRoom | undefined {
    return this.#bySerial.get(serial);
  }

  rooms(): MonitoredRoom[] {
    return [...this.#bySerial.values()];
  }

  /** The domain's sleep day (boundary hour and time zone). */
  sleepDayOf(domainId: string): SleepDayRule {
    return this.#sleepDays.get(domainId) ?? DEFAULT_SLEEP_DAY;
  }

  nightOf(domainId: string): NightWindow {
    return this.#nights.get(domainId) ?? DEFAULT_NIGHT;
  }

  numbersOf(domainId: string): AlertNumbers {
    return this.#numbers.get(domainId) ?? resolveAlertNumbers(null);
  }

  /** The room's numbers: its domain's with the room's overrides. */
  numbersOfRoom(room: MonitoredRoom): AlertNumbers {
    return withRoomNumbers(this.numbersOf(room.domainId), room.alertSettings);
  }

  /** The room's night: its domain's, each end replaced where the room sets it. */
  nightOfRoom(room: MonitoredRoom): NightWindow {
    return withRoomNight(this.nightOf(room.domainId), room.alertSettings);
  }

  /** Whether the room raises alerts of this type (a room may switch types off). */
  raises(room: MonitoredRoom, type: AlertTypeName): boolean {
    return alertTypeEnabled(room.alertSettings, type);
  }
}
