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
import type { RoomStateSharing } from './roomStateSharing.ts';

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
  /**
   * Several server processes (docs/scaling.md): this one computes the rooms whose devices it owns,
   * sends their states to the others and shows theirs for the other rooms. Absent: every room here.
   */
  sharing?: RoomStateSharing | null;
}

export type RoomStatesListener = (states: readonly LiveRoomState[], at: number) => void;

/** Alerts raised only in the domain's night (nightWindow.ts): in the daytime residents are up. */
const NIGHT_ONLY: ReadonlySet<AlertType> = new Set(['outOfBed', 'longOutOfBed', 'sittingUp']);

/** Every alert type of the estimator has its severity in the shared table. */
const SEVERITY: Readonly<Record<AlertType, AlertSeverity>> = ALERT_SEVERITY;

/** The estimator calls a device offline after this long without samples (its default). */
const ESTIMATOR_OFFLINE_MS = 10_000;

/**
 * A room taken over from another process (docs/scaling.md): the alerts that process left open are
 * continued when this process's tracker opens the same type, and ended if it has not within this long
 * (its estimator starts afresh: a minute of data decides the state and the sustained conditions).
 */
export const INHERITED_ALERTS_GRACE_MS = 90_000;

/**
 * A tick this much later than due means this process was not running (a blocked event loop, a
 * stopped process, a paused machine): it could not hear any device meanwhile, so that time does not
 * count as a device's silence, nor does a gap in its frames that falls in that time.
 */
export const STALL_MS = 5_000;
/** Stalls remembered for the gaps in frames they explain (a gap spans at most a few). */
const MAX_STALLS_KEPT = 16;

/** An open alert's record; its id may become another process's (the room's alert of that type was open already). */
interface OpenRecord {
  id: string;
}

/** The monitoring's writes act for no user; the audit log names it. */
const MONITORING: Claims = serverIdentity('monitoring');

interface RoomWatch {
  estimator: RoomStateEstimator;
  tracker: AlertTracker;
  numbers: AlertNumbers;
  /** Alert records of the open alerts, by type. */
  alertIds: Map<AlertType, OpenRecord>;
  /** When this process began computing the room (server time); its predecessor's open alerts are settled INHERITED_ALERTS_GRACE_MS later. */
  gainedAt: number;
  /** Whether those are settled (or there was no predecessor: one process). */
  inheritedSettled: boolean;
  /**
   * Since when (server time) the device had been offline on the previous owner, which left its
   * offline alert open; NaN otherwise. Without it a taken-over device counts as heard at the hand-over.
   */
  offlineBefore: number;
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
  /**
   * The start times (µs) of the latest frames taken, per channel: with several processes a frame may
   * come twice while a device's share is handed over (its share's copy and a plain one,
   * ingest/processGroup.ts), and the estimator must see it once. (Two frames of one channel do not
   * start at the same microsecond.)
   */
  recent: Map<SmfSampleChannel, number[]>;
}

/** Frames of a channel remembered against duplicates: a few seconds' worth. */
const RECENT_FRAMES_KEPT = 8;

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
  readonly #sharing: RoomStateSharing | null;
  /** Rooms of other processes whose states have not come yet: since when (server time). */
  readonly #awaitedSince = new Map<string, number>();
  readonly #watches = new Map<string, RoomWatch>();
  readonly #listeners = new Set<RoomStatesListener>();
  #states: LiveRoomState[] = [];
  #parser: Parser | undefined;
  #timer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void)[] = [];
  /** Alert writes are queued so that open, end and sound-again of one alert keep their order. */
  #writes: Promise<void> = Promise.resolve();
  readonly #startedAt: number;
  /** When the timer last ticked (STALL_MS); set when it starts. */
  #lastTickAt = 0;
  /** The last times this process did not run (server time). */
  readonly #stalls: { from: number; to: number }[] = [];

  constructor(options: RoomStateServiceOptions) {
    this.#database = options.documents.database;
    this.#store = options.documents;
    this.#hub = options.hub;
    this.#log = options.log;
    this.#tickMs = options.tickMs ?? 1000;
    this.#resoundAfterSec = options.resoundAfterSec;
    this.#lateToleranceMs = (options.lateToleranceSec ?? LATE_TOLERANCE_SEC) * 1000;
    this.#now = options.now ?? Date.now;
    this.#sharing = options.sharing ?? null;
    this.#startedAt = this.#now();
    this.directory = new RoomDirectory(options.documents.database, options.documents.changes, options.log);
  }

  async start(): Promise<void> {
    await this.directory.start();
    // With several processes the others' open alerts are theirs; a room's new owner settles them.
    if (this.#sharing === null) await this.#endDanglingAlerts();
    this.#unsubscribe.push(
      this.#hub.subscribeAll({
        frame: (serial, channel, bytes) => this.#frame(serial, channel, bytes),
        status: () => undefined,
      }),
      this.#store.changes.subscribe((batch) => this.#acknowledgements(batch)),
    );
    this.#lastTickAt = this.#now();
    this.#timer = setInterval(() => {
      const at = this.#now();
      const due = this.#lastTickAt + this.#tickMs;
      this.#lastTickAt = at;
      if (at - due >= STALL_MS) this.#discountStall(due, at);
      this.tick();
    }, this.#tickMs);
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

  /** Whether this process computes the device's room state (always with one process; its owner's with several). */
  computes(serial: string): boolean {
    return this.#sharing === null || this.#sharing.owns(serial);
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
        gainedAt: this.#now(),
        inheritedSettled: this.#sharing === null,
        offlineBefore: Number.NaN,
        dataEndMs: Number.NaN,
        evaluatedTo: Number.NaN,
        state: null,
        receivedAt: Number.NaN,
        trackedTo: Number.NEGATIVE_INFINITY,
        lateSince: Number.NaN,
        offline: false,
        recent: new Map(),
      };
      this.#watches.set(room.serial, watch);
      if (this.#sharing !== null) this.#learnOfflineBefore(room, watch);
    } else if (!sameAlertNumbers(watch.numbers, numbers)) {
      // New numbers: a fresh tracker; the open alerts end now and open again if still due.
      this.#closeAll(room, watch, this.#now());
      watch.tracker = new AlertTracker(numbers, this.#trackerOptions());
      watch.numbers = numbers;
    }
    return watch;
  }

  #frame(serial: string, channel: SmfSampleChannel, bytes: Uint8Array): void {
    const room = this.directory.roomOf(serial);
    if (room === undefined) return;
    // Frames still arriving for a device handed to another process (its unsubscription is under way).
    if (this.#sharing !== null && !this.#sharing.owns(serial)) return;
    try {
      this.#parser ??= createParserSync();
      const frame = this.#parser.decodeSmfFrame(bytes);
      if (frame.channel === 'multi' || !(frame.sampleRate > 0)) return;
      const watch = this.#watch(room);
      if (this.#sharing !== null && this.#seen(watch, channel, frame.startTimeUs)) return;
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
      // Back after a long silence: the estimator sees the gap (offline) before the new data. A gap this
      // process did not hear (it was not running, and its broker connection was closed meanwhile) is
      // not the device's silence: the woken process would open a false 通信なし for every device.
      const gap = startMs - watch.dataEndMs - this.#notRunningDuring(watch.dataEndMs, startMs);
      if (gap > Math.max(ESTIMATOR_OFFLINE_MS, watch.numbers.deviceOfflineMin * 60_000)) this.#evaluate(room, watch, startMs);
      watch.estimator.push(channel, startMs, frame.sampleRate, frame.values, frame.width);
      const endMs = startMs + (Math.floor(frame.values.length / frame.width) * 1000) / frame.sampleRate;
      if (!(endMs <= watch.dataEndMs)) watch.dataEndMs = endMs;
    } catch (error) {
      // The pipeline validated the frame already: this is unexpected, but must not stop monitoring.
      this.#log.error({ serial, channel, err: error }, 'room state: a frame could not be read');
    }
  }

  /** Whether the frame was taken already; remembers it otherwise. */
  #seen(watch: RoomWatch, channel: SmfSampleChannel, startTimeUs: number): boolean {
    let recent = watch.recent.get(channel);
    if (recent === undefined) {
      recent = [];
      watch.recent.set(channel, recent);
    }
    if (recent.includes(startTimeUs)) return true;
    recent.push(startTimeUs);
    if (recent.length > RECENT_FRAMES_KEPT) recent.shift();
    return false;
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
    const sharing = this.#sharing;
    const owned = new Set<string>();
    const computed: LiveRoomState[] = [];
    for (const room of this.directory.rooms()) {
      if (sharing !== null && !sharing.owns(room.serial)) {
        // Another process computes it; the alerts this one opened stay open for that one to continue.
        this.#watches.delete(room.serial);
        states.push(this.#stateFromOwner(room, at));
        continue;
      }
      this.#awaitedSince.delete(room.serial);
      owned.add(room.serial);
      const watch = this.#watch(room);
      this.#evaluateUpTo(room, watch, Number.POSITIVE_INFINITY);
      const live = this.#liveState(room, watch, at);
      states.push(live);
      computed.push(live);
      // Without data the device's clock stands still: the offline condition is judged on the server's.
      if (live.state === 'offline') {
        watch.offline = true;
        this.#track(room, watch, { ...this.#silent(), since: live.since, at });
      }
      if (!watch.inheritedSettled && at - watch.gainedAt >= INHERITED_ALERTS_GRACE_MS) this.#settleInherited(room, watch, at);
    }
    for (const [serial] of this.#watches) if (this.directory.roomOf(serial) === undefined) this.#watches.delete(serial);
    if (sharing !== null) {
      sharing.follow(owned);
      sharing.publish(computed);
    }
    this.#states = states;
    for (const listener of this.#listeners) listener(states, at);
  }

  /**
   * Moves every device's last hearing on by the time this process was not running (STALL_MS), and
   * keeps that time: a gap in a device's frames that this process did not hear is not its silence.
   */
  #discountStall(from: number, to: number): void {
    const ms = to - from;
    this.#log.warn({ stalledMs: Math.round(ms) }, 'room states: this process did not run for a while; devices are not called offline for that time');
    this.#stalls.push({ from, to });
    if (this.#stalls.length > MAX_STALLS_KEPT) this.#stalls.shift();
    for (const watch of this.#watches.values()) {
      // Frames read since it woke (before this tick) were heard now: at most `to`.
      if (Number.isFinite(watch.receivedAt)) watch.receivedAt = Math.min(watch.receivedAt + ms, to);
      watch.gainedAt = Math.min(watch.gainedAt + ms, to);
    }
  }

  /** How much of [fromMs, toMs) this process did not run. */
  #notRunningDuring(fromMs: number, toMs: number): number {
    let ms = 0;
    for (const stall of this.#stalls) ms += Math.max(0, Math.min(toMs, stall.to) - Math.max(fromMs, stall.from));
    return ms;
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
    // With several processes a room may come from another process that had its frames until now: its
    // silence counts from the hand-over (the frames follow within a second), not from this process's start.
    // (If it was offline there already, it stays offline here, since then, and its alert is continued.)
    const taken = this.#sharing !== null && !Number.isFinite(watch.offlineBefore);
    const heardAt = Number.isFinite(watch.receivedAt) ? watch.receivedAt : taken ? watch.gainedAt : Number.NaN;
    if (!Number.isFinite(heardAt) || at - heardAt >= offlineMs) {
      watch.lateSince = Number.NaN;
      // A device never heard from since the start (or the hand-over) is offline since then.
      const neverHeardSince = this.#sharing === null ? this.#startedAt : taken ? watch.gainedAt : watch.offlineBefore;
      const since = Number.isFinite(watch.dataEndMs) ? watch.dataEndMs : neverHeardSince;
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

  /** A room another process computes: the state it sent, or late until one comes (a process just joined). */
  #stateFromOwner(room: MonitoredRoom, at: number): LiveRoomState {
    const where = { roomId: room.roomId, domainId: room.domainId, rootDomainId: room.rootDomainId, serial: room.serial };
    const sent = this.#sharing?.remote(room.serial);
    if (sent !== undefined) {
      this.#awaitedSince.delete(room.serial);
      // Field by field rather than spread: every other process's rooms, every second.
      return {
        roomId: room.roomId,
        domainId: room.domainId,
        rootDomainId: room.rootDomainId,
        serial: room.serial,
        state: sent.state,
        since: sent.since,
        respirationRate: sent.respirationRate,
        heartRate: sent.heartRate,
        movement: sent.movement,
        temperature: sent.temperature,
        lastButtonAt: sent.lastButtonAt,
        at,
        dataAt: sent.dataAt ?? null,
      };
    }
    let since = this.#awaitedSince.get(room.serial);
    if (since === undefined) {
      since = at;
      this.#awaitedSince.set(room.serial, at);
    }
    return {
      ...where,
      state: 'late',
      since,
      respirationRate: null,
      heartRate: null,
      movement: null,
      temperature: null,
      lastButtonAt: null,
      at,
      dataAt: null,
    };
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
      const record: OpenRecord = { id: randomUUID() };
      watch.alertIds.set(event.type, record);
      const soundedAtMs = this.#now();
      this.#write(async () => {
        const claimed = await this.#claim(room.roomId, event.type, record.id);
        if (claimed !== record.id) {
          // The room's alert of this type is open already (opened by the process that computed the
          // room before this one): continued, not opened a second time, as it stands (when it last
          // sounded, whether staff acknowledged it), so that it sounds again when it would have there.
          record.id = claimed;
          await this.#continueRecorded(watch, event.type, claimed);
          return;
        }
        if (SEVERITY[event.type] === 'critical')
          this.#log.warn({ roomId: room.roomId, serial: room.serial, type: event.type, alert: record.id }, 'critical alert');
        try {
          await this.#store.set(
            MONITORING,
            `alerts/${record.id}`,
            alertDocument(owner, { type: event.type, startedAt: event.startedAt, soundedAt: soundedAtMs }),
            false,
          );
        } catch (error) {
          await this.#unclaim(room.roomId, event.type, record.id);
          throw error;
        }
      });
    } else {
      const record = watch.alertIds.get(event.type);
      if (record === undefined) return;
      if (event.kind === 'close') {
        // Ended, not gone: the record stays on the station until someone acknowledges it.
        watch.alertIds.delete(event.type);
        this.#write(() => this.#end(room.roomId, event.type, record.id, event.at));
      } else if (event.acknowledgementCleared) {
        // Sounding again after an acknowledgement: it no longer holds.
        this.#write(() => this.#store.update(MONITORING, `alerts/${record.id}`, { soundedAt, acknowledgedBy: null, acknowledgedAt: null }));
      } else this.#write(() => this.#store.update(MONITORING, `alerts/${record.id}`, { soundedAt }));
    }
  }

  /** The tracker takes over the recorded state of an alert another process opened. */
  async #continueRecorded(watch: RoomWatch, type: AlertType, id: string): Promise<void> {
    const found = await this.#store.get(MONITORING, `alerts/${id}`);
    const document = found?.document;
    if (document === undefined) return;
    const time = (value: unknown): number | null => (typeof value === 'string' && value !== '' ? Date.parse(value) : null);
    watch.tracker.continueAlert(type, {
      soundedAt: time(document.soundedAt),
      acknowledgedAt: time(document.acknowledgedAt),
      acknowledgedBy: typeof document.acknowledgedBy === 'string' ? document.acknowledgedBy : null,
    });
  }

  #closeAll(room: MonitoredRoom, watch: RoomWatch, at: number): void {
    for (const [type, record] of watch.alertIds) {
      this.#write(() => this.#end(room.roomId, type, record.id, at));
      watch.alertIds.delete(type);
    }
  }

  /**
   * Opens the room's alert of this type as `id`, or answers the id of the one open already:
   * monitoring_open_alerts has one row per room and type, so that processes sharing the database
   * open an alert once.
   */
  async #claim(roomId: string, type: AlertType, id: string): Promise<string> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const inserted = await this.#database.query<{ alert_id: string }>(
        `insert into monitoring_open_alerts (room_id, type, alert_id) values ($1, $2, $3) on conflict (room_id, type) do nothing returning alert_id`,
        [roomId, type, id],
      );
      if (inserted.rows.length > 0) return id;
      const found = await this.#database.query<{ alert_id: string }>(`select alert_id from monitoring_open_alerts where room_id = $1 and type = $2`, [
        roomId,
        type,
      ]);
      if (found.rows[0] !== undefined) return found.rows[0].alert_id;
      // Ended between the two statements: try again.
    }
    return id;
  }

  async #unclaim(roomId: string, type: string, id: string): Promise<void> {
    await this.#database.query(`delete from monitoring_open_alerts where room_id = $1 and type = $2 and alert_id = $3`, [roomId, type, id]);
  }

  async #end(roomId: string, type: string, id: string, at: number): Promise<void> {
    await this.#store.update(MONITORING, `alerts/${id}`, { endedAt: new Date(at).toISOString() });
    await this.#unclaim(roomId, type, id);
  }

  /** Whether the room's previous process left its device-offline alert open: then the device is offline since that alert's condition began. */
  #learnOfflineBefore(room: MonitoredRoom, watch: RoomWatch): void {
    this.#write(async () => {
      const { rows } = await this.#database.query<{ alert_id: string }>(
        `select alert_id from monitoring_open_alerts where room_id = $1 and type = 'deviceOffline'`,
        [room.roomId],
      );
      if (rows[0] === undefined) return;
      const startedAt = (await this.#store.get(MONITORING, `alerts/${rows[0].alert_id}`))?.document.startedAt;
      if (typeof startedAt !== 'string' || Number.isFinite(watch.receivedAt)) return;
      // The alert opened deviceOfflineMin after the device's last frame there.
      watch.offlineBefore = Date.parse(startedAt) - watch.numbers.deviceOfflineMin * 60_000;
    });
  }

  /** The alerts the room's previous process left open that this one's tracker has not continued: ended now. */
  #settleInherited(room: MonitoredRoom, watch: RoomWatch, at: number): void {
    watch.inheritedSettled = true;
    this.#write(async () => {
      const { rows } = await this.#database.query<{ type: string; alert_id: string }>(`select type, alert_id from monitoring_open_alerts where room_id = $1`, [
        room.roomId,
      ]);
      for (const row of rows) {
        if ([...watch.alertIds.values()].some((record) => record.id === row.alert_id)) continue;
        // Handed on again meanwhile: the next owner settles them.
        if (this.#watches.get(room.serial) !== watch) return;
        await this.#end(room.roomId, row.type, row.alert_id, at);
      }
    });
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
    await this.#database.query(`delete from monitoring_open_alerts`);
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
        for (const [type, record] of watch.alertIds) {
          if (record.id !== id) continue;
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
