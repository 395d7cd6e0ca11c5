// The live state of one room, estimated from its device's decoded channel samples as they arrive.
// Frames go in through push(); evaluate(now) is called once a second and answers offline, out of bed,
// in bed awake, asleep or no breathing, with the rates, movement, temperature and last button press.
//
// Evidence, in order:
// - offline: no samples for `offlineAfterSec`.
// - in bed: a heartbeat is present — the device's own heart rate (respiHr) or QRS complexes in the ECG
//   that stand out of the background (Pan–Tompkins prominence) with the last beat under 2.5 s ago. Without
//   any cardiac channel, breathing or movement is taken as presence.
// - no breathing: in bed, and the breathing excursion (peak-to-peak of the band-passed respiration signal
//   over 5 s) below a quarter of its recent baseline, or the device reporting a rate of 0, for
//   `noBreathingMinSec` (10 s, the AASM apnea duration).
// - sitting up (起きあがり): in bed and breathing, with the trunk upright for 2 s — the chest sensor's
//   gravity within 45° of the body's axis (movement.ts trunkUpright) — the posture before leaving the bed.
// - asleep / awake: actigraphy-style quiet time plus the heart rate against the person's sleeping heart
//   rate (heart rate falls by several beats/min at sleep onset): asleep after 5 min without movement, or
//   2 min once the sleeping heart rate is known and the rate is back near it; awake again after 30 s of
//   movement within 2 min or a heart rate 7 beats/min above the sleeping rate for 20 s.
// Each change must persist a few seconds (hysteresis) so that states do not flicker.
// Cost: this runs every second for every room, live and when nights are replayed, so ECG faster than
// 200 Hz is averaged down (to ~125 Hz from 250 Hz) before QRS detection, and the principal direction of
// the breathing movement is reused for 5 s while the person lies still.
import { estimateHeartRate } from './heartRate.ts';
import { CONTACT_ACTIVITY_MV, QRS_PROMINENCE_MIN, RhythmReader, type RhythmReading } from './heartRhythm.ts';
import { median } from './filters.ts';
import { MOVING_THRESHOLD_G, MovementMeter, PostureTracker, trunkUpright } from './movement.ts';
import {
  ApneaDetector,
  breathingExcursion,
  breathingSignal,
  estimateFromBreathingSignal,
  principalBreathingSignal,
  type BreathingSignal,
} from './respiration.ts';
import { SampleRing } from './ringBuffer.ts';

export type RoomStateName = 'offline' | 'outOfBed' | 'sittingUp' | 'awake' | 'asleep' | 'noBreathing';

export interface RoomState {
  state: RoomStateName;
  /** When the current state began (ms since the epoch; backdated to when its evidence began). */
  since: number;
  /** Breaths/min (0 while no breathing), null when unknown. */
  respirationRate: number | null;
  /** Beats/min, null when unknown. */
  heartRate: number | null;
  /** Movement level of the last second in g (high-passed acceleration magnitude), null without acceleration. */
  movement: number | null;
  /** Latest temperature in °C, null when none arrived in the last minute. */
  temperature: number | null;
  lastButtonAt: number | null;
  /** Posture changes seen since the estimator started. */
  postureChanges: number;
  /**
   * Since when (ms) the ECG of the person in bed has shown no normal rhythm — flutter, fibrillation, or a
   * flat line with the electrodes on (heartRhythm.ts); null while the rhythm is normal or not judged.
   */
  heartRhythmLostSince?: number | null;
}

/** One evaluated second of a room: its live state at `at` (ms since the epoch), as alerts and sleep epochs take it. */
export interface TimedRoomState extends RoomState {
  at: number;
}

export interface RoomStateOptions {
  /** No samples for this long means offline (default 10 s). */
  offlineAfterSec?: number;
  /** Window of the computed respiration rate (default 30 s). */
  respirationWindowSec?: number;
  /** Window of the ECG heart rate (default 8 s). */
  heartWindowSec?: number;
  /** Breathing absent this long means no breathing (default 10 s). */
  noBreathingMinSec?: number;
  /** Below this fraction of the baseline breathing excursion breathing counts as absent (default 0.25). */
  noBreathingFraction?: number;
  /** Minutes without movement before the first sleep (default 5). */
  sleepQuietMin?: number;
  /** Rates from the device's respiHr channel when it sends one (default true). */
  useDeviceRates?: boolean;
}

const EXCURSION_WINDOW_SEC = 5;
const DEVICE_VALUE_FRESH_MS = 3000;
/** Shorter ECG windows hold too few beats to tell a heartbeat from noise. */
const ECG_MIN_SEC = 5;
/** How long a principal breathing direction is used before it is found again. */
const DIRECTION_REFRESH_MS = 5000;
/** ECG is analysed at this rate or a little above (an integer fraction of the device's rate). */
const ECG_ANALYSIS_RATE = 100;
const LAST_BEAT_MAX_AGE_SEC = 2.5;
const PRESENCE_CONFIRM_MS = 3000;
const BREATHING_RESUMED_CONFIRM_MS = 2000;
const QUIET_WITH_BASELINE_SEC = 120;
const ACTIVE_WINDOW_SEC = 120;
const ACTIVE_SECONDS_TO_WAKE = 30;
const HR_ELEVATED_BPM = 7;
const HR_ELEVATED_CONFIRM_MS = 20_000;
const HR_SLEEP_MARGIN_BPM = 4;
/** Time constant (s) of the sleeping heart-rate baseline: follows slow drifts (fever, night) but not steps. */
const SLEEP_HR_TAU_SEC = 600;
const HISTORY_SECONDS = 300;
/** Seconds before breathing stopped (or the heartbeat was lost) in which a movement means the person got up. */
const LEAVING_MOVEMENT_SEC = 15;
/** ... or this long after (the sensor taken off and put down after the electrodes lost contact). */
const LEAVING_AFTER_MS = 5000;
/** A device heart rate outside this range has the ECG read as well (flutter can pass for a fast rate). */
const DEVICE_NORMAL_HR_MIN = 30;
const DEVICE_NORMAL_HR_MAX = 150;
/** Impedance this far (as a fraction) from its in-bed level means the electrodes are off. */
const IMPEDANCE_OFF_FRACTION = 0.3;
/** The trunk must stay upright this long to be sitting up (not a turn through the upright). */
const SITTING_UP_CONFIRM_MS = 2000;
/** A lost rhythm counts as back after this long of normal beats. */
const RHYTHM_RECOVERED_MS = 5000;
/** Time constant (s) of the in-bed impedance level. */
const IMPEDANCE_TAU_SEC = 60;

/** One channel's live window. */
interface Track {
  sampleRate: number;
  ring: SampleRing;
  /** End of the newest sample (ms). */
  endMs: number;
}

/** Respiration channels in order of preference: impedance is the classic respiration signal. */
const RESPIRATION_SOURCES = ['impe', 'respiAxl', 'eitGlobal'] as const;

export class RoomStateEstimator {
  readonly #offlineAfterMs: number;
  readonly #respirationWindowSec: number;
  readonly #heartWindowSec: number;
  readonly #noBreathingMinMs: number;
  readonly #noBreathingFraction: number;
  readonly #sleepQuietSec: number;
  readonly #useDeviceRates: boolean;
  readonly #tracks = new Map<string, Track>();
  readonly #apnea: ApneaDetector;
  readonly #movementMeter: MovementMeter;
  readonly #posture = new PostureTracker();
  #scratch = new Float32Array(0);
  #eitGlobal = new Float32Array(0);
  readonly #ecgDecimator = new BoxcarDecimator();
  /** The principal direction of the breathing movement and when it was found. */
  #direction: { vector: Float64Array; atMs: number } | null = null;

  // Latest values of the low-rate channels.
  #deviceRespirationRate = Number.NaN;
  #deviceHeartRate = Number.NaN;
  #deviceRatesAtMs = Number.NaN;
  #deviceZeroSinceMs = Number.NaN;
  #temperature = Number.NaN;
  #temperatureAtMs = Number.NaN;
  #buttonLevel = 0;
  #lastButtonAtMs = Number.NaN;
  #lastDataMs = Number.NaN;

  // Per-second movement and heart rate history (rings indexed by second).
  readonly #movingSeconds = new Uint8Array(HISTORY_SECONDS);
  readonly #movementStamp = new Float64Array(HISTORY_SECONDS).fill(Number.NaN);
  #lastMovement = Number.NaN;
  #lastMovementAtMs = Number.NaN;
  #lastMovingMs = Number.NaN;
  /** Since when the trunk has been upright (the chest sensor's gravity along the body's axis); NaN lying. */
  #uprightSinceMs = Number.NaN;
  readonly #heartHistory = new Float64Array(30).fill(Number.NaN);
  #heartHistoryAt = 0;

  // State machine.
  #state: RoomStateName = 'offline';
  #sinceMs = Number.NaN;
  #pending: RoomStateName | null = null;
  #pendingSinceMs = Number.NaN;
  #inBedSinceMs = Number.NaN;
  #sleepHeartRate = Number.NaN;
  #elevatedSinceMs = Number.NaN;
  #lastInBedState: 'awake' | 'asleep' = 'awake';
  #respirationRestartMs = Number.NaN;
  #breathingResumedMs = Number.NaN;
  #inBedExcursion = Number.NaN;
  /** Last second with a body's signal on a cardiac channel (a normal beat, or fibrillation waves). */
  #presentAtMs = Number.NaN;
  /** Thoracic impedance while in bed (slow mean, Ω). */
  #inBedImpedance = Number.NaN;
  #rhythmLostSinceMs = Number.NaN;
  #rhythmNormalSinceMs = Number.NaN;
  readonly #rhythmReader = new RhythmReader();
  /** What the room was in when the device went offline: a device back online resumes it. */
  #beforeOffline: RoomStateName = 'offline';

  constructor(options: RoomStateOptions = {}) {
    this.#offlineAfterMs = (options.offlineAfterSec ?? 10) * 1000;
    this.#respirationWindowSec = options.respirationWindowSec ?? 30;
    this.#heartWindowSec = options.heartWindowSec ?? 8;
    this.#noBreathingMinMs = (options.noBreathingMinSec ?? 10) * 1000;
    this.#noBreathingFraction = options.noBreathingFraction ?? 0.25;
    this.#sleepQuietSec = (options.sleepQuietMin ?? 5) * 60;
    this.#useDeviceRates = options.useDeviceRates ?? true;
    this.#apnea = new ApneaDetector({ fraction: this.#noBreathingFraction, minSeconds: options.noBreathingMinSec ?? 10, windowSeconds: EXCURSION_WINDOW_SEC });
    this.#movementMeter = new MovementMeter((secondStartMs, level, gravity) => this.#onMovementSecond(secondStartMs, level, gravity));
  }

  /**
   * Feeds decoded samples of one channel: `values` holds `width` interleaved values per sample, the first
   * sample at `startTimeMs`. Channels: ecg, respiAxl (width 3), impe, eit (one frame of `width` values per
   * sample), respiHr ([respiration rate, heart rate] per sample, width 1 interleaved in pairs or width 2),
   * temperature, button; others are ignored.
   */
  push(channel: string, startTimeMs: number, sampleRate: number, values: Float32Array, width = 1): void {
    if (values.length === 0 || !(sampleRate > 0)) return;
    const samples = Math.floor(values.length / width);
    const endMs = startTimeMs + (samples * 1000) / sampleRate;
    if (!(endMs <= this.#lastDataMs)) this.#lastDataMs = endMs;
    switch (channel) {
      case 'ecg': {
        // QRS complexes need no more than ~120 samples a second (Pan–Tompkins worked at 200 Hz; its band is
        // 5–15 Hz): faster ECG is averaged down first, which halves the heart analysis every second costs.
        const factor = sampleRate >= 2 * ECG_ANALYSIS_RATE ? Math.floor(sampleRate / ECG_ANALYSIS_RATE) : 1;
        if (factor === 1) this.#write('ecg', startTimeMs, sampleRate, values, 1, this.#heartWindowSec);
        else {
          const reduced = this.#ecgDecimator.push(startTimeMs, sampleRate, values, factor);
          if (reduced.values.length > 0) this.#write('ecg', reduced.startTimeMs, sampleRate / factor, reduced.values, 1, this.#heartWindowSec);
        }
        break;
      }
      case 'impe':
        this.#write('impe', startTimeMs, sampleRate, values, 1, this.#respirationWindowSec);
        break;
      case 'respiAxl':
        this.#write('respiAxl', startTimeMs, sampleRate, values, 3, this.#respirationWindowSec);
        this.#movementMeter.push(startTimeMs, sampleRate, values);
        break;
      case 'eit': {
        // EIT frames are reduced to global impedance (the sum of the frame) at once.
        if (this.#eitGlobal.length < samples) this.#eitGlobal = new Float32Array(samples);
        const global = this.#eitGlobal.subarray(0, samples);
        for (let s = 0; s < samples; s++) {
          let sum = 0;
          for (let k = 0; k < width; k++) sum += values[s * width + k]!;
          global[s] = sum;
        }
        this.#write('eitGlobal', startTimeMs, sampleRate, global, 1, this.#respirationWindowSec);
        break;
      }
      case 'respiHr': {
        // Pairs of [respiration rate, heart rate]; the newest pair wins.
        const pairs = Math.floor(values.length / 2);
        if (pairs === 0) break;
        const rr = values[(pairs - 1) * 2]!;
        this.#deviceRespirationRate = rr;
        this.#deviceHeartRate = values[(pairs - 1) * 2 + 1]!;
        this.#deviceRatesAtMs = startTimeMs + ((pairs - 1) * 1000) / sampleRate;
        if (rr === 0) {
          if (Number.isNaN(this.#deviceZeroSinceMs)) this.#deviceZeroSinceMs = this.#deviceRatesAtMs;
        } else this.#deviceZeroSinceMs = Number.NaN;
        break;
      }
      case 'temperature':
        this.#temperature = values[samples - 1]!;
        this.#temperatureAtMs = startTimeMs + ((samples - 1) * 1000) / sampleRate;
        break;
      case 'button':
        for (let s = 0; s < samples; s++) {
          const level = values[s * width]!;
          if (level >= 0.5 && this.#buttonLevel < 0.5) this.#lastButtonAtMs = startTimeMs + (s * 1000) / sampleRate;
          this.#buttonLevel = level;
        }
        break;
      default:
        break;
    }
  }

  #write(key: string, startTimeMs: number, sampleRate: number, values: Float32Array, width: number, windowSec: number): void {
    let track = this.#tracks.get(key);
    if (!track || track.sampleRate !== sampleRate || track.ring.width !== width) {
      track = { sampleRate, ring: new SampleRing(Math.ceil(windowSec * sampleRate), width), endMs: Number.NaN };
      this.#tracks.set(key, track);
    }
    // A gap of more than a second (device offline, lost frames) starts the window again: the analysis
    // assumes contiguous samples.
    if (Number.isFinite(track.endMs) && Math.abs(startTimeMs - track.endMs) > 1000) track.ring.clear();
    track.ring.write(values);
    track.endMs = startTimeMs + (Math.floor(values.length / width) * 1000) / sampleRate;
  }

  #onMovementSecond(secondStartMs: number, level: number, gravity: Float64Array): void {
    const index = Math.floor(secondStartMs / 1000) % HISTORY_SECONDS;
    const moving = level > MOVING_THRESHOLD_G;
    this.#movingSeconds[index] = moving ? 1 : 0;
    this.#movementStamp[index] = secondStartMs;
    this.#lastMovement = level;
    this.#lastMovementAtMs = secondStartMs + 1000;
    if (moving) this.#lastMovingMs = secondStartMs + 1000;
    if (!trunkUpright(gravity)) this.#uprightSinceMs = Number.NaN;
    else if (Number.isNaN(this.#uprightSinceMs)) this.#uprightSinceMs = secondStartMs;
    this.#posture.update(secondStartMs, gravity, level);
  }

  /** The newest `seconds` of a track, copied into a reused scratch array; null when too short or stale. */
  #latest(key: string, seconds: number, minSeconds: number, nowMs: number): { values: Float32Array; sampleRate: number; width: number } | null {
    const track = this.#tracks.get(key);
    if (!track || nowMs - track.endMs > 2000) return null;
    const wanted = Math.round(seconds * track.sampleRate);
    const available = Math.min(wanted, track.ring.length);
    if (available < minSeconds * track.sampleRate) return null;
    const size = available * track.ring.width;
    if (this.#scratch.length < size) this.#scratch = new Float32Array(size);
    const values = this.#scratch.subarray(0, size);
    track.ring.copyLatest(available, values);
    return { values, sampleRate: track.sampleRate, width: track.ring.width };
  }

  #breathing(nowMs: number): BreathingSignal | null {
    for (const source of RESPIRATION_SOURCES) {
      const window = this.#latest(source, this.#respirationWindowSec, EXCURSION_WINDOW_SEC + 1, nowMs);
      if (!window) continue;
      if (window.width === 1) return breathingSignal(window.values, window.sampleRate);
      // The chest's direction of motion is found again every few seconds, and at once after a movement
      // (a new posture); in between the last one holds, which spares a principal-component analysis a second.
      const known =
        this.#direction !== null && nowMs - this.#direction.atMs < DIRECTION_REFRESH_MS && this.#movingInLast(nowMs, 3) === 0
          ? this.#direction.vector
          : undefined;
      const breathing = principalBreathingSignal(window.values, window.width, window.sampleRate, undefined, known);
      if (known === undefined && breathing.direction) this.#direction = { vector: breathing.direction, atMs: nowMs };
      return breathing;
    }
    return null;
  }

  #movingInLast(nowMs: number, seconds: number): number {
    let count = 0;
    const nowSecond = Math.floor(nowMs / 1000);
    for (let s = 1; s <= seconds; s++) {
      const second = nowSecond - s;
      const index = ((second % HISTORY_SECONDS) + HISTORY_SECONDS) % HISTORY_SECONDS;
      if (this.#movementStamp[index] === second * 1000 && this.#movingSeconds[index] === 1) count++;
    }
    return count;
  }

  evaluate(nowMs: number): RoomState {
    if (Number.isNaN(this.#lastDataMs) || nowMs - this.#lastDataMs > this.#offlineAfterMs) {
      if (this.#state !== 'offline') {
        this.#beforeOffline = this.#state;
        this.#state = 'offline';
        this.#sinceMs = Number.isNaN(this.#lastDataMs) ? nowMs : this.#lastDataMs;
        this.#pending = null;
        this.#apnea.update(nowMs, Number.NaN, false);
      }
      if (Number.isNaN(this.#sinceMs)) this.#sinceMs = nowMs;
      return this.#result(Number.NaN, Number.NaN, nowMs);
    }

    // Cardiac evidence: a normal heartbeat, from the device's own heart rate or QRS complexes in the ECG.
    // Where the device reports no heart rate (or one outside the normal range), the ECG is read as well:
    // what the electrodes show then (flutter, fibrillation, a flat line with contact, or leads off)
    // decides between a failing heart and an empty bed.
    const deviceFresh = this.#useDeviceRates && nowMs - this.#deviceRatesAtMs <= DEVICE_VALUE_FRESH_MS;
    let heartRate = Number.NaN;
    let cardiac: boolean | undefined;
    let rhythm: RhythmReading | null = null;
    const deviceHeart = deviceFresh && this.#deviceHeartRate >= DEVICE_NORMAL_HR_MIN && this.#deviceHeartRate <= DEVICE_NORMAL_HR_MAX;
    if (deviceHeart) {
      cardiac = true;
      heartRate = this.#deviceHeartRate;
    } else {
      const ecg = this.#latest('ecg', this.#heartWindowSec, ECG_MIN_SEC, nowMs);
      if (ecg) {
        const estimate = estimateHeartRate(ecg.values, ecg.sampleRate);
        const lastBeatAge = estimate.beats > 0 ? (ecg.values.length - estimate.lastPeak) / ecg.sampleRate : Number.POSITIVE_INFINITY;
        rhythm = this.#rhythmReader.read(ecg.values, ecg.sampleRate, estimate);
        cardiac =
          estimate.beats >= 3 &&
          estimate.prominence >= QRS_PROMINENCE_MIN &&
          lastBeatAge <= LAST_BEAT_MAX_AGE_SEC &&
          estimate.rate >= 25 &&
          estimate.rate <= 250 &&
          !rhythm.fibrillation;
        heartRate = cardiac ? estimate.rate : Number.NaN;
      } else if (deviceFresh) {
        cardiac = Number.isFinite(this.#deviceHeartRate) && this.#deviceHeartRate > 0;
        heartRate = cardiac ? this.#deviceHeartRate : Number.NaN;
      } else if (this.#tracks.has('ecg')) cardiac = undefined;
      // An ECG that is there but too short or late to judge (just back online, a delayed frame) leaves
      // presence undecided rather than falling back to the weaker breathing evidence.
    }
    this.#heartHistory[this.#heartHistoryAt++ % this.#heartHistory.length] = heartRate;

    // Breathing evidence.
    const moving = this.#movingInLast(nowMs, 3) > 0;
    const breathing = this.#breathing(nowMs);
    let computedRate = Number.NaN;
    let excursion = Number.NaN;
    if (breathing) {
      excursion = breathingExcursion(breathing, EXCURSION_WINDOW_SEC);
      this.#apnea.update(nowMs, excursion, !moving);
      if (!moving && breathing.signal.length >= 15 * breathing.sampleRate) computedRate = estimateFromBreathingSignal(breathing).rate;
    } else this.#apnea.update(nowMs, Number.NaN, false);
    let respirationRate = computedRate;
    let flatStartMs = this.#apnea.flatSinceMs;
    if (deviceFresh) {
      respirationRate = this.#deviceRespirationRate;
      if (Number.isFinite(this.#deviceZeroSinceMs) && !(this.#deviceZeroSinceMs >= flatStartMs)) flatStartMs = this.#deviceZeroSinceMs;
    }
    const noBreathing = Number.isFinite(flatStartMs) && nowMs - flatStartMs >= this.#noBreathingMinMs;

    const impedance = this.#impedanceLevel(nowMs);

    // Presence; undecidable without any usable channel yet (just back online): keep the current state.
    const wasInBed = this.#inBed(this.#state);
    const cardiacChannel = deviceFresh || this.#tracks.has('ecg');
    let inBed: boolean | undefined;
    if (cardiacChannel) {
      // In bed while the heart or the electrodes say a body is there: a normal beat, or electrical activity
      // only a body gives (fibrillation waves).
      const present = cardiac === undefined ? undefined : cardiac || (rhythm !== null && !rhythm.leadOff && rhythm.activity >= CONTACT_ACTIVITY_MV);
      if (present === true) this.#presentAtMs = nowMs;
      // Once in bed, a heart that can no longer be found is not an empty bed: leaving takes the electrodes
      // coming off or a movement of getting up (issue 19: ventricular flutter was read as 離床 for 86 s).
      inBed = present === undefined ? undefined : present || (wasInBed && !this.#leftBed(rhythm, impedance, deviceFresh));
    } else {
      // Without a cardiac channel, breathing is judged against the excursion last seen in bed, which a long
      // absence does not wear down (the detector's own baseline would drift to the empty bed's noise).
      const inBedExcursion = this.#inBedExcursion;
      const breathingSeen =
        breathing !== null &&
        (Number.isFinite(inBedExcursion) ? excursion >= this.#noBreathingFraction * inBedExcursion : Number.isNaN(this.#apnea.flatSinceMs));
      // Nobody leaves a bed without moving: breathing that stops with no movement in the seconds before is
      // taken as no breathing in bed, not as an empty bed.
      const stillWhenStopped = Number.isFinite(flatStartMs) && wasInBed && this.#movingInLast(flatStartMs + 1000, LEAVING_MOVEMENT_SEC) === 0;
      inBed = breathing !== null ? breathingSeen || moving || stillWhenStopped : undefined;
    }
    if (inBed === undefined) return this.#result(respirationRate, heartRate, nowMs);

    let target: RoomStateName;
    if (!inBed) target = 'outOfBed';
    else if (noBreathing) target = 'noBreathing';
    else if (this.#sittingUp(nowMs)) target = 'sittingUp';
    else target = this.#sleepOrWake(nowMs);
    this.#transition(target, nowMs, flatStartMs);

    if ((this.#state === 'asleep' || this.#state === 'awake') && Number.isFinite(this.#apnea.baseline)) this.#inBedExcursion = this.#apnea.baseline;
    if (this.#inBed(this.#state) && Number.isFinite(impedance) && !this.#impedanceOff(impedance)) {
      this.#inBedImpedance = Number.isNaN(this.#inBedImpedance) ? impedance : this.#inBedImpedance + (impedance - this.#inBedImpedance) / IMPEDANCE_TAU_SEC;
    }
    this.#followRhythm(nowMs, cardiac === true, rhythm, moving);
    if (this.#state === 'asleep') {
      const recent = median(this.#heartHistory);
      if (Number.isFinite(recent))
        this.#sleepHeartRate = Number.isNaN(this.#sleepHeartRate) ? recent : this.#sleepHeartRate + (recent - this.#sleepHeartRate) / SLEEP_HR_TAU_SEC;
    }
    // The rate computed this second still saw the out-of-bed level: wait for the fresh window. Just
    // after a no-breathing spell the window still holds the pause: wait until it holds breaths only.
    if (!deviceFresh && this.#respirationRestartMs === nowMs) respirationRate = Number.NaN;
    if (!deviceFresh && nowMs - this.#breathingResumedMs < (this.#respirationWindowSec * 1000) / 2) respirationRate = Number.NaN;
    if (this.#state === 'noBreathing') respirationRate = 0;
    if (this.#state === 'outOfBed') {
      respirationRate = Number.NaN;
      heartRate = Number.NaN;
    }
    return this.#result(respirationRate, heartRate, nowMs);
  }

  /**
   * Positive evidence that the person left the bed (or took the sensor off), needed once in bed: the ECG
   * lead flat (electrodes off), the thoracic impedance away from its in-bed level (electrodes off), a
   * movement in the seconds around the end of the body's signals (getting up), or — for a device that
   * sends only its own rates — the device reporting neither rate.
   */
  #leftBed(rhythm: RhythmReading | null, impedance: number, deviceFresh: boolean): boolean {
    if (rhythm?.leadOff) return true;
    if (Number.isFinite(impedance) && this.#impedanceOff(impedance)) return true;
    if (Number.isFinite(this.#presentAtMs) && this.#movingInLast(this.#presentAtMs + LEAVING_AFTER_MS, LEAVING_MOVEMENT_SEC + LEAVING_AFTER_MS / 1000) > 0)
      return true;
    const rawChannels = this.#tracks.has('ecg') || this.#tracks.has('impe') || this.#tracks.has('respiAxl');
    return deviceFresh && !rawChannels && Number.isNaN(this.#deviceHeartRate) && Number.isNaN(this.#deviceRespirationRate);
  }

  /** Mean thoracic impedance of the last second (Ω); NaN without a fresh impedance channel. */
  #impedanceLevel(nowMs: number): number {
    const window = this.#latest('impe', 1, 1, nowMs);
    if (!window) return Number.NaN;
    let sum = 0;
    for (let i = 0; i < window.values.length; i++) sum += window.values[i]!;
    return sum / window.values.length;
  }

  /** Detached electrodes read an open circuit (or a short): far from the impedance of the body in bed. */
  #impedanceOff(impedance: number): boolean {
    return Number.isFinite(this.#inBedImpedance) && Math.abs(impedance - this.#inBedImpedance) > IMPEDANCE_OFF_FRACTION * this.#inBedImpedance;
  }

  /**
   * Since when the ECG of a person in bed has shown no normal rhythm (flutter, fibrillation or asystole
   * with the electrodes on). Seconds with movement are not judged (motion artefact); a normal beat ends it.
   */
  #followRhythm(nowMs: number, normal: boolean, rhythm: RhythmReading | null, moving: boolean): void {
    if (!this.#inBed(this.#state) || this.#state === 'offline') {
      this.#rhythmLostSinceMs = Number.NaN;
      return;
    }
    if (normal) {
      if (Number.isNaN(this.#rhythmNormalSinceMs)) this.#rhythmNormalSinceMs = nowMs;
      // A few "beats" in the noise of a flat line (the QRS detector relearning its levels from it) do
      // not end an asystole: the rhythm is back once it holds for RHYTHM_RECOVERED_MS.
      if (nowMs - this.#rhythmNormalSinceMs >= RHYTHM_RECOVERED_MS) this.#rhythmLostSinceMs = Number.NaN;
      return;
    }
    this.#rhythmNormalSinceMs = Number.NaN;
    if (moving || rhythm === null || rhythm.leadOff) return;
    if ((rhythm.fibrillation || rhythm.asystole) && Number.isNaN(this.#rhythmLostSinceMs)) this.#rhythmLostSinceMs = nowMs;
  }

  /** In bed with the trunk upright for SITTING_UP_CONFIRM_MS, by acceleration that is still arriving. */
  #sittingUp(nowMs: number): boolean {
    return (
      Number.isFinite(this.#uprightSinceMs) && nowMs - this.#lastMovementAtMs <= 3000 && this.#lastMovementAtMs - this.#uprightSinceMs >= SITTING_UP_CONFIRM_MS
    );
  }

  #sleepOrWake(nowMs: number): 'awake' | 'asleep' {
    const current = this.#state === 'asleep' || this.#state === 'awake' ? this.#state : this.#inBed(this.#state) ? this.#lastInBedState : 'awake';
    const heart = median(this.#heartHistory);
    const baseline = this.#sleepHeartRate;
    const elevated = Number.isFinite(baseline) && heart >= baseline + HR_ELEVATED_BPM;
    if (!elevated) this.#elevatedSinceMs = Number.NaN;
    else if (Number.isNaN(this.#elevatedSinceMs)) this.#elevatedSinceMs = nowMs;
    const elevatedLong = elevated && nowMs - this.#elevatedSinceMs >= HR_ELEVATED_CONFIRM_MS;
    if (current === 'asleep') return elevatedLong || this.#movingInLast(nowMs, ACTIVE_WINDOW_SEC) >= ACTIVE_SECONDS_TO_WAKE ? 'awake' : 'asleep';
    const quietFrom = Math.max(Number.isFinite(this.#lastMovingMs) ? this.#lastMovingMs : Number.NEGATIVE_INFINITY, this.#inBedSinceMs);
    const quietSec = (nowMs - quietFrom) / 1000;
    if (elevated) return 'awake';
    if (quietSec >= this.#sleepQuietSec) return 'asleep';
    if (Number.isFinite(baseline) && quietSec >= QUIET_WITH_BASELINE_SEC && heart <= baseline + HR_SLEEP_MARGIN_BPM) return 'asleep';
    return 'awake';
  }

  /** In bed, or offline after being in bed (the person is presumed still there). */
  #inBed(state: RoomStateName): boolean {
    const effective = state === 'offline' ? this.#beforeOffline : state;
    return effective === 'sittingUp' || effective === 'awake' || effective === 'asleep' || effective === 'noBreathing';
  }

  #transition(target: RoomStateName, nowMs: number, flatStartMs: number): void {
    if (target === this.#state) {
      this.#pending = null;
      return;
    }
    if (target !== this.#pending) {
      this.#pending = target;
      this.#pendingSinceMs = nowMs;
    }
    const wasInBed = this.#inBed(this.#state);
    let confirmMs = 0;
    if (target === 'outOfBed' && this.#state !== 'offline') confirmMs = PRESENCE_CONFIRM_MS;
    else if (!wasInBed && target !== 'outOfBed' && this.#state !== 'offline') confirmMs = PRESENCE_CONFIRM_MS;
    else if (this.#state === 'noBreathing') confirmMs = BREATHING_RESUMED_CONFIRM_MS;
    if (nowMs - this.#pendingSinceMs < confirmMs) return;

    // Backdate to when the evidence began where that is known.
    let since = nowMs;
    if (target === 'noBreathing') since = flatStartMs;
    else if (confirmMs > 0) since = this.#pendingSinceMs - 1000;
    if (!wasInBed && target !== 'outOfBed') {
      this.#inBedSinceMs = since;
      // The respiration windows still hold the out-of-bed level and the step to the in-bed level, which
      // would read as huge breaths: start them and the breathing baseline afresh.
      for (const source of RESPIRATION_SOURCES) this.#tracks.get(source)?.ring.clear();
      this.#direction = null;
      this.#respirationRestartMs = nowMs;
      this.#apnea.reset();
    }
    if (target === 'awake' || target === 'asleep') this.#lastInBedState = target;
    // Sitting up is waking: lying down again is awake until the sleep rules say otherwise.
    if (target === 'sittingUp') this.#lastInBedState = 'awake';
    if (this.#state === 'noBreathing') this.#breathingResumedMs = nowMs;
    this.#state = target;
    this.#sinceMs = since;
    this.#pending = null;
  }

  #result(respirationRate: number, heartRate: number, nowMs: number): RoomState {
    const finite = (value: number): number | null => (Number.isFinite(value) ? Math.round(value * 10) / 10 : null);
    return {
      state: this.#state,
      since: this.#sinceMs,
      respirationRate: this.#state === 'offline' ? null : finite(respirationRate),
      heartRate: this.#state === 'offline' ? null : finite(heartRate),
      movement: nowMs - this.#lastMovementAtMs <= 3000 ? this.#lastMovement : null,
      temperature: nowMs - this.#temperatureAtMs <= 60_000 ? this.#temperature : null,
      lastButtonAt: Number.isFinite(this.#lastButtonAtMs) ? this.#lastButtonAtMs : null,
      postureChanges: this.#posture.changes,
      heartRhythmLostSince: this.#state !== 'offline' && Number.isFinite(this.#rhythmLostSinceMs) ? this.#rhythmLostSinceMs : null,
    };
  }
}

/**
 * Averages every `factor` consecutive samples into one, across frames: a sample left over at the end of a
 * frame waits for the next frame, unless that frame does not continue this one (a gap), which starts afresh.
 */
class BoxcarDecimator {
  #sum = 0;
  #count = 0;
  /** When the next input sample is due if the stream continues (ms). */
  #nextMs = Number.NaN;
  #groupStartMs = Number.NaN;
  #out = new Float32Array(0);

  push(startTimeMs: number, sampleRate: number, values: Float32Array, factor: number): { startTimeMs: number; values: Float32Array } {
    const periodMs = 1000 / sampleRate;
    if (this.#count > 0 && !(Math.abs(startTimeMs - this.#nextMs) <= periodMs / 2)) this.#count = 0;
    if (this.#count === 0) this.#sum = 0;
    const capacity = Math.floor((values.length + this.#count) / factor);
    if (this.#out.length < capacity) this.#out = new Float32Array(capacity);
    let written = 0;
    let firstMs = Number.NaN;
    for (let i = 0; i < values.length; i++) {
      if (this.#count === 0) this.#groupStartMs = startTimeMs + i * periodMs;
      this.#sum += values[i]!;
      this.#count++;
      if (this.#count === factor) {
        if (written === 0) firstMs = this.#groupStartMs;
        this.#out[written++] = this.#sum / factor;
        this.#sum = 0;
        this.#count = 0;
      }
    }
    this.#nextMs = startTimeMs + values.length * periodMs;
    return { startTimeMs: firstMs, values: this.#out.subarray(0, written) };
  }
}
