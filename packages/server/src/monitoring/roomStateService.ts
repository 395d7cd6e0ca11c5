/**
 * The live state of every monitored room (PRODUCT.md section 8), on the server so that every
 * screen and the alerts agree: each device's frames (from the ingest pipeline's hub) feed its
 * room-state estimator (@nemuri/analysis); once a second every room is evaluated, its alert
 * tracker updated with the domain's numbers, alerts stored in `alerts` (opened, ended, sounded
 * again), and the states handed to listeners (the monitoring WebSocket).
 *
 * Acknowledgements are made by staff on the alert records (the document API); the service learns
 * of them through the change feed, so an acknowledged alert whose condition persists sounds again.
 */
import { randomUUID } from 'node:crypto';
import { createParserSync } from '@nemuri/parser/node';
import type { Parser } from '@nemuri/parser/parser';
import type { SmfSampleChannel } from '@nemuri/parser/smf';
import { AlertTracker, alertDocument, sameAlertNumbers, type AlertEvent, type AlertNumbers, type AlertTrackerOptions, type AlertType } from '@nemuri/analysis/alerts';
import { RoomStateEstimator } from '@nemuri/analysis/roomState';
import type { Claims } from '@nemuri/shared/documents/access';
import type { LiveRoomState } from '@nemuri/shared/monitoring';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { Database } from '../database/database.ts';
import { changeFeedOf, type ChangeBatch } from '../documents/changeFeed.ts';
import { DocumentStore } from '../documents/store.ts';
import type { LiveHub } from '../signals/liveHub.ts';
import { inNight } from './nightWindow.ts';
import { RoomDirectory, type MonitoredRoom } from './roomDirectory.ts';

export interface MonitoringLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface RoomStateServiceOptions {
  database: Database;
  hub: LiveHub;
  log: MonitoringLogger;
  /** Evaluation period. Default 1,000 ms. */
  tickMs?: number;
  /** An acknowledged alert still active sounds again after this long. Default: the domain's `numbers.alertResoundMin` (5 min). */
  resoundAfterSec?: number;
  /** Time source (tests). */
  now?: () => number;
}

export type RoomStatesListener = (states: readonly LiveRoomState[], at: number) => void;

/** Alerts raised only in the domain's night (nightWindow.ts): in the daytime residents are up. */
const NIGHT_ONLY: ReadonlySet<AlertType> = new Set(['outOfBed', 'longOutOfBed']);

/** The monitoring's writes act for no user; the audit log names it. */
const MONITORING: Claims = { uid: 'monitoring', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };

interface RoomWatch {
  estimator: RoomStateEstimator;
  tracker: AlertTracker;
  numbers: AlertNumbers;
  /** Alert record ids of the open alerts, by type. */
  alertIds: Map<AlertType, string>;
}

export class RoomStateService {
  readonly directory: RoomDirectory;
  readonly #store: DocumentStore;
  readonly #hub: LiveHub;
  readonly #log: MonitoringLogger;
  readonly #tickMs: number;
  readonly #resoundAfterSec: number | undefined;
  readonly #now: () => number;
  readonly #database: Database;
  readonly #watches = new Map<string, RoomWatch>();
  readonly #listeners = new Set<RoomStatesListener>();
  #states: LiveRoomState[] = [];
  #parser: Parser | undefined;
  #timer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void)[] = [];
  /** Alert writes are queued so that open, end and sound-again of one alert keep their order. */
  #writes: Promise<void> = Promise.resolve();
  readonly #startedAt: number;

  constructor(options: RoomStateServiceOptions) {
    this.#database = options.database;
    this.#store = new DocumentStore(options.database, options.log);
    this.#hub = options.hub;
    this.#log = options.log;
    this.#tickMs = options.tickMs ?? 1000;
    this.#resoundAfterSec = options.resoundAfterSec;
    this.#now = options.now ?? Date.now;
    this.#startedAt = this.#now();
    this.directory = new RoomDirectory(options.database);
  }

  async start(): Promise<void> {
    await this.directory.start();
    await this.#endDanglingAlerts();
    this.#unsubscribe.push(
      this.#hub.subscribeAll({
        frame: (serial, channel, bytes) => this.#frame(serial, channel, bytes),
        status: () => undefined,
      }),
      changeFeedOf(this.#database).subscribe((batch) => this.#acknowledgements(batch)),
    );
    this.#timer = setInterval(() => this.tick(), this.#tickMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#unsubscribe = [];
    this.directory.stop();
    await this.#writes;
  }

  /** Resolves once the alert writes queued so far are done. */
  async settled(): Promise<void> {
    await this.#writes;
  }

  /** The latest states of every monitored room. */
  get states(): readonly LiveRoomState[] {
    return this.#states;
  }

  onStates(listener: RoomStatesListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #watch(room: MonitoredRoom): RoomWatch {
    const numbers = this.directory.numbersOf(room.domainId);
    let watch = this.#watches.get(room.serial);
    if (watch === undefined) {
      watch = { estimator: new RoomStateEstimator(), tracker: new AlertTracker(numbers, this.#trackerOptions()), numbers, alertIds: new Map() };
      this.#watches.set(room.serial, watch);
    } else if (!sameAlertNumbers(watch.numbers, numbers)) {
      // New numbers: a fresh tracker; the open alerts end now and open again if still due.
      this.#closeAll(watch, this.#now());
      watch.tracker = new AlertTracker(numbers, this.#trackerOptions());
      watch.numbers = numbers;
    }
    return watch;
  }

  #frame(serial: string, channel: SmfSampleChannel, bytes: Uint8Array): void {
    const room = this.directory.roomOf(serial);
    if (room === undefined) return;
    try {
      this.#parser ??= createParserSync();
      const frame = this.#parser.decodeSmfFrame(bytes);
      if (frame.channel === 'multi') return;
      this.#watch(room).estimator.push(channel, frame.startTimeUs / 1000, frame.sampleRate, frame.values, frame.width);
    } catch (error) {
      // The pipeline validated the frame already: this is unexpected, but must not stop monitoring.
      this.#log.error({ serial, channel, err: error }, 'room state: a frame could not be read');
    }
  }

  /** Evaluates every room once (the timer calls it every second). */
  tick(): void {
    const at = this.#now();
    const states: LiveRoomState[] = [];
    for (const room of this.directory.rooms()) {
      const watch = this.#watch(room);
      const state = watch.estimator.evaluate(at);
      // A device never heard from since the start is offline since the start.
      const since = state.state === 'offline' && !Number.isFinite(state.since) ? this.#startedAt : state.since;
      const live: LiveRoomState = {
        roomId: room.roomId,
        domainId: room.domainId,
        rootDomainId: room.rootDomainId,
        serial: room.serial,
        state: state.state,
        since,
        respirationRate: state.respirationRate,
        heartRate: state.heartRate,
        movement: state.movement,
        temperature: state.temperature,
        lastButtonAt: state.lastButtonAt,
        at,
      };
      states.push(live);
      const events = watch.tracker.update({ ...state, since, at });
      for (const event of events) this.#record(room, watch, event);
    }
    for (const [serial] of this.#watches) if (this.directory.roomOf(serial) === undefined) this.#watches.delete(serial);
    this.#states = states;
    for (const listener of this.#listeners) listener(states, at);
  }

  #record(room: MonitoredRoom, watch: RoomWatch, event: AlertEvent): void {
    const owner = { domainId: room.domainId, roomId: room.roomId, deviceSerial: room.serial };
    if (event.kind === 'open') {
      // A daytime out-of-bed is no alert; the next time the resident leaves the bed at night is.
      if (NIGHT_ONLY.has(event.type) && !inNight(this.directory.nightOf(room.domainId), event.at)) return;
      const id = randomUUID();
      watch.alertIds.set(event.type, id);
      this.#write(() => this.#store.set(MONITORING, `alerts/${id}`, alertDocument(owner, { type: event.type, startedAt: event.startedAt }), false));
    } else {
      const id = watch.alertIds.get(event.type);
      if (id === undefined) return;
      if (event.kind === 'close') {
        watch.alertIds.delete(event.type);
        this.#write(() => this.#store.update(MONITORING, `alerts/${id}`, { endedAt: new Date(event.at).toISOString() }));
      } else {
        // Sounding again: the acknowledgement no longer holds.
        this.#write(() => this.#store.update(MONITORING, `alerts/${id}`, { acknowledgedBy: null, acknowledgedAt: null }));
      }
    }
  }

  #closeAll(watch: RoomWatch, at: number): void {
    for (const [type, id] of watch.alertIds) {
      this.#write(() => this.#store.update(MONITORING, `alerts/${id}`, { endedAt: new Date(at).toISOString() }));
      watch.alertIds.delete(type);
    }
  }

  #write(write: () => Promise<unknown>): void {
    this.#writes = this.#writes.then(write).then(
      () => undefined,
      (error: unknown) => this.#log.error({ err: error }, 'room state: an alert could not be stored'),
    );
  }

  /** Alerts left open by an earlier run end now: their conditions are evaluated afresh. */
  async #endDanglingAlerts(): Promise<void> {
    const { rowCount } = await this.#database.query(
      `update documents set data = jsonb_set(data, '{endedAt}', to_jsonb($1::text)), updated_at = now(), version = version + 1
        where collection = 'alerts' and coalesce(data ->> 'endedAt', '') = ''`,
      [new Date(this.#now()).toISOString()],
    );
    if ((rowCount ?? 0) > 0) this.#log.info({ alerts: rowCount }, 'alerts left open by the previous run were ended');
  }

  #trackerOptions(): AlertTrackerOptions {
    return this.#resoundAfterSec === undefined ? {} : { resoundAfterSec: this.#resoundAfterSec };
  }

  /** Staff acknowledge on the alert record; the tracker learns of it to sound again later if need be. */
  #acknowledgements(batch: ChangeBatch): void {
    if ('everything' in batch) return;
    for (const change of batch.changes) {
      if (change.collection !== 'alerts' || change.op === 'delete') continue;
      const id = change.path.slice('alerts/'.length);
      for (const watch of this.#watches.values()) {
        for (const [type, alertId] of watch.alertIds) {
          if (alertId !== id) continue;
          void this.#store.get(MONITORING, change.path).then(
            (found) => {
              const at = found?.document.acknowledgedAt;
              if (typeof at === 'string' && at !== '') watch.tracker.acknowledge(type, Date.parse(at), typeof found?.document.acknowledgedBy === 'string' ? found.document.acknowledgedBy : null);
            },
            (error: unknown) => this.#log.warn({ err: error, path: change.path }, 'room state: an acknowledgement could not be read'),
          );
        }
      }
    }
  }
}
