import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  loadParser,
  ParseError,
  SMF_CHANNELS,
  SMF_CHANNEL_CODES,
  SMF_SAMPLE_FORMATS,
  SMF_WIDTHS,
  type SmfFrame,
  type SmfMultiFrame,
  type SmfSampleChannel,
  type SmfSampleFormat,
  type SmfSampleFrame,
  type SmfSampleFrameInit,
} from './node.ts';
import { firstMismatch } from './testing/compare.ts';
import { Random } from './testing/random.ts';
import { referenceDecodeSmfStream, type ReferenceSmfFrame } from './testing/reference.ts';
import { concat, fixCrc, withField } from './testing/smfFrames.ts';

const parser = await loadParser();
const T0 = 1_700_000_000_123_456;

function rawSamples(random: Random, format: SmfSampleFormat, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    if (format === 'int16') out.push(i < 2 ? ([-32768, 32767][i] as number) : random.int(-32768, 32767));
    else if (format === 'int24') out.push(i < 2 ? ([-8388608, 8388607][i] as number) : random.int(-8388608, 8388607));
    else out.push(Math.fround(i === 0 ? -0 : i === 1 ? 3.4e38 : (random.next() - 0.5) * 10 ** random.int(-30, 30)));
  }
  return out;
}

function sampleFrame(frame: SmfFrame): SmfSampleFrame {
  if (frame.channel === 'multi') throw new Error('expected a sample frame');
  return frame;
}

function decodedValues(raw: ArrayLike<number>, scale: number, offset: number): Float32Array {
  return Float32Array.from(Array.from(raw, (r) => r * Math.fround(scale) + Math.fround(offset)));
}

describe('CRC-32', () => {
  it('is the IEEE CRC-32 (check value of "123456789" is 0xCBF43926) and agrees with zlib', () => {
    expect(parser.crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    const random = new Random(7);
    for (const length of [0, 1, 3, 15, 16, 17, 31, 32, 33, 100, 1000, 65539]) {
      const bytes = random.bytes(length);
      expect(parser.crc32(bytes)).toBe(crc32(bytes));
    }
  });
});

describe('SMF round trips', () => {
  const random = new Random(42);
  const cases: [SmfSampleChannel, SmfSampleFormat, number][] = [];
  for (const channel of SMF_CHANNELS) {
    if (channel === 'multi') continue;
    for (const format of SMF_SAMPLE_FORMATS) for (const width of SMF_WIDTHS[channel]) cases.push([channel, format, width]);
  }

  it.each(cases)('%s as %s, width %i: header, raw samples and physical values', (channel, format, width) => {
    // Offset 0 with a float32 scale takes the single-precision SIMD path: it must stay bit-identical
    // (including +0 for 0 × negative scale) to raw × scale + offset computed in double precision.
    for (const [points, scale, offset] of [
      [0, 0.125, -3.5],
      [1, 0.125, -3.5],
      [7, -0.37, 0],
      [8, 0.125, -3.5],
      [9, 1e-3, 0],
      [50, -2, 0],
      [50, 0.125, -3.5],
    ] as const) {
      const raw = rawSamples(random, format, points * width);
      if (points > 2) raw[2] = 0;
      const init: SmfSampleFrameInit = {
        channel,
        format,
        width,
        sequence: 4_000_000_000 + points,
        startTimeUs: T0 + points,
        sampleRate: channel === 'eit' ? 13 : 250,
        scale,
        offset,
        raw,
      };
      const bytes = parser.encodeSmfFrame(init);
      expect(bytes.length).toBe(48 + raw.length * { int16: 2, int24: 3, float32: 4 }[format]);
      const frame = sampleFrame(parser.decodeSmfFrame(bytes, { raw: true }));
      expect(frame).toMatchObject({
        version: 1,
        channel,
        format,
        width,
        sequence: init.sequence,
        startTimeUs: init.startTimeUs,
        sampleRate: init.sampleRate,
        sampleCount: points,
        scale: Math.fround(scale),
        offset,
        byteOffset: 0,
        byteLength: bytes.length,
        crc: crc32(bytes.subarray(0, bytes.length - 4)),
      });
      expect(frame.raw).toBeInstanceOf(format === 'float32' ? Float32Array : Int32Array);
      expect(firstMismatch(frame.raw as ArrayLike<number>, raw)).toBeNull();
      expect(firstMismatch(frame.values, decodedValues(raw, scale, offset))).toBeNull();
      expect(firstMismatch(sampleFrame(parser.decodeSmfFrame(bytes)).values, frame.values)).toBeNull();
    }
  });

  it('quantises physical values to the nearest step of scale', () => {
    const values = Array.from({ length: 300 }, (_, i) => 36 + Math.sin(i / 10) * 2);
    const frame = sampleFrame(
      parser.decodeSmfFrame(
        parser.encodeSmfFrame({ channel: 'temperature', format: 'int16', sequence: 1, startTimeUs: T0, sampleRate: 1, scale: 0.001, offset: 30, values }),
      ),
    );
    expect(firstMismatch(frame.values, values, 0.0005 + 1e-5)).toBeNull();
    const float = sampleFrame(
      parser.decodeSmfFrame(parser.encodeSmfFrame({ channel: 'impe', format: 'float32', sequence: 1, startTimeUs: T0, sampleRate: 50, values })),
    );
    expect(firstMismatch(float.values, Float32Array.from(values))).toBeNull();
  });

  it('interleaves the three respiAxl axes per sample point', () => {
    const x = [1, 2, 3, 4];
    const y = [-1, -2, -3, -4];
    const z = [100, 200, 300, 400];
    const raw = x.flatMap((_, i) => [x[i] as number, y[i] as number, z[i] as number]);
    const frame = sampleFrame(
      parser.decodeSmfFrame(parser.encodeSmfFrame({ channel: 'respiAxl', format: 'int16', sequence: 0, startTimeUs: 0, sampleRate: 50, scale: 0.5, raw })),
    );
    expect(frame.sampleCount).toBe(4);
    expect(frame.width).toBe(3);
    expect(Array.from({ length: 4 }, (_, i) => frame.values[i * 3 + 2])).toEqual(z.map((v) => v * 0.5));
  });

  it('carries several channels in a multi frame, each with its own rate and format', () => {
    const ecg: SmfSampleFrameInit = { channel: 'ecg', format: 'int16', sequence: 9, startTimeUs: T0, sampleRate: 250, scale: 0.005, raw: [1, 2, 3, 4, 5] };
    const axl: SmfSampleFrameInit = { channel: 'respiAxl', format: 'int24', sequence: 9, startTimeUs: T0 + 10, sampleRate: 50, scale: 1e-4, raw: [7, 8, 9] };
    const eit: SmfSampleFrameInit = {
      channel: 'eit',
      format: 'float32',
      width: 256,
      sequence: 9,
      startTimeUs: T0 + 20,
      sampleRate: 13,
      raw: Array.from({ length: 512 }, (_, i) => i / 8),
    };
    const bytes = parser.encodeSmfFrame({ channel: 'multi', sequence: 9, startTimeUs: T0, frames: [ecg, axl, eit] });
    const frame = parser.decodeSmfFrame(bytes) as SmfMultiFrame;
    expect(frame).toMatchObject({ channel: 'multi', sequence: 9, startTimeUs: T0, byteOffset: 0, byteLength: bytes.length });
    expect(frame.frames.map((f) => [f.channel, f.format, f.sampleRate, f.sampleCount, f.byteOffset])).toEqual([
      ['ecg', 'int16', 250, 5, 44],
      ['respiAxl', 'int24', 50, 1, 44 + 58],
      ['eit', 'float32', 13, 2, 44 + 58 + 57],
    ]);
    expect(Array.from(frame.frames[2]?.values ?? [])).toEqual(eit.raw);
    // The header of a multi frame: format 0, width 0, rate 0, count = nested frames.
    const view = new DataView(bytes.buffer);
    expect([view.getUint8(5), view.getUint8(6), view.getUint16(8, true), view.getFloat32(24, true), view.getUint32(28, true)]).toEqual([8, 0, 0, 0, 3]);
  });

  it('decodes a recording (a sequence of frames) exactly like the plain reference decoder', () => {
    const rnd = new Random(2024);
    const frames: Uint8Array[] = [];
    for (let i = 0; i < 200; i++) {
      const channel = rnd.pick(SMF_CHANNELS.filter((c) => c !== 'multi')) as SmfSampleChannel;
      const format = rnd.pick(SMF_SAMPLE_FORMATS);
      const width = rnd.pick(SMF_WIDTHS[channel]);
      const init: SmfSampleFrameInit = {
        channel,
        format,
        width,
        sequence: i,
        startTimeUs: T0 + i * 1e6,
        sampleRate: rnd.pick([1, 20, 50, 250, 13.5]),
        scale: rnd.pick([1, 0.001, 0.37, -2]),
        offset: rnd.pick([0, 36.6, -1e3]),
        raw: rawSamples(rnd, format, rnd.int(0, channel === 'eit' ? 3 : 300) * width),
      };
      frames.push(
        rnd.next() < 0.1
          ? parser.encodeSmfFrame({ channel: 'multi', sequence: i, startTimeUs: init.startTimeUs, frames: [init, { ...init, sequence: i + 1 }] })
          : parser.encodeSmfFrame(init),
      );
    }
    const stream = concat(...frames);
    const decoded = parser.decodeSmfStream(stream, { raw: true });
    const reference = referenceDecodeSmfStream(stream, true);
    expect(decoded).toHaveLength(200);
    const compare = (frame: SmfFrame, ref: ReferenceSmfFrame) => {
      expect([frame.sequence, frame.startTimeUs, SMF_CHANNEL_CODES[frame.channel], frame.crc]).toEqual([
        ref.sequence,
        Number(ref.startTimeUs),
        ref.channel,
        ref.crc,
      ]);
      if (frame.channel === 'multi') {
        expect(frame.frames).toHaveLength(ref.frames?.length ?? -1);
        frame.frames.forEach((child, i) => compare(child, ref.frames?.[i] as ReferenceSmfFrame));
        return;
      }
      expect([frame.width, frame.sampleRate, frame.sampleCount, frame.scale, frame.offset]).toEqual([
        ref.width,
        ref.sampleRate,
        ref.sampleCount,
        ref.scale,
        ref.offset,
      ]);
      expect(firstMismatch(frame.values, ref.values as Float32Array)).toBeNull();
      expect(firstMismatch(frame.raw as ArrayLike<number>, ref.raw as number[])).toBeNull();
    };
    decoded.forEach((frame, i) => compare(frame, reference[i] as ReferenceSmfFrame));
    let offset = 0;
    decoded.forEach((frame, i) => {
      expect(frame.byteOffset).toBe(offset);
      offset += frames[i]?.length ?? 0;
    });
  });

  it('lays the header out byte by byte as docs/device-protocol.md says', () => {
    const bytes = parser.encodeSmfFrame({
      channel: 'ecg',
      format: 'int16',
      sequence: 0x01020304,
      startTimeUs: T0,
      sampleRate: 250,
      scale: 0.5,
      offset: -1,
      raw: [1, -2],
    });
    const expected = new Uint8Array(52);
    const view = new DataView(expected.buffer);
    expected.set([0x89, 0x53, 0x4d, 0x46, 1, 1, 1, 0], 0);
    view.setUint16(8, 1, true);
    view.setUint16(10, 0, true);
    view.setUint32(12, 0x01020304, true);
    view.setBigInt64(16, BigInt(T0), true);
    view.setFloat32(24, 250, true);
    view.setUint32(28, 2, true);
    view.setFloat32(32, 0.5, true);
    view.setFloat32(36, -1, true);
    view.setUint32(40, 4, true);
    view.setInt16(44, 1, true);
    view.setInt16(46, -2, true);
    view.setUint32(48, crc32(expected.subarray(0, 48)), true);
    expect(Array.from(bytes)).toEqual(Array.from(expected));
  });

  it('encodes the example of docs/device-protocol.md byte for byte', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../../docs/device-protocol.md', import.meta.url)), 'utf8');
    const block = doc.slice(doc.indexOf('### Example'), doc.indexOf('## Recordings'));
    const documented = [...block.matchAll(/^[0-9a-f]{4} {2}((?:[0-9a-f]{2} )+)/gm)].flatMap((m) =>
      (m[1] as string)
        .trim()
        .split(' ')
        .map((h) => parseInt(h, 16)),
    );
    const bytes = parser.encodeSmfFrame({
      channel: 'respiAxl',
      format: 'int16',
      sequence: 42,
      startTimeUs: 1_700_000_000_000_000,
      sampleRate: 50,
      scale: 0.001,
      raw: [12, -5, 980, 15, -7, 978],
    });
    expect(documented).toEqual(Array.from(bytes));
    expect(block).toContain(`CRC-32 0x${crc32(bytes.subarray(0, 56)).toString(16).toUpperCase()}`);
  });

  it('accepts the largest frames (65536 values) and base64 or empty streams', () => {
    const big = parser.encodeSmfFrame({
      channel: 'eit',
      format: 'float32',
      width: 256,
      sequence: 1,
      startTimeUs: T0,
      sampleRate: 20,
      raw: new Float32Array(65536).fill(1.5),
    });
    expect(sampleFrame(parser.decodeSmfFrame(big)).values.length).toBe(65536);
    const ecg = parser.encodeSmfFrame({ channel: 'ecg', format: 'int24', sequence: 1, startTimeUs: T0, sampleRate: 250, raw: new Int32Array(65536).fill(-5) });
    expect(sampleFrame(parser.decodeSmfStream(Buffer.from(ecg).toString('base64'))[0] as SmfFrame).values[65535]).toBe(-5);
    expect(parser.decodeSmfStream(new Uint8Array(0))).toEqual([]);
    expect(parser.decodeSmfStream('')).toEqual([]);
  });

  it('returns views with { copy: false } that the next call overwrites, copies otherwise', () => {
    const a = parser.encodeSmfFrame({ channel: 'ecg', format: 'int16', sequence: 1, startTimeUs: 0, sampleRate: 250, raw: [1, 2, 3] });
    const b = parser.encodeSmfFrame({ channel: 'ecg', format: 'int16', sequence: 2, startTimeUs: 0, sampleRate: 250, raw: [7, 8, 9] });
    const copied = sampleFrame(parser.decodeSmfFrame(a));
    const view = sampleFrame(parser.decodeSmfFrame(a, { copy: false }));
    expect(Array.from(view.values)).toEqual([1, 2, 3]);
    parser.decodeSmfFrame(b);
    expect(Array.from(view.values)).toEqual([7, 8, 9]);
    expect(Array.from(copied.values)).toEqual([1, 2, 3]);
  });

  it('accepts a view into its own memory as input (copied before the arena is reused)', () => {
    const frame = parser.encodeSmfFrame({ channel: 'ecg', format: 'float32', sequence: 1, startTimeUs: 0, sampleRate: 250, raw: [1, 2, 3] });
    const values = sampleFrame(parser.decodeSmfFrame(frame, { copy: false })).values;
    const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    const expected = crc32(bytes.slice());
    expect(parser.crc32(bytes)).toBe(expected);
    expect(Array.from(sampleFrame(parser.decodeSmfFrame(frame.slice())).values)).toEqual([1, 2, 3]);
  });

  it('decodes in place from prepareInput()', () => {
    const frame = parser.encodeSmfFrame({ channel: 'button', format: 'int16', sequence: 3, startTimeUs: T0, sampleRate: 10, raw: [0, 1, 1, 0] });
    const input = parser.prepareInput(frame.length);
    input.set(frame);
    expect(Array.from(sampleFrame(parser.decodeSmfFrame(input)).values)).toEqual([0, 1, 1, 0]);
  });
});

describe('SMF encoding rejects bad arguments', () => {
  const base: SmfSampleFrameInit = { channel: 'ecg', format: 'int16', sequence: 1, startTimeUs: T0, sampleRate: 250, raw: [0] };
  it.each([
    ['a sample out of int16 range', { raw: [0, 40000] }, RangeError, /sample 1 \(40000\) does not fit int16/],
    ['a sample out of int24 range', { format: 'int24', raw: [-8388609] }, RangeError, /does not fit int24/],
    ['a fractional raw sample', { raw: [1.5] }, RangeError, /does not fit int16/],
    ['a physical value beyond the scale', { raw: undefined, values: [1000], scale: 0.001 }, RangeError, /does not fit int16 at scale/],
    ['a NaN physical value', { raw: undefined, values: [Number.NaN] }, RangeError, /does not fit int16/],
    ['a float32 overflow', { format: 'float32', raw: [1e39] }, RangeError, /does not fit float32/],
    ['raw and values together', { values: [1] }, TypeError, /exactly one of raw or values/],
    ['an unknown channel', { channel: 'eeg' }, TypeError, /unknown channel eeg/],
    ['an unknown format', { format: 'int8' }, TypeError, /unknown sample format int8/],
    ['a wrong width', { width: 2 }, RangeError, /channel ecg needs width 1/],
    ['eit without a width', { channel: 'eit', format: 'float32', raw: new Array(208).fill(0) }, RangeError, /channel eit needs width 208 or 256/],
    ['a partial sample point', { channel: 'respiAxl', raw: [1, 2] }, RangeError, /2 values is not a whole number of 3-value sample points/],
    ['too many values', { raw: new Array(65537).fill(0) }, RangeError, /65537 values exceed the limit of 65536/],
    ['a zero sample rate', { sampleRate: 0 }, RangeError, /sample rate 0/],
    ['a zero scale', { scale: 0 }, RangeError, /scale 0/],
    ['a negative sequence', { sequence: -1 }, RangeError, /sequence -1/],
    ['a fractional start time', { startTimeUs: 1.5 }, RangeError, /startTimeUs 1.5/],
  ] as const)('%s', (_name, change, type, message) => {
    expect(() => parser.encodeSmfFrame({ ...base, ...change } as SmfSampleFrameInit)).toThrow(type);
    expect(() => parser.encodeSmfFrame({ ...base, ...change } as SmfSampleFrameInit)).toThrow(message);
  });

  it('multi frames with no or too many nested frames', () => {
    expect(() => parser.encodeSmfFrame({ channel: 'multi', sequence: 1, startTimeUs: 0, frames: [] })).toThrow(/1 to 16 frames/);
    expect(() => parser.encodeSmfFrame({ channel: 'multi', sequence: 1, startTimeUs: 0, frames: new Array(17).fill(base) })).toThrow(/1 to 16 frames/);
  });
});

function caught(run: () => unknown): ParseError {
  try {
    run();
  } catch (error) {
    if (error instanceof ParseError) return error;
    throw error;
  }
  throw new Error('expected a ParseError');
}

describe('malformed SMF, one case at a time', () => {
  const frame = parser.encodeSmfFrame({ channel: 'ecg', format: 'int16', sequence: 5, startTimeUs: T0, sampleRate: 250, scale: 0.01, raw: [10, 20, 30, 40] });
  const axl = parser.encodeSmfFrame({ channel: 'respiAxl', format: 'int16', sequence: 5, startTimeUs: T0, sampleRate: 50, raw: [1, 2, 3] });
  const eit = parser.encodeSmfFrame({
    channel: 'eit',
    format: 'float32',
    width: 208,
    sequence: 5,
    startTimeUs: T0,
    sampleRate: 20,
    raw: new Array(208).fill(0.5),
  });
  const multi = parser.encodeSmfFrame({
    channel: 'multi',
    sequence: 5,
    startTimeUs: T0,
    frames: [
      { channel: 'ecg', format: 'int16', sequence: 5, startTimeUs: T0, sampleRate: 250, raw: [1] },
      { channel: 'temperature', format: 'int16', sequence: 5, startTimeUs: T0, sampleRate: 1, raw: [3660], scale: 0.01 },
    ],
  });
  const flipped = (bytes: Uint8Array, index: number) => {
    const copy = bytes.slice();
    copy[index] = (copy[index] as number) ^ 0x10;
    return copy;
  };
  const firstNested = 44;
  const secondNested = 44 + 50;

  it.each([
    ['an empty input', new Uint8Array(0), 'truncated', /empty input/],
    ['3 bytes', frame.subarray(0, 3), 'truncated', /only 3 bytes left, a frame needs at least 48/],
    ['a header cut at 47 bytes', frame.subarray(0, 47), 'truncated', /only 47 bytes left/],
    ['a payload cut short', frame.subarray(0, 50), 'truncated', /the frame is 56 bytes long but only 50 bytes remain/],
    ['a missing CRC byte', frame.subarray(0, 55), 'truncated', /56 bytes long but only 55/],
    ['a wrong magic', withField(frame, 0, 'u8', 0x88), 'bad-magic', /magic is 0x464D5388 \(bytes 88 53 4D 46\), expected 89 53 4D 46/],
    ['an EDF file', new TextEncoder().encode('0       X X X X'.padEnd(300)), 'bad-magic', /SMF frame 0 at byte 0: magic/],
    ['a future version', withField(frame, 4, 'u8', 2), 'unsupported', /format version 2 is not supported/],
    ['a flipped payload bit', flipped(frame, 45), 'bad-crc', /CRC-32 mismatch: the frame says 0x[0-9A-F]{8}, its bytes give 0x[0-9A-F]{8}/],
    ['a flipped CRC bit', flipped(frame, 53), 'bad-crc', /CRC-32 mismatch/],
    ['a flipped header bit', flipped(frame, 13), 'bad-crc', /CRC-32 mismatch/],
    ['channel code 0', withField(frame, 5, 'u8', 0), 'bad-header', /unknown channel code 0/],
    ['channel code 9', withField(frame, 5, 'u8', 9), 'bad-header', /unknown channel code 9/],
    ['sample format 0', withField(frame, 6, 'u8', 0), 'bad-header', /sample format code 0 is not valid for channel ecg/],
    ['sample format 4', withField(frame, 6, 'u8', 4), 'bad-header', /sample format code 4/],
    ['a non-zero flags byte', withField(frame, 7, 'u8', 1), 'bad-header', /reserved fields must be zero \(flags 1, reserved 0\)/],
    ['a non-zero reserved field', withField(frame, 10, 'u16', 7), 'bad-header', /reserved fields must be zero \(flags 0, reserved 7\)/],
    ['width 2 for ecg', withField(frame, 8, 'u16', 2), 'bad-header', /width 2 is not valid for channel ecg/],
    ['width 1 for respiAxl', withField(axl, 8, 'u16', 1), 'bad-header', /width 1 is not valid for channel respiAxl/],
    ['width 207 for eit', withField(eit, 8, 'u16', 207), 'bad-header', /width 207 is not valid for channel eit/],
    ['a zero sample rate', withField(frame, 24, 'f32', 0), 'bad-header', /sample rate 0 is not a positive finite number/],
    ['a negative sample rate', withField(frame, 24, 'f32', -250), 'bad-header', /sample rate -250/],
    ['a NaN sample rate', withField(frame, 24, 'f32', Number.NaN), 'bad-header', /sample rate NaN/],
    ['an infinite sample rate', withField(frame, 24, 'f32', Infinity), 'bad-header', /sample rate Infinity/],
    ['a zero scale', withField(frame, 32, 'f32', 0), 'bad-header', /scale 0 and offset 0 must be finite/],
    ['a NaN scale', withField(frame, 32, 'f32', Number.NaN), 'bad-header', /scale NaN/],
    ['an infinite offset', withField(frame, 36, 'f32', -Infinity), 'bad-header', /offset -Infinity/],
    ['a start time beyond 2^53 µs', withField(frame, 16, 'i64', 2n ** 60n), 'bad-header', /start time 1152921504606847000 µs is beyond/],
    ['a sample count that lies', withField(frame, 28, 'u32', 5), 'bad-header', /payload length 8 does not match sample count × width × bytes per sample = 10/],
    [
      'an absurd sample count',
      withField(frame, 28, 'u32', 0xffffffff),
      'bad-header',
      /sample count 4294967295 gives 4294967295 values, more than the limit of 65536/,
    ],
    [
      'a payload length that lies (longer)',
      withField(frame, 40, 'u32', 1000, { crc: false }),
      'truncated',
      /the frame is 1048 bytes long but only 56 bytes remain/,
    ],
    [
      'an absurd payload length',
      withField(frame, 40, 'u32', 0xffffffff, { crc: false }),
      'bad-header',
      /payload length 4294967295 bytes exceeds the limit of 1048576/,
    ],
    ['trailing bytes after a single frame', concat(frame, Uint8Array.of(0, 0)), 'bad-header', /2 bytes follow the frame/],
    ['a multi frame declaring no nested frames', withField(multi, 28, 'u32', 0), 'bad-header', /must carry 1 to 16 nested frames, this one declares 0/],
    ['a multi frame declaring 17 nested frames', withField(multi, 28, 'u32', 17), 'bad-header', /declares 17/],
    ['a multi frame declaring more frames than it holds', withField(multi, 28, 'u32', 3), 'bad-header', /payload holds 2 nested frames, its header declares 3/],
    ['a multi frame holding more frames than declared', withField(multi, 28, 'u32', 1), 'bad-header', /payload holds 2 nested frames, its header declares 1/],
    ['a multi frame with a sample rate', withField(multi, 24, 'f32', 1), 'bad-header', /multi frame must have sample format 0/],
    [
      'a multi frame inside a multi frame',
      fixCrc(withField(multi, 5, 'u8', 8, { at: secondNested })),
      'bad-header',
      /nested frame 1, at byte 94: a multi frame cannot contain another multi frame/,
    ],
    ['a nested frame with a bad CRC', fixCrc(flipped(multi, secondNested + 44)), 'bad-crc', /SMF frame 0, nested frame 1, at byte 94: CRC-32 mismatch/],
    [
      'a nested frame with a bad magic',
      fixCrc(withField(multi, 0, 'u8', 0, { at: firstNested, crc: false })),
      'bad-magic',
      /nested frame 0, at byte 44: magic/,
    ],
    [
      'a nested frame running past its parent',
      fixCrc(withField(multi, 40, 'u32', 100, { at: secondNested, crc: false })),
      'truncated',
      /nested frame 1, at byte 94: the frame is 148 bytes long but only 50 bytes remain/,
    ],
  ] as const)('rejects %s', (_name, input, code, message) => {
    const error = caught(() => parser.decodeSmfFrame(input));
    expect({ code: error.code, message: error.message }).toMatchObject({ code, message: expect.stringMatching(message) });
  });

  it('reports the frame index and byte offset inside a stream', () => {
    const stream = concat(frame, axl, flipped(frame, 46), frame);
    const error = caught(() => parser.decodeSmfStream(stream));
    expect(error).toMatchObject({ code: 'bad-crc', frame: 2, offset: frame.length + axl.length });
    expect(error.message).toMatch(new RegExp(`^SMF frame 2 at byte ${frame.length + axl.length}: CRC-32 mismatch`));
  });

  it('rejects invalid base64 with the exact message', () => {
    const error = caught(() => parser.decodeSmfStream('not base64!'));
    expect(error.code).toBe('invalid-base64');
    expect(error.message).toBe('Failed to construct data from Base64 string');
  });
});
