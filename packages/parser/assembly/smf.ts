// SMF, the device frame format (docs/device-protocol.md). Little-endian, version 1:
//   0 magic 89 53 4D 46 | 4 version | 5 channel | 6 sample format | 7 flags (0) | 8 width u16 |
//   10 reserved u16 (0) | 12 sequence u32 | 16 start time i64 µs | 24 sample rate f32 |
//   28 sample count u32 | 32 scale f32 | 36 offset f32 | 40 payload length u32 | 44 payload |
//   44 + payload length: CRC-32 of bytes 0 .. 44 + payload length - 1.
import { arenaAlloc } from './memory';
import { crc32Update } from './crc32';
import { FORMAT_FLOAT32, FORMAT_INT16, FORMAT_INT24 } from './convert';
import { crcAndConvert } from './fused';
import { fail, setIndex2, setOut } from './result';
import * as R from './reasons';

export const MAGIC: u32 = 0x464d5389;
export const HEADER_SIZE: u32 = 44;
export const MIN_FRAME: u32 = 48;
export const MAX_VALUES: u32 = 65536;
export const MAX_MULTI_FRAMES: u32 = 16;
export const MAX_MULTI_PAYLOAD: u32 = 1 << 20;

export const CH_ECG: i32 = 1;
export const CH_RESPI_AXL: i32 = 2;
export const CH_IMPE: i32 = 3;
export const CH_EIT: i32 = 4;
export const CH_RESPI_HR: i32 = 5;
export const CH_BUTTON: i32 = 6;
export const CH_TEMPERATURE: i32 = 7;
export const CH_MULTI: i32 = 8;

/** Frame table entry (64 bytes, aligned): every header field decoded, so the host reads no header bytes. */
export const ENTRY_SIZE: u32 = 64;
// 0 u32 frame pointer | 4 u32 values pointer | 8 u32 raw pointer | 12 i32 parent entry (-1) |
// 16 u32 child count | 20 u32 value count | 24 u32 CRC | 28 u32 frame length |
// 32 f64 start time µs | 40 u32 sequence | 44 u16 width | 46 u8 channel | 47 u8 format |
// 48 f32 sample rate | 52 u32 sample count | 56 f32 scale | 60 f32 offset

const TWO_POW_53: f64 = 9007199254740992.0;

function bytesPerSample(format: i32): u32 {
  if (format == FORMAT_INT16) return 2;
  if (format == FORMAT_INT24) return 3;
  if (format == FORMAT_FLOAT32) return 4;
  return 0;
}

function widthIsValid(channel: i32, width: u32): bool {
  if (channel == CH_RESPI_AXL) return width == 3;
  if (channel == CH_EIT) return width == 208 || width == 256;
  if (channel == CH_RESPI_HR) return width == 2;
  if (channel == CH_MULTI) return width == 0;
  return width == 1;
}

/**
 * Checks what can be checked before trusting the bytes: room for a frame, magic, version, a payload
 * length within limits that fits in the input. `at` is the frame's offset in the input.
 */
function envelope(base: usize, at: u32, end: u32, frame: i32): i32 {
  const left = end - at;
  if (left < 4) return fail(R.SMF_SHORT, frame, at, left, MIN_FRAME);
  const p = base + at;
  const magic = load<u32>(p);
  if (magic != MAGIC) return fail(R.SMF_MAGIC, frame, at, magic, MAGIC);
  if (left < MIN_FRAME) return fail(R.SMF_SHORT, frame, at, left, MIN_FRAME);
  const version = load<u8>(p, 4);
  if (version != 1) return fail(R.SMF_VERSION, frame, at, version, 1);
  const payload = load<u32>(p, 40);
  if (payload > MAX_MULTI_PAYLOAD) return fail(R.SMF_PAYLOAD_LIMIT, frame, at, payload, MAX_MULTI_PAYLOAD);
  if (<u64>payload + MIN_FRAME > <u64>left) return fail(R.SMF_PAYLOAD_TRUNCATED, frame, at, <f64>payload + MIN_FRAME, left);
  return 0;
}

/** Validates every header field of a frame whose CRC already matched. */
function validateHeader(p: usize, at: u32, frame: i32, nested: bool): i32 {
  const channel = <i32>load<u8>(p, 5);
  const format = <i32>load<u8>(p, 6);
  const width = <u32>load<u16>(p, 8);
  const count = load<u32>(p, 28);
  const payload = load<u32>(p, 40);
  if (channel < CH_ECG || channel > CH_MULTI) return fail(R.SMF_CHANNEL, frame, at, channel, 0);
  if (load<u8>(p, 7) != 0 || load<u16>(p, 10) != 0) return fail(R.SMF_RESERVED, frame, at, load<u8>(p, 7), load<u16>(p, 10));
  const time = <f64>load<i64>(p, 16);
  if (!(time >= -TWO_POW_53 && time <= TWO_POW_53)) return fail(R.SMF_TIME, frame, at, time, TWO_POW_53);
  const rate = load<f32>(p, 24);
  const scale = load<f32>(p, 32);
  const offset = load<f32>(p, 36);
  if (channel == CH_MULTI) {
    if (nested) return fail(R.SMF_MULTI_NESTED, frame, at, 0, 0);
    if (format != 0 || width != 0 || rate != 0 || scale != 0 || offset != 0) {
      return fail(R.SMF_MULTI_FIELDS, frame, at, format, width);
    }
    if (count < 1 || count > MAX_MULTI_FRAMES) return fail(R.SMF_MULTI_COUNT, frame, at, count, MAX_MULTI_FRAMES);
    return 0;
  }
  const bps = bytesPerSample(format);
  if (bps == 0) return fail(R.SMF_FORMAT, frame, at, format, channel);
  if (!widthIsValid(channel, width)) return fail(R.SMF_WIDTH, frame, at, width, channel);
  if (!(isFinite<f32>(rate) && rate > 0)) return fail(R.SMF_RATE, frame, at, rate, 0);
  if (!(isFinite<f32>(scale) && scale != 0 && isFinite<f32>(offset))) return fail(R.SMF_SCALE, frame, at, scale, offset);
  const values = <u64>count * <u64>width;
  if (values > <u64>MAX_VALUES) return fail(R.SMF_COUNT, frame, at, count, <f64>values);
  const expected = values * <u64>bps;
  if (<u64>payload != expected) return fail(R.SMF_LENGTH_MISMATCH, frame, at, payload, <f64>expected);
  return 0;
}

// Decoding state shared by the helpers below.
let table: usize = 0;
let entries: u32 = 0;
let valuesOut: usize = 0;
let rawOut: usize = 0;
let valueIndex: u32 = 0;

function addEntry(p: usize, parent: i32): usize {
  const e = table + <usize>entries * ENTRY_SIZE;
  entries++;
  const payload = load<u32>(p, 40);
  store<u32>(e, <u32>p, 0);
  store<u32>(e, 0, 4);
  store<u32>(e, 0, 8);
  store<i32>(e, parent, 12);
  store<u32>(e, 0, 16);
  store<u32>(e, 0, 20);
  store<u32>(e, load<u32>(p + HEADER_SIZE + payload), 24);
  store<u32>(e, MIN_FRAME + payload, 28);
  store<f64>(e, <f64>load<i64>(p, 16), 32);
  store<u32>(e, load<u32>(p, 12), 40);
  store<u16>(e, load<u16>(p, 8), 44);
  store<u8>(e, load<u8>(p, 5), 46);
  store<u8>(e, load<u8>(p, 6), 47);
  store<f32>(e, load<f32>(p, 24), 48);
  store<u32>(e, load<u32>(p, 28), 52);
  store<f32>(e, load<f32>(p, 32), 56);
  store<f32>(e, load<f32>(p, 36), 60);
  return e;
}

function checkCrc(p: usize, at: u32, frame: i32): i32 {
  const payload = load<u32>(p, 40);
  const stored = load<u32>(p + HEADER_SIZE + payload);
  const computed = crc32Update(0, p, HEADER_SIZE + payload);
  if (stored != computed) return fail(R.SMF_CRC, frame, at, stored, computed);
  return 0;
}

/**
 * Decodes the samples of a frame whose header is valid, checking its CRC in the same pass.
 * Returns 0 or the bad-crc failure.
 */
function decodeSamples(p: usize, e: usize, at: u32, frame: i32): i32 {
  const values = load<u32>(p, 28) * <u32>load<u16>(p, 8);
  const dst = valuesOut + (<usize>valueIndex << 2);
  const raw = rawOut != 0 ? rawOut + (<usize>valueIndex << 2) : 0;
  const payload = load<u32>(p, 40);
  const headerCrc = crc32Update(0, p, HEADER_SIZE);
  const computed = crcAndConvert(headerCrc, <i32>load<u8>(p, 6), p + HEADER_SIZE, values, dst, raw, <f64>load<f32>(p, 32), <f64>load<f32>(p, 36));
  const stored = load<u32>(p + HEADER_SIZE + payload);
  if (stored != computed) return fail(R.SMF_CRC, frame, at, stored, computed);
  store<u32>(e, <u32>dst, 4);
  store<u32>(e, <u32>raw, 8);
  store<u32>(e, values, 20);
  valueIndex += values;
  return 0;
}

/** Header validation that reports bad-crc first when the bytes are corrupted anyway. */
function validateSigned(p: usize, at: u32, frame: i32, nested: bool): i32 {
  const r = validateHeader(p, at, frame, nested);
  if (r == 0) return 0;
  const c = checkCrc(p, at, frame);
  return c != 0 ? c : r;
}

/**
 * Decodes `len` bytes at `base`: a sequence of frames (flags bit 1 clear) or exactly one frame
 * (bit 1 set). Bit 0 asks for raw samples too. Outputs: slot 0 table, 1 entry count, 2 top-level
 * frame count, 3 values (f32), 4 raw (i32 or f32), 5 total value count.
 */
export function smfDecode(base: usize, len: u32, flags: u32): i32 {
  const wantRaw = (flags & 1) != 0;
  const single = (flags & 2) != 0;
  if (single && len == 0) return fail(R.SMF_EMPTY, 0, 0, 0, 0);

  // Pass 1: frame boundaries only (header cache lines), to size the outputs.
  let at: u32 = 0;
  let frames: i32 = 0;
  let tableCap: u64 = 0;
  let valueCap: u64 = 0;
  while (at < len) {
    const r = envelope(base, at, len, frames);
    if (r != 0) return r;
    const p = base + at;
    const payload = load<u32>(p, 40);
    tableCap += 1;
    if (<i32>load<u8>(p, 5) == CH_MULTI) tableCap += payload / MIN_FRAME;
    valueCap += payload >> 1;
    at += MIN_FRAME + payload;
    frames++;
    if (single) break;
  }
  if (single && at != len) return fail(R.SMF_TRAILING, 0, at, len - at, 0);

  table = arenaAlloc(tableCap * ENTRY_SIZE);
  valuesOut = arenaAlloc(valueCap << 2);
  rawOut = wantRaw ? arenaAlloc(valueCap << 2) : 0;
  if (table == 0 || valuesOut == 0 || (wantRaw && rawOut == 0)) {
    return fail(R.OUT_OF_MEMORY, 0, 0, <f64>(tableCap * ENTRY_SIZE + (valueCap << (wantRaw ? 3 : 2))), 0);
  }
  entries = 0;
  valueIndex = 0;

  // Pass 2, frame by frame while it is in cache: every header field, then the samples with the CRC
  // computed in the same pass. A corrupted frame reports bad-crc, not whatever its garbage says:
  // when a header field is invalid, the CRC decides which error to report.
  at = 0;
  for (let f: i32 = 0; f < frames; f++) {
    const p = base + at;
    const payload = load<u32>(p, 40);
    let r = validateSigned(p, at, f, false);
    if (r != 0) return r;
    const e = addEntry(p, -1);
    if (<i32>load<u8>(p, 5) == CH_MULTI) {
      r = checkCrc(p, at, f);
      if (r != 0) return r;
      const parent = <i32>entries - 1;
      const declared = load<u32>(p, 28);
      const start = at + HEADER_SIZE;
      const stop = start + payload;
      let inner = start;
      let k: u32 = 0;
      while (inner < stop) {
        setIndex2(<i32>k);
        if (k == declared) return fail(R.SMF_MULTI_LAYOUT, f, inner, k + 1, declared);
        r = envelope(base, inner, stop, f);
        if (r != 0) return r;
        const q = base + inner;
        r = validateSigned(q, inner, f, true);
        if (r != 0) return r;
        r = decodeSamples(q, addEntry(q, parent), inner, f);
        if (r != 0) return r;
        inner += MIN_FRAME + load<u32>(q, 40);
        k++;
      }
      setIndex2(-1);
      if (k != declared) return fail(R.SMF_MULTI_LAYOUT, f, at, k, declared);
      store<u32>(e, k, 16);
    } else {
      r = decodeSamples(p, e, at, f);
      if (r != 0) return r;
    }
    at += MIN_FRAME + payload;
  }
  setOut(0, <u32>table);
  setOut(1, entries);
  setOut(2, <u32>frames);
  setOut(3, <u32>valuesOut);
  setOut(4, <u32>rawOut);
  setOut(5, valueIndex);
  return 0;
}

/**
 * Writes `count` samples from `src` (f64) as `format` at `dst`. kind 0: src holds raw values (integers
 * for int16/int24, the float itself for float32); kind 1: physical values, stored as
 * round-half-even((v - offset) / scale). Returns 0, or ENC_RANGE with the sample index.
 */
export function smfEncodeSamples(dst: usize, src: usize, count: u32, format: i32, kind: i32, scale: f64, offset: f64): i32 {
  let lo: f64 = -32768;
  let hi: f64 = 32767;
  if (format == FORMAT_INT24) {
    lo = -8388608;
    hi = 8388607;
  }
  for (let i: u32 = 0; i < count; i++) {
    let v = load<f64>(src + (<usize>i << 3));
    if (kind == 1) v = (v - offset) / scale;
    if (format == FORMAT_FLOAT32) {
      const f = <f32>v;
      if (isFinite<f64>(v) && !isFinite<f32>(f)) return fail(R.ENC_RANGE, <i32>i, 0, v, 0);
      store<f32>(dst + (<usize>i << 2), f);
      continue;
    }
    if (kind == 1) v = nearest<f64>(v);
    if (!(v >= lo && v <= hi) || v != trunc<f64>(v)) return fail(R.ENC_RANGE, <i32>i, 0, load<f64>(src + (<usize>i << 3)), v);
    const d = <i32>v;
    if (format == FORMAT_INT16) store<i16>(dst + (<usize>i << 1), <i16>d);
    else {
      const s = dst + <usize>i * 3;
      store<u8>(s, <u8>d);
      store<u8>(s, <u8>(d >> 8), 1);
      store<u8>(s, <u8>(d >> 16), 2);
    }
  }
  return 0;
}

/**
 * Writes the header of the frame at `p` (payload already at p + 44) and its CRC, then validates it
 * like a decoder would. Returns 0 or the reason the header is invalid.
 */
export function smfFinishFrame(
  p: usize, channel: i32, format: i32, width: u32, sequence: u32, startTimeUs: f64,
  sampleRate: f32, sampleCount: u32, scale: f32, offset: f32, payload: u32,
): i32 {
  store<u32>(p, MAGIC, 0);
  store<u8>(p, 1, 4);
  store<u8>(p, <u8>channel, 5);
  store<u8>(p, <u8>format, 6);
  store<u8>(p, 0, 7);
  store<u16>(p, <u16>width, 8);
  store<u16>(p, 0, 10);
  store<u32>(p, sequence, 12);
  store<i64>(p, <i64>startTimeUs, 16);
  store<f32>(p, sampleRate, 24);
  store<u32>(p, sampleCount, 28);
  store<f32>(p, scale, 32);
  store<f32>(p, offset, 36);
  store<u32>(p, payload, 40);
  store<u32>(p + HEADER_SIZE + payload, crc32Update(0, p, HEADER_SIZE + payload));
  return validateHeader(p, 0, 0, false);
}
