// A minimal EDF/EDF+/BDF writer for tests: builds synthetic files (EDF+D, several annotation
// signals, odd fields) that the real recordings do not cover.

export interface WriterSignal {
  label: string;
  transducer?: string;
  dimension?: string;
  physicalMin: number | string;
  physicalMax: number | string;
  digitalMin: number | string;
  digitalMax: number | string;
  prefilter?: string;
  samplesPerRecord: number | string;
  /** Digital samples per record (ordinary signals). */
  samples?: (record: number) => number[];
  /** TAL bytes per record (annotation signals), padded with zeros to samplesPerRecord × bytes. */
  tals?: (record: number) => string;
}

export interface WriterOptions {
  bdf?: boolean;
  reserved?: string;
  patient?: string;
  recording?: string;
  startDate?: string;
  startTime?: string;
  records: number;
  recordsField?: string;
  duration: number | string;
  headerBytesField?: string;
  signalsField?: string;
  signals: WriterSignal[];
}

function ascii(text: string | number, width: number): string {
  const value = String(text);
  return value.length >= width ? value.slice(0, width) : value.padEnd(width, ' ');
}

export function writeEdf(options: WriterOptions): Uint8Array {
  const bytesPerSample = options.bdf ? 3 : 2;
  const ns = options.signals.length;
  let header = '';
  header += options.bdf ? '\xffBIOSEMI' : ascii('0', 8);
  header += ascii(options.patient ?? 'X X X X', 80);
  header += ascii(options.recording ?? 'Startdate 02-MAR-2024 X X X', 80);
  header += ascii(options.startDate ?? '02.03.24', 8);
  header += ascii(options.startTime ?? '22.30.00', 8);
  header += ascii(options.headerBytesField ?? String(256 * (ns + 1)), 8);
  header += ascii(options.reserved ?? '', 44);
  header += ascii(options.recordsField ?? String(options.records), 8);
  header += ascii(options.duration, 8);
  header += ascii(options.signalsField ?? String(ns), 4);
  const each = (width: number, pick: (s: WriterSignal) => string | number | undefined) => {
    for (const s of options.signals) header += ascii(pick(s) ?? '', width);
  };
  each(16, (s) => s.label);
  each(80, (s) => s.transducer);
  each(8, (s) => s.dimension);
  each(8, (s) => s.physicalMin);
  each(8, (s) => s.physicalMax);
  each(8, (s) => s.digitalMin);
  each(8, (s) => s.digitalMax);
  each(80, (s) => s.prefilter);
  each(8, (s) => s.samplesPerRecord);
  each(32, () => '');
  const headerBytes = Uint8Array.from(header, (c) => c.charCodeAt(0));
  const spr = options.signals.map((s) => Number(s.samplesPerRecord));
  const recordSize = spr.reduce((sum, n) => sum + n * bytesPerSample, 0);
  const out = new Uint8Array(headerBytes.length + options.records * recordSize);
  out.set(headerBytes);
  let at = headerBytes.length;
  for (let r = 0; r < options.records; r++) {
    options.signals.forEach((s, i) => {
      const n = spr[i] as number;
      if (s.tals) {
        const tal = new TextEncoder().encode(s.tals(r));
        out.set(tal.subarray(0, n * bytesPerSample), at);
      } else {
        const values = s.samples?.(r) ?? [];
        for (let k = 0; k < n; k++) {
          const v = values[k] ?? 0;
          out[at + k * bytesPerSample] = v & 0xff;
          out[at + k * bytesPerSample + 1] = (v >> 8) & 0xff;
          if (options.bdf) out[at + k * bytesPerSample + 2] = (v >> 16) & 0xff;
        }
      }
      at += n * bytesPerSample;
    });
  }
  return out;
}
