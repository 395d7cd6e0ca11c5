/**
 * Sleep stages scored by a person, as EDF+ files carry them (a hypnogram: annotations such as
 * `Sleep stage 2` or `Sleep stage N2` with an onset and a duration), kept exactly as scored: the sleep
 * record's `hypnogram` holds the runs, split only where a sleep day ends.
 */
import type { EdfAnnotation } from '@nemuri/parser/edf';
import type { EpochState, ScoredStates } from '@nemuri/analysis/sleep';

export const STAGES = ['W', 'N1', 'N2', 'N3', 'N4', 'R', 'M', '?'] as const;
export type Stage = (typeof STAGES)[number];

/** One run of a stage (instants in ms since the epoch). */
export interface StageRun {
  startMs: number;
  durationSec: number;
  stage: Stage;
}

/** What a minute of each stage is in the sleep record (R&K stages 3 and 4 are both deep sleep, AASM N3). */
export const STATE_OF_STAGE: Readonly<Record<Stage, EpochState>> = {
  W: 'awake',
  N1: 'light',
  N2: 'light',
  N3: 'deep',
  N4: 'deep',
  R: 'rem',
  M: 'awake',
  '?': 'unknown',
};

const STAGE_TEXT = /^sleep[ _]stage[ _]?(w|n?[1-4]|r|rem|\?)$/i;

/** The stage an annotation text names (Rechtschaffen & Kales or AASM labels), or null. */
export function stageOfText(text: string): Stage | null {
  const trimmed = text.trim();
  if (/^movement[ _]time$/i.test(trimmed)) return 'M';
  const match = STAGE_TEXT.exec(trimmed);
  if (match === null) return null;
  const label = (match[1] as string).toUpperCase();
  if (label === 'W') return 'W';
  if (label === 'R' || label === 'REM') return 'R';
  if (label === '?') return '?';
  return `N${label.replace('N', '')}` as Stage;
}

/** The stage runs of a file's annotations, in time order, adjacent runs of one stage merged. */
export function hypnogramOf(annotations: readonly EdfAnnotation[], fileStartMs: number): StageRun[] {
  const runs: StageRun[] = [];
  const found: { onset: number; duration: number; stage: Stage }[] = [];
  for (const annotation of annotations) {
    if (annotation.duration === null || !(annotation.duration > 0)) continue;
    for (const text of annotation.texts) {
      const stage = stageOfText(text);
      if (stage !== null) found.push({ onset: annotation.onset, duration: annotation.duration, stage });
    }
  }
  found.sort((a, b) => a.onset - b.onset);
  for (const { onset, duration, stage } of found) {
    const startMs = fileStartMs + Math.round(onset * 1000);
    const last = runs[runs.length - 1];
    if (last !== undefined && last.stage === stage && last.startMs + Math.round(last.durationSec * 1000) === startMs)
      last.durationSec = roundSec(last.durationSec + duration);
    else runs.push({ startMs, durationSec: duration, stage });
  }
  return runs;
}

const roundSec = (seconds: number): number => Math.round(seconds * 1000) / 1000;

/** `Lights off` / `Lights on` marks (e.g. `Lights off@@EEG F4-A1`): when the person went to bed and got up. */
export function lightsOf(annotations: readonly EdfAnnotation[], fileStartMs: number): { offMs: number | null; onMs: number | null } {
  let offMs: number | null = null;
  let onMs: number | null = null;
  for (const annotation of annotations) {
    for (const text of annotation.texts) {
      const at = fileStartMs + Math.round(annotation.onset * 1000);
      if (/^lights[ _]off/i.test(text.trim()) && offMs === null) offMs = at;
      if (/^lights[ _]on/i.test(text.trim())) onMs = at;
    }
  }
  return { offMs, onMs };
}

/** The part of the runs inside [fromMs, toMs), runs crossing an edge cut at it. */
export function runsWithin(runs: readonly StageRun[], fromMs: number, toMs: number): StageRun[] {
  const inside: StageRun[] = [];
  for (const run of runs) {
    const endMs = run.startMs + run.durationSec * 1000;
    const start = Math.max(run.startMs, fromMs);
    const end = Math.min(endMs, toMs);
    if (end > start) inside.push({ startMs: start, durationSec: roundSec((end - start) / 1000), stage: run.stage });
  }
  return inside;
}

/**
 * The stage of each minute from `startMs`: the stage covering most of the minute (the later on a tie,
 * so a minute that ends asleep counts as asleep), null where no stage was scored.
 */
export function minuteStates(runs: readonly StageRun[], startMs: number, minutes: number): (EpochState | null)[] {
  const cover = new Map<number, Map<Stage, number>>();
  for (const run of runs) {
    const endMs = run.startMs + run.durationSec * 1000;
    for (let minute = Math.max(0, Math.floor((run.startMs - startMs) / 60_000)); minute < minutes; minute++) {
      const from = Math.max(run.startMs, startMs + minute * 60_000);
      const to = Math.min(endMs, startMs + (minute + 1) * 60_000);
      if (to <= from) break;
      const stages = cover.get(minute) ?? new Map<Stage, number>();
      // Later runs are added after earlier ones: >= keeps the later on a tie.
      stages.set(run.stage, (stages.get(run.stage) ?? 0) + (to - from));
      cover.set(minute, stages);
    }
  }
  const states: (EpochState | null)[] = new Array<EpochState | null>(minutes).fill(null);
  for (const [minute, stages] of cover) {
    let best: Stage | null = null;
    let most = 0;
    for (const [stage, ms] of stages) {
      if (ms >= most) {
        best = stage;
        most = ms;
      }
    }
    if (best !== null && best !== '?') states[minute] = STATE_OF_STAGE[best];
  }
  return states;
}

export type { ScoredStates };
