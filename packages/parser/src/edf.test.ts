import { describe, expect, it } from 'vitest';
import { loadParser, ParseError, type EdfFile } from './node.ts';
import { dataFile } from './testing/data.ts';
import { firstMismatch } from './testing/compare.ts';
import { referenceDecodeEdf } from './testing/reference.ts';
import { writeEdf, type WriterOptions } from './testing/edfWriter.ts';

const parser = await loadParser();

const SHORT_PSG_LABELS = ['EEG Fpz-Cz', 'EEG Pz-Oz', 'EOG horizontal', 'Resp oro-nasal', 'EMG submental', 'Temp rectal', 'Event marker'];

function checkAgainstReference(bytes: Uint8Array, file: EdfFile): void {
  const ref = referenceDecodeEdf(bytes);
  const h = file.header;
  expect(h.version).toBe(ref.version);
  expect(h.patient).toBe(ref.patient);
  expect(h.recording).toBe(ref.recording);
  expect(h.startDate).toBe(ref.startDate);
  expect(h.startTime).toBe(ref.startTime);
  expect(h.headerBytes).toBe(ref.headerBytes);
  expect(h.reserved).toBe(ref.reserved);
  expect(h.recordCount).toBe(ref.recordCount);
  expect(h.recordCountField).toBe(ref.recordCount);
  expect(h.recordDuration).toBe(ref.recordDuration);
  expect(h.signalCount).toBe(ref.signalCount);
  expect(h.signals).toHaveLength(ref.signals.length);
  h.signals.forEach((signal, i) => {
    const r = ref.signals[i];
    if (!r) throw new Error('reference lacks a signal');
    expect({
      label: signal.label,
      transducer: signal.transducer,
      physicalDimension: signal.physicalDimension,
      physicalMin: signal.physicalMin,
      physicalMax: signal.physicalMax,
      digitalMin: signal.digitalMin,
      digitalMax: signal.digitalMax,
      prefilter: signal.prefilter,
      samplesPerRecord: signal.samplesPerRecord,
      reserved: signal.reserved,
    }).toEqual(r);
    expect(signal.sampleRate).toBe(ref.recordDuration > 0 ? r.samplesPerRecord / ref.recordDuration : 0);
    if (signal.isAnnotation) {
      expect(file.samples[i]).toBeNull();
    } else {
      expect(firstMismatch(file.samples[i] as Float32Array, ref.physical[i] as Float32Array)).toBeNull();
      expect(firstMismatch(file.digital?.[i] as Int32Array, ref.digital[i] as number[])).toBeNull();
    }
  });
  const refAnnotations = ref.tals.filter((tal) => tal.texts.length > 0);
  expect(file.annotations.map(({ onset, duration, texts, record }) => ({ onset, duration, texts, record }))).toEqual(refAnnotations);
}

describe('EDF: short_psg.edf (Sleep-EDF SC4001E0, first 300 s)', () => {
  const bytes = dataFile('edf/short_psg.edf');
  const file = parser.decodeEdf(bytes, { raw: true });

  it('decodes every header field, sample and digital value like the reference decoder', () => {
    checkAgainstReference(bytes, file);
  });

  it('has the hand-checked layout: 7 signals, 10 records of 30 s, 100 Hz and 1 Hz', () => {
    const h = file.header;
    expect(h.format).toBe('EDF');
    expect(h.variant).toBe('plain');
    expect(h.version).toBe('0');
    expect(h.signalCount).toBe(7);
    expect(h.recordCount).toBe(10);
    expect(h.recordDuration).toBe(30);
    expect(h.headerBytes).toBe(256 * 8);
    expect(h.recordSize).toBe((3 * 3000 + 4 * 30) * 2);
    expect(h.trailingBytes).toBe(0);
    expect(h.patient).toBe('X F X Female_33yr');
    expect(h.recording).toBe('Startdate 24-APR-1989 X X X');
    expect(h.start).toEqual({ year: 1989, month: 4, day: 24, hour: 16, minute: 13, second: 0 });
    expect(h.startDateTime).toBe('1989-04-24T16:13:00');
    expect(h.signals.map((s) => s.label)).toEqual(SHORT_PSG_LABELS);
    expect(h.signals.map((s) => s.sampleRate)).toEqual([100, 100, 100, 1, 1, 1, 1]);
    expect(h.signals.map((s) => s.isAnnotation)).toEqual([false, false, false, false, false, false, false]);
    expect(h.signals[0]).toMatchObject({
      transducer: 'Ag-AgCl electrodes',
      physicalDimension: 'uV',
      physicalMin: -192,
      physicalMax: 192,
      digitalMin: -2048,
      digitalMax: 2047,
      prefilter: 'HP:0.5Hz LP:100Hz [enhanced cassette BW]',
      samplesPerRecord: 3000,
    });
    expect(h.signals[5]).toMatchObject({
      label: 'Temp rectal',
      physicalDimension: 'DegC',
      physicalMin: 34,
      physicalMax: 40,
      digitalMin: -2849,
      digitalMax: 2731,
    });
    expect(file.samples.map((s) => s?.length)).toEqual([30000, 30000, 30000, 300, 300, 300, 300]);
    expect(Array.from(file.recordStartTimes)).toEqual([0, 30, 60, 90, 120, 150, 180, 210, 240, 270]);
    expect(file.annotations).toEqual([]);
  });

  it('scales digital to physical values as the EDF specification defines (within float32 rounding)', () => {
    file.header.signals.forEach((s, i) => {
      const digital = file.digital?.[i] as Int32Array;
      const physical = file.samples[i] as Float32Array;
      const tolerance = 1e-6 * (s.physicalMax - s.physicalMin);
      const literal = Array.from(digital, (d) => ((d - s.digitalMin) * (s.physicalMax - s.physicalMin)) / (s.digitalMax - s.digitalMin) + s.physicalMin);
      expect(firstMismatch(physical, literal, tolerance)).toBeNull();
    });
    // A plausible rectal temperature, in °C.
    const temperature = file.samples[5] as Float32Array;
    expect(Math.min(...temperature)).toBeGreaterThan(36);
    expect(Math.max(...temperature)).toBeLessThan(38);
  });

  it('decodes the same file given as base64 text', () => {
    const fromText = parser.decodeEdf(Buffer.from(bytes).toString('base64'));
    expect(fromText.header).toEqual(file.header);
    expect(firstMismatch(fromText.samples[0] as Float32Array, file.samples[0] as Float32Array)).toBeNull();
  });

  it('resolves a record count of -1 from the file size and ignores trailing bytes', () => {
    const copy = new Uint8Array(bytes.length + 100);
    copy.set(bytes);
    copy.set(new TextEncoder().encode('-1      '), 236);
    const decoded = parser.decodeEdf(copy);
    expect(decoded.header.recordCount).toBe(10);
    expect(decoded.header.recordCountField).toBe(-1);
    expect(decoded.header.trailingBytes).toBe(100);
    expect(firstMismatch(decoded.samples[2] as Float32Array, file.samples[2] as Float32Array)).toBeNull();
  });
});

describe('BDF: short_psg.bdf (the same 300 s as 24-bit BDF)', () => {
  const bytes = dataFile('edf/short_psg.bdf');
  const bdf = parser.decodeEdf(bytes, { raw: true });
  const edf = parser.decodeEdf(dataFile('edf/short_psg.edf'), { raw: true });

  it('decodes every header field and sample like the reference decoder', () => {
    checkAgainstReference(bytes, bdf);
    expect(bdf.header.format).toBe('BDF');
    expect(bdf.header.version).toBe('BIOSEMI');
    expect(bdf.header.recordSize).toBe((3 * 3000 + 4 * 30) * 3);
  });

  it('equals the EDF values within the BDF/EDF scaling', () => {
    expect(bdf.header.signals.map((s) => s.label)).toEqual(SHORT_PSG_LABELS);
    bdf.header.signals.forEach((s, i) => {
      const e = edf.header.signals[i];
      if (!e) throw new Error('missing EDF signal');
      const halfStep =
        Math.max((s.physicalMax - s.physicalMin) / (s.digitalMax - s.digitalMin), (e.physicalMax - e.physicalMin) / (e.digitalMax - e.digitalMin)) / 2;
      expect(firstMismatch(bdf.samples[i] as Float32Array, edf.samples[i] as Float32Array, halfStep)).toBeNull();
    });
  });
});

const STAGE_COUNTS_SC4001 = {
  'Sleep stage W': 12,
  'Sleep stage 1': 24,
  'Sleep stage 2': 40,
  'Sleep stage 3': 48,
  'Sleep stage 4': 23,
  'Sleep stage R': 6,
  'Sleep stage ?': 1,
};

function countTexts(file: EdfFile): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of file.annotations) for (const text of a.texts) counts[text] = (counts[text] ?? 0) + 1;
  return counts;
}

describe('EDF+C annotations: SC4001EC-Hypnogram (annotation-only, one record of duration 0)', () => {
  for (const name of ['SC4001EC-Hypnogram.edf', 'SC4001EC-Hypnogram.bdf']) {
    it(`${name}: 154 R&K annotations tiling the day`, () => {
      const bytes = dataFile(`edf/${name}`);
      const file = parser.decodeEdf(bytes);
      checkAgainstReference(bytes, file);
      expect(file.header.variant).toBe('continuous');
      expect(file.header.reserved).toBe(name.endsWith('.bdf') ? 'BDF+C' : 'EDF+C');
      expect(file.header.recordCount).toBe(1);
      expect(file.header.recordDuration).toBe(0);
      expect(file.header.signals).toHaveLength(1);
      expect(file.header.signals[0]).toMatchObject({ label: name.endsWith('.bdf') ? 'BDF Annotations' : 'EDF Annotations', isAnnotation: true, sampleRate: 0 });
      expect(file.samples).toEqual([null]);
      expect(Array.from(file.recordStartTimes)).toEqual([0]);
      expect(file.annotations).toHaveLength(154);
      expect(countTexts(file)).toEqual(STAGE_COUNTS_SC4001);
      expect(file.annotations[0]).toEqual({ onset: 0, duration: 30630, texts: ['Sleep stage W'], record: 0, signal: 0 });
      expect(file.annotations.at(-1)).toEqual({ onset: 79500, duration: 6900, texts: ['Sleep stage ?'], record: 0, signal: 0 });
      // Each stage starts where the previous one ended: 24 h of scoring without gaps.
      for (let i = 1; i < file.annotations.length; i++) {
        const previous = file.annotations[i - 1] as { onset: number; duration: number };
        expect(file.annotations[i]?.onset).toBe(previous.onset + previous.duration);
      }
    });
  }

  it('the BDF+ and EDF+ hypnograms carry identical annotations', () => {
    const edf = parser.decodeEdf(dataFile('edf/SC4001EC-Hypnogram.edf'));
    const bdf = parser.decodeEdf(dataFile('edf/SC4001EC-Hypnogram.bdf'));
    expect(bdf.annotations).toEqual(edf.annotations);
  });
});

describe('EDF+C annotations: hmc_sn001_hypnogram.edf (AASM epochs, record duration 0)', () => {
  const bytes = dataFile('edf/hmc_sn001_hypnogram.edf');
  const file = parser.decodeEdf(bytes);

  it('decodes like the reference decoder, with the zero-duration record', () => {
    checkAgainstReference(bytes, file);
    expect(file.header).toMatchObject({ variant: 'continuous', recordCount: 1, recordDuration: 0, signalCount: 1, headerBytes: 512, recordSize: 61440 });
    expect(file.header.start).toEqual({ year: 2001, month: 1, day: 1, hour: 23, minute: 59, second: 30 });
    expect(file.header.signals[0]).toMatchObject({ isAnnotation: true, samplesPerRecord: 30720, sampleRate: 0 });
    expect(Array.from(file.recordStartTimes)).toEqual([0]);
  });

  it('has 854 epochs with the README counts W 151, N1 109, N2 430, N3 23, R 141', () => {
    const epochs = file.annotations.filter((a) => a.texts[0]?.startsWith('Sleep stage '));
    expect(epochs).toHaveLength(854);
    const counts = countTexts({ ...file, annotations: epochs });
    expect(counts).toEqual({ 'Sleep stage W': 151, 'Sleep stage N1': 109, 'Sleep stage N2': 430, 'Sleep stage N3': 23, 'Sleep stage R': 141 });
    epochs.forEach((epoch, i) => {
      expect(epoch.onset).toBe(i * 30);
      expect(epoch.duration).toBe(30);
      expect(epoch.texts).toHaveLength(1);
    });
  });

  it('keeps the lights tags with their fractional onsets and zero durations', () => {
    const tags = file.annotations.filter((a) => !a.texts[0]?.startsWith('Sleep stage '));
    expect(tags).toEqual([
      { onset: 33.43, duration: 0, texts: ['Lights off@@EEG F4-A1'], record: 0, signal: 0 },
      { onset: 25618.74, duration: 0, texts: ['Lights on@@EEG Fpz-Cz'], record: 0, signal: 0 },
    ]);
    expect(file.annotations).toHaveLength(856);
  });
});

// Synthetic files for what the real recordings do not cover.
function discontinuous(overrides: Partial<WriterOptions> = {}): WriterOptions {
  const starts = [0, 10, 35];
  return {
    reserved: 'EDF+D',
    records: 3,
    duration: 2.5,
    signals: [
      {
        label: 'ECG',
        dimension: 'mV',
        physicalMin: -5,
        physicalMax: 5,
        digitalMin: -32768,
        digitalMax: 32767,
        samplesPerRecord: 625,
        samples: (r) => Array.from({ length: 625 }, (_, k) => ((k * 97 + r * 1000) % 65536) - 32768),
      },
      { label: 'Resp', physicalMin: '-1e2', physicalMax: '1E2', digitalMin: -100, digitalMax: 100, samplesPerRecord: 5, samples: (r) => [r, -r, 100, -100, 0] },
      {
        label: 'EDF Annotations',
        physicalMin: -1,
        physicalMax: 1,
        digitalMin: -32768,
        digitalMax: 32767,
        samplesPerRecord: 60,
        tals: (r) => `+${starts[r]}\x14\x14\0` + (r === 1 ? '+10.5\x150.25\x14Apnea\x14Desat\x14\0-0.125\x14Before start\x14\0' : ''),
      },
      {
        label: 'EDF Annotations',
        physicalMin: -1,
        physicalMax: 1,
        digitalMin: -32768,
        digitalMax: 32767,
        samplesPerRecord: 20,
        tals: (r) => (r === 2 ? '+36\x14Bouton appelé 呼出\x14\0' : ''),
      },
    ],
    ...overrides,
  };
}

describe('EDF+D and other synthetic files', () => {
  it('reads record start times, several annotation signals, multi-text TALs and UTF-8', () => {
    const bytes = writeEdf(discontinuous());
    const file = parser.decodeEdf(bytes, { raw: true });
    checkAgainstReference(bytes, file);
    expect(file.header.variant).toBe('discontinuous');
    expect(Array.from(file.recordStartTimes)).toEqual([0, 10, 35]);
    expect(file.header.signals.map((s) => [s.sampleRate, s.isAnnotation])).toEqual([
      [250, false],
      [2, false],
      [24, true],
      [8, true],
    ]);
    expect(file.header.signals[1]).toMatchObject({ physicalMin: -100, physicalMax: 100 });
    expect(file.annotations).toEqual([
      { onset: 10.5, duration: 0.25, texts: ['Apnea', 'Desat'], record: 1, signal: 2 },
      { onset: -0.125, duration: null, texts: ['Before start'], record: 1, signal: 2 },
      { onset: 36, duration: null, texts: ['Bouton appelé 呼出'], record: 2, signal: 3 },
    ]);
    expect(Array.from(file.samples[1] as Float32Array)).toEqual([0, 0, 100, -100, 0, 1, -1, 100, -100, 0, 2, -2, 100, -100, 0]);
  });

  it('rejects an EDF+D record without a time-keeping annotation', () => {
    const options = discontinuous();
    const signals = options.signals.map((s, i) => (i === 2 ? { ...s, tals: (r: number) => (r === 1 ? '+10\x14Apnea\x14\0' : `+${r}\x14\x14\0`) } : s));
    expectError(writeEdf({ ...options, signals }), 'bad-header', /data record 1 has no time-keeping annotation/);
  });

  it('falls back to record × duration in EDF+C when a time-keeping TAL is missing', () => {
    const options = discontinuous({ reserved: 'EDF+C' });
    const signals = options.signals.map((s, i) => (i === 2 ? { ...s, tals: (r: number) => (r === 1 ? '+3\x14Note\x14\0' : `+${r * 2.5}\x14\x14\0`) } : s));
    const file = parser.decodeEdf(writeEdf({ ...options, signals }));
    expect(Array.from(file.recordStartTimes)).toEqual([0, 2.5, 5]);
    expect(file.annotations[0]).toMatchObject({ onset: 3, texts: ['Note'] });
  });

  it('treats "EDF Annotations" in a plain EDF as an ordinary signal', () => {
    const file = parser.decodeEdf(writeEdf(discontinuous({ reserved: '' })));
    expect(file.header.variant).toBe('plain');
    expect(file.header.signals.map((s) => s.isAnnotation)).toEqual([false, false, false, false]);
    expect(file.annotations).toEqual([]);
  });

  it('returns views into the parser memory with { copy: false }, overwritten by the next call', () => {
    const bytes = dataFile('edf/short_psg.edf');
    const copied = parser.decodeEdf(bytes);
    const views = parser.decodeEdf(bytes, { copy: false });
    const first = (views.samples[0] as Float32Array)[0];
    expect(first).toBe((copied.samples[0] as Float32Array)[0]);
    parser.decodeEdf(dataFile('edf/short_psg.bdf'), { raw: true });
    // The copied arrays are untouched; the views now show whatever the arena holds.
    expect((copied.samples[0] as Float32Array)[0]).toBe(first);
    expect((views.samples[0] as Float32Array).buffer).not.toBe((copied.samples[0] as Float32Array).buffer);
  });

  it('decodes straight from a prepared input view without a copy', () => {
    const bytes = dataFile('edf/short_psg.edf');
    const view = parser.prepareInput(bytes.length);
    view.set(bytes);
    const file = parser.decodeEdf(view);
    expect(firstMismatch(file.samples[6] as Float32Array, parser.decodeEdf(bytes).samples[6] as Float32Array)).toBeNull();
  });
});

function expectError(input: Uint8Array | string, code: string, message: RegExp): ParseError {
  let caught: unknown;
  try {
    parser.decodeEdf(input);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ParseError);
  const error = caught as ParseError;
  expect({ code: error.code, message: error.message }).toMatchObject({ code, message: expect.stringMatching(message) });
  return error;
}

function patch(bytes: Uint8Array, offset: number, text: string): Uint8Array {
  const copy = bytes.slice();
  for (let i = 0; i < text.length; i++) copy[offset + i] = text.charCodeAt(i);
  return copy;
}

describe('malformed EDF/BDF, one case at a time', () => {
  const psg = dataFile('edf/short_psg.edf');
  const ns = 7;
  const signalField = (start: number, width: number, i: number) => 256 + ns * start + i * width;

  it.each([
    ['empty input', new Uint8Array(0), 'truncated', /input is 0 bytes/],
    ['a short header', psg.subarray(0, 255), 'truncated', /header alone is 256/],
    ['a header cut inside the signal fields', psg.subarray(0, 1000), 'truncated', /header is 2048 bytes but the input has only 1000/],
    [
      'the last data record cut short',
      psg.subarray(0, psg.length - 1),
      'truncated',
      /data records need 182400 bytes after the header but the input has 182399/,
    ],
    ['a wrong version field', patch(psg, 0, '1'), 'bad-magic', /not an EDF or BDF file/],
    ['a BDF with a wrong signature', patch(dataFile('edf/short_psg.bdf'), 1, 'BIOSEMX'), 'bad-magic', /not an EDF or BDF/],
    ['an SMF frame', Uint8Array.of(0x89, 0x53, 0x4d, 0x46, ...new Array(300).fill(0)), 'bad-magic', /not an EDF/],
    ['a header size that lies', patch(psg, 184, '2304    '), 'bad-header', /header size field says 2304 bytes but its signal count needs 2048/],
    ['a non-numeric header size', patch(psg, 184, 'abc     '), 'bad-header', /"number of bytes in header record" is not a valid number: "abc {5}"/],
    ['zero signals', patch(psg, 252, '0   '), 'bad-header', /number of signals 0 must be at least 1/],
    ['a signal count that lies', patch(psg, 252, '9999'), 'bad-header', /header size field says 2048 bytes but its signal count needs 2560000/],
    ['a negative record count', patch(psg, 236, '-5      '), 'bad-header', /number of data records -5 is invalid/],
    ['an absurd record count', patch(psg, 236, '99999999'), 'truncated', /data records need 1823999981760 bytes/],
    ['a non-numeric record count', patch(psg, 236, '10 recs '), 'bad-header', /"number of data records" is not a valid number/],
    ['a negative record duration', patch(psg, 244, '-30     '), 'bad-header', /record duration -30 is not a finite number/],
    ['a zero record duration with ordinary signals', patch(psg, 244, '0       '), 'bad-header', /duration of 0 is allowed only in annotation-only/],
    ['a bad start date', patch(psg, 168, '24.4.89 '), 'bad-header', /start date "24.4.89 " or time "16.13.00" is not a valid/],
    ['a month 13', patch(psg, 168, '24.13.89'), 'bad-header', /start date "24.13.89"/],
    ['an hour 25', patch(psg, 176, '25.13.00'), 'bad-header', /time "25.13.00"/],
    ['digital min ≥ max', patch(psg, signalField(120, 8, 2), '2047    '), 'bad-header', /signal 2: digital minimum 2047 and maximum 2047/],
    ['digital max beyond 16 bits', patch(psg, signalField(128, 8, 0), '40000   '), 'bad-header', /signal 0: digital minimum -2048 and maximum 40000/],
    ['physical min = max', patch(psg, signalField(104, 8, 4), '5       '), 'bad-header', /signal 4: physical minimum and maximum are both 5/],
    [
      'a non-numeric physical max',
      patch(psg, signalField(112, 8, 1), 'NaN     '),
      'bad-header',
      /signal 1's "physical maximum" is not a valid number: "NaN {5}"/,
    ],
    [
      'negative samples per record',
      patch(psg, signalField(216, 8, 3), '-30     '),
      'bad-header',
      /signal 3: number of samples per data record -30 is negative/,
    ],
    [
      'samples per record that lie',
      patch(psg, signalField(216, 8, 3), '31      '),
      'truncated',
      /data records need 182420 bytes after the header but the input has 182400/,
    ],
    ['absurd samples per record', patch(psg, signalField(216, 8, 0), '99999999'), 'truncated', /data records need/],
    ['invalid base64 text', 'MCAgICAg@', 'invalid-base64', /^Failed to construct data from Base64 string$/],
  ] as const)('rejects %s', (_name, input, code, message) => {
    expectError(input, code, message);
  });

  const hypnogram = dataFile('edf/SC4001EC-Hypnogram.edf');
  it.each([
    ['a TAL without a sign', 512 + 5, 'x', 'bad-header', /annotation signal 0, data record 0: a TAL must start with a signed onset/],
    ['a TAL onset that is not a number', 512 + 6, '+x', 'bad-header', /a TAL must start with a signed onset/],
    ['a TAL duration that is not a number', 512 + 8, '\x15-3', 'bad-header', /a TAL duration must be an unsigned number/],
    ['a TAL onset not followed by 0x14', 512 + 7, '\x00', 'bad-header', /must be followed by 0x14/],
  ] as const)('rejects %s', (_name, offset, text, code, message) => {
    expectError(patch(hypnogram, offset, text), code, message);
  });

  it('rejects an EDF+D file without an annotation signal', () => {
    expectError(patch(psg, 192, 'EDF+D'), 'bad-header', /an EDF\+D file needs an "EDF Annotations" signal/);
  });

  it('rejects a file whose signals all have 0 samples per record', () => {
    const bytes = writeEdf({
      records: 1,
      duration: 1,
      signals: [{ label: 'A', physicalMin: 0, physicalMax: 1, digitalMin: 0, digitalMax: 1, samplesPerRecord: 0 }],
    });
    expectError(bytes, 'bad-header', /every signal has 0 samples per data record/);
  });

  it('does work in proportion to the input, however many empty signals the header declares', () => {
    const empty = { label: 'off', physicalMin: 0, physicalMax: 1, digitalMin: 0, digitalMax: 1, samplesPerRecord: 0 };
    const header = writeEdf({
      records: 0,
      recordsField: '200000',
      duration: 1,
      signals: [{ ...empty, label: 'on', samplesPerRecord: 1 }, ...new Array(999).fill(empty)],
    });
    const bytes = new Uint8Array(header.length + 400_000);
    bytes.set(header);
    for (let r = 0; r < 200_000; r++) bytes[header.length + r * 2] = r % 2;
    const started = performance.now();
    const file = parser.decodeEdf(bytes);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(file.header.signalCount).toBe(1000);
    expect(file.samples[0]?.length).toBe(200_000);
    expect(file.samples[1]?.length).toBe(0);
    expect(Array.from((file.samples[0] as Float32Array).subarray(0, 4))).toEqual([0, 1, 0, 1]);
  });

  it('reports where the problem is', () => {
    const error = expectError(patch(psg, signalField(104, 8, 4), '5       '), 'bad-header', /physical minimum/);
    expect(error.signal).toBe(4);
    expect(error.offset).toBe(signalField(104, 8, 4));
  });
});
