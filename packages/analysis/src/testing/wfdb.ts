// Minimal readers for the PhysioNet files in /work/shared/data used by the tests: WFDB headers,
// format 212 signals and MIT-format annotations (https://physionet.org/physiotools/wag/ header-5,
// signal-5 and annot-5), and EIT .get frames. Node only (they read files); the analysis never needs them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SHARED_DATA_DIR = fileURLToPath(new URL('../../../../../shared/data/', import.meta.url));

export interface WfdbSignalSpec {
  fileName: string;
  format: number;
  /** ADC units per physical unit. */
  gain: number;
  units: string;
  baseline: number;
  description: string;
}

export interface WfdbHeader {
  record: string;
  signalCount: number;
  sampleRate: number;
  samplesPerSignal: number;
  signals: WfdbSignalSpec[];
}

/** Parses a header; comment lines (`#`) and blank lines are skipped wherever they are. */
export function parseHeader(text: string): WfdbHeader {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const [recordLine, ...signalLines] = lines;
  if (!recordLine) throw new Error('WFDB header: no record line');
  const [record = '', count = '0', rate = '250', samples = '0'] = recordLine.split(/\s+/);
  const signalCount = Number(count);
  const signals = signalLines.slice(0, signalCount).map((line): WfdbSignalSpec => {
    const [fileName = '', format = '0', gainField = '200', , adcZero = '0', , , , ...description] = line.split(/\s+/);
    // Gain field: gain[(baseline)][/units]; the baseline defaults to the ADC zero.
    const match = /^([-\d.eE+]+)(?:\(([-\d]+)\))?(?:\/(\S+))?$/.exec(gainField);
    const gain = Number(match?.[1] ?? 200) || 200;
    const baseline = match?.[2] !== undefined ? Number(match[2]) : Number(adcZero);
    return { fileName, format: Number(format), gain, units: match?.[3] ?? 'mV', baseline, description: description.join(' ') };
  });
  return { record, signalCount, sampleRate: Number(rate.split('/')[0]), samplesPerSignal: Number(samples), signals };
}

export interface WfdbRecord {
  header: WfdbHeader;
  /** One array per signal, in physical units ((adc − baseline) / gain). */
  signals: Float32Array[];
}

/** Format 212: two 12-bit two's complement samples in three bytes, signals interleaved frame by frame. */
export function decodeFormat212(bytes: Uint8Array, signalCount: number, header: WfdbHeader): Float32Array[] {
  const total = Math.floor((bytes.length * 2) / 3);
  const frames = Math.min(Math.floor(total / signalCount), header.samplesPerSignal || Number.POSITIVE_INFINITY);
  const signals = Array.from({ length: signalCount }, () => new Float32Array(frames));
  for (let k = 0; k < frames * signalCount; k++) {
    const byte = (k >> 1) * 3;
    let value = k % 2 === 0 ? bytes[byte]! | ((bytes[byte + 1]! & 0x0f) << 8) : bytes[byte + 2]! | ((bytes[byte + 1]! & 0xf0) << 4);
    if (value > 2047) value -= 4096;
    const s = k % signalCount;
    const spec = header.signals[s]!;
    signals[s]![Math.floor(k / signalCount)] = (value - spec.baseline) / spec.gain;
  }
  return signals;
}

export function readRecord(name: string, directory = `${SHARED_DATA_DIR}wfdb/`): WfdbRecord {
  const header = parseHeader(readFileSync(`${directory}${name}.hea`, 'utf8'));
  const first = header.signals[0];
  if (!first || first.format !== 212) throw new Error(`${name}: only format 212 is supported`);
  return { header, signals: decodeFormat212(new Uint8Array(readFileSync(`${directory}${first.fileName}`)), header.signalCount, header) };
}

/** MIT annotation codes that label beats (WFDB's isqrs table): N L R a V F J A S E j / Q B ? e n f r. */
const BEAT_CODES = new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 25, 30, 34, 35, 38, 41]);
const SKIP = 59;
const NUM = 60;
const SUB = 61;
const CHN = 62;
const AUX = 63;

export interface Annotations {
  /** Sample index of each annotation. */
  samples: Int32Array;
  /** MIT annotation code (1 = N, 5 = V, 8 = A, 28 = rhythm change, …). */
  codes: Uint8Array;
  /** The auxiliary text of each annotation ('' when none): a rhythm change's new rhythm, e.g. '(VFL'. */
  aux: string[];
}

/** MIT format: 16-bit little-endian words, 6-bit code and 10-bit time increment, with SKIP/NUM/SUB/CHN/AUX pseudo-codes. */
export function parseAnnotations(bytes: Uint8Array): Annotations {
  const samples: number[] = [];
  const codes: number[] = [];
  const aux: string[] = [];
  let time = 0;
  let i = 0;
  while (i + 1 < bytes.length) {
    const word = bytes[i]! | (bytes[i + 1]! << 8);
    i += 2;
    const code = word >> 10;
    const value = word & 0x3ff;
    if (code === 0 && value === 0) break;
    if (code === SKIP) {
      // A 32-bit interval follows, high 16-bit word first (PDP-11 order).
      const high = bytes[i]! | (bytes[i + 1]! << 8);
      const low = bytes[i + 2]! | (bytes[i + 3]! << 8);
      time += ((high << 16) | low) >> 0;
      i += 4;
    } else if (code === AUX) {
      // The text belongs to the annotation before it.
      if (aux.length > 0) aux[aux.length - 1] = new TextDecoder('latin1').decode(bytes.subarray(i, i + value)).replace(/\0+$/, '');
      i += value + (value % 2);
    } else if (code === NUM || code === SUB || code === CHN) continue;
    else {
      time += value;
      samples.push(time);
      codes.push(code);
      aux.push('');
    }
  }
  return { samples: Int32Array.from(samples), codes: Uint8Array.from(codes), aux };
}

export function readAnnotations(name: string, extension = 'atr', directory = `${SHARED_DATA_DIR}wfdb/`): Annotations {
  return parseAnnotations(new Uint8Array(readFileSync(`${directory}${name}.${extension}`)));
}

export function isBeat(code: number): boolean {
  return BEAT_CODES.has(code);
}

/** An EIT .get file (Goe-MF II): frames of `width` little-endian float32 values. */
export function readEitFrames(path = `${SHARED_DATA_DIR}eit/P04P-1016.get`, width = 256): { frames: number; width: number; values: Float32Array } {
  const bytes = readFileSync(path);
  const frames = Math.floor(bytes.length / (4 * width));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Float32Array(frames * width);
  for (let i = 0; i < values.length; i++) values[i] = view.getFloat32(i * 4, true);
  return { frames, width, values };
}
