// EDF, EDF+ (continuous and discontinuous, TAL annotations), BDF and BDF+.
// Layout: 256-byte header, 256 bytes per signal, then data records; each record holds, signal after
// signal, that signal's samples for the record (16-bit LE in EDF, 24-bit LE in BDF).
import { arenaAlloc } from './memory';
import { convert, FORMAT_INT16, FORMAT_INT24 } from './convert';
import { fail, setIndex2, setNum, setOut } from './result';
import { numberExact, numberOk, parseDecimal, parseField, parseIntField } from './numbers';
import * as R from './reasons';

export const SIGNAL_ENTRY: u32 = 64;
// 0 f64 physical min | 8 f64 physical max | 16 i32 digital min | 20 i32 digital max |
// 24 i32 samples per record | 28 u32 is annotation | 32 u32 samples ptr | 36 u32 raw ptr |
// 40 f64 gain | 48 f64 offset | 56 u32 byte offset in record | 60 u32 bit0/1: physical min/max inexact

export const TAL_ENTRY: u32 = 48;
// 0 f64 onset | 8 f64 duration (NaN: none) | 16 u32 first text | 20 u32 text count | 24 i32 record |
// 28 u16 signal | 30 u8 time-keeping | 31 u8 bit0 onset inexact, bit1 duration inexact |
// 32 u32 onset ptr | 36 u32 onset length | 40 u32 duration ptr | 44 u32 duration length

// Field identifiers reported with EDF_FIELD (index2 = signal, or -1 for the main header).
const FIELD_HEADER_BYTES = 0;
const FIELD_RECORDS = 1;
const FIELD_DURATION = 2;
const FIELD_SIGNALS = 3;
const FIELD_PHYSICAL_MIN = 10;
const FIELD_PHYSICAL_MAX = 11;
const FIELD_DIGITAL_MIN = 12;
const FIELD_DIGITAL_MAX = 13;
const FIELD_SAMPLES = 14;

// @ts-ignore: decorator
@inline function isDigit(c: u32): bool {
  return c - 0x30 < 10;
}

function matches(p: usize, text: string): bool {
  // Compile-time ASCII literal compared byte by byte (no runtime strings are created).
  for (let i = 0; i < text.length; i++) {
    if (<u32>load<u8>(p + <usize>i) != <u32>text.charCodeAt(i)) return false;
  }
  return true;
}

function isAnnotationLabel(p: usize): bool {
  if (!(matches(p, 'EDF Annotations') || matches(p, 'BDF Annotations'))) return false;
  return load<u8>(p, 15) == 0x20;
}

/** Two-digit groups "dd.mm.yy" (any non-digit separator). Returns -1 when malformed. */
function twoDigits(p: usize): i32 {
  const a = <u32>load<u8>(p);
  const b = <u32>load<u8>(p, 1);
  if (!isDigit(a) || !isDigit(b)) return -1;
  return <i32>((a - 0x30) * 10 + (b - 0x30));
}

function parseDateTime(base: usize): i32 {
  const d = base + 168;
  const t = base + 176;
  if (isDigit(load<u8>(d, 2)) || isDigit(load<u8>(d, 5)) || isDigit(load<u8>(t, 2)) || isDigit(load<u8>(t, 5))) {
    return fail(R.EDF_DATE, -1, 168, 0, 0);
  }
  const day = twoDigits(d);
  const month = twoDigits(d + 3);
  const year = twoDigits(d + 6);
  const hour = twoDigits(t);
  const minute = twoDigits(t + 3);
  const second = twoDigits(t + 6);
  if (day < 1 || day > 31 || month < 1 || month > 12 || year < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
    return fail(R.EDF_DATE, -1, 168, 0, 0);
  }
  setNum(1, day);
  setNum(2, month);
  setNum(3, year);
  setNum(4, hour);
  setNum(5, minute);
  setNum(6, second);
  return 0;
}

// Annotation parsing state.
let talTable: usize = 0;
let talCount: u32 = 0;
let textTable: usize = 0;
let textCount: u32 = 0;
let recordStarts: usize = 0;

/** Parses the TALs of one annotation signal in one data record: bytes [q, end). */
function parseTals(base: usize, q: usize, end: usize, record: i32, signal: i32, keepsTime: bool): i32 {
  let first = true;
  while (q < end) {
    const c = load<u8>(q);
    if (c == 0) {
      q++;
      continue;
    }
    const onsetStart = q;
    if (c != 0x2b && c != 0x2d) return fail(R.EDF_TAL_ONSET, signal, <i32>(q - base), record, 0);
    while (q < end) {
      const b = load<u8>(q);
      if (b == 0x14 || b == 0x15 || b == 0) break;
      q++;
    }
    const onsetEnd = q;
    const onset = parseDecimal(onsetStart, onsetEnd, 2, false);
    if (!numberOk) return fail(R.EDF_TAL_ONSET, signal, <i32>(onsetStart - base), record, 0);
    let inexact: u32 = numberExact ? 0 : 1;
    let duration: f64 = NaN;
    let durationStart: usize = 0;
    let durationEnd: usize = 0;
    if (q < end && load<u8>(q) == 0x15) {
      q++;
      durationStart = q;
      while (q < end) {
        const b = load<u8>(q);
        if (b == 0x14 || b == 0x15 || b == 0) break;
        q++;
      }
      durationEnd = q;
      duration = parseDecimal(durationStart, durationEnd, 0, false);
      if (!numberOk) return fail(R.EDF_TAL_DURATION, signal, <i32>(durationStart - base), record, 0);
      if (!numberExact) inexact |= 2;
    }
    if (q >= end || load<u8>(q) != 0x14) return fail(R.EDF_TAL_SEPARATOR, signal, <i32>(q - base), record, 0);
    q++;
    const firstText = textCount;
    let texts: u32 = 0;
    let timeKeeping = false;
    let isFirstText = true;
    while (q < end && load<u8>(q) != 0) {
      const textStart = q;
      while (q < end) {
        const b = load<u8>(q);
        if (b == 0x14 || b == 0) break;
        q++;
      }
      if (q == textStart) {
        if (isFirstText && first && keepsTime) timeKeeping = true;
      } else {
        // Bit 31 of the length marks text with bytes ≥ 0x80 (UTF-8 to decode); ASCII takes a fast path.
        let high: u32 = 0;
        for (let k = textStart; k < q; k++) high |= <u32>load<u8>(k);
        const t = textTable + (<usize>textCount << 3);
        store<u32>(t, <u32>textStart, 0);
        store<u32>(t, <u32>(q - textStart) | ((high & 0x80) << 24), 4);
        textCount++;
        texts++;
      }
      if (q < end && load<u8>(q) == 0x14) q++;
      isFirstText = false;
    }
    if (texts > 0 || timeKeeping) {
      const e = talTable + <usize>talCount * TAL_ENTRY;
      store<f64>(e, onset, 0);
      store<f64>(e, duration, 8);
      store<u32>(e, firstText, 16);
      store<u32>(e, texts, 20);
      store<i32>(e, record, 24);
      store<u16>(e, <u16>signal, 28);
      store<u8>(e, timeKeeping ? 1 : 0, 30);
      store<u8>(e, <u8>inexact, 31);
      store<u32>(e, <u32>onsetStart, 32);
      store<u32>(e, <u32>(onsetEnd - onsetStart), 36);
      store<u32>(e, <u32>durationStart, 40);
      store<u32>(e, <u32>(durationEnd - durationStart), 44);
      talCount++;
      if (timeKeeping) store<u32>(recordStarts + (<usize>record << 2), talCount);
    }
    first = false;
  }
  return 0;
}

/** Bytes of samples a batch of records decodes into (batched mode): well inside the L2 cache. */
const BATCH_BYTES: u32 = 256 << 10;

// What edfSamples() needs from the last edfDecode().
let convFormat: i32 = 0;
let convData: usize = 0;
let convRecordSize: usize = 0;
let convTable: usize = 0;
let convActive: usize = 0;
let convSignals: u32 = 0;
let convRaw = false;
let convRecords: u32 = 0;
let convBatch: u32 = 0;

/** Forgets the last file (its memory is about to be reused): edfSamples() then does nothing. */
export function edfForget(): void {
  convRecords = 0;
  convBatch = 0;
}

/**
 * Converts records [first, first + count) of the file the last edfDecode() call read: each ordinary
 * signal's samples go to its block (signal table offsets 32 and 36), record after record from the
 * block's start. `count` is at most the batch size (out slot 15); other calls do nothing.
 */
export function edfSamples(first: u32, count: u32): void {
  if (count > convBatch || <u64>first + <u64>count > <u64>convRecords) return;
  for (let r: u32 = 0; r < count; r++) {
    const record = convData + <usize>(first + r) * convRecordSize;
    for (let k: u32 = 0; k < convSignals; k++) {
      const e = convTable + <usize>load<u32>(convActive + (<usize>k << 2)) * SIGNAL_ENTRY;
      const spr = <u32>load<i32>(e, 24);
      const at = <usize>r * <usize>spr << 2;
      const rawAt = convRaw ? <usize>load<u32>(e, 36) + at : 0;
      convert(convFormat, record + <usize>load<u32>(e, 56), spr, <usize>load<u32>(e, 32) + at, rawAt, load<f64>(e, 40), load<f64>(e, 48));
    }
  }
}

/**
 * Decodes an EDF/BDF file of `len` bytes at `base`. flags bit 0: raw (digital) samples too; bit 1:
 * batched samples (see edfSamples; the samples and raw slots then hold one batch).
 * Outputs: slots 0 format (0 EDF, 1 BDF), 1 variant (0 plain, 1 +C, 2 +D), 2 header bytes, 3 signals,
 * 4 records, 5 records field, 6 signal table, 7 samples, 8 raw, 9 TAL table, 10 TAL count,
 * 11 text table, 12 record-start TAL indexes (+1, 0 none), 13 trailing bytes, 14 record size,
 * 15 records per batch;
 * numbers 0 record duration, 1..6 day month yy hour minute second.
 */
export function edfDecode(base: usize, len: u32, flags: u32): i32 {
  edfForget();
  const wantRaw = (flags & 1) != 0;
  if (len < 256) return fail(R.EDF_SHORT, -1, 0, len, 256);
  let bdf = false;
  if (matches(base, '0       ')) bdf = false;
  else if (load<u8>(base) == 0xff && matches(base + 1, 'BIOSEMI')) bdf = true;
  else return fail(R.EDF_MAGIC, -1, 0, load<u8>(base), 0);
  const format = bdf ? FORMAT_INT24 : FORMAT_INT16;
  const bps: u64 = bdf ? 3 : 2;
  const digitalLow: i32 = bdf ? -8388608 : -32768;
  const digitalHigh: i32 = bdf ? 8388607 : 32767;

  const r0 = parseDateTime(base);
  if (r0 != 0) return r0;
  const headerBytes = parseIntField(base + 184, 8);
  if (!numberOk) return fail(R.EDF_FIELD, FIELD_HEADER_BYTES, 184, 0, 0);
  const recordsField = parseIntField(base + 236, 8);
  if (!numberOk) return fail(R.EDF_FIELD, FIELD_RECORDS, 236, 0, 0);
  const duration = parseField(base + 244, 8, true);
  if (!numberOk) return fail(R.EDF_FIELD, FIELD_DURATION, 244, 0, 0);
  const signals = parseIntField(base + 252, 4);
  if (!numberOk) return fail(R.EDF_FIELD, FIELD_SIGNALS, 252, 0, 0);
  if (signals < 1) return fail(R.EDF_SIGNAL_COUNT, -1, 252, <f64>signals, 0);
  const expectedHeader = (<i64>signals + 1) * 256;
  if (headerBytes != expectedHeader) return fail(R.EDF_HEADER_BYTES, -1, 184, <f64>headerBytes, <f64>expectedHeader);
  if (<i64>len < headerBytes) return fail(R.EDF_HEADER_TRUNCATED, -1, 0, <f64>headerBytes, len);
  if (recordsField < -1) return fail(R.EDF_RECORD_COUNT, -1, 236, <f64>recordsField, 0);
  if (!(isFinite<f64>(duration) && duration >= 0)) return fail(R.EDF_DURATION, -1, 244, duration, 0);

  let variant: u32 = 0;
  const reserved = base + 192;
  if (matches(reserved, 'EDF+') || matches(reserved, 'BDF+')) {
    const kind = load<u8>(reserved, 4);
    if (kind == 0x43) variant = 1;
    else if (kind == 0x44) variant = 2;
  }

  const ns = <u32>signals;
  const table = arenaAlloc(<u64>ns * SIGNAL_ENTRY);
  if (table == 0) return fail(R.OUT_OF_MEMORY, -1, 0, <f64>ns * SIGNAL_ENTRY, 0);
  let recordSize: u64 = 0;
  let ordinary: u32 = 0;
  let annotationSignals: u32 = 0;
  let samplesPerRecordTotal: u64 = 0;
  for (let i: u32 = 0; i < ns; i++) {
    const e = table + <usize>i * SIGNAL_ENTRY;
    const isAnnotation = variant != 0 && isAnnotationLabel(base + 256 + <usize>i * 16);
    setIndex2(<i32>i);
    const spr = parseIntField(base + 256 + <usize>ns * 216 + <usize>i * 8, 8);
    if (!numberOk) return fail(R.EDF_FIELD, FIELD_SAMPLES, <i32>(256 + ns * 216 + i * 8), 0, 0);
    if (spr < 0) return fail(R.EDF_SAMPLES_PER_RECORD, <i32>i, <i32>(256 + ns * 216 + i * 8), <f64>spr, 0);
    let inexact: u32 = 0;
    const pmin = parseField(base + 256 + <usize>ns * 104 + <usize>i * 8, 8, true);
    const pminOk = numberOk;
    if (!numberExact) inexact |= 1;
    const pmax = parseField(base + 256 + <usize>ns * 112 + <usize>i * 8, 8, true);
    const pmaxOk = numberOk;
    if (!numberExact) inexact |= 2;
    const dmin = parseIntField(base + 256 + <usize>ns * 120 + <usize>i * 8, 8);
    const dminOk = numberOk;
    const dmax = parseIntField(base + 256 + <usize>ns * 128 + <usize>i * 8, 8);
    const dmaxOk = numberOk;
    let gain: f64 = 0;
    let offset: f64 = 0;
    if (!isAnnotation) {
      if (!pminOk || !isFinite<f64>(pmin)) return fail(R.EDF_FIELD, FIELD_PHYSICAL_MIN, <i32>(256 + ns * 104 + i * 8), 0, 0);
      if (!pmaxOk || !isFinite<f64>(pmax)) return fail(R.EDF_FIELD, FIELD_PHYSICAL_MAX, <i32>(256 + ns * 112 + i * 8), 0, 0);
      if (!dminOk) return fail(R.EDF_FIELD, FIELD_DIGITAL_MIN, <i32>(256 + ns * 120 + i * 8), 0, 0);
      if (!dmaxOk) return fail(R.EDF_FIELD, FIELD_DIGITAL_MAX, <i32>(256 + ns * 128 + i * 8), 0, 0);
      if (dmin >= dmax || dmin < <i64>digitalLow || dmax > <i64>digitalHigh) {
        return fail(R.EDF_DIGITAL_RANGE, <i32>i, <i32>(256 + ns * 120 + i * 8), <f64>dmin, <f64>dmax);
      }
      if (pmin == pmax) return fail(R.EDF_PHYSICAL_RANGE, <i32>i, <i32>(256 + ns * 104 + i * 8), pmin, pmax);
      gain = (pmax - pmin) / <f64>(dmax - dmin);
      offset = pmin - gain * <f64>dmin;
      ordinary++;
      samplesPerRecordTotal += <u64>spr;
    } else annotationSignals++;
    store<f64>(e, pminOk ? pmin : NaN, 0);
    store<f64>(e, pmaxOk ? pmax : NaN, 8);
    store<i32>(e, dminOk ? <i32>dmin : 0, 16);
    store<i32>(e, dmaxOk ? <i32>dmax : 0, 20);
    store<i32>(e, <i32>spr, 24);
    store<u32>(e, isAnnotation ? 1 : 0, 28);
    store<u32>(e, 0, 32);
    store<u32>(e, 0, 36);
    store<f64>(e, gain, 40);
    store<f64>(e, offset, 48);
    store<u32>(e, <u32>recordSize, 56);
    store<u32>(e, inexact, 60);
    recordSize += <u64>spr * bps;
    if (recordSize > <u64>len) return fail(R.EDF_DATA_TRUNCATED, -1, 0, <f64>recordSize, <f64>len - <f64>headerBytes);
  }
  setIndex2(-1);
  if (duration == 0 && ordinary > 0) return fail(R.EDF_ZERO_DURATION, -1, 244, 0, ordinary);
  if (variant == 2 && annotationSignals == 0) return fail(R.EDF_NO_ANNOTATIONS, -1, 192, 0, 0);

  const dataBytes = <u64>len - <u64>headerBytes;
  let records: u64;
  if (recordSize == 0) return fail(R.EDF_RECORD_SIZE, -1, 236, 0, 0);
  if (recordsField == -1) {
    records = dataBytes / recordSize;
  } else {
    records = <u64>recordsField;
    if (records * recordSize > dataBytes) {
      return fail(R.EDF_DATA_TRUNCATED, -1, 236, <f64>(records * recordSize), <f64>dataBytes);
    }
  }
  const nrec = <u32>records;
  const trailing = dataBytes - records * recordSize;

  // Samples of all ordinary signals, signal after signal: the whole recording in one block, or
  // (flags bit 1, "batched") only `batch` records at a time in a small block that edfSamples() fills
  // and the host copies out while it is in cache, so the host writes each output byte once.
  const batched = (flags & 2) != 0;
  let batch: u32 = nrec;
  if (batched && samplesPerRecordTotal > 0) {
    const fit = <u64>BATCH_BYTES / (samplesPerRecordTotal << 2);
    batch = fit < 1 ? 1 : fit < <u64>nrec ? <u32>fit : nrec;
  }
  const totalSamples = <u64>batch * samplesPerRecordTotal;
  const samples = arenaAlloc(totalSamples << 2);
  const raw = wantRaw ? arenaAlloc(totalSamples << 2) : 0;
  if (samples == 0 || (wantRaw && raw == 0)) return fail(R.OUT_OF_MEMORY, -1, 0, <f64>(totalSamples << (wantRaw ? 3 : 2)), 0);
  let cursor: u64 = 0;
  for (let i: u32 = 0; i < ns; i++) {
    const e = table + <usize>i * SIGNAL_ENTRY;
    if (load<u32>(e, 28) != 0) continue;
    store<u32>(e, <u32>(samples + <usize>(cursor << 2)), 32);
    if (wantRaw) store<u32>(e, <u32>(raw + <usize>(cursor << 2)), 36);
    cursor += <u64>batch * <u64>load<i32>(e, 24);
  }
  // Signals with samples, ordinary then annotation: the record loops visit only these, so their
  // work is bounded by the input size however many empty signals a header declares.
  const active = arenaAlloc(<u64>ns << 2);
  if (active == 0) return fail(R.OUT_OF_MEMORY, -1, 0, <f64>ns * 4, 0);
  let activeOrdinary: u32 = 0;
  let activeAll: u32 = 0;
  for (let pass = 0; pass < 2; pass++) {
    for (let i: u32 = 0; i < ns; i++) {
      const e = table + <usize>i * SIGNAL_ENTRY;
      if (load<i32>(e, 24) == 0 || load<u32>(e, 28) != <u32>pass) continue;
      store<u32>(active + (<usize>activeAll << 2), i);
      activeAll++;
    }
    if (pass == 0) activeOrdinary = activeAll;
  }
  const data = base + <usize>headerBytes;
  const rs = <usize>recordSize;
  convFormat = format;
  convData = data;
  convRecordSize = rs;
  convTable = table;
  convActive = active;
  convSignals = activeOrdinary;
  convRaw = wantRaw;
  convRecords = nrec;
  convBatch = batch;
  if (!batched) edfSamples(0, nrec);

  // Annotations: size the tables by counting 0x14 separators, then parse every TAL.
  talCount = 0;
  textCount = 0;
  talTable = 0;
  textTable = 0;
  recordStarts = 0;
  if (annotationSignals > 0) {
    let separators: u64 = 0;
    for (let r: u32 = 0; r < nrec; r++) {
      const record = data + <usize>r * rs;
      for (let k: u32 = activeOrdinary; k < activeAll; k++) {
        const e = table + <usize>load<u32>(active + (<usize>k << 2)) * SIGNAL_ENTRY;
        const q = record + <usize>load<u32>(e, 56);
        const n = <usize>load<i32>(e, 24) * <usize>bps;
        for (let k: usize = 0; k < n; k++) if (load<u8>(q + k) == 0x14) separators++;
      }
    }
    talTable = arenaAlloc((separators + 1) * TAL_ENTRY);
    textTable = arenaAlloc((separators * 2 + 1) << 3);
    recordStarts = arenaAlloc(<u64>nrec << 2);
    if (talTable == 0 || textTable == 0 || recordStarts == 0) return fail(R.OUT_OF_MEMORY, -1, 0, <f64>(separators * 64), 0);
    memory.fill(recordStarts, 0, <usize>nrec << 2);
    for (let r: u32 = 0; r < nrec; r++) {
      const record = data + <usize>r * rs;
      let keepsTime = true;
      for (let k: u32 = activeOrdinary; k < activeAll; k++) {
        const i = load<u32>(active + (<usize>k << 2));
        const e = table + <usize>i * SIGNAL_ENTRY;
        const q = record + <usize>load<u32>(e, 56);
        const n = <usize>load<i32>(e, 24) * <usize>bps;
        const res = parseTals(base, q, q + n, <i32>r, <i32>i, keepsTime);
        if (res != 0) return res;
        keepsTime = false;
      }
      if (variant == 2 && load<u32>(recordStarts + (<usize>r << 2)) == 0) return fail(R.EDF_RECORD_START, -1, <i32>(record - base), r, 0);
    }
  }

  setOut(0, bdf ? 1 : 0);
  setOut(1, variant);
  setOut(2, <u32>headerBytes);
  setOut(3, ns);
  setOut(4, nrec);
  setOut(5, <u32>(<i32>recordsField));
  setOut(6, <u32>table);
  setOut(7, <u32>samples);
  setOut(8, <u32>raw);
  setOut(9, <u32>talTable);
  setOut(10, talCount);
  setOut(11, <u32>textTable);
  setOut(12, <u32>recordStarts);
  setOut(13, <u32>trailing);
  setOut(14, <u32>recordSize);
  setOut(15, batch);
  setNum(0, duration);
  return 0;
}
