/**
 * An EDF, EDF+, BDF or BDF+ file imported as sleep days: the signals the analysis can use
 * (@nemuri/shared/importChannels) are replayed like a device's frames, a record at a time, and a hypnogram in its
 * annotations is kept as scored. A large file is decoded a piece at a time: each piece is the header
 * (with its record count set to the piece's) and a run of whole data records, which the WebAssembly
 * parser reads as a file of its own.
 */
import { open } from 'node:fs/promises';
import { EDF_MAX_HEADER, edfLayout, edfPiece, ParseError, type EdfLayout, type Parser } from '@nemuri/parser/node';
import type { EdfAnnotation, EdfFile } from '@nemuri/parser/edf';
import { serialFromEdfRecording, type ReadColumn } from '@nemuri/shared/imports';
import { sleepDayOf, sleepDayRange, zonedDateTime, type SleepDayRule } from '../sleep/sleepDay.ts';
import type { ReplayFrame } from '../sleep/nightReplay.ts';
import { edfTargetOf, type EdfTarget } from '@nemuri/shared/importChannels';
import { ImportError } from './importError.ts';
import { keptDays, RecordingExtent, type ImportedDay, type ImportResult } from './importResult.ts';
import { SignalNights } from './signalNights.ts';
import { recordFromStages, withStages } from './stagedRecord.ts';
import { hypnogramOf, lightsOf, runsWithin, type StageRun } from './stages.ts';

const PIECE_BYTES = 8 * 1024 * 1024;

function decode(parser: Parser, bytes: Uint8Array, firstRecord: number): EdfFile {
  try {
    return parser.decodeEdf(bytes);
  } catch (error) {
    if (error instanceof ParseError)
      throw new ImportError('corrupt', `${error.message}${error.record === undefined ? '' : ` (data record ${firstRecord + error.record + 1})`}`);
    throw error;
  }
}

export async function importEdf(
  parser: Parser,
  path: string,
  rule: SleepDayRule,
  source: string,
  onProgress: (bytesRead: number) => void = () => undefined,
): Promise<ImportResult> {
  const file = await open(path, 'r');
  const nights = new SignalNights(rule);
  const extent = new RecordingExtent();
  const annotations: EdfAnnotation[] = [];
  let fileStartMs = Number.NaN;
  let serial: string | null = null;
  let signals: EdfFile['header']['signals'] = [];
  let signalSamples: number[] = [];
  let targets: (EdfTarget | null)[] = [];
  try {
    const size = (await file.stat()).size;
    const head = new Uint8Array(Math.min(size, EDF_MAX_HEADER));
    await file.read(head, 0, head.length, 0);
    let layout: EdfLayout;
    try {
      layout = edfLayout(head, size);
    } catch (error) {
      if (error instanceof ParseError) throw new ImportError('corrupt', error.message);
      throw error;
    }
    const perPiece = layout.recordSize > 0 ? Math.max(1, Math.floor(PIECE_BYTES / layout.recordSize)) : 1;
    const records = new Uint8Array(Math.min(perPiece, Math.max(layout.recordCount, 1)) * layout.recordSize);
    // An annotation-only file (record duration 0) is one piece however it is laid out.
    for (let first = 0; first < Math.max(layout.recordCount, 1); first += perPiece) {
      const count = Math.max(0, Math.min(perPiece, layout.recordCount - first));
      if (count > 0) await file.read(records, 0, count * layout.recordSize, layout.headerBytes + first * layout.recordSize);
      const piece = edfPiece(head, layout, records, count);
      const edf = decode(parser, piece, first);
      if (first === 0) {
        fileStartMs = zonedDateTime(edf.header.startDateTime, rule.timeZone);
        if (Number.isNaN(fileStartMs))
          throw new ImportError('no-time', `The header's start date and time (${edf.header.startDate} ${edf.header.startTime}) is not a date`);
        serial = serialFromEdfRecording(edf.header.recording);
        targets = edf.header.signals.map(edfTargetOf);
        signals = edf.header.signals;
        signalSamples = signals.map(() => 0);
      }
      edf.header.signals.forEach((signal, s) => (signalSamples[s] = (signalSamples[s] ?? 0) + signal.samplesPerRecord * count));
      annotations.push(...edf.annotations);
      // Plain EDF counts record times from the piece's start; EDF+ keeps time in its annotations.
      const timeKept = edf.header.variant !== 'plain' && edf.header.signals.some((signal) => signal.isAnnotation);
      const offsetSec = timeKept ? 0 : first * edf.header.recordDuration;
      const frames = framesOf(edf, targets, fileStartMs, offsetSec, extent);
      // Records come in time order: everything that starts before the piece's last record is complete.
      nights.add(
        frames,
        frames.reduce((latest, frame) => Math.max(latest, frame.startTimeUs / 1000), Number.NEGATIVE_INFINITY),
      );
      onProgress(layout.headerBytes + (first + count) * layout.recordSize);
      if (layout.recordCount === 0) break;
    }
  } finally {
    await file.close();
  }

  const stages = hypnogramOf(annotations, fileStartMs);
  const lights = lightsOf(annotations, fileStartMs);
  const scored = keptDays(nights.finish(source));
  const days = new Map<string, ImportedDay>(scored.map((day) => [day.day, day]));
  for (const day of stagedDays(stages, rule)) {
    const { startMs, endMs } = sleepDayRange(day, rule);
    const runs = runsWithin(stages, startMs, endMs);
    const signalDay = days.get(day);
    if (signalDay?.record) days.set(day, { day, record: withStages(signalDay.record, runs, source), stages: runs });
    else days.set(day, { day, record: recordFromStages(runs, startMs, endMs, source, lights), stages: runs, stagesOnly: true });
  }
  if (days.size === 0) {
    throw new ImportError(
      'no-usable-signal',
      extent.empty
        ? 'The file has no signal the sleep analysis can use (ECG, respiration, acceleration) and no sleep stages'
        : 'The signals show no time in bed',
    );
  }
  for (const run of stages) extent.add('hypnogram', run.startMs, run.startMs + run.durationSec * 1000, 0);
  const stageEpochs = stages.reduce((sum, run) => sum + Math.round(run.durationSec / 30), 0);
  const columns = signals.map((signal, s): ReadColumn => {
    const unit = signal.physicalDimension.trim() || null;
    if (signal.isAnnotation)
      return {
        name: signal.label.trim(),
        as: stages.length > 0 ? 'hypnogram' : null,
        unit,
        status: stages.length > 0 ? 'read' : 'skipped',
        reason: stages.length > 0 ? null : 'unused',
        values: stages.length > 0 ? stageEpochs : annotations.length,
      };
    const target = targets[s] ?? null;
    return {
      name: signal.label.trim(),
      as: target?.channel ?? null,
      unit,
      status: target === null ? 'skipped' : 'read',
      reason: target === null ? 'unused' : null,
      values: signalSamples[s] ?? 0,
    };
  });
  return {
    recordStartMs: Number.isFinite(extent.startMs) ? extent.startMs : fileStartMs,
    recordEndMs: Number.isFinite(extent.endMs) ? extent.endMs : fileStartMs,
    channels: [...extent.channels].sort(),
    columns,
    sampleCount: extent.samples,
    deviceSerial: serial,
    days: [...days.values()].sort((a, b) => a.day.localeCompare(b.day)),
  };
}

/** The sleep days the stages touch. */
function stagedDays(stages: readonly StageRun[], rule: SleepDayRule): string[] {
  const days = new Set<string>();
  for (const run of stages) {
    const endMs = run.startMs + run.durationSec * 1000;
    for (let at = run.startMs; at < endMs; at = sleepDayRange(sleepDayOf(at, rule), rule).endMs) days.add(sleepDayOf(at, rule));
  }
  return [...days].sort();
}

/** The piece's usable signals cut into a frame per data record (the accelerometer's three axes joined). */
function framesOf(edf: EdfFile, targets: readonly (EdfTarget | null)[], fileStartMs: number, offsetSec: number, extent: RecordingExtent): ReplayFrame[] {
  const frames: ReplayFrame[] = [];
  const records = edf.header.recordCount;
  const axes: (number | undefined)[] = [undefined, undefined, undefined];
  targets.forEach((target, s) => {
    if (target?.channel === 'respiAxl') axes[target.axis] = s;
  });
  const axl =
    axes.every((s) => s !== undefined) && new Set(axes.map((s) => edf.header.signals[s as number]?.sampleRate)).size === 1 ? (axes as number[]) : null;
  for (let r = 0; r < records; r++) {
    const startMs = fileStartMs + ((edf.recordStartTimes[r] ?? r * edf.header.recordDuration) + offsetSec) * 1000;
    targets.forEach((target, s) => {
      const samples = edf.samples[s];
      if (target === null || target.channel === 'respiAxl' || !samples) return;
      const signal = edf.header.signals[s]!;
      const per = signal.samplesPerRecord;
      const values = samples.slice(r * per, (r + 1) * per);
      if (target.factor !== 1) for (let i = 0; i < values.length; i++) values[i] = values[i]! * target.factor;
      frames.push({ channel: target.channel, startTimeUs: startMs * 1000, sampleRate: signal.sampleRate, sampleCount: per, values, width: 1 });
      extent.add(target.channel, startMs, startMs + (per * 1000) / signal.sampleRate, per);
    });
    if (axl !== null) {
      const signal = edf.header.signals[axl[0]!]!;
      const per = signal.samplesPerRecord;
      const values = new Float32Array(per * 3);
      axl.forEach((s, axis) => {
        const factor = (targets[s] as EdfTarget).factor;
        const samples = edf.samples[s] as Float32Array;
        for (let i = 0; i < per; i++) values[i * 3 + axis] = samples[r * per + i]! * factor;
      });
      frames.push({ channel: 'respiAxl', startTimeUs: startMs * 1000, sampleRate: signal.sampleRate, sampleCount: per, values, width: 3 });
      extent.add('respiAxl', startMs, startMs + (per * 1000) / signal.sampleRate, per);
    }
  }
  return frames;
}
