// Plain JavaScript decoders written the obvious way, independently of the WebAssembly parser: the
// reference the tests compare against and the baseline the benchmark measures. No SIMD, no tricks:
// a byte-at-a-time CRC table, DataView reads, one loop per signal.

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[i] = c >>> 0;
  }
  return table;
})();

export function referenceCrc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = (CRC_TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export interface ReferenceSmfFrame {
  version: number;
  channel: number;
  format: number;
  flags: number;
  width: number;
  reserved: number;
  sequence: number;
  startTimeUs: bigint;
  sampleRate: number;
  sampleCount: number;
  scale: number;
  offset: number;
  payloadLength: number;
  crc: number;
  raw: number[] | null;
  values: Float32Array | null;
  frames: ReferenceSmfFrame[] | null;
}

/** Decodes a sequence of SMF frames; throws a plain Error on anything malformed. */
export function referenceDecodeSmfStream(bytes: Uint8Array, withRaw = false): ReferenceSmfFrame[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const frames: ReferenceSmfFrame[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    if (bytes.length - pos < 48) throw new Error('truncated frame');
    if (view.getUint32(pos, true) !== 0x464d5389) throw new Error('bad magic');
    const payloadLength = view.getUint32(pos + 40, true);
    const end = pos + 44 + payloadLength;
    if (end + 4 > bytes.length) throw new Error('truncated payload');
    const crc = view.getUint32(end, true);
    if (referenceCrc32(bytes, pos, end) !== crc) throw new Error('bad crc');
    const frame: ReferenceSmfFrame = {
      version: view.getUint8(pos + 4),
      channel: view.getUint8(pos + 5),
      format: view.getUint8(pos + 6),
      flags: view.getUint8(pos + 7),
      width: view.getUint16(pos + 8, true),
      reserved: view.getUint16(pos + 10, true),
      sequence: view.getUint32(pos + 12, true),
      startTimeUs: view.getBigInt64(pos + 16, true),
      sampleRate: view.getFloat32(pos + 24, true),
      sampleCount: view.getUint32(pos + 28, true),
      scale: view.getFloat32(pos + 32, true),
      offset: view.getFloat32(pos + 36, true),
      payloadLength,
      crc,
      raw: null,
      values: null,
      frames: null,
    };
    if (frame.version !== 1) throw new Error('unsupported version');
    const payload = pos + 44;
    if (frame.channel === 8) {
      frame.frames = referenceDecodeSmfStream(bytes.subarray(payload, end), withRaw);
    } else {
      const n = frame.sampleCount * frame.width;
      const size = frame.format === 1 ? 2 : frame.format === 2 ? 3 : frame.format === 3 ? 4 : 0;
      if (size === 0 || n * size !== payloadLength) throw new Error('bad header');
      const values = new Float32Array(n);
      const raw: number[] | null = withRaw ? [] : null;
      for (let i = 0; i < n; i++) {
        let sample: number;
        if (frame.format === 1) sample = view.getInt16(payload + i * 2, true);
        else if (frame.format === 2) {
          const at = payload + i * 3;
          sample = (bytes[at] as number) | ((bytes[at + 1] as number) << 8) | (((bytes[at + 2] as number) << 24) >> 8);
        } else sample = view.getFloat32(payload + i * 4, true);
        if (raw) raw.push(sample);
        values[i] = sample * frame.scale + frame.offset;
      }
      frame.values = values;
      frame.raw = raw;
    }
    frames.push(frame);
    pos = end + 4;
  }
  return frames;
}

export interface ReferenceEdfSignal {
  label: string;
  transducer: string;
  physicalDimension: string;
  physicalMin: number;
  physicalMax: number;
  digitalMin: number;
  digitalMax: number;
  prefilter: string;
  samplesPerRecord: number;
  reserved: string;
}

export interface ReferenceEdf {
  version: string;
  patient: string;
  recording: string;
  startDate: string;
  startTime: string;
  headerBytes: number;
  reserved: string;
  recordCount: number;
  recordDuration: number;
  signalCount: number;
  signals: ReferenceEdfSignal[];
  digital: number[][];
  physical: Float32Array[];
  tals: { onset: number; duration: number | null; texts: string[]; record: number }[];
}

const UTF8 = new TextDecoder();

function text(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length)).replace(/ +$/, '');
}

/**
 * Decodes EDF/BDF the way the specification reads: fixed ASCII fields, then records of samples.
 * Physical value = digital × gain + offset with gain = (pmax − pmin) / (dmax − dmin) and
 * offset = pmin − gain × dmin, in double precision, stored as float32.
 */
export function referenceDecodeEdf(bytes: Uint8Array, withDigital = true): ReferenceEdf {
  const bdf = bytes[0] === 0xff;
  const size = bdf ? 3 : 2;
  const ns = Number(text(bytes, 252, 4));
  const header = {
    version: bdf ? text(bytes, 1, 7) : text(bytes, 0, 8),
    patient: text(bytes, 8, 80),
    recording: text(bytes, 88, 80),
    startDate: text(bytes, 168, 8),
    startTime: text(bytes, 176, 8),
    headerBytes: Number(text(bytes, 184, 8)),
    reserved: text(bytes, 192, 44),
    recordCount: Number(text(bytes, 236, 8)),
    recordDuration: Number(text(bytes, 244, 8)),
    signalCount: ns,
  };
  const signals: ReferenceEdfSignal[] = [];
  const fieldOf = (offset: number, width: number, i: number) => text(bytes, 256 + ns * offset + i * width, width);
  for (let i = 0; i < ns; i++) {
    signals.push({
      label: fieldOf(0, 16, i),
      transducer: fieldOf(16, 80, i),
      physicalDimension: fieldOf(96, 8, i),
      physicalMin: Number(fieldOf(104, 8, i)),
      physicalMax: Number(fieldOf(112, 8, i)),
      digitalMin: Number(fieldOf(120, 8, i)),
      digitalMax: Number(fieldOf(128, 8, i)),
      prefilter: fieldOf(136, 80, i),
      samplesPerRecord: Number(fieldOf(216, 8, i)),
      reserved: fieldOf(224, 32, i),
    });
  }
  const isPlus = /^[EB]DF\+[CD]/.test(header.reserved);
  const isAnnotation = (s: ReferenceEdfSignal) => isPlus && (s.label === 'EDF Annotations' || s.label === 'BDF Annotations');
  const digital: number[][] = signals.map(() => []);
  const physical: Float32Array[] = signals.map((s) => new Float32Array(isAnnotation(s) ? 0 : s.samplesPerRecord * header.recordCount));
  const tals: ReferenceEdf['tals'] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = header.headerBytes;
  for (let r = 0; r < header.recordCount; r++) {
    signals.forEach((s, i) => {
      const n = s.samplesPerRecord;
      if (isAnnotation(s)) {
        // TALs: "+onset[\x15duration]\x14text\x14text\x14…\x00", then zero padding.
        const end = pos + n * size;
        let k = pos;
        while (k < end) {
          if (bytes[k] === 0) {
            k++;
            continue;
          }
          let stop = k;
          while (stop < end && bytes[stop] !== 0) stop++;
          const parts: Uint8Array[] = [];
          let from = k;
          for (let j = k; j <= stop; j++) {
            if (j === stop || bytes[j] === 0x14) {
              parts.push(bytes.subarray(from, j));
              from = j + 1;
            }
          }
          const [onset = '', duration] = String.fromCharCode(...(parts[0] as Uint8Array)).split('\x15');
          const texts = parts
            .slice(1)
            .filter((t) => t.length > 0)
            .map((t) => UTF8.decode(t));
          tals.push({ onset: Number(onset), duration: duration === undefined ? null : Number(duration), texts, record: r });
          k = stop;
        }
      } else {
        const gain = (s.physicalMax - s.physicalMin) / (s.digitalMax - s.digitalMin);
        const offset = s.physicalMin - gain * s.digitalMin;
        const out = physical[i] as Float32Array;
        const dig = digital[i] as number[];
        for (let k = 0; k < n; k++) {
          const at = pos + k * size;
          const d = bdf ? (bytes[at] as number) | ((bytes[at + 1] as number) << 8) | (((bytes[at + 2] as number) << 24) >> 8) : view.getInt16(at, true);
          if (withDigital) dig.push(d);
          out[r * n + k] = d * gain + offset;
        }
      }
      pos += n * size;
    });
  }
  return { ...header, signals, digital, physical, tals };
}
