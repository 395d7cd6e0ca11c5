// One simulated device: generates each second of every channel into reusable typed arrays.
import { EIT_MODEL_RATE, EIT_MODEL_WIDTH, createEitModel, type EitModel, type EitRecording } from './eit.ts';
import { Random, hashSeed } from './random.ts';
import { createTimeline, scenarioSecond, stateAt, DEFAULT_UTC_OFFSET_MINUTES, type ScenarioState, type ScenarioTimeline } from './scenario.ts';

export const ECG_RATE = 250;
export const RESPI_AXL_RATE = 50;
export const IMPE_RATE = 50;
export const BUTTON_RATE = 10;

/** McSharry et al. (2003) ECGSYN waves P, Q, R, S, T: angle (rad), amplitude (mV), width (rad). */
const WAVE_ANGLE = [-Math.PI / 3, -Math.PI / 12, 0, Math.PI / 12, Math.PI / 2];
const WAVE_AMPLITUDE = [0.12, -0.14, 1.15, -0.28, 0.3];
const WAVE_WIDTH = [0.25, 0.1, 0.1, 0.1, 0.4];

/** Gravity directions (g) of the postures a person takes in bed; the sensor lies on the chest. */
const POSTURES: readonly (readonly [number, number, number])[] = [
  [0.05, -0.1, 0.99],
  [0.97, -0.08, 0.2],
  [-0.96, -0.1, 0.25],
  [0.5, -0.12, 0.86],
];
/** Sitting on the edge of the bed: the trunk upright, gravity along the sensor's y axis (head to feet). */
const SITTING: readonly [number, number, number] = [0.08, -0.96, 0.25];
/** The sensor put down on the bedside table while its wearer is out of bed. */
const PUT_DOWN: readonly [number, number, number] = [0.02, 0.03, 1];

export interface DeviceOptions {
  serial: string;
  seed: string | number;
  /** Replay this EIT recording instead of the 208-value model. */
  eitRecording?: EitRecording;
  utcOffsetMinutes?: number;
}

/** One second of every channel; the arrays are reused by the next call. */
export interface DeviceSecond {
  /** Start of the second, ms since the epoch. */
  startTimeMs: number;
  state: ScenarioState;
  ecg: Float32Array;
  /** x, y, z interleaved. */
  respiAxl: Float32Array;
  impe: Float32Array;
  /** Respiration rate, heart rate (NaN when not available). */
  respiHr: Float32Array;
  temperature: Float32Array;
  button: Float32Array;
  eit: Float32Array;
  eitWidth: number;
  eitRate: number;
}

/** Peak-to-peak of the EIT measurement noise (uniform: cheaper than Gaussian for 4,160 values a second; SD 0.0005). */
const EIT_NOISE = 0.0005 * Math.sqrt(12);

/** exp(-30) ≈ 1e-13: a Gaussian wave this far from its centre adds nothing a sample can show. */
const NEGLIGIBLE_EXPONENT = 30;
const TWO_PI = 2 * Math.PI;
/** An angle less than 2π outside [-π, π] (a phase plus a step, or minus a wave's angle) brought into it. */
const wrapNear = (angle: number): number => (angle > Math.PI ? angle - TWO_PI : angle < -Math.PI ? angle + TWO_PI : angle);

export class DeviceSimulator {
  readonly serial: string;
  readonly timeline: ScenarioTimeline;
  readonly utcOffsetMinutes: number;
  readonly #random: Random;
  /**
   * EIT's measurement noise has a stream of its own: the other channels then come out the same
   * whether EIT is generated or not, so a run without EIT can skip its work (4,160 values a second).
   */
  readonly #eitRandom: Random;
  readonly #recording: EitRecording | undefined;
  readonly #model: EitModel;
  readonly #second: DeviceSecond;
  readonly #breath = new Float32Array(ECG_RATE);
  readonly #pulse = new Float32Array(ECG_RATE);
  // Continuous state carried from one second to the next.
  #cardiacPhase: number;
  #flutterPhase = 0;
  #breathPhase: number;
  #heartRateDrift = 0;
  #respirationDrift = 0;
  #depth = 1;
  #depthTarget = 1;
  #amplitude = 0;
  #posture = 0;
  #wasMoving = false;
  #motion = [0, 0, 0];
  #temperature = Number.NaN;
  #impedanceBase: number;
  #eitFrame = 0;

  constructor(options: DeviceOptions) {
    this.serial = options.serial;
    this.utcOffsetMinutes = options.utcOffsetMinutes ?? DEFAULT_UTC_OFFSET_MINUTES;
    this.timeline = createTimeline(options.seed, options.serial);
    this.#random = new Random(hashSeed('signals', options.seed, options.serial));
    this.#eitRandom = new Random(hashSeed('eit', options.seed, options.serial));
    this.#recording = options.eitRecording;
    this.#model = createEitModel();
    this.#cardiacPhase = this.#random.uniform(-Math.PI, Math.PI);
    this.#breathPhase = this.#random.next();
    this.#impedanceBase = this.#random.uniform(420, 520);
    const eitWidth = this.#recording?.width ?? EIT_MODEL_WIDTH;
    const eitRate = this.#recording?.sampleRate ?? EIT_MODEL_RATE;
    this.#second = {
      startTimeMs: 0,
      state: stateAt(this.timeline, 0),
      ecg: new Float32Array(ECG_RATE),
      respiAxl: new Float32Array(RESPI_AXL_RATE * 3),
      impe: new Float32Array(IMPE_RATE),
      respiHr: new Float32Array(2),
      temperature: new Float32Array(1),
      button: new Float32Array(BUTTON_RATE),
      eit: new Float32Array(eitWidth * eitRate),
      eitWidth,
      eitRate,
    };
  }

  stateAt(timeMs: number): ScenarioState {
    return stateAt(this.timeline, scenarioSecond(timeMs, this.utcOffsetMinutes));
  }

  /**
   * Generates the second starting at startTimeMs (a whole second). Returns null when the device is offline
   * then: it sends nothing and its signals resume where they stopped. With `eit: false` the EIT values
   * are left as they were (the caller does not send them); the other channels are the same either way.
   */
  generate(startTimeMs: number, { eit = true }: { eit?: boolean } = {}): DeviceSecond | null {
    const state = this.stateAt(startTimeMs);
    if (state.offline) return null;
    const out = this.#second;
    out.startTimeMs = startTimeMs;
    out.state = state;
    const random = this.#random;
    const inBed = state.presence !== 'out-of-bed';
    const dt = 1 / ECG_RATE;

    // Slow variation: Ornstein–Uhlenbeck drifts of heart and respiration rate, a new breathing depth now and then.
    this.#heartRateDrift += -this.#heartRateDrift / 30 + 0.25 * random.gaussian();
    this.#respirationDrift += -this.#respirationDrift / 60 + 0.08 * random.gaussian();
    if (random.next() < 0.05) this.#depthTarget = random.uniform(0.7, 1.3) * (random.next() < 0.05 ? 1.8 : 1);
    if (state.moving && !this.#wasMoving && random.next() < 0.4) this.#posture = Math.floor(random.next() * POSTURES.length);
    this.#wasMoving = state.moving;
    const heartRate = state.heartRate + this.#heartRateDrift;
    const respirationRate = Math.max(4, state.respirationRate + this.#respirationDrift);
    const breathing = inBed && !state.apnea ? 1 : 0;

    // Breathing waveform and ECG at 250 Hz. The loop keeps its state in locals and wraps angles with a
    // comparison rather than a division and rounding: bench:ingest's device thread spent most of its
    // time here (3,000 devices are 750,000 samples a second).
    const hrFactor = Math.sqrt(heartRate / 60);
    const angles = WAVE_ANGLE.map((a, i) => (i === 0 || i === 4 ? a * Math.min(1.4, hrFactor) : a));
    const exponentScales = WAVE_WIDTH.map((b) => 1 / (2 * (b * hrFactor) * (b * hrFactor)));
    const breathStep = (respirationRate / 60) * dt;
    const cardiacStep = 2 * Math.PI * (heartRate / 60) * dt;
    const depthTarget = this.#depthTarget;
    const moving = state.moving;
    const flutter = state.flutter;
    const ecg = out.ecg;
    const breathOut = this.#breath;
    const pulseOut = this.#pulse;
    let depth = this.#depth;
    let amplitude = this.#amplitude;
    let breathPhase = this.#breathPhase;
    let cardiacPhase = this.#cardiacPhase;
    for (let i = 0; i < ECG_RATE; i++) {
      depth += (depthTarget - depth) * 0.002;
      amplitude += (breathing * depth - amplitude) * 0.01;
      breathPhase = (breathPhase + breathStep) % 1;
      const phase = 2 * Math.PI * breathPhase;
      const sinPhase = Math.sin(phase);
      const breath = amplitude * (sinPhase + 0.15 * Math.sin(2 * phase));
      breathOut[i] = breath;
      // Respiratory sinus arrhythmia: the heart speeds up on inspiration.
      cardiacPhase = wrapNear(cardiacPhase + cardiacStep * (1 + 0.04 * amplitude * sinPhase));
      let z = 0;
      for (let w = 0; w < 5; w++) {
        const d = wrapNear(cardiacPhase - angles[w]!);
        const exponent = d * d * exponentScales[w]!;
        // Far from its wave a term is below 1e-13 (e^-30): not worth an exp per wave and sample (bench:ingest's device thread).
        if (exponent < NEGLIGIBLE_EXPONENT) z += WAVE_AMPLITUDE[w]! * Math.exp(-exponent);
      }
      const pulseOffset = wrapNear(cardiacPhase - 0.6) / 0.5;
      const pulseExponent = pulseOffset * pulseOffset;
      pulseOut[i] = flutter || pulseExponent >= NEGLIGIBLE_EXPONENT ? 0 : Math.exp(-pulseExponent);
      // Leads off: the ECG front end reports the detached electrodes as a flat line (its lead-off
      // detection blanks the output), which no body in contact gives.
      if (!inBed) ecg[i] = 0;
      else if (flutter) {
        // Ventricular flutter: a regular sine-wave oscillation without QRS or T waves, ~4.5 Hz (270/min), ~1 mV.
        this.#flutterPhase = (this.#flutterPhase + 4.5 * dt) % 1;
        ecg[i] = 0.55 * Math.sin(2 * Math.PI * this.#flutterPhase) + 0.05 * breath + 0.01 * random.gaussian();
      } else {
        const artefact = moving ? 0.08 * random.gaussian() : 0;
        ecg[i] = z * (1 + 0.08 * breath) + 0.05 * breath + 0.01 * random.gaussian() + artefact;
      }
    }
    this.#depth = depth;
    this.#amplitude = amplitude;
    this.#breathPhase = breathPhase;
    this.#cardiacPhase = cardiacPhase;

    // Chest acceleration and thoracic impedance at 50 Hz.
    const decimation = ECG_RATE / RESPI_AXL_RATE;
    const gravity = !inBed ? PUT_DOWN : state.sittingUp ? SITTING : POSTURES[this.#posture]!;
    for (let i = 0; i < RESPI_AXL_RATE; i++) {
      const breath = this.#breath[i * decimation]!;
      const pulse = this.#pulse[i * decimation]!;
      for (let axis = 0; axis < 3; axis++) {
        const motion = this.#motion[axis]! * 0.8 + (state.moving ? 0.12 * random.gaussian() : 0);
        this.#motion[axis] = motion;
        const breathingAxis = axis === 2 ? 0.008 : axis === 1 ? 0.004 : 0.001;
        const value = gravity[axis]! + (inBed ? breathingAxis * breath + 0.0006 * pulse * (axis === 2 ? 1 : 0) : 0) + motion + 0.0003 * random.gaussian();
        out.respiAxl[i * 3 + axis] = Math.max(-3, Math.min(3, value));
      }
      out.impe[i] = inBed
        ? this.#impedanceBase + 1.5 * breath + 0.05 * pulse + (state.moving ? 0.8 * random.gaussian() : 0) + 0.01 * random.gaussian()
        : 1000 + 0.005 * random.gaussian();
    }

    // What the device itself computes each second.
    out.respiHr[0] = !inBed || state.moving ? Number.NaN : state.apnea ? 0 : Math.round(respirationRate * 10) / 10;
    out.respiHr[1] = !inBed || state.flutter ? Number.NaN : Math.round(heartRate * 10) / 10;

    // Skin temperature follows the body in bed and the room out of it.
    const target = inBed ? state.bodyTemperature : 24;
    if (Number.isNaN(this.#temperature)) this.#temperature = target;
    this.#temperature += (target - this.#temperature) / (inBed ? 90 : 300);
    out.temperature[0] = Math.round((this.#temperature + 0.02 * random.gaussian()) * 100) / 100;

    out.button.fill(state.buttonPressed ? 1 : 0);

    if (eit) this.#generateEit(out, inBed);
    return out;
  }

  #generateEit(out: DeviceSecond, inBed: boolean): void {
    const recording = this.#recording;
    if (recording) {
      for (let f = 0; f < out.eitRate; f++) {
        // Out of bed the belt is off: the first frame, frozen.
        const frame = inBed ? this.#eitFrame++ % recording.frames : 0;
        out.eit.set(recording.values.subarray(frame * recording.width, (frame + 1) * recording.width), f * recording.width);
      }
      return;
    }
    const { baseline, breathing, cardiac } = this.#model;
    const random = this.#eitRandom;
    for (let f = 0; f < out.eitRate; f++) {
      const sample = Math.floor((f * ECG_RATE) / out.eitRate);
      const breath = inBed ? this.#breath[sample]! : 0;
      const pulse = inBed ? this.#pulse[sample]! : 0;
      const base = f * EIT_MODEL_WIDTH;
      for (let k = 0; k < EIT_MODEL_WIDTH; k++) {
        out.eit[base + k] = baseline[k]! * (1 + breathing[k]! * breath + cardiac[k]! * pulse) + EIT_NOISE * (random.next() - 0.5);
      }
    }
  }
}
