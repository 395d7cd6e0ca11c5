// Reading large files a piece at a time, with the parser decoding each piece: where the complete SMF
// frames of a buffer end, and an EDF/BDF file's layout and pieces (its header, with the record count
// set to the piece's, then a run of whole data records — a file the parser reads on its own). The
// server imports recordings this way and the browser previews them; neither holds a whole file.
import { ParseError } from './errors.ts';
import { SMF_HEADER_OFFSETS, SMF_HEADER_SIZE, SMF_MAGIC, SMF_MAX_PAYLOAD, SMF_MIN_FRAME_SIZE } from './smf.ts';

/**
 * Bytes of the complete SMF frames at the start of `bytes` (what follows is the start of a frame still
 * to be read). Only the magic and the payload length are looked at; decoding checks the rest.
 * `fileOffset` places the bytes in the file, for the error messages.
 */
export function completeSmfLength(bytes: Uint8Array, fileOffset = 0): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  while (at + SMF_HEADER_SIZE <= bytes.length) {
    for (let k = 0; k < SMF_MAGIC.length; k++) {
      if (bytes[at + k] !== SMF_MAGIC[k])
        throw new ParseError('bad-magic', `SMF: no frame starts at byte ${fileOffset + at} (wrong magic)`, { offset: fileOffset + at });
    }
    const payload = view.getUint32(at + SMF_HEADER_OFFSETS.payloadLength, true);
    if (payload > SMF_MAX_PAYLOAD)
      throw new ParseError('bad-header', `SMF: the frame at byte ${fileOffset + at} claims a payload of ${payload} bytes (at most ${SMF_MAX_PAYLOAD})`, {
        offset: fileOffset + at,
      });
    const size = SMF_MIN_FRAME_SIZE + payload;
    if (at + size > bytes.length) break;
    at += size;
  }
  return at;
}

export const EDF_FIXED_HEADER = 256;
export const EDF_SIGNAL_HEADER = 256;
/** Bytes that always hold the whole header (the format allows at most 4096 signals here). */
export const EDF_MAX_HEADER = EDF_FIXED_HEADER + 4096 * EDF_SIGNAL_HEADER;

export interface EdfLayout {
  headerBytes: number;
  signalCount: number;
  /** Bytes per data record. */
  recordSize: number;
  /** Data records to read: the header's count, or as many as the file holds when it says -1. */
  recordCount: number;
}

const ascii = (bytes: Uint8Array, from: number, length: number): string => String.fromCharCode(...bytes.subarray(from, from + length)).trim();

/** The layout of an EDF/BDF file from its first bytes (at least the header) and its size. */
export function edfLayout(head: Uint8Array, fileSize: number): EdfLayout {
  const bdf = head[0] === 0xff;
  const signalCount = Number.parseInt(ascii(head, 252, 4), 10);
  if (!(signalCount > 0 && signalCount <= 4096))
    throw new ParseError('bad-header', `EDF/BDF: the header gives ${ascii(head, 252, 4) || 'no'} signals`, { offset: 252 });
  const headerBytes = EDF_FIXED_HEADER + signalCount * EDF_SIGNAL_HEADER;
  if (head.length < headerBytes || fileSize < headerBytes) throw new ParseError('truncated', 'EDF/BDF: the file ends inside its header');
  let samples = 0;
  const samplesAt = EDF_FIXED_HEADER + signalCount * (16 + 80 + 8 + 8 + 8 + 8 + 8 + 80);
  for (let s = 0; s < signalCount; s++) {
    const count = Number.parseInt(ascii(head, samplesAt + s * 8, 8), 10);
    if (!(count >= 0)) throw new ParseError('bad-header', `EDF/BDF: signal ${s + 1} gives no number of samples per record`, { signal: s });
    samples += count;
  }
  const recordSize = samples * (bdf ? 3 : 2);
  const available = recordSize > 0 ? Math.floor((fileSize - headerBytes) / recordSize) : 0;
  const declared = Number.parseInt(ascii(head, 236, 8), 10);
  if (declared > available)
    throw new ParseError('truncated', `EDF/BDF: the header says ${declared} data records but the file holds ${available}: it was cut short`);
  return { headerBytes, signalCount, recordSize, recordCount: declared >= 0 ? declared : available };
}

/** A file of the header and `count` data records (`records`: exactly those bytes). */
export function edfPiece(header: Uint8Array, layout: EdfLayout, records: Uint8Array, count: number): Uint8Array {
  const piece = new Uint8Array(layout.headerBytes + count * layout.recordSize);
  piece.set(header.subarray(0, layout.headerBytes));
  piece.set(new TextEncoder().encode(String(count).padEnd(8, ' ')), 236);
  piece.set(records.subarray(0, count * layout.recordSize), layout.headerBytes);
  return piece;
}
