// Beat-by-beat scoring of a QRS detector as ANSI/AAMI EC57:2012 prescribes and WFDB's `bxb` implements
// (https://physionet.org/physiotools/wag/bxb-1.htm): a detection matches a reference beat within 150 ms,
// each at most once; scoring starts 5 minutes into the record (the detector's learning period is not
// scored) and runs to the end. Reference beats are the annotations bxb counts as beats (WFDB's isqrs
// table: N L R a V F J A S E j / Q B e n f r ?), so rhythm, noise and comment annotations never count.
// Test and benchmark only: it reads the annotated MIT-BIH records in /work/shared/data.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { heartRateFromPeaks } from '../heartRate.ts';
import { RoomStateEstimator } from '../roomState.ts';
import { isBeat, readAnnotations, readRecord, SHARED_DATA_DIR } from './wfdb.ts';

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
      if (existsSync(`${directory}${name}.atr`)) {
        const annotations = readAnnotations(name, 'atr', directory);
        reference = annotations.samples.filter((_, i) => isBeat(annotations.codes[i]!));
      } else if (existsSync(`${directory}${name}.beats`)) {
        reference = Int32Array.from(
          readFileSync(`${directory}${name}.beats`, 'utf8')
            .split(/\s+/)
            .filter((line) => line !== '')
            .map(Number),
        );
      } else continue;
      const record = readRecord(name, directory);
      records.push({ name, lead: record.header.signals[0]!.description, ecg: record.signals[0]!, sampleRate: record.header.sampleRate, reference });
    }
  };
  visit(root);
  return records.sort((a, b) => a.name.localeCompare(b.name));
}

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
export function scoreBeats(reference: ArrayLike<number>, detected: ArrayLike<number>, sampleRate: number, fromSec = SCORING_FROM_SEC, windowSec = MATCH_WINDOW_SEC): BeatScore {
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
export function liveHeartRate(record: AnnotatedRecord): LiveHeartRateScore {
  const rate = record.sampleRate;
  const estimator = new RoomStateEstimator();
  const origin = Date.UTC(2026, 0, 1);
  const window = 8 * rate;
  const errors: number[] = [];
  let seconds = 0;
  let within5 = 0;
  let noRate = 0;
  let first = 0;
  for (let second = 0; (second + 1) * rate <= record.ecg.length; second++) {
    estimator.push('ecg', origin + second * 1000, rate, record.ecg.subarray(second * rate, (second + 1) * rate));
    const state = estimator.evaluate(origin + (second + 1) * 1000);
    const end = (second + 1) * rate;
    if (end < window) continue;
    while (first < record.reference.length && record.reference[first]! < end - window) first++;
    let last = first;
    while (last < record.reference.length && record.reference[last]! < end) last++;
    const reference = heartRateFromPeaks(record.reference.subarray(first, last), rate);
    if (!Number.isFinite(reference)) continue;
    seconds++;
    if (state.heartRate === null) {
      noRate++;
      continue;
    }
    const error = Math.abs(state.heartRate - reference);
    errors.push(error);
    if (error <= 5) within5++;
  }
  errors.sort((a, b) => a - b);
  return { seconds, within5, noRate, medianError: errors.length > 0 ? errors[errors.length >> 1]! : Number.NaN };
}
