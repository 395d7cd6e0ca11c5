/**
 * Sleep records with stages a person scored: from the stages alone (a hypnogram file), or a record
 * scored from signals re-scored with the stages where they exist. Either way the metrics come from the
 * same sleep-day analysis (`@nemuri/analysis/sleep`), so a staged night reads like any other.
 */
import {
  analyzeSleepDay,
  createNightEpochs,
  EPOCH_MS,
  PRESENCE_IN_BED,
  PRESENCE_OUT_OF_BED,
  PRESENCE_UNKNOWN,
  type NightEpochs,
  type SleepRecord,
} from '@nemuri/analysis/sleep';
import { minuteStates, type StageRun } from './stages.ts';

/** The record's per-minute columns again (what the analysis scored them from, as far as a record keeps it). */
export function nightEpochsOf(record: Pick<SleepRecord, 'epochStart' | 'epochs'>): NightEpochs {
  const epochs = createNightEpochs(Date.parse(record.epochStart), record.epochs.length);
  record.epochs.forEach((epoch, i) => {
    epochs.presence[i] = epoch.state === 'outOfBed' ? PRESENCE_OUT_OF_BED : epoch.state === 'unknown' ? PRESENCE_UNKNOWN : PRESENCE_IN_BED;
    epochs.activity[i] = epoch.activity ?? Number.NaN;
    epochs.respirationRate[i] = epoch.respirationRate ?? Number.NaN;
    epochs.heartRate[i] = epoch.heartRate ?? Number.NaN;
    epochs.apneaEvents[i] = epoch.pauses ?? 0;
  });
  return epochs;
}

/** A record of the sleep day [startMs, endMs) from stages only: in bed where scored (or between lights off and on). */
export function recordFromStages(
  runs: readonly StageRun[],
  startMs: number,
  endMs: number,
  source: string,
  lights: { offMs: number | null; onMs: number | null } = { offMs: null, onMs: null },
): SleepRecord {
  const minutes = Math.round((endMs - startMs) / EPOCH_MS);
  const states = minuteStates(runs, startMs, minutes);
  const epochs = createNightEpochs(startMs, minutes);
  for (let i = 0; i < minutes; i++) {
    const at = startMs + i * EPOCH_MS;
    const outside = (lights.offMs !== null && at + EPOCH_MS <= lights.offMs) || (lights.onMs !== null && at >= lights.onMs);
    epochs.presence[i] = states[i] === null ? PRESENCE_UNKNOWN : outside ? PRESENCE_OUT_OF_BED : PRESENCE_IN_BED;
  }
  return analyzeSleepDay(epochs, source, states);
}

/** A record scored from signals, re-scored with the stages wherever a stage was scored. */
export function withStages(record: SleepRecord, runs: readonly StageRun[], source: string): SleepRecord {
  const epochs = nightEpochsOf(record);
  return analyzeSleepDay(epochs, source, minuteStates(runs, epochs.startMs, epochs.presence.length));
}

/** The `hypnogram` field of a sleep record. */
export function hypnogramField(runs: readonly StageRun[]): { start: string; durationSec: number; stage: StageRun['stage'] }[] {
  return runs.map((run) => ({ start: new Date(run.startMs).toISOString(), durationSec: run.durationSec, stage: run.stage }));
}
