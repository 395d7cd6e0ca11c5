// Sleep/wake epoch agreement for `npm run bench:accuracy` (issue 19): the scorer of sleep.ts against the
// hypnogram recordings of the shared data where their signals allow, and against simulated nights whose
// truth is known, beside the published figures of the methods it follows.
//
// The Sleep-EDF excerpt has 300 s of signals (oro-nasal respiration at 1 Hz among them; no ECG, no
// movement) under an expert hypnogram of stage W; the two whole-night hypnograms (Sleep-EDF SC4001,
// HMC SN001) come without any signal. So the real-recording figure covers five minutes, and the
// whole-night hypnograms only give the agreement that calling every minute asleep would reach — the
// yardstick any agreement figure has to beat.
import { readFileSync } from 'node:fs';
import { loadParser } from '@nemuri/parser/node';
import { DeviceSimulator, stateAt } from '@nemuri/simulator/index';
import { estimateRespiration } from '../src/respiration.ts';
import { RoomStateEstimator } from '../src/roomState.ts';
import { createNightEpochs, EpochRecorder, PRESENCE_IN_BED, RESP_IRREGULAR, SCORED_SLEEP, SCORED_WAKE, scoreSleepWake, UNSCORED } from '../src/sleep.ts';
import { SHARED_DATA_DIR } from '../src/testing/wfdb.ts';

const percent = (x: number): string => `${(100 * x).toFixed(1)} %`;

const PUBLISHED = [
  'Cole, Kripke et al., Sleep 15:461, 1992 (wrist actigraphy vs PSG): 88 % of minutes',
  'Walch et al., Sleep 42:zsz180, 2019 (Apple Watch motion + heart rate + clock, vs PSG): 90 % of epochs; sleep 93 %, wake 59.6 %',
];

/** Sleep-EDF SC4001's first 300 s: respiration per minute, scored, against the hypnogram (stage W throughout). */
async function sleepEdfExcerpt(): Promise<string> {
  const parser = await loadParser();
  const file = parser.decodeEdf(readFileSync(`${SHARED_DATA_DIR}edf/short_psg.edf`));
  const index = file.header.signals.findIndex((signal) => /resp/i.test(signal.label));
  const respiration = file.samples[index];
  if (index < 0 || !respiration) return 'no respiration signal found';
  const rate = file.header.signals[index]!.sampleRate;
  const minutes = Math.floor(respiration.length / rate / 60);
  const epochs = createNightEpochs(0, minutes);
  for (let m = 0; m < minutes; m++) {
    // At 1 Hz the usual 0.1–0.7 Hz breathing band passes the Nyquist frequency: keep it under 0.4 Hz (24/min).
    const estimate = estimateRespiration(respiration.subarray(Math.round(m * 60 * rate), Math.round((m + 1) * 60 * rate)), rate, {
      band: [0.1, Math.min(0.7, 0.4 * rate)],
    });
    epochs.presence[m] = PRESENCE_IN_BED;
    epochs.respirationRate[m] = estimate.rate;
    epochs.respirationVariation[m] = estimate.intervalVariation;
  }
  const verdict = scoreSleepWake(epochs);
  const scored = verdict.filter((v) => v !== UNSCORED).length;
  const wake = verdict.filter((v) => v === SCORED_WAKE).length;
  const rates = Array.from(epochs.respirationRate, (v) => v.toFixed(1)).join(', ');
  const irregular = epochs.respirationVariation.filter((v) => v > RESP_IRREGULAR).length;
  return (
    `${minutes} min of respiration (${rates} breaths/min), hypnogram W: ${scored} scored${scored > 0 ? `, ${wake} wake` : ' (the scorer needs 30 min of a signal to know its night)'}; ` +
    `the regularity rule alone calls ${irregular} of ${minutes} wake`
  );
}

/** Share of 30 s epochs in the hypnogram that are sleep: what "always asleep" would agree on. */
async function alwaysAsleep(name: string): Promise<string> {
  const parser = await loadParser();
  const file = parser.decodeEdf(readFileSync(`${SHARED_DATA_DIR}edf/${name}`));
  let sleep = 0;
  let wake = 0;
  for (const annotation of file.annotations) {
    const text = annotation.texts.join(' ');
    const epochs = Math.round((annotation.duration ?? 30) / 30);
    if (/stage (W)\b|Sleep stage W/.test(text)) wake += epochs;
    else if (/stage (1|2|3|4|R|N1|N2|N3)\b/.test(text)) sleep += epochs;
  }
  return `${name}: ${sleep + wake} scored epochs, ${wake} wake; "always asleep" agrees on ${percent(sleep / (sleep + wake))} of them`;
}

/** A simulated night (scenario truth per minute), with and without the accelerometer. */
function simulatedNight(serial: string, seed: string): { withMovement: number; withoutMovement: number; minutes: number } {
  const origin = Date.UTC(2026, 10, 22, 11);
  const device = new DeviceSimulator({ serial, seed });
  const { timeline } = device;
  const from = timeline.bedTime - 300;
  const to = timeline.getUp + 300;
  const minutes = Math.ceil((to - from) / 60);
  const all = new RoomStateEstimator();
  const noAccelerometer = new RoomStateEstimator();
  const recorders = [new EpochRecorder(origin + from * 1000, minutes), new EpochRecorder(origin + from * 1000, minutes)] as const;
  for (let t = from; t < to; t++) {
    const second = device.generate(origin + t * 1000);
    if (second) {
      const at = second.startTimeMs;
      for (const estimator of [all, noAccelerometer]) {
        estimator.push('ecg', at, 250, second.ecg);
        estimator.push('impe', at, 50, second.impe);
        estimator.push('respiHr', at, 1, second.respiHr, 2);
      }
      all.push('respiAxl', at, 50, second.respiAxl, 3);
    }
    recorders[0].add({ ...all.evaluate(origin + (t + 1) * 1000), at: origin + t * 1000 });
    recorders[1].add({ ...noAccelerometer.evaluate(origin + (t + 1) * 1000), at: origin + t * 1000 });
  }
  const agreement = (recorder: EpochRecorder): number => {
    recorder.finish();
    const verdict = scoreSleepWake(recorder.epochs);
    let agree = 0;
    let scored = 0;
    for (let m = 0; m < minutes; m++) {
      const truth = stateAt(timeline, from + m * 60 + 30);
      if (truth.presence === 'out-of-bed' || truth.offline || verdict[m] === UNSCORED) continue;
      scored++;
      if ((verdict[m] === SCORED_SLEEP) === (truth.presence === 'asleep')) agree++;
    }
    return agree / scored;
  };
  return { withMovement: agreement(recorders[0]), withoutMovement: agreement(recorders[1]), minutes };
}

/** Prints the sleep/wake section of the accuracy benchmark. */
export async function printSleepAgreement(): Promise<void> {
  console.log('\nSleep/wake epoch agreement (sleep.ts: movement, heart rate and its variability, respiration rate and regularity)');
  console.log(`  Sleep-EDF SC4001 excerpt (real): ${await sleepEdfExcerpt()}`);
  for (const name of ['SC4001EC-Hypnogram.edf', 'hmc_sn001_hypnogram.edf']) console.log(`  ${await alwaysAsleep(name)} (no signals: nothing to score)`);
  const night = simulatedNight('NM-ANALYSIS-1', 'analysis-tests');
  console.log(
    `  simulated night (${night.minutes} min, scenario truth): ${percent(night.withMovement)} with the accelerometer, ${percent(night.withoutMovement)} without (heart rate and breathing only)`,
  );
  console.log('  published:');
  for (const line of PUBLISHED) console.log(`    ${line}`);
}
