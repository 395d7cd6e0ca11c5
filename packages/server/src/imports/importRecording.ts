import type { Parser } from '@nemuri/parser/node';
import type { ImportFormat, UnknownColumnChoice } from '@nemuri/shared/imports';
import type { SleepDayRule } from '../sleep/sleepDay.ts';
import { importCsv } from './csvImport.ts';
import { importEdf } from './edfImport.ts';
import type { ImportResult } from './importResult.ts';
import type { RecordingChunk } from './recordingChunks.ts';
import { importSmf, replaySmf, type SmfPart, type SmfReplay } from './smfImport.ts';

export interface ImportJob {
  path: string;
  format: ImportFormat;
  rule: SleepDayRule;
  /** What the sleep records name as their source: the upload id. */
  source: string;
  /** Columns the import cannot read: stop (default), or import the file without them. */
  unknownColumns?: UnknownColumnChoice;
  /** Hand over an SMF recording's frames for storage (the room has a device to keep them under). */
  storeSignals?: boolean;
  /** Replay only this part of an SMF recording and answer its epochs (smfParallel.ts). */
  part?: SmfPart;
}

export interface ImportSink {
  progress?: (bytesRead: number) => void;
  chunk?: (chunk: RecordingChunk) => void;
}

/** Reads a stored upload into sleep days (in the import worker; tests call it directly). */
export function importRecording(parser: Parser, job: ImportJob, sink: ImportSink = {}): Promise<ImportResult> {
  switch (job.format) {
    case 'smf':
      return importSmf(parser, job.path, job.rule, job.source, sink.progress, job.storeSignals === true ? sink.chunk : undefined);
    case 'edf':
    case 'bdf':
      return importEdf(parser, job.path, job.rule, job.source, sink.progress);
    case 'csv':
      return importCsv(job.path, job.rule, job.source, job.unknownColumns ?? 'refuse');
  }
}

/** One part of an SMF recording replayed (in an import worker, for smfParallel.ts). */
export function replayPart(parser: Parser, job: ImportJob & { part: SmfPart }, sink: ImportSink = {}): Promise<SmfReplay> {
  return replaySmf(parser, job.path, job.rule, job.part, sink.progress, job.storeSignals === true ? sink.chunk : undefined);
}
