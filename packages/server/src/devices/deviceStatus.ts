/**
 * Whether each device is online, derived from the age of its last frame, and its `lastSeenAt` kept in
 * the device record — written at most every {@link LAST_SEEN_WRITE_MS} per device (a record write per
 * frame would be thousands of writes a second), and when the device goes offline; the due devices
 * of a tick in one statement.
 */
import type { DocumentStore } from '../documents/store.ts';
import type { DeviceStatusEvent } from '../signals/liveHub.ts';

/** A device is offline when its last frame arrived longer ago than this. */
export const OFFLINE_AFTER_MS = 30_000;
export const LAST_SEEN_WRITE_MS = 15_000;
/** A thousand devices' lastSeenAt in one statement: about 100 kB of parameters, a few milliseconds of the database. */
const WRITES_PER_STATEMENT = 1_000;

interface Seen {
  lastFrameMs: number;
  online: boolean;
  writtenMs: number;
}

export interface Logger {
  warn(object: object, message: string): void;
}

export class DeviceStatusTracker {
  readonly #seen = new Map<string, Seen>();
  readonly #documents: DocumentStore;
  readonly #emit: (event: DeviceStatusEvent) => void;
  readonly #log: Logger;
  #writing: Promise<void> | undefined;

  constructor(documents: DocumentStore, emit: (event: DeviceStatusEvent) => void, log: Logger) {
    this.#documents = documents;
    this.#emit = emit;
    this.#log = log;
  }

  /** The device's status now, as the live view shows it. */
  statusOf(serial: string): DeviceStatusEvent {
    const seen = this.#seen.get(serial);
    return { serial, online: seen?.online ?? false, lastSeenAt: seen ? new Date(seen.lastFrameMs).toISOString() : null };
  }

  /** A frame of the device arrived. */
  seen(serial: string, nowMs = Date.now()): void {
    const seen = this.#seen.get(serial);
    if (seen === undefined) {
      // Each device's lastSeenAt is written on its own phase of the period, so that a thousand devices
      // that connected together are not all written in the same second (a stall every 15 s).
      this.#seen.set(serial, { lastFrameMs: nowMs, online: true, writtenMs: nowMs - phaseOf(serial) });
      this.#emit(this.statusOf(serial));
      return;
    }
    seen.lastFrameMs = nowMs;
    if (!seen.online) {
      seen.online = true;
      this.#emit(this.statusOf(serial));
    }
  }

  /** Marks silent devices offline and writes the due `lastSeenAt` values. Call every few seconds. */
  tick(nowMs = Date.now()): Promise<void> {
    const due: [string, number][] = [];
    for (const [serial, seen] of this.#seen) {
      if (seen.online && nowMs - seen.lastFrameMs > OFFLINE_AFTER_MS) {
        seen.online = false;
        this.#emit(this.statusOf(serial));
      }
      if (seen.lastFrameMs > seen.writtenMs && (nowMs - seen.writtenMs >= LAST_SEEN_WRITE_MS || !seen.online)) {
        seen.writtenMs = seen.lastFrameMs;
        due.push([serial, seen.lastFrameMs]);
      }
    }
    if (due.length === 0 || this.#writing) return this.#writing ?? Promise.resolve();
    this.#writing = this.#write(due).finally(() => (this.#writing = undefined));
    return this.#writing;
  }

  /** Writes every device's latest `lastSeenAt` (at shutdown). */
  async flush(): Promise<void> {
    while (this.#writing) await this.#writing;
    const due: [string, number][] = [];
    for (const [serial, seen] of this.#seen) {
      if (seen.lastFrameMs > seen.writtenMs) {
        seen.writtenMs = seen.lastFrameMs;
        due.push([serial, seen.lastFrameMs]);
      }
    }
    await this.#write(due);
  }

  /** In one statement per {@link WRITES_PER_STATEMENT} devices (DocumentStore.recordHeartbeats). */
  async #write(due: readonly [string, number][]): Promise<void> {
    for (let i = 0; i < due.length; i += WRITES_PER_STATEMENT) {
      const part = due.slice(i, i + WRITES_PER_STATEMENT);
      try {
        const missing = await this.#documents.recordHeartbeats(
          part.map(([serial, lastFrameMs]) => ({ path: `devices/${serial}`, fields: { lastSeenAt: new Date(lastFrameMs).toISOString() } })),
        );
        for (const path of missing) this.#log.warn({ serial: path.slice('devices/'.length) }, "could not record the device's lastSeenAt");
      } catch (error) {
        this.#log.warn({ devices: part.length, err: error }, "could not record the devices' lastSeenAt");
      }
    }
  }
}

/** Where in the write period a device's writes fall: from its serial (FNV-1a), the same at every start. */
function phaseOf(serial: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < serial.length; i++) hash = Math.imul(hash ^ serial.charCodeAt(i), 0x01000193) >>> 0;
  return hash % LAST_SEEN_WRITE_MS;
}
