// Alert rules over a room's live state history, and the bookkeeping that turns them into alert events.
// evaluateAlerts() is pure: the history and the domain's numbers in, the alerts active now out (at most
// one per type, PRODUCT.md section 5 `alerts.type`). AlertTracker keeps a short history per room and
// emits open, close and re-sound events; the server stores them as `alerts` documents.
import { ALERT_TYPE_NAMES, type AlertTypeName } from '@nemuri/shared/monitoring';
import type { RoomStateName, TimedRoomState } from './roomState.ts';

/** The alert types, from the shared vocabulary (severities and labels live beside it). */
export const ALERT_TYPES = ALERT_TYPE_NAMES;
export type AlertType = AlertTypeName;

/** The alert thresholds of a domain (`domains.numbers`). */
export interface AlertNumbers {
  respirationRateLow: number;
  respirationRateHigh: number;
  heartRateLow: number;
  heartRateHigh: number;
  outOfBedAlertMin: number;
  noBreathingAlertSec: number;
  temperatureHigh: number;
  deviceOfflineMin: number;
  /** An acknowledged alert whose condition persists sounds again after this many minutes. */
  alertResoundMin: number;
  /** 起きあがり: an early bed-exit alert after this many seconds sitting up; 0 = off (the default). */
  sittingUpAlertSec: number;
}

/** Used for every number a domain leaves unset: adult resting ranges, and the product's defaults. */
export const DEFAULT_ALERT_NUMBERS: Readonly<AlertNumbers> = {
  respirationRateLow: 8,
  respirationRateHigh: 25,
  heartRateLow: 45,
  heartRateHigh: 110,
  outOfBedAlertMin: 10,
  noBreathingAlertSec: 20,
  temperatureHigh: 37.5,
  deviceOfflineMin: 5,
  alertResoundMin: 5,
  // Off unless a facility (or a room's settings) asks for it: sitting up is frequent and mostly harmless.
  sittingUpAlertSec: 0,
};

/** The domain's numbers as stored (any may be missing or null) completed with the defaults. */
export function resolveAlertNumbers(numbers?: { [K in keyof AlertNumbers]?: number | null } | null): AlertNumbers {
  const resolved = { ...DEFAULT_ALERT_NUMBERS };
  if (!numbers) return resolved;
  for (const key of Object.keys(resolved) as (keyof AlertNumbers)[]) {
    const value = numbers[key];
    if (typeof value === 'number' && Number.isFinite(value)) resolved[key] = value;
  }
  return resolved;
}

/** Whether two sets of numbers are the same values (the directory re-reads them into new objects). */
export function sameAlertNumbers(a: AlertNumbers, b: AlertNumbers): boolean {
  return (Object.keys(a) as (keyof AlertNumbers)[]).every((key) => a[key] === b[key]);
}

export interface AlertRuleOptions {
  /** A rate or temperature must stay beyond its limit this long (default 60 s). */
  sustainSec?: number;
  /** A button press keeps its alert active this long (default 120 s), or until pressed again. */
  buttonActiveSec?: number;
  /** The ECG must show no normal rhythm this long before 心拍異常 (default 4 s). */
  heartRhythmSec?: number;
}

export interface ActiveAlert {
  type: AlertType;
  /** When the alert condition was met (e.g. no breathing since + noBreathingAlertSec). */
  since: number;
}

/** States in which the person is in bed and the rates mean something. */
const IN_BED: ReadonlySet<RoomStateName> = new Set(['sittingUp', 'awake', 'asleep', 'noBreathing']);
const BREATHING: ReadonlySet<RoomStateName> = new Set(['sittingUp', 'awake', 'asleep']);

/** A device reports no respiration rate while the person moves (bursts of up to ~20 s): a sustained rate alert outlasts that. */
const UNKNOWN_TOLERANCE_MS = 30_000;

/**
 * The time of the oldest sample of the unbroken run of newest samples that satisfy `holds`; NaN when
 * none of the last `maxGapMs` does. `holds` answers null when the sample cannot tell (a rate unknown for
 * a second, while the person moves or a frame was lost): such samples neither satisfy nor break the run,
 * so a sustained condition is not started over by a second of missing data. More than `maxGapMs` without
 * a satisfying sample breaks the run.
 */
function heldSince(history: readonly TimedRoomState[], holds: (state: TimedRoomState) => boolean | null, maxGapMs = UNKNOWN_TOLERANCE_MS): number {
  let since = Number.NaN;
  let reference = history.at(-1)?.at ?? Number.NaN;
  for (let i = history.length - 1; i >= 0; i--) {
    const sample = history[i]!;
    const verdict = holds(sample);
    if (verdict === false || reference - sample.at > maxGapMs) break;
    if (verdict === true) {
      since = sample.at;
      reference = sample.at;
    }
  }
  return since;
}

/** Rate and temperature alerts: their condition must last `sustainSec` before they start. */
const SUSTAINED: ReadonlySet<AlertType> = new Set(['heartRateHigh', 'heartRateLow', 'respirationHigh', 'respirationLow', 'temperatureHigh']);

/**
 * The alerts active at the newest sample of `history` (oldest first), in ALERT_TYPES order. Types in
 * `ongoing` are active already: a sustained one stays active while its condition holds, without
 * lasting `sustainSec` again (the history is shorter than a long episode).
 */
export function evaluateAlerts(
  history: readonly TimedRoomState[],
  numbers: AlertNumbers = DEFAULT_ALERT_NUMBERS,
  options: AlertRuleOptions = {},
  ongoing: ReadonlySet<AlertType> = new Set(),
): ActiveAlert[] {
  const now = history.at(-1);
  if (!now) return [];
  const sustainMs = (options.sustainSec ?? 60) * 1000;
  const buttonMs = (options.buttonActiveSec ?? 120) * 1000;
  const active: ActiveAlert[] = [];
  const add = (type: AlertType, since: number): void => {
    if (Number.isFinite(since) && since <= now.at) active.push({ type, since });
  };
  const sustained = (type: AlertType, holds: (state: TimedRoomState) => boolean | null): void => {
    const since = heldSince(history, holds);
    if (now.at - since >= sustainMs) add(type, since + sustainMs);
    else if (ongoing.has(type) && Number.isFinite(since)) add(type, since);
  };
  // An unknown value (null) leaves the verdict open: see heldSince.
  const rate = (value: number | null, test: (v: number) => boolean): boolean | null => (value === null ? null : test(value));

  if (now.state === 'noBreathing') add('noBreathing', now.since + numbers.noBreathingAlertSec * 1000);
  // No normal rhythm in the ECG of a person in bed (flutter, fibrillation, asystole): within seconds,
  // whatever the domain's numbers, as a bedside monitor's lethal-arrhythmia alarm.
  if (IN_BED.has(now.state) && typeof now.heartRhythmLostSince === 'number')
    add('heartRhythm', now.heartRhythmLostSince + (options.heartRhythmSec ?? 4) * 1000);
  sustained('heartRateHigh', (s) => IN_BED.has(s.state) && rate(s.heartRate, (v) => v > numbers.heartRateHigh));
  sustained('heartRateLow', (s) => IN_BED.has(s.state) && rate(s.heartRate, (v) => v < numbers.heartRateLow));
  sustained('respirationHigh', (s) => BREATHING.has(s.state) && rate(s.respirationRate, (v) => v > numbers.respirationRateHigh));
  sustained('respirationLow', (s) => BREATHING.has(s.state) && rate(s.respirationRate, (v) => v > 0 && v < numbers.respirationRateLow));
  if (now.lastButtonAt !== null && now.at - now.lastButtonAt < buttonMs) add('button', now.lastButtonAt);
  if (now.state === 'outOfBed') {
    add('longOutOfBed', now.since + numbers.outOfBedAlertMin * 60_000);
    add('outOfBed', now.since);
  }
  if (now.state === 'sittingUp' && numbers.sittingUpAlertSec > 0) add('sittingUp', now.since + numbers.sittingUpAlertSec * 1000);
  sustained('temperatureHigh', (s) => s.state !== 'offline' && rate(s.temperature, (v) => v >= numbers.temperatureHigh));
  if (now.state === 'offline') add('deviceOffline', now.since + numbers.deviceOfflineMin * 60_000);
  return active;
}

export interface OpenAlert {
  type: AlertType;
  startedAt: number;
  acknowledgedAt: number | null;
  acknowledgedBy: string | null;
  /** When it last sounded (opened or re-sounded). */
  soundedAt: number;
}

export type AlertEvent =
  | { kind: 'open'; type: AlertType; at: number; startedAt: number }
  | { kind: 'close'; type: AlertType; at: number; startedAt: number }
  /** Sounding again; `acknowledgementCleared` when it had been acknowledged (the acknowledgement no longer holds). */
  | { kind: 'resound'; type: AlertType; at: number; startedAt: number; acknowledgementCleared: boolean };

export interface AlertTrackerOptions extends AlertRuleOptions {
  /** Overrides the domain's `alertResoundMin` (seconds). */
  resoundAfterSec?: number;
}

/**
 * Open alerts of one room. update() once a second with the room's state; it returns what changed:
 * `open` when a type becomes active, `close` when it stops (the record stays on the station until a
 * person acknowledges it), `resound` while it is active: every `alertResoundMin` while nobody has
 * acknowledged it, `alertResoundMin` after an acknowledgement (which is then cleared, as a muted bed alarm
 * sounds again while the condition lasts), and at once when its condition starts again (a new button press).
 */
export class AlertTracker {
  readonly #numbers: AlertNumbers;
  readonly #options: AlertTrackerOptions;
  readonly #resoundMs: number;
  readonly #historyMs: number;
  readonly #history: TimedRoomState[] = [];
  readonly #open = new Map<AlertType, OpenAlert & { conditionSince: number }>();

  constructor(numbers: AlertNumbers = DEFAULT_ALERT_NUMBERS, options: AlertTrackerOptions = {}) {
    this.#numbers = numbers;
    this.#options = options;
    this.#resoundMs = (options.resoundAfterSec ?? numbers.alertResoundMin * 60) * 1000;
    // Only the sustained rules look back, by sustainSec; keep a little more.
    this.#historyMs = ((options.sustainSec ?? 60) + 10) * 1000;
  }

  get open(): readonly OpenAlert[] {
    return [...this.#open.values()].map(({ type, startedAt, acknowledgedAt, acknowledgedBy, soundedAt }) => ({
      type,
      startedAt,
      acknowledgedAt,
      acknowledgedBy,
      soundedAt,
    }));
  }

  acknowledge(type: AlertType, atMs: number, by: string | null = null): boolean {
    const alert = this.#open.get(type);
    if (!alert) return false;
    alert.acknowledgedAt = atMs;
    alert.acknowledgedBy = by;
    return true;
  }

  /**
   * An open alert of this tracker is one recorded before (another server process opened it and computed
   * the room until now): it takes that record's sounding and acknowledgement, so that it sounds again
   * when it would have without the hand-over. False when the type is not open here.
   */
  continueAlert(type: AlertType, recorded: { soundedAt: number | null; acknowledgedAt: number | null; acknowledgedBy: string | null }): boolean {
    const alert = this.#open.get(type);
    if (!alert) return false;
    if (recorded.soundedAt !== null && Number.isFinite(recorded.soundedAt)) alert.soundedAt = recorded.soundedAt;
    if (recorded.acknowledgedAt !== null && Number.isFinite(recorded.acknowledgedAt)) {
      alert.acknowledgedAt = recorded.acknowledgedAt;
      alert.acknowledgedBy = recorded.acknowledgedBy;
    }
    return true;
  }

  /**
   * The room's states go on from a time of their own (a device back after the server judged it offline
   * on its own clock): the history is forgotten and later states are taken whatever their time; the
   * open alerts stay and are judged by the next state.
   */
  resume(): void {
    this.#history.length = 0;
  }

  update(state: TimedRoomState): AlertEvent[] {
    const history = this.#history;
    if (history.length > 0 && state.at <= history.at(-1)!.at) return [];
    history.push(state);
    while (history.length > 0 && state.at - history[0]!.at > this.#historyMs) history.shift();
    const active = evaluateAlerts(history, this.#numbers, this.#options, new Set(this.#open.keys()));
    const events: AlertEvent[] = [];
    const seen = new Set<AlertType>();
    for (const { type, since } of active) {
      seen.add(type);
      const open = this.#open.get(type);
      if (!open) {
        this.#open.set(type, { type, startedAt: since, acknowledgedAt: null, acknowledgedBy: null, soundedAt: state.at, conditionSince: since });
        events.push({ kind: 'open', type, at: state.at, startedAt: since });
        continue;
      }
      // A condition that starts again (a new button press) sounds at once; a sustained one's start only
      // slides with the history.
      const again = !SUSTAINED.has(type) && since > open.conditionSince;
      open.conditionSince = since;
      const acknowledged = open.acknowledgedAt !== null;
      const quietSince = acknowledged ? open.acknowledgedAt! : open.soundedAt;
      if (again || state.at - quietSince >= this.#resoundMs) {
        open.acknowledgedAt = null;
        open.acknowledgedBy = null;
        open.soundedAt = state.at;
        events.push({ kind: 'resound', type, at: state.at, startedAt: open.startedAt, acknowledgementCleared: acknowledged });
      }
    }
    for (const [type, open] of this.#open) {
      if (seen.has(type)) continue;
      this.#open.delete(type);
      events.push({ kind: 'close', type, at: state.at, startedAt: open.startedAt });
    }
    return events;
  }
}

export interface AlertOwner {
  domainId: string;
  roomId?: string | null;
  deviceSerial?: string | null;
}

/** The fields of an `alerts` document (PRODUCT.md section 5) for an alert, timestamps as ISO 8601. */
export function alertDocument(
  owner: AlertOwner,
  alert: {
    type: AlertType;
    startedAt: number;
    endedAt?: number | null;
    acknowledgedAt?: number | null;
    acknowledgedBy?: string | null;
    soundedAt?: number | null;
  },
) {
  const iso = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : new Date(ms).toISOString());
  return {
    domainId: owner.domainId,
    roomId: owner.roomId ?? null,
    deviceSerial: owner.deviceSerial ?? null,
    type: alert.type,
    startedAt: new Date(alert.startedAt).toISOString(),
    endedAt: iso(alert.endedAt),
    acknowledgedBy: alert.acknowledgedBy ?? null,
    acknowledgedAt: iso(alert.acknowledgedAt),
    soundedAt: iso(alert.soundedAt),
  };
}
