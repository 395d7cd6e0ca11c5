/**
 * Imported recordings (`/room/:roomid/import`, `/data-import`): which files are accepted, how a file
 * tells its format and its device, and the reasons an import fails. The browser refuses what this
 * refuses before uploading a byte; the server checks again from the bytes it stored.
 */

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

/** The body of `POST /api/rooms/:roomId/uploads` is the file itself; its name travels in this header, URI-encoded. */
export const UPLOAD_FILE_NAME_HEADER = 'x-file-name';

/** What the server answers for a file it already holds for the room (same sha256). */
export interface DuplicateUpload {
  code: 'already-exists';
  message: string;
  uploadId: string;
  fileName: string;
}
