/**
 * The live state of every monitored room (PRODUCT.md section 8), on the server so that every
 * screen and the alerts agree: each device's frames (from the ingest pipeline's hub) feed its
 * room-state estimator (@nemuri/analysis), and the alerts are kept in `alerts` records.
 *
 * Time is the device's: the estimator is evaluated at the end of each second of the device's
 * samples once that second has arrived (when the next one begins, or at the next tick), and its
 * alert tracker updated with that state. A room's states are therefore the same whether its frames
 * come at once, seconds late or jittered (issue 18: frames 2.6–3.5 s late left every room 通信なし).
 * Once a second (the tick) every room's state is handed to listeners (the monitoring WebSocket):
 * the estimator's state while its newest data is within the late tolerance (LATE_TOLERANCE_SEC)
 * of real time, `late` (遅延) beyond it, `offline` only after the domain's `deviceOfflineMin`
 * without any frame.
 *
 * Alerts follow ThingsBoard's lifecycle (active/cleared × acknowledged/unacknowledged): a record is
 * opened when its condition is met, `endedAt` set when it ends, and it stays on the station until a
 * person acknowledges it (`acknowledgedBy/At`, written by staff through the document API; the
 * service learns of them through the change feed). While active it sounds again (`soundedAt`) every
 * `alertResoundMin` unacknowledged, and that long after an acknowledgement, which is then cleared.
 */
import { randomUUID } from 'node:crypto';
import { createParserSync } from '@nemuri/parser/node';
import type { Parser } from '@nemuri/parser/parser';
import type { SmfSampleChannel } from '@nemuri/parser/smf';
import {
  AlertTracker,
  alertDocument,
  sameAlertNumbers,
  type AlertEvent,
  type AlertNumbers,
  type AlertTrackerOptions,
  type AlertType,
} from '@nemuri/analysis/alerts';
import { RoomStateEstimator, type RoomState } from '@nemuri/analysis/roomState';
import type { Claims } from '@nemuri/shared/documents/access';
import { ALERT_SEVERITY, LATE_TOLERANCE_SEC, type AlertSeverity, type LiveRoomState } from '@nemuri/shared/monitoring';
import type { Database } from '../database/database.ts';
import type { ChangeBatch } from '../documents/changeFeed.ts';
import { serverIdentity, type DocumentStore } from '../documents/store.ts';
import type { LiveHub } from '../signals/liveHub.ts';
import { inNight } from './nightWindow.ts';
import { RoomDirectory, type MonitoredRoom } from './roomDirectory.ts';

export interface MonitoringLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface RoomStateServiceOptions {
  /** Where rooms, domains and alerts are read and alerts written; its change feed keeps the rooms current. */
  documents: DocumentStore;
  hub: LiveHub;
  log: MonitoringLogger;
  /** Evaluation period. Default 1,000 ms. */
  tickMs?: number;
  /** An active alert sounds again after this long. Default: the domain's `numbers.alertResoundMin` (5 min). */
  resoundAfterSec?: number;
  /** Data this far behind real time still gives the computed state; further behind, `late`. Default LATE_TOLERANCE_SEC (10 s). */
  lateToleranceSec?: number;
  /** Time source (tests). */
  now?: () => number;
}

export type RoomStatesListener = (states: readonly LiveRoomState[], at: number) => void;

/** Alerts raised only in the domain's night (nightWindow.ts): in the daytime residents are up. */
const NIGHT_ONLY: ReadonlySet<AlertType> = new Set(['outOfBed', 'longOutOfBed', 'sittingUp']);

/** Every alert type of the estimator has its severity in the shared table. */
const SEVERITY: Readonly<Record<AlertType, AlertSeverity>> = ALERT_SEVERITY;

/** The estimator calls a device offline after this long without samples (its default). */
const ESTIMATOR_OFFLINE_MS = 10_000;

/** The monitoring's writes act for no user; the audit log names it. */
const MONITORING: Claims = serverIdentity('monitoring');

interface RoomWatch {
  estimator: RoomStateEstimator;
  tracker: AlertTracker;
  numbers: AlertNumbers;
  /** Alert record ids of the open alerts, by type. */
  alertIds: Map<AlertType, string>;
  /** End of the newest sample received (device time, ms); NaN before any. */
  dataEndMs: number;
  /** Device time up to which the estimator has been evaluated; NaN before any. */
  evaluatedTo: number;
  /** The estimator's state at `evaluatedTo`. */
  state: RoomState | null;
  /** When the last frame arrived (server time). */
  receivedAt: number;
  /** The newest `at` given to the alert tracker (it takes only later ones). */
  trackedTo: number;
  /** When the room began to read late (server time); NaN while it does not. */
  lateSince: number;
  /** Whether the room reads offline (the alert tracker then follows the server's clock). */
  offline: boolean;
}

export class RoomStateService {
  readonly directory: RoomDirectory;
  readonly #store: DocumentStore;
  readonly #hub: LiveHub;
  readonly #log: MonitoringLogger;
  readonly #tickMs: number;
  readonly #resoundAfterSec: number | undefined;
  readonly #lateToleranceMs: number;
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
    this.#database = options.documents.database;
    this.#store = options.documents;
    this.#hub = options.hub;
    this.#log = options.log;
    this.#tickMs = options.tickMs ?? 1000;
    this.#resoundAfterSec = options.resoundAfterSec;
    this.#lateToleranceMs = (options.lateToleranceSec ?? LATE_TOLERANCE_SEC) * 1000;
    this.#now = options.now ?? Date.now;
    this.#startedAt = this.#now();
    this.directory = new RoomDirectory(options.documents.database, options.documents.changes);
  }

  async start(): Promise<void> {
    await this.directory.start();
    await this.#endDanglingAlerts();
    this.#unsubscribe.push(
      this.#hub.subscribeAll({
        frame: (serial, channel, bytes) => this.#frame(serial, channel, bytes),
        status: () => undefined,
      }),
      this.#store.changes.subscribe((batch) => this.#acknowledgements(batch)),
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
    const numbers = this.directory.numbersOfRoom(room);
    let watch = this.#watches.get(room.serial);
    if (watch === undefined) {
      watch = {
        estimator: new RoomStateEstimator({ offlineAfterSec: ESTIMATOR_OFFLINE_MS / 1000 }),
        tracker: new AlertTracker(numbers, this.#trackerOptions()),
        numbers,
        alertIds: new Map(),
        dataEndMs: Number.NaN,
        evaluatedTo: Number.NaN,
        state: null,
        receivedAt: Number.NaN,
        trackedTo: Number.NEGATIVE_INFINITY,
        lateSince: Number.NaN,
        offline: false,
      };
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
      if (frame.channel === 'multi' || !(frame.sampleRate > 0)) return;
      const watch = this.#watch(room);
      const startMs = frame.startTimeUs / 1000;
      watch.receivedAt = this.#now();
      if (watch.offline) {
        // Back from offline: the tracker followed the server's clock meanwhile; the device's is its own.
        watch.offline = false;
        watch.tracker.resume();
        watch.trackedTo = Number.NEGATIVE_INFINITY;
      }
      // A device's frames come in order: one that starts later completes the seconds before it.
      this.#evaluateUpTo(room, watch, startMs);
      // Back after a long silence: the estimator sees the gap (offline) before the new data.
      const gap = startMs - watch.dataEndMs;
      if (gap > Math.max(ESTIMATOR_OFFLINE_MS, watch.numbers.deviceOfflineMin * 60_000)) this.#evaluate(room, watch, startMs);
      watch.estimator.push(channel, startMs, frame.sampleRate, frame.values, frame.width);
      const endMs = startMs + (Math.floor(frame.values.length / frame.width) * 1000) / frame.sampleRate;
      if (!(endMs <= watch.dataEndMs)) watch.dataEndMs = endMs;
    } catch (error) {
      // The pipeline validated the frame already: this is unexpected, but must not stop monitoring.
      this.#log.error({ serial, channel, err: error }, 'room state: a frame could not be read');
    }
  }

  /** Evaluates the second that ends the data received so far, once all data before `completeTo` is in. */
  #evaluateUpTo(room: MonitoredRoom, watch: RoomWatch, completeTo: number): void {
    if (!Number.isFinite(watch.dataEndMs)) return;
    const boundary = Math.ceil(watch.dataEndMs / 1000) * 1000;
    if (boundary <= completeTo && !(boundary <= watch.evaluatedTo)) this.#evaluate(room, watch, boundary);
  }

  /** The estimator at device time `at`, and the alert tracker with that state. */
  #evaluate(room: MonitoredRoom, watch: RoomWatch, at: number): void {
    const state = watch.estimator.evaluate(at);
    watch.state = state;
    watch.evaluatedTo = at;
    if (state.state !== 'offline' || Number.isFinite(state.since)) this.#track(room, watch, { ...state, at });
  }

  #track(room: MonitoredRoom, watch: RoomWatch, state: Parameters<AlertTracker['update']>[0]): void {
    if (!(state.at > watch.trackedTo)) return;
    watch.trackedTo = state.at;
    for (const event of watch.tracker.update(state)) this.#record(room, watch, event);
  }

  /** Evaluates every room once (the timer calls it every second). */
  tick(): void {
    const at = this.#now();
    const states: LiveRoomState[] = [];
    for (const room of this.directory.rooms()) {
      const watch = this.#watch(room);
      this.#evaluateUpTo(room, watch, Number.POSITIVE_INFINITY);
      const live = this.#liveState(room, watch, at);
      states.push(live);
      // Without data the device's clock stands still: the offline condition is judged on the server's.
      if (live.state === 'offline') {
        watch.offline = true;
        this.#track(room, watch, { ...this.#silent(), since: live.since, at });
      }
    }
    for (const [serial] of this.#watches) if (this.directory.roomOf(serial) === undefined) this.#watches.delete(serial);
    this.#states = states;
    for (const listener of this.#listeners) listener(states, at);
  }

  /** What the room reads at server time `at`: offline, late, or the estimator's state. */
  #liveState(room: MonitoredRoom, watch: RoomWatch, at: number): LiveRoomState {
    const estimated = watch.state ?? this.#silent();
    const live: LiveRoomState = {
      roomId: room.roomId,
      domainId: room.domainId,
      rootDomainId: room.rootDomainId,
      serial: room.serial,
      state: estimated.state,
      since: estimated.since,
      respirationRate: estimated.respirationRate,
      heartRate: estimated.heartRate,
      movement: estimated.movement,
      temperature: estimated.temperature,
      lastButtonAt: estimated.lastButtonAt,
      at,
      dataAt: Number.isFinite(watch.evaluatedTo) ? watch.evaluatedTo : null,
    };
    const offlineMs = watch.numbers.deviceOfflineMin * 60_000;
    if (!Number.isFinite(watch.receivedAt) || at - watch.receivedAt >= offlineMs) {
      watch.lateSince = Number.NaN;
      // A device never heard from since the start is offline since the start.
      const since = Number.isFinite(watch.dataEndMs) ? watch.dataEndMs : this.#startedAt;
      return { ...live, state: 'offline', since, respirationRate: null, heartRate: null, movement: null, temperature: null };
    }
    // Data flows but the estimator has not decided yet (just started): the device is there, its room not known yet.
    const undecided = estimated.state === 'offline' && !Number.isFinite(estimated.since);
    if (at - watch.evaluatedTo > this.#lateToleranceMs || !Number.isFinite(watch.evaluatedTo) || undecided) {
      if (Number.isNaN(watch.lateSince)) watch.lateSince = at;
      return { ...live, state: 'late', since: watch.lateSince };
    }
    watch.lateSince = Number.NaN;
    return live;
  }

  #silent(): RoomState {
    return {
      state: 'offline',
      since: this.#startedAt,
      respirationRate: null,
      heartRate: null,
      movement: null,
      temperature: null,
      lastButtonAt: null,
      postureChanges: 0,
    };
  }

  #record(room: MonitoredRoom, watch: RoomWatch, event: AlertEvent): void {
    const owner = { domainId: room.domainId, roomId: room.roomId, deviceSerial: room.serial };
    const soundedAt = new Date(this.#now()).toISOString();
    if (event.kind === 'open') {
      // A daytime out-of-bed is no alert; the next time the resident leaves the bed at night is.
      if (NIGHT_ONLY.has(event.type) && !inNight(this.directory.nightOfRoom(room), event.at)) return;
      // A type the room switched off (its alert settings) is not raised there.
      if (!this.directory.raises(room, event.type)) return;
      const id = randomUUID();
      watch.alertIds.set(event.type, id);
      if (SEVERITY[event.type] === 'critical') this.#log.warn({ roomId: room.roomId, serial: room.serial, type: event.type, alert: id }, 'critical alert');
      this.#write(() =>
        this.#store.set(MONITORING, `alerts/${id}`, alertDocument(owner, { type: event.type, startedAt: event.startedAt, soundedAt: this.#now() }), false),
      );
    } else {
      const id = watch.alertIds.get(event.type);
      if (id === undefined) return;
      if (event.kind === 'close') {
        // Ended, not gone: the record stays on the station until someone acknowledges it.
        watch.alertIds.delete(event.type);
        this.#write(() => this.#store.update(MONITORING, `alerts/${id}`, { endedAt: new Date(event.at).toISOString() }));
      } else if (event.acknowledgementCleared) {
        // Sounding again after an acknowledgement: it no longer holds.
        this.#write(() => this.#store.update(MONITORING, `alerts/${id}`, { soundedAt, acknowledgedBy: null, acknowledgedAt: null }));
      } else this.#write(() => this.#store.update(MONITORING, `alerts/${id}`, { soundedAt }));
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

  /**
   * Alerts left open by an earlier run end now (their conditions are evaluated afresh); those nobody
   * acknowledged stay on the station as ended and unacknowledged.
   */
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

  /** Staff acknowledge on the alert record; the tracker learns of it to sound again later while the condition lasts. */
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
              if (typeof at === 'string' && at !== '')
                watch.tracker.acknowledge(type, Date.parse(at), typeof found?.document.acknowledgedBy === 'string' ? found.document.acknowledgedBy : null);
            },
            (error: unknown) => this.#log.warn({ err: error, path: change.path }, 'room state: an acknowledgement could not be read'),
          );
        }
      }
    }
  }
}
