/**
 * A chosen file opened in the browser before it is uploaded: its format from its first bytes, then
 * what it holds as the WebAssembly parser reads it (channels, start, duration, device serial). Large
 * files are read a piece at a time, never whole. A file the parser refuses is not uploaded.
 */
import type { EdfFile } from '@nemuri/parser/edf';
import { ParseError } from '@nemuri/parser/errors';
import type { Parser } from '@nemuri/parser/parser';
import { completeSmfLength, EDF_MAX_HEADER, edfLayout, edfPiece } from '@nemuri/parser/pieces';
import { columnsOf, csvDelimiterOf, decodeCsvText, splitCsvLine } from '@nemuri/shared/importCsv';
import { detectImportFormat, IMPORT_MAX_BYTES, IMPORT_SNIFF_BYTES, serialFromEdfRecording, serialFromFileName, type ImportFormat } from '@nemuri/shared/imports';

export interface FilePreview {
  format: ImportFormat;
  /** Channels (SMF), signal labels (EDF) or column names (CSV). */
  channels: string[];
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
    if (error instanceof ParseError || error instanceof PreviewError) return { ok: false, reason: 'corrupt', detail: error.message };
    throw error;
  }
}

class PreviewError extends Error {}

async function previewSmf(file: File, parser: Parser): Promise<FilePreview> {
  const channels = new Set<string>();
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
        channels.add(sample.channel);
        const startMs = sample.startTimeUs / 1000;
        first = Math.min(first, startMs);
        if (sample.sampleRate > 0) last = Math.max(last, startMs + (sample.sampleCount * 1000) / sample.sampleRate);
      }
    }
    offset += whole;
    if (whole < piece.length && offset + (piece.length - whole) >= file.size) throw new PreviewError(`the file ends inside a frame at byte ${offset}: it was cut short`);
  }
  return {
    format: 'smf',
    channels: [...channels].sort(),
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
  for (const annotation of edf.annotations) if (annotation.duration !== null && annotation.texts.some((text) => STAGE.test(text.trim()))) stageEpochs += Math.round(annotation.duration / 30);
  const lastAnnotation = edf.annotations.reduce((end, annotation) => Math.max(end, annotation.onset + (annotation.duration ?? 0)), 0);
  return {
    format,
    channels: header.signals.filter((signal) => !signal.isAnnotation).map((signal) => `${signal.label} (${signal.sampleRate} Hz)`),
    start: { localText: header.startDateTime },
    durationSec: Math.round(Math.max(header.recordCount * header.recordDuration, lastAnnotation)),
    deviceSerial: serialFromEdfRecording(header.recording),
    stageEpochs,
    units: header.recordCount,
  };
}

async function previewCsv(file: File): Promise<FilePreview> {
  if (file.size > CSV_MAX_BYTES) throw new PreviewError(`a per-minute CSV is at most ${CSV_MAX_BYTES / 1024 ** 2} MB`);
  const bytes = await bytesOf(file, 0, file.size);
  const lines = decodeCsvText(bytes).split(/\r\n|\n|\r/).filter((line) => line.trim() !== '');
  const headerLine = lines[0] ?? '';
  const delimiter = csvDelimiterOf(headerLine);
  const headers = splitCsvLine(headerLine, delimiter);
  const columns = columnsOf(headers);
  const time = columns.get('time');
  if (time === undefined) throw new PreviewError('the first line must name the columns, with a time column (時刻 or time)');
  const rows = lines.slice(1);
  const firstTime = rows.length > 0 ? splitCsvLine(rows[0] as string, delimiter)[time] : undefined;
  const serialColumn = columns.get('serial');
  return {
    format: 'csv',
    channels: headers.filter((_, index) => index !== time && index !== serialColumn),
    start: firstTime ? { localText: firstTime } : null,
    durationSec: rows.length * 60,
    deviceSerial: (serialColumn === undefined ? undefined : splitCsvLine(rows[0] ?? '', delimiter)[serialColumn]) || serialFromFileName(file.name),
    stageEpochs: 0,
    units: rows.length,
  };
}
