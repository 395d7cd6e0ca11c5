// Accuracy floors of the QRS detector on every annotated MIT-BIH record in the shared data, scored as
// ANSI/AAMI EC57 (150 ms window, from 5:00 to the end; see testing/ec57.ts and `npm run bench:accuracy`).
// The floors sit just under what the detector measures now, so a change that loses beats fails here.
// Issue 19's goal is higher (every record Se and PPV ≥ 99.5 %, gross ≥ 99.7 %, no run of 5 missed beats);
// a record without its own floor must meet that goal.
import { describe, expect, it } from 'vitest';
import { detectQrs } from './heartRate.ts';
import { annotatedRecords, liveHeartRate, NOT_ON_LEAD, relativeQrsSize, scoreBeats } from './testing/ec57.ts';

interface Floor {
  sensitivity: number;
  positivePredictivity: number;
  /** Longest run of consecutive missed beats allowed. */
  missRun: number;
}

const GOAL: Floor = { sensitivity: 0.995, positivePredictivity: 0.995, missRun: 4 };

/** Measured (Se / PPV / longest miss run) in the comments. */
const FLOORS: Record<string, Floor> = {
  // 1,902 / 1,902, 0 FP.
  '100': { sensitivity: 0.999, positivePredictivity: 0.999, missRun: 0 },
  // 100 % / 100 %, 0: paced rhythm on V5, QRS shrinking tenfold within a few beats at 7:11 and 8:04.
  '104': { sensitivity: 0.999, positivePredictivity: 0.999, missRun: 0 },
  // 99.86 % / 99.58 % (9 FP, 3 FN), 1: electrode-motion artefact as large as the QRS in the 5–15 Hz band;
  // 4 of the 9 false beats stand one RR from both neighbours in gaps the annotators left without beats.
  '105': { sensitivity: 0.998, positivePredictivity: 0.995, missRun: 1 },
  // 99.73 % / 99.93 %, 1: large P waves, baseline shifts, QRS hardly above the P waves at 27:55–29:05.
  '108': { sensitivity: 0.997, positivePredictivity: 0.999, missRun: 1 },
  // 99.36 % / 100 % (13 FN), 7: MLII saturates at 16:41, 22:34 and 23:11 and carries no QRS at all for
  // 1–5 s (the beats there are annotated from lead V1, which these files do not hold): all 13 missed beats
  // are there, each under the noise of the lead (0.05 mV peak to peak against a 3.7 mV QRS, or on the ADC
  // rail); the run of 7 is 22:35.15–22:39.59, the whole saturation. Issue 19's goal (Se 99.5 %, no run of
  // 5) needs the second lead there.
  '116': { sensitivity: 0.993, positivePredictivity: 0.999, missRun: 7 },
};

const records = annotatedRecords();

describe('QRS detection on the annotated MIT-BIH records (ANSI/AAMI EC57)', () => {
  it('finds the annotated records', () => {
    expect(records.map((record) => record.name)).toEqual(expect.arrayContaining(Object.keys(FLOORS)));
  });

  const totals = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };
  it.each(records.map((record) => [record.name, record] as const))(
    'record %s holds its sensitivity, positive predictivity and missed-beat floors',
    (name, record) => {
      const floor = FLOORS[name] ?? GOAL;
      const score = scoreBeats(record.reference, detectQrs(record.ecg, record.sampleRate).peaks, record.sampleRate);
      totals.truePositives += score.truePositives;
      totals.falsePositives += score.falsePositives;
      totals.falseNegatives += score.falseNegatives;
      expect(score.sensitivity).toBeGreaterThanOrEqual(floor.sensitivity);
      expect(score.positivePredictivity).toBeGreaterThanOrEqual(floor.positivePredictivity);
      expect(score.longestMissRun).toBeLessThanOrEqual(floor.missRun);
    },
  );

  // The floor of 116 is below the goal, so the test says why: every beat it misses is one that MLII does
  // not show. Measured: the 13 missed beats stand 0.2–1.3 % of the record's median QRS (band-passed, peak to
  // peak within ±50 ms), the level of the lead's noise; every beat of 2.2 % or more is found.
  it('misses on record 116 only beats that its lead does not show (under 2 % of the median QRS)', () => {
    const record = records.find((candidate) => candidate.name === '116')!;
    const score = scoreBeats(record.reference, detectQrs(record.ecg, record.sampleRate).peaks, record.sampleRate);
    expect(score.falseNegatives).toBeGreaterThan(0);
    expect(Array.from(relativeQrsSize(record, score.missed)).every((share) => share < NOT_ON_LEAD)).toBe(true);
  });

  it('holds the gross floors over all records (measured 99.79 % / 99.89 %: the goal of issue 19 is 99.7 %)', () => {
    const { truePositives, falsePositives, falseNegatives } = totals;
    expect(truePositives + falseNegatives).toBeGreaterThan(9000);
    expect(truePositives / (truePositives + falseNegatives)).toBeGreaterThanOrEqual(0.9975);
    expect(truePositives / (truePositives + falsePositives)).toBeGreaterThanOrEqual(0.9985);
  });

  // Five records × 30 min of live evaluation, one estimator second at a time: more than vitest's default
  // 5 s on a loaded machine; the generous timeout is no speed check (the bench measures cost).
  it('shows a live heart rate within 5 beats/min of the reference in ≥ 99 % of seconds (measured 99.63 %)', () => {
    let seconds = 0;
    let within = 0;
    for (const record of records) {
      const live = liveHeartRate(record);
      seconds += live.seconds;
      within += live.within5;
    }
    expect(within / seconds).toBeGreaterThanOrEqual(0.995);
  }, 120_000);
});
