import type { SleepRecord } from '@nemuri/analysis/sleep';
import type { ReadColumn } from '@nemuri/shared/imports';
import type { StageRun } from './stages.ts';

/** What the file holds and the sleep days made from it (worker → main thread). */
export interface ImportResult {
  recordStartMs: number | null;
  recordEndMs: number | null;
  channels: string[];
  /** What was read, column by column (a CSV heading, an EDF signal, an SMF channel). */
  columns: ReadColumn[];
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

/** Keeps the first and last instant, and the samples of each channel read or skipped. */
export class RecordingExtent {
  startMs = Number.POSITIVE_INFINITY;
  endMs = Number.NEGATIVE_INFINITY;
  samples = 0;
  readonly channels = new Set<string>();
  readonly samplesOf = new Map<string, number>();
  readonly skippedOf = new Map<string, number>();

  add(channel: string, startMs: number, endMs: number, samples: number): void {
    if (startMs < this.startMs) this.startMs = startMs;
    if (endMs > this.endMs) this.endMs = endMs;
    this.samples += samples;
    this.channels.add(channel);
    this.samplesOf.set(channel, (this.samplesOf.get(channel) ?? 0) + samples);
  }

  /** A channel present in the file that the analysis does not use. */
  skip(channel: string, samples: number): void {
    this.skippedOf.set(channel, (this.skippedOf.get(channel) ?? 0) + samples);
  }

  get empty(): boolean {
    return this.samples === 0;
  }

  summary(): ExtentSummary {
    return {
      startMs: this.startMs,
      endMs: this.endMs,
      channels: [...this.channels].sort(),
      samples: this.samples,
      samplesOf: Object.fromEntries(this.samplesOf),
      skippedOf: Object.fromEntries(this.skippedOf),
    };
  }
}

/** What a (part of a) recording held, as plain data a worker can send. */
export interface ExtentSummary {
  startMs: number;
  endMs: number;
  channels: string[];
  samples: number;
  samplesOf: Record<string, number>;
  skippedOf: Record<string, number>;
}

const added = (a: Record<string, number>, b: Record<string, number>): Record<string, number> => {
  const sum = { ...a };
  for (const [key, value] of Object.entries(b)) sum[key] = (sum[key] ?? 0) + value;
  return sum;
};

/** Two parts' extents as one. */
export function joinExtents(a: ExtentSummary, b: ExtentSummary): ExtentSummary {
  return {
    startMs: Math.min(a.startMs, b.startMs),
    endMs: Math.max(a.endMs, b.endMs),
    channels: [...new Set([...a.channels, ...b.channels])].sort(),
    samples: a.samples + b.samples,
    samplesOf: added(a.samplesOf, b.samplesOf),
    skippedOf: added(a.skippedOf, b.skippedOf),
  };
}

/** An SMF recording's channels as read columns: each channel read with its samples, skipped ones with theirs. */
export function channelColumns(extent: ExtentSummary): ReadColumn[] {
  const read: ReadColumn[] = Object.entries(extent.samplesOf).map(([channel, values]) => ({
    name: channel,
    as: channel,
    status: 'read',
    reason: null,
    values,
  }));
  const skipped: ReadColumn[] = Object.entries(extent.skippedOf).map(([channel, values]) => ({
    name: channel,
    as: null,
    status: 'skipped',
    reason: 'unused',
    values,
  }));
  return [...read, ...skipped].sort((a, b) => a.name.localeCompare(b.name));
}

/** The days with any data (a minute known in or out of bed); which of them make a sleep day is nightRule.ts's call. */
export function keptDays(records: Map<string, SleepRecord>): ImportedDay[] {
  return [...records].filter(([, record]) => record.epochs.some((epoch) => epoch.state !== 'unknown')).map(([day, record]) => ({ day, record, stages: [] }));
}
