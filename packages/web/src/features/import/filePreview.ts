/**
 * A chosen file opened in the browser before it is uploaded: its format from its first bytes, then
 * what it holds as the WebAssembly parser reads it (start, duration, device serial) and what each of
 * its columns — CSV headings, EDF signals, SMF channels — will be read as, judged by the same shared
 * rules as the server's import (importCsv.ts, importChannels.ts). Large files are read a piece at a
 * time, never whole. A file the parser refuses is not uploaded; a CSV column that cannot be read holds
 * the file back until the user chooses to import without it.
 */
import type { EdfFile } from '@nemuri/parser/edf';
import { ParseError } from '@nemuri/parser/errors';
import type { Parser } from '@nemuri/parser/parser';
import { completeSmfLength, EDF_MAX_HEADER, edfLayout, edfPiece } from '@nemuri/parser/pieces';
import { edfTargetOf, SMF_UNUSED_CHANNELS } from '@nemuri/shared/importChannels';
import { CsvSyntaxError, csvReadColumns, decodeCsvText, parseCsv, readHeadings, valueCounts } from '@nemuri/shared/importCsv';
import {
  detectImportFormat,
  IMPORT_MAX_BYTES,
  IMPORT_SNIFF_BYTES,
  READ_COLUMNS_MAX,
  serialFromEdfRecording,
  serialFromFileName,
  type ImportFormat,
  type ReadColumn,
} from '@nemuri/shared/imports';

export interface FilePreview {
  format: ImportFormat;
  /** What each column (CSV heading, EDF signal, SMF channel) is read as, or why it is not. */
  columns: ReadColumn[];
  /** The first instant (SMF) or the start as the file writes it (EDF, CSV: local time without a zone). */
  start: { instantMs: number } | { localText: string } | null;
  durationSec: number | null;
  deviceSerial: string | null;
  /** Sleep stages scored by a person (EDF+ hypnogram): how many 30-s epochs. */
  stageEpochs: number;
  /** Frames (SMF), data records (EDF) or rows (CSV). */
  units: number;
}

export type PreviewFailure = 'unsupported' | 'empty' | 'too-large' | 'corrupt';
export type PreviewResult = { ok: true; preview: FilePreview } | { ok: false; reason: PreviewFailure; detail: string };

const PIECE_BYTES = 8 * 1024 * 1024;
/** EDF files up to this size are decoded whole in the preview, to count their hypnogram. */
const EDF_WHOLE_BYTES = 32 * 1024 * 1024;
const CSV_MAX_BYTES = 64 * 1024 * 1024;
const STAGE = /^sleep[ _]stage/i;

async function bytesOf(file: Blob, from: number, to: number): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(from, to).arrayBuffer());
}

export async function previewFile(file: File, parser: Parser): Promise<PreviewResult> {
  if (file.size === 0) return { ok: false, reason: 'empty', detail: '' };
  if (file.size > IMPORT_MAX_BYTES) return { ok: false, reason: 'too-large', detail: `${Math.round(file.size / 1024 ** 2)} MB` };
  const format = detectImportFormat(await bytesOf(file, 0, IMPORT_SNIFF_BYTES), file.name);
  if (format === null) return { ok: false, reason: 'unsupported', detail: file.name };
  try {
    const preview = format === 'smf' ? await previewSmf(file, parser) : format === 'csv' ? await previewCsv(file) : await previewEdf(file, parser, format);
    return { ok: true, preview };
  } catch (error) {
    if (error instanceof ParseError || error instanceof PreviewError || error instanceof CsvSyntaxError)
      return { ok: false, reason: 'corrupt', detail: error.message };
    throw error;
  }
}

class PreviewError extends Error {}

async function previewSmf(file: File, parser: Parser): Promise<FilePreview> {
  const samples = new Map<string, number>();
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  let frames = 0;
  let offset = 0;
  while (offset < file.size) {
    const piece = await bytesOf(file, offset, Math.min(file.size, offset + PIECE_BYTES));
    const whole = completeSmfLength(piece, offset);
    if (whole === 0) {
      if (offset + piece.length >= file.size) throw new PreviewError(`the file ends inside a frame at byte ${offset}: it was cut short`);
      throw new PreviewError(`a frame at byte ${offset} is larger than the parser reads at once`);
    }
    for (const frame of parser.decodeSmfStream(piece.subarray(0, whole))) {
      frames++;
      for (const sample of frame.channel === 'multi' ? frame.frames : [frame]) {
        samples.set(sample.channel, (samples.get(sample.channel) ?? 0) + sample.sampleCount);
        const startMs = sample.startTimeUs / 1000;
        first = Math.min(first, startMs);
        if (sample.sampleRate > 0) last = Math.max(last, startMs + (sample.sampleCount * 1000) / sample.sampleRate);
      }
    }
    offset += whole;
    if (whole < piece.length && offset + (piece.length - whole) >= file.size)
      throw new PreviewError(`the file ends inside a frame at byte ${offset}: it was cut short`);
  }
  return {
    format: 'smf',
    columns: [...samples]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([channel, values]): ReadColumn =>
        SMF_UNUSED_CHANNELS.has(channel)
          ? { name: channel, as: null, status: 'skipped', reason: 'unused', values }
          : { name: channel, as: channel, status: 'read', reason: null, values },
      ),
    start: Number.isFinite(first) ? { instantMs: first } : null,
    durationSec: Number.isFinite(first) && Number.isFinite(last) ? Math.round((last - first) / 1000) : null,
    deviceSerial: serialFromFileName(file.name),
    stageEpochs: 0,
    units: frames,
  };
}

async function previewEdf(file: File, parser: Parser, format: ImportFormat): Promise<FilePreview> {
  let edf: EdfFile;
  if (file.size <= EDF_WHOLE_BYTES) edf = parser.decodeEdf(await bytesOf(file, 0, file.size));
  else {
    // The header and the first data record: the parser checks the header against the file's size.
    const head = await bytesOf(file, 0, Math.min(file.size, EDF_MAX_HEADER));
    const layout = edfLayout(head, file.size);
    const records = await bytesOf(file, layout.headerBytes, layout.headerBytes + Math.min(1, layout.recordCount) * layout.recordSize);
    edf = parser.decodeEdf(edfPiece(head, layout, records, Math.min(1, layout.recordCount)));
    edf = { ...edf, header: { ...edf.header, recordCount: layout.recordCount } };
  }
  const { header } = edf;
  let stageEpochs = 0;
  for (const annotation of edf.annotations)
    if (annotation.duration !== null && annotation.texts.some((text) => STAGE.test(text.trim()))) stageEpochs += Math.round(annotation.duration / 30);
  const lastAnnotation = edf.annotations.reduce((end, annotation) => Math.max(end, annotation.onset + (annotation.duration ?? 0)), 0);
  return {
    format,
    columns: header.signals.map((signal): ReadColumn => {
      const unit = signal.physicalDimension.trim() || null;
      if (signal.isAnnotation)
        return {
          name: signal.label.trim(),
          as: stageEpochs > 0 ? 'hypnogram' : null,
          unit,
          status: stageEpochs > 0 ? 'read' : 'skipped',
          reason: stageEpochs > 0 ? null : 'unused',
          values: stageEpochs,
        };
      const target = edfTargetOf(signal);
      return {
        name: signal.label.trim(),
        as: target?.channel ?? null,
        unit,
        status: target === null ? 'skipped' : 'read',
        reason: target === null ? 'unused' : null,
        values: signal.samplesPerRecord * header.recordCount,
      };
    }),
    start: { localText: header.startDateTime },
    durationSec: Math.round(Math.max(header.recordCount * header.recordDuration, lastAnnotation)),
    deviceSerial: serialFromEdfRecording(header.recording),
    stageEpochs,
    units: header.recordCount,
  };
}

async function previewCsv(file: File): Promise<FilePreview> {
  if (file.size > CSV_MAX_BYTES) throw new PreviewError(`a per-minute CSV is at most ${CSV_MAX_BYTES / 1024 ** 2} MB`);
  const table = parseCsv(decodeCsvText(await bytesOf(file, 0, file.size)));
  const header = table.rows[0] ?? [];
  if (header.length > READ_COLUMNS_MAX) throw new PreviewError(`the header names ${header.length} columns; a per-minute CSV has at most ${READ_COLUMNS_MAX}`);
  const headings = readHeadings(header);
  const index = (column: string) => headings.find((heading) => heading.column === column && heading.problem === null)?.index;
  const time = index('time');
  if (time === undefined) throw new PreviewError('the first line must name the columns, with a time column (時刻 or time)');
  const rows = table.rows.length - 1;
  const serialColumn = index('serial');
  const first = table.rows[1];
  return {
    format: 'csv',
    columns: csvReadColumns(headings, valueCounts(table, header.length), false),
    start: first?.[time] ? { localText: first[time] } : null,
    durationSec: rows * 60,
    deviceSerial: (serialColumn === undefined ? undefined : first?.[serialColumn]) || serialFromFileName(file.name),
    stageEpochs: 0,
    units: rows,
  };
}
