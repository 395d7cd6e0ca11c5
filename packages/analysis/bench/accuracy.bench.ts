// `npm run bench:accuracy`: how well the analysis reads real, annotated ECG that nobody on this project
// tuned to (the MIT-BIH Arrhythmia records in ../shared/data, see its README).
//  - QRS detection, scored beat by beat as ANSI/AAMI EC57 and WFDB's `bxb` do (150 ms window, from 5:00 to
//    the end): per record TP, FP, FN, Se, PPV and the longest run of consecutive missed beats; gross totals
//    beside published figures on the same kind of data.
//  - The live heart rate: the room-state estimator fed one second at a time as a device would, against the
//    rate of the reference beats in the same 8 s window (median RR): share of seconds within 5 bpm.
//  - Presence on the same live run: seconds shown out of bed (離床) although the subject lies in bed, in all
//    and during each annotated arrhythmia (issue 19's goal: none).
//  - Respiration rate: the estimator fed PhysioNet/CinC 2015 v102s (RESP as impedance, ECG lead V) against
//    an independent breath counter (upward crossings with hysteresis, the simulator's test helper) over
//    the same 30 s window.
//  - Sleep/wake epoch agreement where the hypnogram recordings' signals allow, and on simulated nights, beside
//    Cole–Kripke's and Walch et al.'s published figures (sleepAgreement.ts).
//  - Cost of the detector: one 8 s live window (as the estimator analyses it, 120 Hz) and a whole record.
import { respirationRateFrom } from '@nemuri/simulator/testing';
import { detectQrs } from '../src/heartRate.ts';
import { estimateRespiration } from '../src/respiration.ts';
import { RoomStateEstimator } from '../src/roomState.ts';
import {
  annotatedRecords,
  liveHeartRate,
  liveRun,
  NOT_ON_LEAD,
  presence,
  relativeQrsSize,
  scoreBeats,
  SCORING_FROM_SEC,
  type LiveRun,
} from '../src/testing/ec57.ts';
import { readRecord } from '../src/testing/wfdb.ts';
import { printSleepAgreement } from './sleepAgreement.ts';

const GOAL = { sensitivity: 0.995, positivePredictivity: 0.995, gross: 0.997, missRun: 5, liveWithin5: 0.99 };
const records = annotatedRecords();
const percent = (x: number): string => `${(100 * x).toFixed(2)} %`;
const pad = (value: string | number, width: number): string => String(value).padStart(width);

console.log(`QRS detection, ANSI/AAMI EC57 beat-by-beat (150 ms window, scored from ${SCORING_FROM_SEC / 60}:00 to the end)`);
console.log(
  `${'record'.padEnd(8)}${'lead'.padEnd(6)}${pad('beats', 7)}${pad('TP', 7)}${pad('FP', 5)}${pad('FN', 5)}${pad('Se', 10)}${pad('PPV', 10)}${pad('miss run', 10)}${pad('FN not on lead', 16)}  goal`,
);
let tp = 0;
let fp = 0;
let fn = 0;
let worstRun = 0;
const shortfalls: string[] = [];
let notOnLead = 0;
for (const record of records) {
  const { peaks } = detectQrs(record.ecg, record.sampleRate);
  const score = scoreBeats(record.reference, peaks, record.sampleRate);
  tp += score.truePositives;
  fp += score.falsePositives;
  fn += score.falseNegatives;
  worstRun = Math.max(worstRun, score.longestMissRun);
  // Missed reference beats under 2 % of the record's median QRS on this lead: not there to be found.
  const hidden = Array.from(relativeQrsSize(record, score.missed)).filter((share) => share < NOT_ON_LEAD).length;
  notOnLead += hidden;
  const met = score.sensitivity >= GOAL.sensitivity && score.positivePredictivity >= GOAL.positivePredictivity && score.longestMissRun < GOAL.missRun;
  if (!met) shortfalls.push(record.name);
  console.log(
    `${record.name.padEnd(8)}${record.lead.padEnd(6)}${pad(score.truePositives + score.falseNegatives, 7)}${pad(score.truePositives, 7)}${pad(score.falsePositives, 5)}${pad(score.falseNegatives, 5)}` +
      `${pad(percent(score.sensitivity), 10)}${pad(percent(score.positivePredictivity), 10)}${pad(score.longestMissRun, 10)}${pad(hidden, 16)}  ${met ? 'met' : 'NOT met'}`,
  );
}
const grossSe = tp / (tp + fn);
const grossPpv = tp / (tp + fp);
console.log(
  `${'gross'.padEnd(14)}${pad(tp + fn, 7)}${pad(tp, 7)}${pad(fp, 5)}${pad(fn, 5)}${pad(percent(grossSe), 10)}${pad(percent(grossPpv), 10)}${pad(worstRun, 10)}${pad(notOnLead, 16)}  ${grossSe >= GOAL.gross && grossPpv >= GOAL.gross ? 'met' : 'NOT met'}`,
);
console.log(
  `goal (issue 19): every record Se and PPV ≥ 99.5 %, gross ≥ 99.7 %, no run of ${GOAL.missRun}+ missed beats${shortfalls.length > 0 ? `; short on ${shortfalls.join(', ')}` : ''}`,
);
console.log(
  `FN not on lead: missed beats under ${100 * NOT_ON_LEAD} % of the record's median QRS (5–15 Hz peak to peak within ±50 ms), at the level of the lead's noise: annotated from another lead`,
);
console.log('published, for comparison (their own scoring, the whole database unless said):');
console.log('  Pan & Tompkins, IEEE TBME 32(3):230-236, 1985, all 48 MIT-BIH records (116,137 beats): 99.3 % of QRS complexes detected');
console.log('  WFDB gqrs, on the signals and with the scorer of issue 19: Se 99.7 %, PPV 99.7 % (this detector before issue 19: 97.1 % / 99.8 % there)');
console.log('  Elgendi, PLoS ONE 8(9):e73557, 2013, MIT-BIH: Se 99.78 %, PPV 99.87 %');
// The live estimator averages ECG above 200 Hz down to about 100–125 Hz before detecting (roomState.ts):
// the same scoring at that rate (each reference beat mapped to the averaged sample that holds it).
console.log('\nQRS detection at the live analysis rate (360 Hz averaged by 3 to 120 Hz), same scoring');
console.log(`${'record'.padEnd(8)}${pad('TP', 7)}${pad('FP', 5)}${pad('FN', 5)}${pad('Se', 10)}${pad('PPV', 10)}${pad('miss run', 10)}`);
for (const record of records) {
  const factor = Math.floor(record.sampleRate / 100);
  const rate = record.sampleRate / factor;
  const averaged = new Float32Array(Math.floor(record.ecg.length / factor));
  for (let i = 0; i < averaged.length; i++) {
    let sum = 0;
    for (let k = 0; k < factor; k++) sum += record.ecg[i * factor + k]!;
    averaged[i] = sum / factor;
  }
  const reference = Int32Array.from(record.reference, (beat) => Math.floor(beat / factor));
  const score = scoreBeats(reference, detectQrs(averaged, rate).peaks, rate);
  console.log(
    `${record.name.padEnd(8)}${pad(score.truePositives, 7)}${pad(score.falsePositives, 5)}${pad(score.falseNegatives, 5)}${pad(percent(score.sensitivity), 10)}${pad(percent(score.positivePredictivity), 10)}${pad(score.longestMissRun, 10)}`,
  );
}

// Live heart rate: what a room shows each second.
console.log('\nLive heart rate (RoomStateEstimator, 8 s window, one evaluation a second) against the reference beats in the same window');
console.log(`${'record'.padEnd(8)}${pad('seconds', 9)}${pad('within 5 bpm', 14)}${pad('no rate', 9)}${pad('median |err|', 14)}`);
let liveSeconds = 0;
let liveWithin = 0;
const runs = new Map<string, LiveRun>();
for (const record of records) {
  const run = liveRun(record);
  runs.set(record.name, run);
  const live = liveHeartRate(record, run);
  liveSeconds += live.seconds;
  liveWithin += live.within5;
  console.log(
    `${record.name.padEnd(8)}${pad(live.seconds, 9)}${pad(percent(live.within5 / live.seconds), 14)}${pad(live.noRate, 9)}${pad(`${live.medianError.toFixed(2)} bpm`, 14)}`,
  );
}
console.log(`${'all'.padEnd(8)}${pad(liveSeconds, 9)}${pad(percent(liveWithin / liveSeconds), 14)}   goal ≥ ${percent(GOAL.liveWithin5)}`);

// Presence: every subject lies in bed, so every second out of bed is wrong; during an arrhythmia it hides
// a failing heart.
console.log('\nPresence from the ECG alone (same live run; every subject is in bed throughout): seconds shown as 離床 (outOfBed)');
console.log(`${'record'.padEnd(8)}${pad('seconds', 9)}${pad('outOfBed', 10)}  arrhythmias annotated (seconds, of them outOfBed)`);
let arrhythmiaSeconds = 0;
let arrhythmiaOut = 0;
let recordsWithRhythms = 0;
for (const record of records) {
  const score = presence(record, runs.get(record.name));
  if (record.rhythms.length > 0) recordsWithRhythms++;
  const episodes = [...score.arrhythmias].map(([rhythm, tally]) => {
    arrhythmiaSeconds += tally.seconds;
    arrhythmiaOut += tally.outOfBed;
    return `${rhythm} ${tally.seconds} s, ${tally.outOfBed}`;
  });
  console.log(
    `${record.name.padEnd(8)}${pad(score.seconds, 9)}${pad(score.outOfBed, 10)}  ${record.rhythms.length === 0 ? 'no rhythm annotations' : episodes.length === 0 ? 'none (normal sinus rhythm throughout)' : episodes.join('; ')}`,
  );
}
{
  // No beat annotations, but a subject in bed with a heart at ~103 beats/min and frequent premature beats.
  const record = readRecord('v102s');
  const score = presence({ ecg: record.signals[1]!, sampleRate: record.header.sampleRate, rhythms: [] });
  console.log(`${'v102s'.padEnd(8)}${pad(score.seconds, 9)}${pad(score.outOfBed, 10)}  (PhysioNet/CinC 2015, ECG lead V, no beat or rhythm annotations)`);
}
console.log(
  arrhythmiaSeconds > 0
    ? `outOfBed during arrhythmias: ${arrhythmiaOut} of ${arrhythmiaSeconds} s (${percent(arrhythmiaOut / arrhythmiaSeconds)}), goal 0`
    : `outOfBed during arrhythmias: no arrhythmia episode in the ${recordsWithRhythms} record(s) with rhythm annotations; add one (e.g. MIT-BIH 207 or a CU database record with its .atr) to measure it`,
);

// Respiration rate against an independent breath count.
{
  const record = readRecord('v102s');
  const rate = record.header.sampleRate;
  const ecg = record.signals[1]!;
  const resp = record.signals[3]!;
  const estimator = new RoomStateEstimator();
  const origin = Date.UTC(2026, 0, 1);
  const errors: number[] = [];
  let within2 = 0;
  let shown = 0;
  let seconds = 0;
  for (let second = 0; (second + 1) * rate <= resp.length; second++) {
    estimator.push('ecg', origin + second * 1000, rate, ecg.subarray(second * rate, (second + 1) * rate));
    estimator.push('impe', origin + second * 1000, rate, resp.subarray(second * rate, (second + 1) * rate));
    const state = estimator.evaluate(origin + (second + 1) * 1000);
    if (second + 1 < 30) continue;
    seconds++;
    const reference = respirationRateFrom(resp.subarray((second - 29) * rate, (second + 1) * rate), rate);
    if (state.respirationRate === null) continue;
    shown++;
    const error = Math.abs(state.respirationRate - reference);
    errors.push(error);
    if (error <= 2) within2++;
  }
  errors.sort((a, b) => a - b);
  console.log('\nRespiration rate (RoomStateEstimator, 30 s window) on PhysioNet/CinC 2015 v102s RESP against an independent breath count of the same 30 s');
  console.log(
    `  live, each second: ${seconds} s, a rate shown in ${shown}; within 2 breaths/min of the count in ${percent(within2 / seconds)} of the seconds; median |error| ${errors[errors.length >> 1]?.toFixed(2)} breaths/min`,
  );
  const minutes: string[] = [];
  for (let start = 0; (start + 60) * rate <= resp.length; start += 60) {
    const minute = resp.subarray(start * rate, (start + 60) * rate);
    minutes.push(`${estimateRespiration(minute, rate).rate.toFixed(1)} / ${respirationRateFrom(minute, rate).toFixed(1)}`);
  }
  console.log(`  per minute, estimateRespiration / count: ${minutes.join(', ')} breaths/min`);
  console.log('  (the shared data has no annotated respiration reference; a count over 30 s, 4–8 breaths, is itself coarse)');
}

// Sleep/wake epoch agreement (sleepAgreement.ts).
await printSleepAgreement();

// Cost.
const sample = records[0]!;
const liveRate = sample.sampleRate / 3;
const liveWindow = new Float32Array(8 * liveRate);
for (let i = 0; i < liveWindow.length; i++) liveWindow[i] = (sample.ecg[3 * i]! + sample.ecg[3 * i + 1]! + sample.ecg[3 * i + 2]!) / 3;
const perWindow = timePerCall(() => detectQrs(liveWindow, liveRate));
const perRecord = timePerCall(() => detectQrs(sample.ecg, sample.sampleRate), 2000);
console.log(
  `\nCost: detectQrs on an 8 s live window at ${liveRate} Hz ${perWindow.toFixed(3)} ms; on a whole 30 min record at ${sample.sampleRate} Hz ${perRecord.toFixed(0)} ms`,
);

/** Median ms per call over rounds after a warm-up. */
function timePerCall(run: () => unknown, budgetMs = 1000): number {
  const warmUntil = performance.now() + budgetMs / 4;
  while (performance.now() < warmUntil) run();
  const rounds: number[] = [];
  for (let round = 0; round < 5; round++) {
    let calls = 0;
    const started = performance.now();
    let now = started;
    while (now - started < budgetMs / 5 || calls === 0) {
      run();
      calls++;
      now = performance.now();
    }
    rounds.push((now - started) / calls);
  }
  return rounds.sort((a, b) => a - b)[2]!;
}
