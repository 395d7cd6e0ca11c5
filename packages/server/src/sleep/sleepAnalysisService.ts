/**
 * Each morning's sleep record of the monitored rooms: once a room's sleep day has ended (and a margin
 * has passed for the last minute's frames to be stored), its stored signals are replayed and scored in
 * a worker thread and written to `rooms/{roomId}/sleeps/{day}` with source `live`. A day that already
 * has a record (imported, or written before a restart) is left alone; `analyze` re-runs a day on
 * request and gives the same record for the same frames.
 */
import type { AnalyzedDay } from '@nemuri/shared/sleepAnalysis';
import type { Claims } from '@nemuri/shared/documents/access';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { DocumentStore } from '../documents/store.ts';
import type { RoomDirectory } from '../monitoring/roomDirectory.ts';
import type { SignalStore } from '../signals/signalStore.ts';
import { analyzeNight } from './nightAnalysis.ts';
import { lastEndedSleepDay, sleepDayRange, type SleepDayRule } from './sleepDay.ts';

/** The analysis writes as the server, for no user. */
const ANALYSIS: Claims = { uid: 'sleep-analysis', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
export const LIVE_SOURCE = 'live';

export interface SleepAnalysisLog {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface SleepAnalysisOptions {
  documents: DocumentStore;
  signals: SignalStore;
  directory: RoomDirectory;
  log: SleepAnalysisLog;
  now?: () => number;
  /** How often ended days are looked for. Default 60 s. */
  checkEveryMs?: number;
  /** Wait after a day ends before scoring it (the last frames reach the store). Default 5 min. */
  settleMs?: number;
}

export class SleepAnalysisService {
  readonly #documents: DocumentStore;
  readonly #signals: SignalStore;
  readonly #directory: RoomDirectory;
  readonly #log: SleepAnalysisLog;
  readonly #now: () => number;
  readonly #checkEveryMs: number;
  readonly #settleMs: number;
  /** Room and day pairs decided (scored, or found with a record or without frames). */
  readonly #decided = new Set<string>();
  /** One night at a time: scoring is CPU work for the one worker. */
  #queue: Promise<unknown> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;

  constructor(options: SleepAnalysisOptions) {
    this.#documents = options.documents;
    this.#signals = options.signals;
    this.#directory = options.directory;
    this.#log = options.log;
    this.#now = options.now ?? Date.now;
    this.#checkEveryMs = options.checkEveryMs ?? 60_000;
    this.#settleMs = options.settleMs ?? 5 * 60_000;
  }

  start(): void {
    this.#timer = setInterval(() => void this.runDue(), this.#checkEveryMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#queue.catch(() => undefined);
  }

  /** Scores every monitored room's last ended sleep day that has frames and no record yet. */
  runDue(): Promise<AnalyzedDay[]> {
    const run = this.#queue.then(() => this.#runDue());
    this.#queue = run.catch((error: unknown) => this.#log.error({ err: error }, 'sleep analysis failed'));
    return run;
  }

  async #runDue(): Promise<AnalyzedDay[]> {
    const done: AnalyzedDay[] = [];
    for (const room of this.#directory.rooms()) {
      const rule = this.#directory.sleepDayOf(room.domainId);
      const day = lastEndedSleepDay(this.#now() - this.#settleMs, rule);
      const key = `${room.roomId} ${day}`;
      if (this.#decided.has(key)) continue;
      const path = `rooms/${room.roomId}/sleeps/${day}`;
      const { startMs, endMs } = sleepDayRange(day, rule);
      if ((await this.#documents.get(ANALYSIS, path)) !== null || !(await this.#signals.hasFrames(room.serial, startMs * 1000, endMs * 1000))) {
        this.#decided.add(key);
        continue;
      }
      done.push(await this.#score(room.roomId, room.serial, day, rule));
      this.#decided.add(key);
    }
    return done;
  }

  /**
   * Re-scores one day from its stored signals and writes it, unless the day's record came from an
   * import (then `written` is false: the import's record stays).
   */
  analyze(roomId: string, serial: string, day: string): Promise<AnalyzedDay> {
    const run = this.#queue.then(async () => {
      const existing = await this.#documents.get(ANALYSIS, `rooms/${roomId}/sleeps/${day}`);
      if (existing !== null && existing.document.source !== LIVE_SOURCE) return { roomId, day, frames: 0, written: false };
      const room = this.#directory.rooms().find((candidate) => candidate.roomId === roomId);
      return this.#score(roomId, serial, day, this.#directory.sleepDayOf(room?.domainId ?? ''));
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #score(roomId: string, serial: string, day: string, rule: SleepDayRule): Promise<AnalyzedDay> {
    const { startMs, endMs } = sleepDayRange(day, rule);
    const started = Date.now();
    const { record, frames } = await analyzeNight((channel, fromUs, toUs) => this.#signals.read(serial, channel, fromUs, toUs), startMs, endMs, LIVE_SOURCE);
    await this.#documents.set(ANALYSIS, `rooms/${roomId}/sleeps/${day}`, { ...record }, false);
    this.#log.info({ roomId, day, frames, ms: Date.now() - started }, 'sleep day scored from the stored signals');
    return { roomId, day, frames, written: true };
  }
}
