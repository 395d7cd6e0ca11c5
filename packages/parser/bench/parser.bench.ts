// `npm run bench:parser`: MB/s of input decoded by the WebAssembly parser and by a plain JavaScript
// decoder (src/testing/reference.ts), for SMF streams and EDF/BDF files, and the ratio.
// Inputs: SMF streams encoded here from synthetic signals; EDF/BDF: the real short_psg recordings
// from ../shared/data and an 8-hour file made by repeating their 10 real data records.
import { buildParser } from '../scripts/build.mjs';
import { dataFile } from '../src/testing/data.ts';
import { referenceDecodeEdf, referenceDecodeSmfStream } from '../src/testing/reference.ts';
import type { Parser, SmfFrameInit } from '../src/index.ts';

await buildParser({ quiet: true });
const { createParser } = await import('../src/node.ts');
const parser: Parser = await createParser();

const MB = 1e6;

/** Median MB/s of 5 timed rounds after a warm-up. */
function measure(run: () => unknown, bytes: number, seconds = 1.5): number {
  const rounds: number[] = [];
  // Warm-up lets V8 optimise both decoders before timing.
  const warmUntil = performance.now() + 300;
  while (performance.now() < warmUntil) run();
  for (let round = 0; round < 5; round++) {
    let iterations = 0;
    const started = performance.now();
    const until = started + (seconds * 1000) / 5;
    let now = started;
    while (now < until) {
      run();
      iterations++;
      now = performance.now();
    }
    rounds.push((bytes * iterations) / MB / ((now - started) / 1000));
  }
  rounds.sort((a, b) => a - b);
  return rounds[2] as number;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((sum, c) => sum + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function smfStream(seconds: number, framesPerSecond: (second: number) => SmfFrameInit[]): Uint8Array {
  const frames: Uint8Array[] = [];
  for (let s = 0; s < seconds; s++) for (const frame of framesPerSecond(s)) frames.push(parser.encodeSmfFrame(frame));
  return concat(frames);
}

const t0 = 1_700_000_000_000_000;
const wave = (n: number, f: number, amplitude: number, phase: number) =>
  Array.from({ length: n }, (_, i) => Math.round(amplitude * Math.sin(phase + (2 * Math.PI * f * i) / n) + (i % 7)));
const ecgOnly = smfStream(1200, (s) => [
  { channel: 'ecg', format: 'int16', sequence: s, startTimeUs: t0 + s * 1e6, sampleRate: 250, scale: 0.005, raw: wave(250, 1.2, 800, s) },
]);
const ecgLong = smfStream(120, (s) => [
  { channel: 'ecg', format: 'int16', sequence: s, startTimeUs: t0 + s * 10e6, sampleRate: 250, scale: 0.005, raw: wave(2500, 12, 800, s) },
]);
const deviceMix = smfStream(120, (s) => [
  { channel: 'ecg', format: 'int16', sequence: s, startTimeUs: t0 + s * 1e6, sampleRate: 250, scale: 0.005, raw: wave(250, 1.2, 800, s) },
  { channel: 'respiAxl', format: 'int16', sequence: s, startTimeUs: t0 + s * 1e6, sampleRate: 50, scale: 0.001, raw: wave(150, 3, 2000, s) },
  { channel: 'impe', format: 'int24', sequence: s, startTimeUs: t0 + s * 1e6, sampleRate: 50, scale: 0.01, raw: wave(50, 0.3, 90000, s) },
  { channel: 'eit', format: 'float32', width: 208, sequence: s, startTimeUs: t0 + s * 1e6, sampleRate: 20, raw: wave(208 * 20, 0.5, 300, s) },
  { channel: 'respiHr', format: 'float32', sequence: s, startTimeUs: t0 + s * 1e6, sampleRate: 1, raw: [14.5, 61] },
  { channel: 'temperature', format: 'int16', sequence: s, startTimeUs: t0 + s * 1e6, sampleRate: 1, scale: 0.01, raw: [3660] },
]);

function longEdf(file: Uint8Array, records: number): Uint8Array {
  const text = (start: number, width: number) => String.fromCharCode(...file.subarray(start, start + width));
  const headerBytes = Number(text(184, 8).trim());
  const count = Number(text(236, 8).trim());
  const recordSize = (file.length - headerBytes) / count;
  const out = new Uint8Array(headerBytes + records * recordSize);
  out.set(file.subarray(0, headerBytes));
  out.set(new TextEncoder().encode(String(records).padEnd(8, ' ')), 236);
  for (let r = 0; r < records; r++)
    out.set(file.subarray(headerBytes + (r % count) * recordSize, headerBytes + ((r % count) + 1) * recordSize), headerBytes + r * recordSize);
  return out;
}

const edf = dataFile('edf/short_psg.edf');
const bdf = dataFile('edf/short_psg.bdf');
const edfNight = longEdf(edf, 960);
const bdfNight = longEdf(bdf, 960);

interface Case {
  name: string;
  bytes: Uint8Array;
  wasm: () => unknown;
  js: () => unknown;
}

const cases: Case[] = [
  {
    name: `SMF ecg 1-s frames (${ecgOnly.length / 1200} B each)`,
    bytes: ecgOnly,
    wasm: () => parser.decodeSmfStream(ecgOnly),
    js: () => referenceDecodeSmfStream(ecgOnly),
  },
  {
    name: `SMF ecg 10-s frames (${ecgLong.length / 120} B each)`,
    bytes: ecgLong,
    wasm: () => parser.decodeSmfStream(ecgLong),
    js: () => referenceDecodeSmfStream(ecgLong),
  },
  {
    name: 'SMF device mix (6 channels, 1-s frames)',
    bytes: deviceMix,
    wasm: () => parser.decodeSmfStream(deviceMix),
    js: () => referenceDecodeSmfStream(deviceMix),
  },
  { name: 'EDF short_psg.edf (real, 184 kB)', bytes: edf, wasm: () => parser.decodeEdf(edf), js: () => referenceDecodeEdf(edf, false) },
  {
    name: `EDF 8-h night (${(edfNight.length / MB).toFixed(1)} MB)`,
    bytes: edfNight,
    wasm: () => parser.decodeEdf(edfNight),
    js: () => referenceDecodeEdf(edfNight, false),
  },
  { name: 'BDF short_psg.bdf (real, 276 kB)', bytes: bdf, wasm: () => parser.decodeEdf(bdf), js: () => referenceDecodeEdf(bdf, false) },
  {
    name: `BDF 8-h night (${(bdfNight.length / MB).toFixed(1)} MB)`,
    bytes: bdfNight,
    wasm: () => parser.decodeEdf(bdfNight),
    js: () => referenceDecodeEdf(bdfNight, false),
  },
];

const only = process.argv[2];
const pad = (text: string, width: number) => text.padEnd(width);
const num = (value: number) => value.toFixed(0).padStart(7);
const os = await import('node:os');
console.log(`Node ${process.versions.node}, ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, load average ${os.loadavg()[0]?.toFixed(2)}`);
console.log('MB/s = 10^6 bytes of input decoded per second, median of 5 rounds; ratios against the plain JavaScript decoder.');
console.log(`${pad('input', 44)} ${'wasm'.padStart(7)} ${'views'.padStart(7)} ${'JS'.padStart(7)}  wasm/JS  views/JS`);
for (const c of cases) {
  if (only && !c.name.toLowerCase().includes(only.toLowerCase())) continue;
  const wasm = measure(c.wasm, c.bytes.length);
  const views = measure(
    () => (c.name.startsWith('SMF') ? parser.decodeSmfStream(c.bytes, { copy: false }) : parser.decodeEdf(c.bytes, { copy: false })),
    c.bytes.length,
  );
  const js = measure(c.js, c.bytes.length);
  console.log(
    `${pad(c.name, 44)} ${num(wasm)} ${num(views)} ${num(js)}  ${`${(wasm / js).toFixed(1)}×`.padStart(7)}  ${`${(views / js).toFixed(1)}×`.padStart(8)}`,
  );
}
console.log('wasm:  the WebAssembly parser with default options (input copied in, results copied out to fresh arrays);');
console.log('views: the same with { copy: false } (results left in the module memory, valid until the next call);');
console.log('JS:    src/testing/reference.ts, a plain JavaScript decoder producing the same values (fresh arrays).');
