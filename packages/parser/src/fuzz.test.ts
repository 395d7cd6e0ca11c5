// Seeded fuzzing: at least 10,000 mutated inputs per format. Each must decode or throw ParseError —
// never another exception, a trap or a hang — and whatever decodes must agree with the plain
// reference decoder. The same parser instance is used throughout and must still work afterwards.
import { describe, expect, it } from 'vitest';
import { loadParser, ParseError, type EdfFile, type SmfFrame, type SmfSampleFrameInit } from './node.ts';
import { forgivingBase64 } from './testing/base64.ts';
import { firstMismatch } from './testing/compare.ts';
import { dataFile } from './testing/data.ts';
import { writeEdf } from './testing/edfWriter.ts';
import { Random } from './testing/random.ts';
import { referenceDecodeEdf, referenceDecodeSmfStream, type ReferenceSmfFrame } from './testing/reference.ts';
import { concat, fixCrc } from './testing/smfFrames.ts';

const CASES = 10_000;
const parser = await loadParser();

type Outcome<T> = { ok: true; value: T } | { ok: false; error: ParseError };

/** Runs one decode; rethrows anything that is not a ParseError with the case that caused it. */
function attempt<T>(label: string, seed: number, input: Uint8Array | string, run: () => T): Outcome<T> {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    if (error instanceof ParseError) return { ok: false, error };
    const shown = typeof input === 'string' ? JSON.stringify(input.slice(0, 200)) : Buffer.from(input.subarray(0, 300)).toString('hex');
    throw new Error(
      `${label} case ${seed} threw ${String(error)} instead of a ParseError; input (${input.length} ${typeof input === 'string' ? 'chars' : 'bytes'}) starts ${shown}`,
      { cause: error },
    );
  }
}

const INTERESTING_BYTES = [0, 1, 0x7f, 0x80, 0xff, 0x14, 0x15, 0x2b, 0x2d, 0x2e, 0x20, 0x30, 0x39, 0x89];

function mutateBytes(random: Random, input: Uint8Array, focus: number): Uint8Array {
  let bytes: Uint8Array = input.slice();
  const rounds = random.int(1, 3);
  for (let r = 0; r < rounds; r++) {
    const at = () => (random.next() < 0.7 ? random.int(0, Math.max(0, Math.min(bytes.length, focus) - 1)) : random.int(0, Math.max(0, bytes.length - 1)));
    switch (random.int(0, 7)) {
      case 0:
      case 1: {
        for (let k = random.int(1, 4); k > 0 && bytes.length > 0; k--) {
          const i = at();
          bytes[i] = (bytes[i] as number) ^ (1 << random.int(0, 7));
        }
        break;
      }
      case 2:
        if (bytes.length > 0) bytes[at()] = random.pick(INTERESTING_BYTES);
        break;
      case 3:
        bytes = bytes.slice(0, random.next() < 0.5 ? at() : random.int(0, bytes.length));
        break;
      case 4:
        bytes = concat(bytes, random.bytes(random.int(1, 64)));
        break;
      case 5: {
        const start = at();
        bytes = concat(bytes.subarray(0, start), bytes.subarray(Math.min(bytes.length, start + random.int(1, 16))));
        break;
      }
      case 6: {
        const start = at();
        bytes = concat(bytes.subarray(0, start), random.bytes(random.int(1, 8)), bytes.subarray(start));
        break;
      }
      default: {
        const start = at();
        const chunk = bytes.slice(start, start + random.int(1, 64));
        bytes = concat(bytes.subarray(0, start), chunk, chunk, bytes.subarray(start + chunk.length));
      }
    }
  }
  return bytes;
}

describe('fuzzing SMF', () => {
  it(`survives ${CASES} mutated streams and agrees with the reference decoder`, () => {
    const random = new Random(0x5eed01);
    const inits: SmfSampleFrameInit[] = [
      {
        channel: 'ecg',
        format: 'int16',
        sequence: 1,
        startTimeUs: 1e15,
        sampleRate: 250,
        scale: 0.005,
        raw: Array.from({ length: 40 }, (_, i) => i * 300 - 6000),
      },
      { channel: 'respiAxl', format: 'int24', sequence: 2, startTimeUs: 1e15, sampleRate: 50, scale: 1e-4, raw: [1, -2, 3, 400000, -500000, 6, 7, 8, 9] },
      { channel: 'impe', format: 'float32', sequence: 3, startTimeUs: 1e15, sampleRate: 50, offset: 500, raw: [0.5, -1.25, 3e5] },
      { channel: 'eit', format: 'float32', width: 208, sequence: 4, startTimeUs: 1e15, sampleRate: 20, raw: Array.from({ length: 208 }, (_, i) => i / 3) },
      { channel: 'respiHr', format: 'int16', sequence: 5, startTimeUs: 1e15, sampleRate: 1, scale: 0.1, raw: [145, 610] },
      { channel: 'button', format: 'int16', sequence: 6, startTimeUs: 1e15, sampleRate: 10, raw: [0, 1, 1, 0] },
      { channel: 'temperature', format: 'int24', sequence: 7, startTimeUs: 1e15, sampleRate: 1, scale: 0.001, raw: [36600] },
    ];
    const frames = inits.map((init) => parser.encodeSmfFrame(init));
    const multi = parser.encodeSmfFrame({ channel: 'multi', sequence: 8, startTimeUs: 1e15, frames: inits.slice(0, 3) });
    const corpus = [...frames, multi, concat(...frames), concat(frames[0] as Uint8Array, multi, frames[6] as Uint8Array)];
    let decoded = 0;
    for (let n = 0; n < CASES; n++) {
      const source = random.pick(corpus);
      let input = mutateBytes(random, source, random.next() < 0.5 ? 48 : source.length);
      // Most mutations would stop at the CRC: re-sign most of them so header validation is exercised.
      if (random.next() < 0.6) input = resign(input);
      if (random.next() < 0.2) {
        // Same-length damage anywhere, re-signed: frames that still parse, to compare with the reference.
        input = source.slice();
        for (let k = random.int(1, 4); k > 0; k--) input[random.int(0, input.length - 1)] = random.int(0, 255);
        input = resign(input);
      }
      const single = random.next() < 0.3;
      const outcome = attempt('SMF', n, input, () => (single ? [parser.decodeSmfFrame(input, { raw: true })] : parser.decodeSmfStream(input, { raw: true })));
      if (outcome.ok) {
        decoded++;
        const reference = referenceDecodeSmfStream(input, true);
        expect(reference.length).toBe(outcome.value.length);
        outcome.value.forEach((frame, i) => sameFrame(frame, reference[i] as ReferenceSmfFrame));
      }
    }
    // The corpus is mutated, not destroyed: a fair share still decodes.
    expect(decoded).toBeGreaterThan(CASES / 20);
    expect(decoded).toBeLessThan(CASES);
  }, 60_000);
});

function sameFrame(frame: SmfFrame, ref: ReferenceSmfFrame): void {
  if (frame.channel === 'multi') {
    expect(ref.channel).toBe(8);
    frame.frames.forEach((child, i) => sameFrame(child, ref.frames?.[i] as ReferenceSmfFrame));
    return;
  }
  expect([frame.sequence, frame.sampleCount, frame.width, frame.scale, frame.offset]).toEqual([
    ref.sequence,
    ref.sampleCount,
    ref.width,
    ref.scale,
    ref.offset,
  ]);
  expect(firstMismatch(frame.values, ref.values as Float32Array)).toBeNull();
  expect(firstMismatch(frame.raw as ArrayLike<number>, ref.raw as number[])).toBeNull();
}

/** Fixes the CRC of every frame (nested first) whose envelope still makes sense. */
function resign(bytes: Uint8Array): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const walk = (start: number, end: number, depth: number) => {
    let at = start;
    while (at + 48 <= end) {
      const payload = view.getUint32(at + 40, true);
      if (at + 48 + payload > end) return;
      if (depth === 0 && view.getUint8(at + 5) === 8) walk(at + 44, at + 44 + payload, 1);
      fixCrc(bytes, at);
      at += 48 + payload;
    }
  };
  walk(0, bytes.length, 0);
  return bytes;
}

const FIELDS: [number, number][] = [
  [168, 8],
  [176, 8],
  [184, 8],
  [192, 44],
  [236, 8],
  [244, 8],
  [252, 4],
];
const SIGNAL_FIELDS: [number, number][] = [
  [0, 16],
  [104, 8],
  [112, 8],
  [120, 8],
  [128, 8],
  [216, 8],
];
const NUMBERS = [
  '0',
  '-1',
  '1',
  '2',
  '30',
  '-30',
  '1e3',
  '1E-30',
  '99999999',
  '-99999999',
  '32768',
  '-32769',
  '8388608',
  '0.5',
  '.5',
  '1.',
  '+7',
  '  12',
  'abc',
  '',
  '2048',
  '256',
  '-0',
  '1e+22',
  '1e23',
  '7 7',
];

function mutateEdf(random: Random, input: Uint8Array): Uint8Array {
  if (random.next() < 0.45) {
    const bytes = input.slice();
    const ns = Number(String.fromCharCode(...bytes.subarray(252, 256)).trim()) || 1;
    for (let k = random.int(1, 2); k > 0; k--) {
      let offset: number;
      let width: number;
      if (random.next() < 0.4) [offset, width] = random.pick(FIELDS);
      else {
        const [start, w] = random.pick(SIGNAL_FIELDS);
        offset = 256 + ns * start + random.int(0, ns - 1) * w;
        width = w;
      }
      const text = random.next() < 0.3 ? random.pick(['EDF+C', 'EDF+D', 'BDF+D', 'EDF Annotations ', 'xx.yy.zz']) : random.pick(NUMBERS);
      for (let i = 0; i < width && offset + i < bytes.length; i++) bytes[offset + i] = i < text.length ? text.charCodeAt(i) : 0x20;
    }
    return bytes;
  }
  const headerBytes = Number(String.fromCharCode(...input.subarray(184, 192)).trim()) || 256;
  // Annotation-only files: aim at the TALs; others: at the header.
  return mutateBytes(random, input, input.length < 70_000 ? input.length : headerBytes + 64);
}

function checkEdf(file: EdfFile, input: Uint8Array): void {
  const h = file.header;
  expect(h.signals).toHaveLength(h.signalCount);
  expect(file.samples).toHaveLength(h.signalCount);
  h.signals.forEach((s, i) => expect(file.samples[i]?.length ?? 0).toBe(s.isAnnotation ? 0 : s.samplesPerRecord * h.recordCount));
  expect(file.recordStartTimes).toHaveLength(h.recordCount);
  expect(h.headerBytes + h.recordCount * h.recordSize + h.trailingBytes).toBe(input.length);
  if (h.recordCountField >= 0) {
    const reference = referenceDecodeEdf(input);
    h.signals.forEach((s, i) => {
      if (s.isAnnotation) return;
      expect(firstMismatch(file.digital?.[i] as Int32Array, reference.digital[i] as number[])).toBeNull();
      expect(firstMismatch(file.samples[i] as Float32Array, reference.physical[i] as Float32Array)).toBeNull();
    });
    const annotations = file.annotations.map(({ onset, duration, texts, record }) => ({ onset, duration, texts, record }));
    expect(annotations).toEqual(reference.tals.filter((tal) => tal.texts.length > 0));
  }
}

function smallEdf(bdf: boolean, plus: '' | 'C' | 'D'): Uint8Array {
  const label = bdf ? 'BDF Annotations' : 'EDF Annotations';
  return writeEdf({
    bdf,
    reserved: plus ? `${bdf ? 'BDF' : 'EDF'}+${plus}` : '',
    records: 3,
    duration: 1,
    signals: [
      {
        label: 'A',
        physicalMin: -100,
        physicalMax: 100,
        digitalMin: bdf ? -8388608 : -32768,
        digitalMax: bdf ? 8388607 : 32767,
        samplesPerRecord: 11,
        samples: (r) => Array.from({ length: 11 }, (_, k) => (k - 5) * 1000 * (r + 1)),
      },
      { label: 'B', physicalMin: 0, physicalMax: 1, digitalMin: 0, digitalMax: 255, samplesPerRecord: 2, samples: () => [0, 255] },
      ...(plus
        ? [
            {
              label,
              physicalMin: -1,
              physicalMax: 1,
              digitalMin: -32768,
              digitalMax: 32767,
              samplesPerRecord: 30,
              tals: (r: number) => `+${r}\x14\x14\0+${r}.5\x150.2\x14Event ${r}\x14Second\x14\0`,
            },
          ]
        : []),
    ],
  });
}

/** The first `records` data records of a real file, with its header's record count patched. */
function firstRecords(file: Uint8Array, records: number): Uint8Array {
  const text = (start: number, width: number) => String.fromCharCode(...file.subarray(start, start + width));
  const headerBytes = Number(text(184, 8).trim());
  const recordSize = (file.length - headerBytes) / Number(text(236, 8).trim());
  const out = file.slice(0, headerBytes + records * recordSize);
  out.set(new TextEncoder().encode(String(records).padEnd(8, ' ')), 236);
  return out;
}

function fuzzEdf(name: string, seed: number, whole: Uint8Array, corpus: Uint8Array[]): void {
  const random = new Random(seed);
  let decoded = 0;
  for (let n = 0; n < CASES; n++) {
    // The whole 300-s recording now and then; mostly its first record and the small files (speed).
    const source = random.next() < 0.03 ? whole : random.pick(corpus);
    const input = mutateEdf(random, source);
    const useBase64 = random.next() < 0.02;
    const outcome = attempt(name, n, input, () => parser.decodeEdf(useBase64 ? Buffer.from(input).toString('base64') : input, { raw: true }));
    if (outcome.ok) {
      decoded++;
      checkEdf(outcome.value, input);
    }
  }
  expect(decoded).toBeGreaterThan(CASES / 20);
}

describe('fuzzing EDF and BDF', () => {
  it(`survives ${CASES} mutated EDF/EDF+ files`, () => {
    const psg = dataFile('edf/short_psg.edf');
    fuzzEdf('EDF', 0x5eed02, psg, [
      firstRecords(psg, 1),
      dataFile('edf/SC4001EC-Hypnogram.edf'),
      dataFile('edf/hmc_sn001_hypnogram.edf'),
      smallEdf(false, ''),
      smallEdf(false, 'C'),
      smallEdf(false, 'D'),
      smallEdf(false, 'D'),
    ]);
  }, 60_000);

  it(`survives ${CASES} mutated BDF/BDF+ files`, () => {
    const psg = dataFile('edf/short_psg.bdf');
    fuzzEdf('BDF', 0x5eed03, psg, [
      firstRecords(psg, 1),
      dataFile('edf/SC4001EC-Hypnogram.bdf'),
      smallEdf(true, ''),
      smallEdf(true, 'C'),
      smallEdf(true, 'D'),
      smallEdf(true, 'D'),
    ]);
  }, 60_000);
});

describe('fuzzing base64', () => {
  it(`agrees with the WHATWG forgiving-base64 algorithm on ${CASES} strings`, () => {
    const random = new Random(0x5eed04);
    const noise = ['=', ' ', '\n', '\t', '\r', '\f', '\v', '-', '_', '.', '\u00a0', 'é', '😀', '\0', '%'];
    let valid = 0;
    for (let n = 0; n < CASES; n++) {
      let text = Buffer.from(random.bytes(random.int(0, 40))).toString('base64');
      for (let k = random.int(0, 3); k > 0; k--) {
        const at = random.int(0, text.length);
        const choice = random.int(0, 2);
        if (choice === 0) text = text.slice(0, at) + random.pick(noise) + text.slice(at);
        else if (choice === 1) text = text.slice(0, at) + text.slice(at + 1);
        else text = text.slice(0, at) + random.pick(noise).repeat(random.int(1, 3)) + text.slice(at + 1);
      }
      const expected = forgivingBase64(text);
      const outcome = attempt('base64', n, text, () => parser.decodeBase64(text));
      if (expected === null) {
        expect(outcome.ok, `case ${n}: ${JSON.stringify(text)} should be rejected`).toBe(false);
        if (!outcome.ok) expect([outcome.error.code, outcome.error.message]).toEqual(['invalid-base64', 'Failed to construct data from Base64 string']);
      } else {
        valid++;
        expect(outcome.ok, `case ${n}: ${JSON.stringify(text)} should decode`).toBe(true);
        if (outcome.ok) expect(Buffer.from(outcome.value).equals(Buffer.from(expected))).toBe(true);
      }
    }
    expect(valid).toBeGreaterThan(CASES / 10);
  });
});

describe('after fuzzing', () => {
  it('the same parser instance still decodes correctly and its memory stayed bounded', () => {
    const edf = parser.decodeEdf(dataFile('edf/short_psg.edf'));
    const reference = referenceDecodeEdf(dataFile('edf/short_psg.edf'));
    edf.samples.forEach((samples, i) => expect(firstMismatch(samples as Float32Array, reference.physical[i] as Float32Array)).toBeNull());
    const frame = parser.encodeSmfFrame({ channel: 'ecg', format: 'int16', sequence: 1, startTimeUs: 0, sampleRate: 250, raw: [1, 2, 3] });
    expect(Array.from((parser.decodeSmfFrame(frame) as { values: Float32Array }).values)).toEqual([1, 2, 3]);
    expect(parser.memoryBytes).toBeLessThan(64 * 1024 * 1024);
  });
});
