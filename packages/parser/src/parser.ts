// The typed wrapper around the WebAssembly parser. Platform-neutral: node.ts and browser.ts only add
// the loading of the .wasm file.
import type { EdfAnnotation, EdfFile, EdfHeader, EdfSignalHeader, EdfStart } from './edf.ts';
import { ParseError } from './errors.ts';
import { failureToError, REASONS, type FailureReport } from './reasons.ts';
import {
  SMF_BYTES_PER_SAMPLE,
  SMF_CHANNEL_CODES,
  SMF_FORMAT_CODES,
  SMF_HEADER_SIZE,
  SMF_MAX_MULTI_FRAMES,
  SMF_MAX_VALUES,
  SMF_MIN_FRAME_SIZE,
  SMF_WIDTHS,
  smfChannelName,
  smfFormatName,
  type SmfFrame,
  type SmfFrameInit,
  type SmfMultiFrame,
  type SmfSampleFrame,
  type SmfSampleFrameInit,
} from './smf.ts';
import { instantiateParser, type ParserExports, type WasmSource } from './wasm.ts';

/** Bytes to decode; a string is taken as base64 and decoded first (inside the module). */
export type ParserInput = Uint8Array | ArrayBuffer | ArrayBufferView | string;

export interface DecodeOptions {
  /** Also return the samples as sent: SMF `raw`, EDF `digital`. Default false. */
  raw?: boolean;
  /**
   * Default true: typed arrays in the result are backed by fresh ArrayBuffers of their own (a few
   * per call, each shared by consecutive frames or signals) and stay valid for ever. With false they are views straight into
   * the module's memory: no copy, but they are overwritten by the next call on this parser and
   * detached (length 0) when its memory grows. Use false only to consume the result at once.
   */
  copy?: boolean;
}

const MAX_INPUT = 0x7fff0000;
/** Most bytes of one fresh output ArrayBuffer shared by consecutive frames or signals (one bigger signal gets its own). */
const COPY_GROUP = 4 << 20;
const utf8 = new TextDecoder('utf-8');
const encoder = new TextEncoder();

/** Bytes as one char code each (ISO-8859-1), without a TextDecoder call (costly for short strings). */
function latin1(bytes: Uint8Array): string {
  if (bytes.length <= 4096) return String.fromCharCode.apply(null, bytes as unknown as number[]);
  let text = '';
  for (let i = 0; i < bytes.length; i += 4096) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 4096) as unknown as number[]);
  return text;
}

/** A fixed-width EDF header field without its trailing spaces. */
function field(bytes: Uint8Array, start: number, width: number): string {
  let end = start + width;
  while (end > start && bytes[end - 1] === 0x20) end--;
  return latin1(bytes.subarray(start, end));
}

/** A number field the module could not convert exactly: JavaScript's own parsing, as the reference. */
function reparsed(bytes: Uint8Array, start: number, width: number): number {
  return Number(field(bytes, start, width).trim());
}

type UnsafeAllocator = (size: number) => Uint8Array;
/** Node's Buffer.allocUnsafeSlow: a fresh ArrayBuffer of its own, not zero-filled. */
const allocUnsafe = (globalThis as { Buffer?: { allocUnsafeSlow?: UnsafeAllocator } }).Buffer?.allocUnsafeSlow;

/**
 * A fresh ArrayBuffer of `size` bytes that the caller fills completely at once. new ArrayBuffer()
 * and buffer.slice() zero-fill their memory first (a second pass over every output byte) and their
 * large zeroed blocks come fresh from the system, a page fault per 4 KiB; where Node's unfilled
 * allocation exists it is used instead (measured 3 to 4 times faster for 1 to 35 MB).
 */
function freshBuffer(size: number): ArrayBuffer {
  if (allocUnsafe !== undefined && size > 0) {
    const bytes = allocUnsafe(size);
    if (bytes.byteOffset === 0 && bytes.buffer instanceof ArrayBuffer && bytes.buffer.byteLength === size) return bytes.buffer;
  }
  return new ArrayBuffer(size);
}

/** A fresh ArrayBuffer holding bytes [start, end) of `buffer`. */
function copyOut(buffer: ArrayBuffer, start: number, end: number): ArrayBuffer {
  const copy = freshBuffer(end - start);
  new Uint8Array(copy).set(new Uint8Array(buffer, start, end - start));
  return copy;
}

function isoLocal(start: EdfStart): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${String(start.year).padStart(4, '0')}-${two(start.month)}-${two(start.day)}T${two(start.hour)}:${two(start.minute)}:${two(start.second)}`;
}

function asBytes(input: Exclude<ParserInput, string>): Uint8Array {
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  throw new TypeError('expected a Uint8Array, an ArrayBuffer, a typed array or a base64 string');
}

export class Parser {
  readonly #wasm: ParserExports;
  #prepared = -1;
  #preparedLength = 0;

  constructor(wasm: ParserExports) {
    this.#wasm = wasm;
  }

  /** Instantiates the module from a compiled module, its bytes or a fetch() response. */
  static async create(source: WasmSource): Promise<Parser> {
    return new Parser(await instantiateParser(source));
  }

  /** Bytes of linear memory the module holds now (it grows on demand up to 2 GiB and never shrinks). */
  get memoryBytes(): number {
    return this.#wasm.memory.buffer.byteLength;
  }

  /**
   * Returns a view of `length` bytes inside the module's memory: fill it (e.g. fs.readSync into it,
   * or copy network chunks into it) and pass it to the next decode call, which then reads it in place
   * without copying. Valid until the next call on this parser.
   */
  prepareInput(length: number): Uint8Array {
    if (!Number.isInteger(length) || length < 0 || length > MAX_INPUT) throw new RangeError(`prepareInput: bad length ${length}`);
    this.#wasm.reset();
    const pointer = this.#alloc(length);
    this.#prepared = pointer;
    this.#preparedLength = length;
    return new Uint8Array(this.#wasm.memory.buffer, pointer, length);
  }

  /** CRC-32 (IEEE) of some bytes, as SMF frames use it. */
  crc32(input: Uint8Array | ArrayBuffer | ArrayBufferView): number {
    const [pointer, length] = this.#load(asBytes(input));
    return this.#wasm.crc32(pointer, length) >>> 0;
  }

  /** Decodes base64 (forgiving: whitespace ignored, padding optional, like atob) to bytes. */
  decodeBase64(text: string): Uint8Array {
    if (typeof text !== 'string') throw new TypeError('decodeBase64 expects a string');
    const [pointer, length] = this.#loadBase64(text);
    return new Uint8Array(this.#wasm.memory.buffer.slice(pointer, pointer + length));
  }

  /** Decodes exactly one SMF frame (trailing bytes are an error). */
  decodeSmfFrame(input: ParserInput, options: DecodeOptions = {}): SmfFrame {
    const frames = this.#decodeSmf(input, options, true);
    return frames[0] as SmfFrame;
  }

  /** Decodes a sequence of SMF frames, e.g. a recording file or an HTTP batch. Empty input gives []. */
  decodeSmfStream(input: ParserInput, options: DecodeOptions = {}): SmfFrame[] {
    return this.#decodeSmf(input, options, false);
  }

  /** Encodes one SMF frame (version 1) with its CRC. Invalid arguments throw RangeError or TypeError. */
  encodeSmfFrame(frame: SmfFrameInit): Uint8Array {
    const w = this.#wasm;
    this.#prepared = -1;
    w.reset();
    if (frame.channel === 'multi') {
      checkCommon(frame);
      const children = frame.frames;
      if (!Array.isArray(children) || children.length < 1 || children.length > SMF_MAX_MULTI_FRAMES) {
        throw new RangeError(`a multi frame carries 1 to ${SMF_MAX_MULTI_FRAMES} frames`);
      }
      const plans = children.map((child) => planSampleFrame(child));
      const payload = plans.reduce((sum, plan) => sum + SMF_MIN_FRAME_SIZE + plan.payload, 0);
      const pointer = this.#alloc(SMF_MIN_FRAME_SIZE + payload);
      let at = pointer + SMF_HEADER_SIZE;
      for (const plan of plans) {
        this.#encodeSampleFrame(at, plan);
        at += SMF_MIN_FRAME_SIZE + plan.payload;
      }
      const reason = w.smfFinishFrame(pointer, SMF_CHANNEL_CODES.multi, 0, 0, frame.sequence, frame.startTimeUs, 0, children.length, 0, 0, payload);
      if (reason !== 0) throw new RangeError(`encodeSmfFrame: ${this.#failure(reason, pointer).message}`);
      return new Uint8Array(w.memory.buffer.slice(pointer, pointer + SMF_MIN_FRAME_SIZE + payload));
    }
    const plan = planSampleFrame(frame);
    const pointer = this.#alloc(SMF_MIN_FRAME_SIZE + plan.payload);
    this.#encodeSampleFrame(pointer, plan);
    return new Uint8Array(w.memory.buffer.slice(pointer, pointer + SMF_MIN_FRAME_SIZE + plan.payload));
  }

  /** Decodes an EDF, EDF+, BDF or BDF+ file. */
  decodeEdf(input: ParserInput, options: DecodeOptions = {}): EdfFile {
    const w = this.#wasm;
    const [pointer, length] = this.#load(input);
    const copy = options.copy !== false;
    const reason = w.edfDecode(pointer, length, (options.raw ? 1 : 0) | (copy ? 2 : 0));
    if (reason !== 0) throw this.#failure(reason, pointer);
    const buffer = w.memory.buffer;
    const view = new DataView(buffer);
    const bytes = new Uint8Array(buffer, pointer, length);
    const res = w.result();
    const out = new Uint32Array(buffer, res + 32, 16);
    const num = new Float64Array(buffer, res + 96, 8);
    const bdf = out[0] === 1;
    const variantCode = out[1] as number;
    const signalCount = out[3] as number;
    const recordCount = out[4] as number;
    const table = out[6] as number;
    const recordDuration = num[0] as number;

    const signals: EdfSignalHeader[] = [];
    const samples: (Float32Array | null)[] = [];
    const digital: (Int32Array | null)[] = [];
    for (let i = 0; i < signalCount; i++) {
      const e = table + i * 64;
      const spr = view.getInt32(e + 24, true);
      const isAnnotation = view.getUint32(e + 28, true) === 1;
      const inexact = view.getUint32(e + 60, true);
      signals.push({
        label: field(bytes, 256 + i * 16, 16),
        transducer: field(bytes, 256 + signalCount * 16 + i * 80, 80),
        physicalDimension: field(bytes, 256 + signalCount * 96 + i * 8, 8),
        physicalMin: (inexact & 1) !== 0 ? reparsed(bytes, 256 + signalCount * 104 + i * 8, 8) : view.getFloat64(e, true),
        physicalMax: (inexact & 2) !== 0 ? reparsed(bytes, 256 + signalCount * 112 + i * 8, 8) : view.getFloat64(e + 8, true),
        digitalMin: view.getInt32(e + 16, true),
        digitalMax: view.getInt32(e + 20, true),
        prefilter: field(bytes, 256 + signalCount * 136 + i * 80, 80),
        samplesPerRecord: spr,
        reserved: field(bytes, 256 + signalCount * 224 + i * 32, 32),
        sampleRate: recordDuration > 0 ? spr / recordDuration : 0,
        isAnnotation,
      });
    }
    if (copy) this.#copyEdfSamples(buffer, table, signals, recordCount, out[15] as number, options.raw === true, samples, digital);
    else {
      for (let i = 0; i < signalCount; i++) {
        const e = table + i * 64;
        const signal = signals[i] as EdfSignalHeader;
        if (signal.isAnnotation) {
          samples.push(null);
          digital.push(null);
          continue;
        }
        const count = signal.samplesPerRecord * recordCount;
        samples.push(new Float32Array(buffer, view.getUint32(e + 32, true), count));
        if (options.raw) digital.push(new Int32Array(buffer, view.getUint32(e + 36, true), count));
      }
    }

    // Annotations and record start times.
    const annotations: EdfAnnotation[] = [];
    const recordStartTimes = new Float64Array(recordCount);
    for (let r = 0; r < recordCount; r++) recordStartTimes[r] = r * recordDuration;
    const talTable = out[9] as number;
    const talCount = out[10] as number;
    const textTable = out[11] as number;
    const recordStarts = out[12] as number;
    const talOf: number[] = [];
    const memory = new Uint8Array(buffer);
    for (let k = 0; k < talCount; k++) {
      const e = talTable + k * 48;
      const flags = view.getUint8(e + 31);
      const onset =
        (flags & 1) !== 0 ? Number(latin1(new Uint8Array(buffer, view.getUint32(e + 32, true), view.getUint32(e + 36, true)))) : view.getFloat64(e, true);
      let duration: number | null = view.getFloat64(e + 8, true);
      if ((flags & 2) !== 0) duration = Number(latin1(new Uint8Array(buffer, view.getUint32(e + 40, true), view.getUint32(e + 44, true))));
      else if (Number.isNaN(duration)) duration = null;
      const firstText = view.getUint32(e + 16, true);
      const textCount = view.getUint32(e + 20, true);
      const texts: string[] = [];
      for (let t = 0; t < textCount; t++) {
        const entry = textTable + (firstText + t) * 8;
        const start = view.getUint32(entry, true);
        const size = view.getUint32(entry + 4, true);
        const length = size & 0x7fffffff;
        const text = memory.subarray(start, start + length);
        texts.push(size === length ? latin1(text) : utf8.decode(text));
      }
      talOf.push(onset);
      if (texts.length > 0) {
        annotations.push({ onset, duration, texts, record: view.getInt32(e + 24, true), signal: view.getUint16(e + 28, true) });
      }
    }
    if (recordStarts !== 0) {
      for (let r = 0; r < recordCount; r++) {
        const index = view.getUint32(recordStarts + r * 4, true);
        if (index !== 0) recordStartTimes[r] = talOf[index - 1] as number;
      }
    }

    const patient = field(bytes, 8, 80);
    const recording = field(bytes, 88, 80);
    const startDate = field(bytes, 168, 8);
    const startTime = field(bytes, 176, 8);
    const yy = num[3] as number;
    const plusYear = variantCode !== 0 ? /^Startdate \d{2}-[A-Za-z]{3}-(\d{4})/.exec(recording) : null;
    const year = plusYear ? Number(plusYear[1]) : yy >= 85 ? 1900 + yy : 2000 + yy;
    const start = { year, month: num[2] as number, day: num[1] as number, hour: num[4] as number, minute: num[5] as number, second: num[6] as number };
    const header: EdfHeader = {
      format: bdf ? 'BDF' : 'EDF',
      variant: variantCode === 1 ? 'continuous' : variantCode === 2 ? 'discontinuous' : 'plain',
      version: bdf ? field(bytes, 1, 7) : field(bytes, 0, 8),
      patient,
      recording,
      startDate,
      startTime,
      start,
      startDateTime: isoLocal(start),
      headerBytes: out[2] as number,
      reserved: field(bytes, 192, 44),
      recordCount,
      recordCountField: (out[5] as number) | 0,
      recordDuration,
      signalCount,
      signals,
      recordSize: out[14] as number,
      trailingBytes: out[13] as number,
    };
    const result: EdfFile = { header, samples, annotations, recordStartTimes };
    if (options.raw) result.digital = digital;
    return result;
  }

  /**
   * The samples (and digital values) of a batched edfDecode() call into fresh arrays: the module
   * converts a few records at a time into a small block (out slot 15 records per batch) and each
   * signal's part is copied to its place while it is in cache. Output bytes are written once, not
   * written into the module memory and then copied out of it (for an 8-hour night, 35 MB twice).
   * Consecutive signals share one ArrayBuffer up to COPY_GROUP bytes.
   */
  #copyEdfSamples(
    buffer: ArrayBuffer,
    table: number,
    signals: EdfSignalHeader[],
    recordCount: number,
    batch: number,
    raw: boolean,
    samples: (Float32Array | null)[],
    digital: (Int32Array | null)[],
  ): void {
    const view = new DataView(buffer);
    const ordinary: number[] = [];
    for (let i = 0; i < signals.length; i++) {
      const signal = signals[i] as EdfSignalHeader;
      samples.push(null);
      digital.push(null);
      if (!signal.isAnnotation) ordinary.push(i);
    }
    for (let g = 0; g < ordinary.length;) {
      let bytes = (signals[ordinary[g] as number] as EdfSignalHeader).samplesPerRecord * recordCount * 4;
      let end = g + 1;
      while (end < ordinary.length) {
        const more = (signals[ordinary[end] as number] as EdfSignalHeader).samplesPerRecord * recordCount * 4;
        if (bytes + more > COPY_GROUP) break;
        bytes += more;
        end++;
      }
      let group: ArrayBuffer;
      let rawGroup: ArrayBuffer;
      try {
        group = freshBuffer(bytes);
        rawGroup = raw ? freshBuffer(bytes) : group;
      } catch (error) {
        // The samples no longer pass through the module's 2 GiB memory, so its out-of-memory check
        // cannot catch this: report a failed output allocation the same way.
        if (!(error instanceof RangeError)) throw error;
        throw new ParseError('unsupported', `input too large: decoding it needs ${Math.ceil(bytes / 1048576)} MiB of samples that could not be allocated`);
      }
      let at = 0;
      for (let k = g; k < end; k++) {
        const i = ordinary[k] as number;
        const count = (signals[i] as EdfSignalHeader).samplesPerRecord * recordCount;
        samples[i] = new Float32Array(group, at, count);
        if (raw) digital[i] = new Int32Array(rawGroup, at, count);
        at += count * 4;
      }
      g = end;
    }
    if (batch <= 0) return;
    const memory32 = new Float32Array(buffer);
    const memoryI32 = new Int32Array(buffer);
    for (let first = 0; first < recordCount; first += batch) {
      const count = Math.min(batch, recordCount - first);
      this.#wasm.edfSamples(first, count);
      for (const i of ordinary) {
        const spr = (signals[i] as EdfSignalHeader).samplesPerRecord;
        if (spr === 0) continue;
        const e = table + i * 64;
        const from = view.getUint32(e + 32, true) >>> 2;
        (samples[i] as Float32Array).set(memory32.subarray(from, from + count * spr), first * spr);
        if (raw) {
          const rawFrom = view.getUint32(e + 36, true) >>> 2;
          (digital[i] as Int32Array).set(memoryI32.subarray(rawFrom, rawFrom + count * spr), first * spr);
        }
      }
    }
  }

  #decodeSmf(input: ParserInput, options: DecodeOptions, single: boolean): SmfFrame[] {
    const w = this.#wasm;
    const [pointer, length] = this.#load(input);
    const reason = w.smfDecode(pointer, length, (options.raw ? 1 : 0) | (single ? 2 : 0));
    if (reason !== 0) throw this.#failure(reason, pointer);
    const buffer = w.memory.buffer;
    const out = new Uint32Array(buffer, w.result() + 32, 16);
    const table = out[0] as number;
    const entries = out[1] as number;
    const valuesBase = out[3] as number;
    const rawBase = out[4] as number;
    const copy = options.copy !== false;
    const withRaw = options.raw === true;
    const rawDelta = rawBase - valuesBase;
    let groupStart = 0;
    let groupEnd = copy ? -1 : 0x7fffffff;
    let valueBuffer: ArrayBuffer = buffer;
    let rawBuffer: ArrayBuffer = buffer;

    // The frame table: 64-byte entries with every header field decoded (see assembly/smf.ts).
    const u32 = new Uint32Array(buffer, table, entries * 16);
    const i32 = new Int32Array(buffer, table, entries * 16);
    const f32 = new Float32Array(buffer, table, entries * 16);
    const f64 = new Float64Array(buffer, table, entries * 8);
    const u8 = new Uint8Array(buffer, table, entries * 64);
    const u16 = new Uint16Array(buffer, table, entries * 32);
    const frames: SmfFrame[] = [];
    const byEntry: SmfFrame[] = [];
    for (let k = 0; k < entries; k++) {
      const w = k * 16;
      const parent = i32[w + 3] as number;
      const channel = smfChannelName(u8[k * 64 + 46] as number);
      const sequence = u32[w + 10] as number;
      const startTimeUs = f64[k * 8 + 4] as number;
      const byteOffset = (u32[w] as number) - pointer;
      const byteLength = u32[w + 7] as number;
      const crc = u32[w + 6] as number;
      // Plain object literals, not spreads: V8 builds a spread object some 100 times slower.
      let frame: SmfFrame;
      if (channel === 'multi') {
        frame = { version: 1, sequence, startTimeUs, byteOffset, byteLength, crc, channel, frames: [] } satisfies SmfMultiFrame;
      } else {
        const format = smfFormatName(u8[k * 64 + 47] as number);
        if (channel === undefined || format === undefined) throw new Error('parser module returned an invalid frame table');
        const count = u32[w + 5] as number;
        const at = u32[w + 1] as number;
        if (at + count * 4 > groupEnd) {
          // Copy out the values of this frame and the next ones, up to COPY_GROUP bytes, in one piece.
          groupStart = at;
          groupEnd = at + count * 4;
          for (let j = k + 1; j < entries; j++) {
            const end = (u32[j * 16 + 1] as number) + (u32[j * 16 + 5] as number) * 4;
            if (end - groupStart > COPY_GROUP) break;
            if (end > groupEnd) groupEnd = end;
          }
          valueBuffer = copyOut(buffer, groupStart, groupEnd);
          if (withRaw) rawBuffer = copyOut(buffer, groupStart + rawDelta, groupEnd + rawDelta);
        }
        const offset = copy ? at - groupStart : at;
        const sampleFrame: SmfSampleFrame = {
          version: 1,
          sequence,
          startTimeUs,
          byteOffset,
          byteLength,
          crc,
          channel,
          format,
          width: u16[k * 32 + 22] as number,
          sampleRate: f32[w + 12] as number,
          sampleCount: u32[w + 13] as number,
          scale: f32[w + 14] as number,
          offset: f32[w + 15] as number,
          values: new Float32Array(valueBuffer, offset, count),
        };
        if (withRaw) {
          const rawAt = copy ? offset : offset + rawDelta;
          sampleFrame.raw = format === 'float32' ? new Float32Array(rawBuffer, rawAt, count) : new Int32Array(rawBuffer, rawAt, count);
        }
        frame = sampleFrame;
      }
      byEntry.push(frame);
      if (parent < 0) frames.push(frame);
      else (byEntry[parent] as SmfMultiFrame).frames.push(frame as SmfSampleFrame);
    }
    return frames;
  }

  #encodeSampleFrame(pointer: number, plan: SamplePlan): void {
    const w = this.#wasm;
    const count = plan.samples.length;
    const source = this.#alloc(count * 8);
    const staging = new Float64Array(w.memory.buffer, source, count);
    for (let i = 0; i < count; i++) staging[i] = Number(plan.samples[i]);
    let reason = w.smfEncodeSamples(pointer + SMF_HEADER_SIZE, source, count, plan.format, plan.kind, plan.scale, plan.offset);
    if (reason === REASONS.ENC_RANGE) {
      const report = this.#report(reason, pointer);
      throw new RangeError(
        `encodeSmfFrame: sample ${report.index} (${report.a}) does not fit ${plan.formatName}${plan.kind === 1 ? ` at scale ${plan.scale} and offset ${plan.offset}` : ''}`,
      );
    }
    reason = w.smfFinishFrame(
      pointer,
      plan.channel,
      plan.format,
      plan.width,
      plan.sequence,
      plan.startTimeUs,
      plan.sampleRate,
      plan.sampleCount,
      plan.scale,
      plan.offset,
      plan.payload,
    );
    if (reason !== 0) throw new RangeError(`encodeSmfFrame: ${this.#failure(reason, pointer).message}`);
  }

  #alloc(size: number): number {
    if (size > MAX_INPUT) throw new ParseError('unsupported', `input too large: ${size} bytes (the parser handles up to 2 GiB including its outputs)`);
    const pointer = this.#wasm.alloc(size);
    if (pointer === 0) throw new ParseError('unsupported', `input too large: the parser could not get ${size} more bytes of memory (limit 2 GiB)`);
    return pointer;
  }

  #load(input: ParserInput): [number, number] {
    if (typeof input === 'string') return this.#loadBase64(input);
    const w = this.#wasm;
    const bytes = asBytes(input);
    if (this.#prepared >= 0 && bytes.buffer === w.memory.buffer && bytes.byteOffset === this.#prepared && bytes.byteLength <= this.#preparedLength) {
      this.#prepared = -1;
      return [bytes.byteOffset, bytes.byteLength];
    }
    this.#prepared = -1;
    // A view into this parser's memory (e.g. a { copy: false } result) would be overwritten or
    // detached by the reset below: take a copy first.
    const source = bytes.buffer === w.memory.buffer ? bytes.slice() : bytes;
    w.reset();
    const pointer = this.#alloc(source.byteLength);
    new Uint8Array(w.memory.buffer, pointer, source.byteLength).set(source);
    return [pointer, source.byteLength];
  }

  #loadBase64(text: string): [number, number] {
    const w = this.#wasm;
    this.#prepared = -1;
    w.reset();
    const capacity = text.length * 3;
    const pointer = this.#alloc(capacity);
    const { written } = encoder.encodeInto(text, new Uint8Array(w.memory.buffer, pointer, capacity));
    const reason = w.base64Decode(pointer, written);
    if (reason !== 0) throw this.#failure(reason, pointer);
    return [pointer, new DataView(w.memory.buffer).getUint32(w.result() + 32, true)];
  }

  #report(reason: number, pointer: number): FailureReport {
    const w = this.#wasm;
    const view = new DataView(w.memory.buffer);
    const res = w.result();
    return {
      reason,
      index: view.getInt32(res + 4, true),
      offset: view.getInt32(res + 8, true),
      index2: view.getInt32(res + 12, true),
      a: view.getFloat64(res + 16, true),
      b: view.getFloat64(res + 24, true),
      text: (offset, width) => latin1(new Uint8Array(w.memory.buffer, pointer + offset, width)),
    };
  }

  #failure(reason: number, pointer: number): ParseError {
    return failureToError(this.#report(reason, pointer));
  }
}

interface SamplePlan {
  channel: number;
  format: number;
  formatName: string;
  width: number;
  sequence: number;
  startTimeUs: number;
  sampleRate: number;
  sampleCount: number;
  scale: number;
  offset: number;
  kind: 0 | 1;
  samples: ArrayLike<number>;
  payload: number;
}

function checkCommon(frame: { sequence: number; startTimeUs: number }): void {
  if (!Number.isInteger(frame.sequence) || frame.sequence < 0 || frame.sequence > 0xffffffff) {
    throw new RangeError(`encodeSmfFrame: sequence ${frame.sequence} is not an unsigned 32-bit integer`);
  }
  if (!Number.isSafeInteger(frame.startTimeUs)) throw new RangeError(`encodeSmfFrame: startTimeUs ${frame.startTimeUs} is not a safe integer`);
}

function planSampleFrame(frame: SmfSampleFrameInit): SamplePlan {
  checkCommon(frame);
  const channel = SMF_CHANNEL_CODES[frame.channel];
  const widths = SMF_WIDTHS[frame.channel];
  if (channel === undefined || widths === undefined || frame.channel === ('multi' as string)) {
    throw new TypeError(`encodeSmfFrame: unknown channel ${String(frame.channel)}`);
  }
  const format = SMF_FORMAT_CODES[frame.format];
  if (format === undefined) throw new TypeError(`encodeSmfFrame: unknown sample format ${String(frame.format)}`);
  const width = frame.width ?? (widths.length === 1 ? (widths[0] as number) : undefined);
  if (width === undefined || !widths.includes(width)) {
    throw new RangeError(`encodeSmfFrame: channel ${frame.channel} needs width ${widths.join(' or ')}, got ${String(frame.width)}`);
  }
  if ((frame.raw === undefined) === (frame.values === undefined)) throw new TypeError('encodeSmfFrame: give exactly one of raw or values');
  const samples = (frame.raw ?? frame.values) as ArrayLike<number>;
  if (samples.length % width !== 0) throw new RangeError(`encodeSmfFrame: ${samples.length} values is not a whole number of ${width}-value sample points`);
  if (samples.length > SMF_MAX_VALUES) throw new RangeError(`encodeSmfFrame: ${samples.length} values exceed the limit of ${SMF_MAX_VALUES} per frame`);
  const sampleRate = Math.fround(frame.sampleRate);
  if (!(Number.isFinite(sampleRate) && sampleRate > 0))
    throw new RangeError(`encodeSmfFrame: sample rate ${frame.sampleRate} is not a positive finite float32`);
  const scale = Math.fround(frame.scale ?? 1);
  const offset = Math.fround(frame.offset ?? 0);
  if (!(Number.isFinite(scale) && scale !== 0 && Number.isFinite(offset))) {
    throw new RangeError(`encodeSmfFrame: scale ${frame.scale} and offset ${frame.offset} must be finite float32 values and the scale non-zero`);
  }
  return {
    channel,
    format,
    formatName: frame.format,
    width,
    sequence: frame.sequence,
    startTimeUs: frame.startTimeUs,
    sampleRate,
    sampleCount: samples.length / width,
    scale,
    offset,
    kind: frame.raw !== undefined ? 0 : 1,
    samples,
    payload: samples.length * (SMF_BYTES_PER_SAMPLE[frame.format] as number),
  };
}
