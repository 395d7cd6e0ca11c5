// Failure reasons reported by the WebAssembly module (mirror of assembly/reasons.ts; a test keeps the
// two equal) and the English messages built from them.
import { BASE64_ERROR_MESSAGE, ParseError, type ParseErrorCode } from './errors.ts';
import { smfChannelName } from './smf.ts';

export const REASONS = {
  OK: 0,
  OUT_OF_MEMORY: 1,
  SMF_EMPTY: 10,
  SMF_SHORT: 11,
  SMF_MAGIC: 12,
  SMF_VERSION: 13,
  SMF_PAYLOAD_LIMIT: 14,
  SMF_PAYLOAD_TRUNCATED: 15,
  SMF_CRC: 16,
  SMF_CHANNEL: 17,
  SMF_FORMAT: 18,
  SMF_WIDTH: 19,
  SMF_RESERVED: 20,
  SMF_RATE: 21,
  SMF_SCALE: 22,
  SMF_TIME: 23,
  SMF_COUNT: 24,
  SMF_LENGTH_MISMATCH: 25,
  SMF_MULTI_COUNT: 26,
  SMF_MULTI_LAYOUT: 27,
  SMF_MULTI_NESTED: 28,
  SMF_TRAILING: 29,
  SMF_MULTI_FIELDS: 30,
  ENC_RANGE: 40,
  EDF_SHORT: 50,
  EDF_MAGIC: 51,
  EDF_FIELD: 52,
  EDF_SIGNAL_COUNT: 53,
  EDF_HEADER_BYTES: 54,
  EDF_HEADER_TRUNCATED: 55,
  EDF_RECORD_COUNT: 56,
  EDF_DURATION: 57,
  EDF_ZERO_DURATION: 58,
  EDF_DIGITAL_RANGE: 59,
  EDF_PHYSICAL_RANGE: 60,
  EDF_SAMPLES_PER_RECORD: 61,
  EDF_DATA_TRUNCATED: 62,
  EDF_RECORD_SIZE: 63,
  EDF_DATE: 64,
  EDF_TAL_ONSET: 65,
  EDF_TAL_DURATION: 66,
  EDF_TAL_SEPARATOR: 67,
  EDF_RECORD_START: 68,
  EDF_NO_ANNOTATIONS: 69,
  BASE64_INVALID: 80,
} as const;

/** What the module left in its result block after a failure. */
export interface FailureReport {
  reason: number;
  index: number;
  offset: number;
  index2: number;
  a: number;
  b: number;
  /** Reads `width` bytes of the input at `offset` as text (for quoting a bad header field). */
  text(offset: number, width: number): string;
}

const EDF_FIELDS: Record<number, [string, number]> = {
  0: ['number of bytes in header record', 8],
  1: ['number of data records', 8],
  2: ['duration of a data record', 8],
  3: ['number of signals', 4],
  10: ['physical minimum', 8],
  11: ['physical maximum', 8],
  12: ['digital minimum', 8],
  13: ['digital maximum', 8],
  14: ['number of samples in each data record', 8],
};

const hex = (value: number) => `0x${(value >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;

function channelText(code: number): string {
  return smfChannelName(code) ?? `code ${code}`;
}

function smfError(code: ParseErrorCode, r: FailureReport, text: string): ParseError {
  const where = r.index2 >= 0 ? `SMF frame ${r.index}, nested frame ${r.index2}, at byte ${r.offset}` : `SMF frame ${r.index} at byte ${r.offset}`;
  const details = { offset: r.offset, frame: r.index, reason: r.reason, ...(r.index2 >= 0 ? { nestedFrame: r.index2 } : {}) };
  return new ParseError(code, `${where}: ${text}`, details);
}

function edfError(code: ParseErrorCode, r: FailureReport, text: string, extra: { signal?: number; record?: number } = {}): ParseError {
  return new ParseError(code, `EDF/BDF: ${text}`, { ...(r.offset >= 0 ? { offset: r.offset } : {}), reason: r.reason, ...extra });
}

/** Turns a failure report into the error to throw. */
export function failureToError(r: FailureReport): ParseError {
  const R = REASONS;
  switch (r.reason) {
    case R.OUT_OF_MEMORY:
      return new ParseError(
        'unsupported',
        `input too large: decoding it needs about ${Math.ceil(r.a / 1048576)} MiB more than the parser's 2 GiB memory allows`,
        { reason: r.reason },
      );
    case R.SMF_EMPTY:
      return new ParseError('truncated', 'empty input: an SMF frame is at least 48 bytes', { offset: 0, reason: r.reason });
    case R.SMF_SHORT:
      return smfError('truncated', r, `only ${r.a} bytes left, a frame needs at least ${r.b}`);
    case R.SMF_MAGIC:
      return smfError('bad-magic', r, `magic is ${hex(r.a)} (bytes ${bytesOf(r.a)}), expected 89 53 4D 46 ("\\x89SMF")`);
    case R.SMF_VERSION:
      return smfError('unsupported', r, `format version ${r.a} is not supported; this parser reads version 1`);
    case R.SMF_PAYLOAD_LIMIT:
      return smfError('bad-header', r, `payload length ${r.a} bytes exceeds the limit of ${r.b}`);
    case R.SMF_PAYLOAD_TRUNCATED:
      return smfError('truncated', r, `the frame is ${r.a} bytes long but only ${r.b} bytes remain`);
    case R.SMF_CRC:
      return smfError('bad-crc', r, `CRC-32 mismatch: the frame says ${hex(r.a)}, its bytes give ${hex(r.b)}`);
    case R.SMF_CHANNEL:
      return smfError('bad-header', r, `unknown channel code ${r.a}`);
    case R.SMF_FORMAT:
      return smfError('bad-header', r, `sample format code ${r.a} is not valid for channel ${channelText(r.b)} (1 int16, 2 int24, 3 float32)`);
    case R.SMF_WIDTH:
      return smfError('bad-header', r, `width ${r.a} is not valid for channel ${channelText(r.b)}`);
    case R.SMF_RESERVED:
      return smfError('bad-header', r, `reserved fields must be zero (flags ${r.a}, reserved ${r.b})`);
    case R.SMF_RATE:
      return smfError('bad-header', r, `sample rate ${r.a} is not a positive finite number`);
    case R.SMF_SCALE:
      return smfError('bad-header', r, `scale ${r.a} and offset ${r.b} must be finite and the scale non-zero`);
    case R.SMF_TIME:
      return smfError('bad-header', r, `start time ${r.a} µs is beyond ±2^53`);
    case R.SMF_COUNT:
      return smfError('bad-header', r, `sample count ${r.a} gives ${r.b} values, more than the limit of 65536 per frame`);
    case R.SMF_LENGTH_MISMATCH:
      return smfError('bad-header', r, `payload length ${r.a} does not match sample count × width × bytes per sample = ${r.b}`);
    case R.SMF_MULTI_COUNT:
      return smfError('bad-header', r, `a multi frame must carry 1 to ${r.b} nested frames, this one declares ${r.a}`);
    case R.SMF_MULTI_LAYOUT:
      return smfError('bad-header', r, `the multi frame's payload holds ${r.a} nested frames, its header declares ${r.b}`);
    case R.SMF_MULTI_NESTED:
      return smfError('bad-header', r, 'a multi frame cannot contain another multi frame');
    case R.SMF_TRAILING:
      return smfError('bad-header', r, `${r.a} bytes follow the frame (use decodeSmfStream for several frames)`);
    case R.SMF_MULTI_FIELDS:
      return smfError('bad-header', r, 'a multi frame must have sample format 0, width 0, sample rate 0, scale 0 and offset 0');
    case R.EDF_SHORT:
      return edfError('truncated', r, `the input is ${r.a} bytes; an EDF header alone is ${r.b}`);
    case R.EDF_MAGIC:
      return edfError('bad-magic', r, 'not an EDF or BDF file: the version field must be "0       " (EDF) or 0xFF "BIOSEMI" (BDF)');
    case R.EDF_FIELD: {
      const field = EDF_FIELDS[r.index] ?? [`field ${r.index}`, 8];
      const signal = r.index >= 10 ? r.index2 : -1;
      const owner = signal >= 0 ? `signal ${signal}'s ` : 'header field ';
      return edfError('bad-header', r, `${owner}"${field[0]}" is not a valid number: "${r.text(r.offset, field[1])}"`, signal >= 0 ? { signal } : {});
    }
    case R.EDF_SIGNAL_COUNT:
      return edfError('bad-header', r, `number of signals ${r.a} must be at least 1`);
    case R.EDF_HEADER_BYTES:
      return edfError('bad-header', r, `the header size field says ${r.a} bytes but its signal count needs ${r.b}`);
    case R.EDF_HEADER_TRUNCATED:
      return edfError('truncated', r, `the header is ${r.a} bytes but the input has only ${r.b}`);
    case R.EDF_RECORD_COUNT:
      return edfError('bad-header', r, `number of data records ${r.a} is invalid (must be -1 or at least 0)`);
    case R.EDF_DURATION:
      return edfError('bad-header', r, `data record duration ${r.a} is not a finite number of seconds ≥ 0`);
    case R.EDF_ZERO_DURATION:
      return edfError('bad-header', r, `a data record duration of 0 is allowed only in annotation-only EDF+ files; this one has ${r.b} ordinary signals`);
    case R.EDF_DIGITAL_RANGE:
      return edfError('bad-header', r, `signal ${r.index}: digital minimum ${r.a} and maximum ${r.b} must satisfy min < max within the sample range`, {
        signal: r.index,
      });
    case R.EDF_PHYSICAL_RANGE:
      return edfError('bad-header', r, `signal ${r.index}: physical minimum and maximum are both ${r.a}`, { signal: r.index });
    case R.EDF_SAMPLES_PER_RECORD:
      return edfError('bad-header', r, `signal ${r.index}: number of samples per data record ${r.a} is negative`, { signal: r.index });
    case R.EDF_DATA_TRUNCATED:
      return edfError('truncated', r, `the data records need ${r.a} bytes after the header but the input has ${r.b}`);
    case R.EDF_RECORD_SIZE:
      return edfError('bad-header', r, 'every signal has 0 samples per data record');
    case R.EDF_DATE:
      return edfError('bad-header', r, `start date "${r.text(168, 8)}" or time "${r.text(176, 8)}" is not a valid dd.mm.yy / hh.mm.ss`);
    case R.EDF_TAL_ONSET:
      return edfError('bad-header', r, `annotation signal ${r.index}, data record ${r.a}: a TAL must start with a signed onset like +12.5`, {
        signal: r.index,
        record: r.a,
      });
    case R.EDF_TAL_DURATION:
      return edfError('bad-header', r, `annotation signal ${r.index}, data record ${r.a}: a TAL duration must be an unsigned number`, {
        signal: r.index,
        record: r.a,
      });
    case R.EDF_TAL_SEPARATOR:
      return edfError('bad-header', r, `annotation signal ${r.index}, data record ${r.a}: a TAL onset must be followed by 0x14`, {
        signal: r.index,
        record: r.a,
      });
    case R.EDF_RECORD_START:
      return edfError('bad-header', r, `EDF+D data record ${r.a} has no time-keeping annotation giving its start time`, { record: r.a });
    case R.EDF_NO_ANNOTATIONS:
      return edfError('bad-header', r, 'an EDF+D file needs an "EDF Annotations" signal for its record start times');
    case R.BASE64_INVALID:
      return new ParseError('invalid-base64', BASE64_ERROR_MESSAGE, { offset: r.offset, reason: r.reason });
    default:
      return new ParseError('bad-header', `the parser failed with unknown reason ${r.reason}`, { reason: r.reason });
  }
}

function bytesOf(value: number): string {
  const v = value >>> 0;
  return [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24].map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');
}
