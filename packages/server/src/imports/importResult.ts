import type { SleepRecord } from '@nemuri/analysis/sleep';
import type { StageRun } from './stages.ts';

/** What the file holds and the sleep days made from it (worker → main thread). */
export interface ImportResult {
  recordStartMs: number | null;
  recordEndMs: number | null;
  channels: string[];
  /** Sample points read, over every channel. */
  sampleCount: number;
  deviceSerial: string | null;
  days: ImportedDay[];
}

export interface ImportedDay {
  day: string;
  /** Scored from the file's signals or rows; null when the file gives stages only. */
  record: SleepRecord | null;
  /** The stages a person scored (EDF+ hypnogram) within the day; empty without. */
  stages: StageRun[];
  /** The record comes from the stages alone: a record already scored from signals is re-scored with them instead. */
  stagesOnly?: boolean;
}

/** Keeps the first and last instant and the channels of what was read. */
export class RecordingExtent {
  startMs = Number.POSITIVE_INFINITY;
  endMs = Number.NEGATIVE_INFINITY;
  samples = 0;
  readonly channels = new Set<string>();

  add(channel: string, startMs: number, endMs: number, samples: number): void {
    if (startMs < this.startMs) this.startMs = startMs;
    if (endMs > this.endMs) this.endMs = endMs;
    this.samples += samples;
    this.channels.add(channel);
  }

  get empty(): boolean {
    return this.samples === 0;
  }

  summary(): ExtentSummary {
    return { startMs: this.startMs, endMs: this.endMs, channels: [...this.channels].sort(), samples: this.samples };
  }
}

/** What a (part of a) recording held, as plain data a worker can send. */
export interface ExtentSummary {
  startMs: number;
  endMs: number;
  channels: string[];
  samples: number;
}

/** Two parts' extents as one. */
export function joinExtents(a: ExtentSummary, b: ExtentSummary): ExtentSummary {
  return { startMs: Math.min(a.startMs, b.startMs), endMs: Math.max(a.endMs, b.endMs), channels: [...new Set([...a.channels, ...b.channels])].sort(), samples: a.samples + b.samples };
}

/** The days worth keeping: some time in bed, or stages. */
export function keptDays(records: Map<string, SleepRecord>): ImportedDay[] {
  return [...records].filter(([, record]) => record.timeInBedMin > 0).map(([day, record]) => ({ day, record, stages: [] }));
}
