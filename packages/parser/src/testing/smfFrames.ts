// Helpers to build and tamper with SMF frames in tests, independent of the parser (zlib's CRC-32).
import { crc32 } from 'node:zlib';

/** Recomputes the CRC of the frame at `at` (from its payload length field) after an edit. */
export function fixCrc(bytes: Uint8Array, at = 0): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const payload = view.getUint32(at + 40, true);
  const end = at + 44 + payload;
  if (end + 4 <= bytes.length) view.setUint32(end, crc32(bytes.subarray(at, end)), true);
  return bytes;
}

type FieldType = 'u8' | 'u16' | 'u32' | 'f32' | 'i64';

/** Writes one header field of the frame at `at`; by default fixes the CRC so only the field is wrong. */
export function withField(
  frame: Uint8Array,
  offset: number,
  type: FieldType,
  value: number | bigint,
  options: { at?: number; crc?: boolean } = {},
): Uint8Array {
  const copy = frame.slice();
  const view = new DataView(copy.buffer);
  const p = (options.at ?? 0) + offset;
  if (type === 'u8') view.setUint8(p, Number(value));
  else if (type === 'u16') view.setUint16(p, Number(value), true);
  else if (type === 'u32') view.setUint32(p, Number(value), true);
  else if (type === 'f32') view.setFloat32(p, Number(value), true);
  else view.setBigInt64(p, BigInt(value), true);
  return options.crc === false ? copy : fixCrc(copy, options.at ?? 0);
}

export function concat(...chunks: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(chunks.reduce((sum, c) => sum + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
