// Beat-by-beat scoring of a QRS detector as ANSI/AAMI EC57:2012 prescribes and WFDB's `bxb` implements
// (https://physionet.org/physiotools/wag/bxb-1.htm): a detection matches a reference beat within 150 ms,
// each at most once; scoring starts 5 minutes into the record (the detector's learning period is not
// scored) and runs to the end. Reference beats are the annotations bxb counts as beats (WFDB's isqrs
// table: N L R a V F J A S E j / Q B e n f r ?), so rhythm, noise and comment annotations never count.
// Test and benchmark only: it reads the annotated MIT-BIH records in /work/shared/data.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { median } from '../filters.ts';
import { heartRateFromPeaks, qrsFeatures } from '../heartRate.ts';
import { RoomStateEstimator, type RoomStateName } from '../roomState.ts';
import { isBeat, readAnnotations, readRecord, SHARED_DATA_DIR, type Annotations } from './wfdb.ts';

export const MATCH_WINDOW_SEC = 0.15;
export const SCORING_FROM_SEC = 300;

export interface AnnotatedRecord {
  name: string;
  /** Lead the detector is run on: the record's first signal (MLII, or V5 in record 104). */
  lead: string;
  ecg: Float32Array;
  sampleRate: number;
  /** Sample index of every reference beat, in time order. */
  reference: Int32Array;
  /**
   * Rhythm episodes from the reference annotations, in time order (empty for `.beats` files): each from a
   * rhythm change ('(N', '(VFL', '(VT', '(AFIB'…) or a ventricular flutter/fibrillation onset ('[') to the
   * next change (or the end of the record).
   */
  rhythms: RhythmEpisode[];
}

export interface RhythmEpisode {
  /** The rhythm label as annotated, '(VFL' for a '[' … ']' episode. */
  rhythm: string;
  from: number;
  to: number;
}

/** MIT annotation codes: rhythm change (aux holds the rhythm), start and end of ventricular flutter/fibrillation. */
const RHYTHM = 28;
const VF_ON = 32;
const VF_OFF = 33;
/** Normal sinus rhythm; every other annotated rhythm counts as an arrhythmia. */
export const NORMAL_RHYTHM = '(N';

export function rhythmEpisodes(annotations: Annotations, length: number): RhythmEpisode[] {
  const changes: { at: number; rhythm: string }[] = [];
  let before = NORMAL_RHYTHM;
  for (let i = 0; i < annotations.codes.length; i++) {
    const code = annotations.codes[i]!;
    const at = annotations.samples[i]!;
    if (code === RHYTHM && annotations.aux[i]) {
      before = annotations.aux[i]!;
      changes.push({ at, rhythm: before });
    } else if (code === VF_ON) changes.push({ at, rhythm: '(VFL' });
    else if (code === VF_OFF) changes.push({ at, rhythm: before });
  }
  return changes
    .map((change, i) => ({ rhythm: change.rhythm, from: change.at, to: changes[i + 1]?.at ?? length }))
    .filter((episode) => episode.to > episode.from);
}

/**
 * Every record in the shared data with reference beat annotations: `<name>.atr` (MIT format, filtered to
 * beats) or `<name>.beats` (sample indices of the beat annotations, one per line), beside `<name>.hea`.
 */
export function annotatedRecords(root = `${SHARED_DATA_DIR}wfdb/`): AnnotatedRecord[] {
  const records: AnnotatedRecord[] = [];
  const visit = (directory: string): void => {
    for (const entry of readdirSync(directory, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory()) visit(`${directory}${entry.name}/`);
      if (!entry.isFile() || !entry.name.endsWith('.hea')) continue;
      const name = entry.name.slice(0, -4);
      let reference: Int32Array;
      let annotations: Annotations | undefined;
      if (existsSync(`${directory}${name}.atr`)) {
        annotations = readAnnotations(name, 'atr', directory);
        const codes = annotations.codes;
        reference = annotations.samples.filter((_, i) => isBeat(codes[i]!));
      } else if (existsSync(`${directory}${name}.beats`)) {
        reference = Int32Array.from(
          readFileSync(`${directory}${name}.beats`, 'utf8')
            .split(/\s+/)
            .filter((line) => line !== '')
            .map(Number),
        );
      } else continue;
      const record = readRecord(name, directory);
      const ecg = record.signals[0]!;
      const rhythms = annotations ? rhythmEpisodes(annotations, ecg.length) : [];
      records.push({ name, lead: record.header.signals[0]!.description, ecg, sampleRate: record.header.sampleRate, reference, rhythms });
    }
  };
  visit(root);
  return records.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * How large each of `beats` is on the record's lead, as a share of its median reference beat: the peak to
 * peak of the 5–15 Hz band-passed ECG (the detector's band) within ±50 ms. A reference beat under about 2 %
 * is at the level of the lead's noise (MIT-BIH 116's saturation, where the annotators read lead V1): the
 * lead does not show it, and no detector of this lead can find it without finding beats in noise.
 */
export function relativeQrsSize(record: Pick<AnnotatedRecord, 'ecg' | 'sampleRate' | 'reference'>, beats: ArrayLike<number>): Float64Array {
  const { filtered } = qrsFeatures(record.ecg, record.sampleRate);
  const half = Math.round(0.05 * record.sampleRate);
  const size = (beat: number): number => {
    let low = Infinity;
    let high = -Infinity;
    for (let i = Math.max(0, beat - half); i <= Math.min(filtered.length - 1, beat + half); i++) {
      low = Math.min(low, filtered[i]!);
      high = Math.max(high, filtered[i]!);
    }
    return high - low;
  };
  const typical = median(Float64Array.from(record.reference, size));
  return Float64Array.from(beats, (beat) => size(beat) / typical);
}

/** Below this share of the median QRS (relativeQrsSize) a reference beat is not on the lead. */
export const NOT_ON_LEAD = 0.02;

export interface BeatScore {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  /** Sensitivity TP / (TP + FN). */
  sensitivity: number;
  /** Positive predictivity TP / (TP + FP). */
  positivePredictivity: number;
  /** Longest run of consecutive reference beats without a matching detection. */
  longestMissRun: number;
  /** Reference sample index of each missed beat (for diagnosis). */
  missed: Int32Array;
  /** Sample index of each false detection. */
  falseDetections: Int32Array;
}

/**
 * Scores detections against reference beats. Both are sample indices in time order. Each reference beat
 * takes the nearest still unmatched detection within the window; detections just before the scoring
 * start may match a beat after it but are never counted as false.
 */
export function scoreBeats(
  reference: ArrayLike<number>,
  detected: ArrayLike<number>,
  sampleRate: number,
  fromSec = SCORING_FROM_SEC,
  windowSec = MATCH_WINDOW_SEC,
): BeatScore {
  const window = Math.round(windowSec * sampleRate);
  const from = Math.round(fromSec * sampleRate);
  const used = new Uint8Array(detected.length);
  const missed: number[] = [];
  let truePositives = 0;
  let run = 0;
  let longestMissRun = 0;
  let j = 0;
  for (let r = 0; r < reference.length; r++) {
    const beat = reference[r]!;
    if (beat < from) continue;
    while (j < detected.length && detected[j]! < beat - window) j++;
    let best = -1;
    for (let k = j; k < detected.length && detected[k]! <= beat + window; k++) {
      if (used[k]) continue;
      if (best < 0 || Math.abs(detected[k]! - beat) < Math.abs(detected[best]! - beat)) best = k;
    }
    if (best >= 0) {
      used[best] = 1;
      truePositives++;
      run = 0;
    } else {
      missed.push(beat);
      run++;
      longestMissRun = Math.max(longestMissRun, run);
    }
  }
  const falseDetections: number[] = [];
  for (let k = 0; k < detected.length; k++) if (!used[k] && detected[k]! >= from) falseDetections.push(detected[k]!);
  const falseNegatives = missed.length;
  const falsePositives = falseDetections.length;
  return {
    truePositives,
    falsePositives,
    falseNegatives,
    sensitivity: truePositives + falseNegatives > 0 ? truePositives / (truePositives + falseNegatives) : 1,
    positivePredictivity: truePositives + falsePositives > 0 ? truePositives / (truePositives + falsePositives) : 1,
    longestMissRun,
    missed: Int32Array.from(missed),
    falseDetections: Int32Array.from(falseDetections),
  };
}

/** What a room showed each second of a record: the room-state estimator fed the ECG one second at a time. */
export interface LiveRun {
  /** Per second (index = seconds from the start; the second ends at (index + 1) s): the state shown. */
  states: RoomStateName[];
  /** Per second: the heart rate shown, NaN when none. */
  heartRates: Float64Array;
}

/**
 * The room-state estimator fed the record's ECG one second at a time, as a bedside device would send it,
 * and evaluated after each second. The ECG is its only channel: the subject of every record lies in bed.
 */
export function liveRun(record: Pick<AnnotatedRecord, 'ecg' | 'sampleRate'>): LiveRun {
  const rate = record.sampleRate;
  const estimator = new RoomStateEstimator();
  const origin = Date.UTC(2026, 0, 1);
  const seconds = Math.floor(record.ecg.length / rate);
  const states: RoomStateName[] = [];
  const heartRates = new Float64Array(seconds);
  for (let second = 0; second < seconds; second++) {
    estimator.push('ecg', origin + second * 1000, rate, record.ecg.subarray(second * rate, (second + 1) * rate));
    const state = estimator.evaluate(origin + (second + 1) * 1000);
    states.push(state.state);
    heartRates[second] = state.heartRate ?? Number.NaN;
  }
  return { states, heartRates };
}

export interface LiveHeartRateScore {
  /** Seconds with a reference rate (at least two reference beats in the window). */
  seconds: number;
  /** Seconds in which the estimator's rate is within 5 beats/min of the reference. */
  within5: number;
  /** Seconds in which the estimator showed no heart rate at all. */
  noRate: number;
  medianError: number;
}

/**
 * The live heart rate as a room shows it: the room-state estimator fed the record one second at a time and
 * evaluated after each second, against 60 / median RR of the reference beats in the same 8 s window.
 */
export function liveHeartRate(record: AnnotatedRecord, run = liveRun(record)): LiveHeartRateScore {
  const rate = record.sampleRate;
  const window = 8 * rate;
  const errors: number[] = [];
  let seconds = 0;
  let within5 = 0;
  let noRate = 0;
  let first = 0;
  for (let second = 0; second < run.states.length; second++) {
    const end = (second + 1) * rate;
    if (end < window) continue;
    while (first < record.reference.length && record.reference[first]! < end - window) first++;
    let last = first;
    while (last < record.reference.length && record.reference[last]! < end) last++;
    const reference = heartRateFromPeaks(record.reference.subarray(first, last), rate);
    if (!Number.isFinite(reference)) continue;
    seconds++;
    const shown = run.heartRates[second]!;
    if (Number.isNaN(shown)) {
      noRate++;
      continue;
    }
    const error = Math.abs(shown - reference);
    errors.push(error);
    if (error <= 5) within5++;
  }
  errors.sort((a, b) => a - b);
  return { seconds, within5, noRate, medianError: errors.length > 0 ? errors[errors.length >> 1]! : Number.NaN };
}

export interface PresenceScore {
  /** Seconds the room was shown (after the estimator's first 8 s): the subject is in bed in all of them. */
  seconds: number;
  /** Of those, seconds shown as out of bed (離床). */
  outOfBed: number;
  /** Per arrhythmia (every annotated rhythm but normal sinus rhythm): seconds, and seconds shown out of bed. */
  arrhythmias: Map<string, { seconds: number; outOfBed: number }>;
}

/**
 * Presence read from the ECG alone on a record whose subject is in bed throughout: every second shown as
 * out of bed is wrong, and one during an arrhythmia hides a failing heart (issue 19: 86 s of 離床 during
 * ventricular flutter, so no alert). A second belongs to a rhythm episode when it ends inside it.
 */
export function presence(record: Pick<AnnotatedRecord, 'ecg' | 'sampleRate' | 'rhythms'>, run = liveRun(record)): PresenceScore {
  const rate = record.sampleRate;
  const arrhythmias = new Map<string, { seconds: number; outOfBed: number }>();
  let seconds = 0;
  let outOfBed = 0;
  let episode = 0;
  for (let second = 8; second < run.states.length; second++) {
    const out = run.states[second] === 'outOfBed';
    seconds++;
    if (out) outOfBed++;
    const end = (second + 1) * rate;
    while (episode < record.rhythms.length && record.rhythms[episode]!.to < end) episode++;
    const rhythm = record.rhythms[episode];
    if (!rhythm || rhythm.from >= end || rhythm.rhythm === NORMAL_RHYTHM) continue;
    const tally = arrhythmias.get(rhythm.rhythm) ?? { seconds: 0, outOfBed: 0 };
    tally.seconds++;
    if (out) tally.outOfBed++;
    arrhythmias.set(rhythm.rhythm, tally);
  }
  return { seconds, outOfBed, arrhythmias };
}
