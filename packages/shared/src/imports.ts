/**
 * Imported recordings (`/room/:roomid/import`, `/data-import`): which files are accepted, how a file
 * tells its format and its device, and the reasons an import fails. The browser refuses what this
 * refuses before uploading a byte; the server checks again from the bytes it stored.
 */
import { z } from 'zod/v3';
import { storedRecordSchema } from './documents/answers.ts';

export const IMPORT_FORMATS = ['smf', 'edf', 'bdf', 'csv'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** File name endings offered in the file chooser. */
export const IMPORT_EXTENSIONS = ['.smf', '.bin', '.edf', '.bdf', '.csv'] as const;

/** Largest file accepted (a 24-hour SMF recording of every bed-sensor channel is about 80 MB). */
export const IMPORT_MAX_BYTES = 2 * 1024 ** 3;

/** Bytes enough to recognise any accepted format. */
export const IMPORT_SNIFF_BYTES = 256;

/** Why an import failed: each has a message in the web app's `imports.errors` namespace. */
export const IMPORT_ERROR_CODES = [
  'unsupported-format',
  'empty-file',
  'too-large',
  'corrupt',
  'no-usable-signal',
  'no-time',
  'bad-csv',
  'unknown-columns',
  'interrupted',
  'internal',
] as const;
export type ImportErrorCode = (typeof IMPORT_ERROR_CODES)[number];

const SMF_MAGIC = [0x89, 0x53, 0x4d, 0x46];
const EDF_VERSION = '0       ';
const BDF_VERSION = [0xff, 0x42, 0x49, 0x4f, 0x53, 0x45, 0x4d, 0x49];

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((value, index) => bytes[index] === value);
}

function looksLikeText(bytes: Uint8Array): boolean {
  let start = 0;
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) start = 3;
  for (let i = start; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    // Control characters other than tab, newline and carriage return do not occur in a CSV file.
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
  }
  return bytes.length > start;
}

/**
 * The format of a file from its first bytes (the name only breaks no ties: an `.edf` that starts like
 * an SMF frame is an SMF recording). null: not a format we import.
 */
export function detectImportFormat(head: Uint8Array, fileName = ''): ImportFormat | null {
  if (startsWith(head, SMF_MAGIC)) return 'smf';
  if (startsWith(head, BDF_VERSION)) return 'bdf';
  if (head.length >= 8 && String.fromCharCode(...head.subarray(0, 8)) === EDF_VERSION) return 'edf';
  if (/\.csv$/i.test(fileName) && looksLikeText(head)) return 'csv';
  return null;
}

/** A serial as devices are named (docs/device-protocol.md): letters, digits, `.`, `_`, `:` and `-`. */
export const SERIAL_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The device serial a recording's file name starts with (`NM-BED-0001_2026-11-20.smf` →
 * `NM-BED-0001`), as devices name their own recordings; null when the name holds none.
 */
export function serialFromFileName(fileName: string): string | null {
  const base = fileName.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
  const head = base.split(/[_ ]/)[0] ?? '';
  return head.length >= 3 && SERIAL_PATTERN.test(head) && /\d/.test(head) && /[A-Za-z]/.test(head) ? head : null;
}

/**
 * The device serial of an EDF+ file: the "equipment" part of the recording field
 * (`Startdate 24-APR-1989 admincode technician equipment`), when it looks like a serial.
 */
export function serialFromEdfRecording(recording: string): string | null {
  const parts = recording.trim().split(/\s+/);
  if (parts[0] !== 'Startdate' || parts.length < 5) return null;
  const equipment = parts[4] as string;
  return equipment !== 'X' && SERIAL_PATTERN.test(equipment) ? equipment : null;
}

/**
 * What an import read, column by column (a CSV heading, an EDF signal, an SMF channel), as the preview
 * shows it before the upload and the upload history after: what the column was read as, its unit, how
 * many values, and whether its values went into the sleep days.
 *   read     its values are the sleep day's minutes or signals
 *   context  read for what it says of the file (device serial, room, sleep day), not as minutes
 *   skipped  not imported, with the reason (the user chose to skip it, or the analysis does not use it)
 *   problem  cannot be read: the import stops unless the user chooses to skip it
 */
export const READ_COLUMN_STATUSES = ['read', 'context', 'skipped', 'problem'] as const;
export type ReadColumnStatus = (typeof READ_COLUMN_STATUSES)[number];
/** Why a column is skipped or a problem: each has a message in the web app's `imports.columnReasons`. */
export const READ_COLUMN_REASONS = ['unknown', 'unit', 'duplicate', 'empty', 'unused'] as const;
export type ReadColumnReason = (typeof READ_COLUMN_REASONS)[number];

export interface ReadColumn {
  /** The heading, signal label or channel as the file names it. */
  name: string;
  /** What it was read as (a CSV column, a device channel, `hypnogram`); null when not understood. */
  as: string | null;
  unit?: string | null;
  status: ReadColumnStatus;
  reason?: ReadColumnReason | null;
  /** Values (CSV cells, samples, scored epochs) read from it. */
  values?: number;
}

/** At most this many columns are listed (a file with more refuses: no per-minute CSV has that many). */
export const READ_COLUMNS_MAX = 256;

/** What to do with columns an import cannot read: stop (the default) or import without them. */
export const UNKNOWN_COLUMN_CHOICES = ['refuse', 'skip'] as const;
export type UnknownColumnChoice = (typeof UNKNOWN_COLUMN_CHOICES)[number];

/** The user's choice for unreadable columns travels with the upload in this header. */
export const UPLOAD_UNKNOWN_COLUMNS_HEADER = 'x-unknown-columns';

/** The body of `POST /api/rooms/:roomId/uploads/:uploadId/reprocess`: optionally a new choice for unreadable columns. */
export const reprocessInput = z.object({ unknownColumns: z.enum(UNKNOWN_COLUMN_CHOICES).optional() }).strict();

/**
 * A recording makes a sleep day only when it covers enough of a night (docs/imports.md): at least
 * `NIGHT_MIN_MINUTES` minutes with data between `NIGHT_FROM_HOUR`:00 and `NIGHT_TO_HOUR`:00 in the
 * facility's time zone. A shorter or daytime recording (a 5-minute afternoon excerpt) is imported,
 * listed with a warning, and makes no sleep day; so is a day whose data never shows the person in bed.
 */
export const NIGHT_FROM_HOUR = 18;
export const NIGHT_TO_HOUR = 10;
export const NIGHT_MIN_MINUTES = 30;

/** Why part of a recording made no sleep day: each has a message in the web app's `imports.warnings`. */
export const IMPORT_WARNING_CODES = ['too-short', 'outside-night', 'not-in-bed'] as const;
export type ImportWarningCode = (typeof IMPORT_WARNING_CODES)[number];

export interface ImportWarning {
  code: ImportWarningCode;
  /** The sleep day the data fell in, not made. */
  day: string;
  /** Minutes with data in that day, and of those in the night. */
  minutes: number;
  nightMinutes: number;
}

/** The body of `POST /api/rooms/:roomId/uploads` is the file itself; its name travels in this header, URI-encoded. */
export const UPLOAD_FILE_NAME_HEADER = 'x-file-name';

/** What the server answers for a file it already holds for the room (same sha256): 409 with the upload it holds. */
export const duplicateUploadSchema = z.object({ code: z.literal('already-exists'), message: z.string(), uploadId: z.string(), fileName: z.string() }).strict();
export type DuplicateUpload = z.infer<typeof duplicateUploadSchema>;

/** `POST /api/rooms/:roomId/uploads`: 201 with the upload's record (`rooms/{roomId}/uploads/{uploadId}`), queued. */
export const uploadCreatedSchema = z.object({ uploadId: z.string(), upload: storedRecordSchema }).strict();

/** `POST …/uploads/:uploadId/reprocess`: 202, queued again. */
export const reprocessAcceptedSchema = z.object({ uploadId: z.string() }).strict();

/** `DELETE …/uploads/:uploadId`: the sleep days that came from the upload and were deleted with it. */
export const uploadRemovedSchema = z.object({ deletedDays: z.array(z.string()) }).strict();
