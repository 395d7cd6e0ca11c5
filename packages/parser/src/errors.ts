/** Machine-readable failure kinds. Every decoding failure is a {@link ParseError} with one of them. */
export type ParseErrorCode = 'truncated' | 'bad-magic' | 'bad-crc' | 'bad-header' | 'unsupported' | 'invalid-base64';

export const BASE64_ERROR_MESSAGE = 'Failed to construct data from Base64 string';

export interface ParseErrorDetails {
  /** Byte offset in the (decoded) input where the problem was found, when known. */
  offset?: number;
  /** SMF: index of the top-level frame. */
  frame?: number;
  /** SMF: index of the nested frame inside a multi frame. */
  nestedFrame?: number;
  /** EDF: index of the signal. */
  signal?: number;
  /** EDF: index of the data record. */
  record?: number;
  /** The parser's internal reason number (see src/reasons.ts), for logs and tests. */
  reason?: number;
}

/** Thrown for any input the parser rejects: truncated, corrupted, lying or unsupported data. */
export class ParseError extends Error {
  override readonly name = 'ParseError';
  readonly code: ParseErrorCode;
  readonly offset: number | undefined;
  readonly frame: number | undefined;
  readonly nestedFrame: number | undefined;
  readonly signal: number | undefined;
  readonly record: number | undefined;
  readonly reason: number | undefined;

  constructor(code: ParseErrorCode, message: string, details: ParseErrorDetails = {}) {
    super(message);
    this.code = code;
    this.offset = details.offset;
    this.frame = details.frame;
    this.nestedFrame = details.nestedFrame;
    this.signal = details.signal;
    this.record = details.record;
    this.reason = details.reason;
  }
}
