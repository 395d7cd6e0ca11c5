/**
 * Files into sleep days, without a server: the Sleep-EDF and HMC hypnograms kept stage for stage, a
 * simulated night's SMF recording scored like a monitored night, per-minute CSV in UTF-8 and Shift_JIS,
 * and every kind of broken file refused with its reason.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createParserSync } from '@nemuri/parser/node';
import { SHARED_DATA_DIR } from '@nemuri/simulator/eit';
import { DEFAULT_SLEEP_DAY, sleepDayRuleOf } from '../sleep/sleepDay.ts';
import { ImportError } from './importError.ts';
import { importRecording, type ImportJob } from './importRecording.ts';
import type { ImportResult } from './importResult.ts';
import { runImport } from './importRunner.ts';
import { splitRecording } from './smfParallel.ts';
import { hypnogramOf, stageOfText, type Stage } from './stages.ts';
import { writeSmfRecording } from './testing.ts';

const parser = createParserSync();
const EDF_DIR = join(SHARED_DATA_DIR, 'edf');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nemuri-import-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const run = (path: string, format: ImportJob['format'], rule = DEFAULT_SLEEP_DAY) => importRecording(parser, { path, format, rule, source: 'upload-1' });

async function failure(promise: Promise<unknown>): Promise<ImportError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ImportError) return error;
    throw error;
  }
  throw new Error('expected the import to fail');
}

/** Every 30-s epoch's stage, from the file's own annotations read straight. */
async function referenceEpochs(file: string): Promise<Stage[]> {
  const edf = parser.decodeEdf(await readFile(join(EDF_DIR, file)));
  const epochs: Stage[] = [];
  for (const annotation of edf.annotations) {
    const stage = annotation.texts.map(stageOfText).find((found) => found !== null);
    if (stage === undefined || stage === null || annotation.duration === null) continue;
    for (let k = 0; k < Math.round(annotation.duration / 30); k++) epochs.push(stage);
  }
  return epochs;
}

/** The imported days' hypnograms joined back into 30-s epochs. */
function importedEpochs(result: ImportResult): Stage[] {
  const epochs: Stage[] = [];
  for (const day of result.days) for (const run of day.stages) for (let k = 0; k < Math.round(run.durationSec / 30); k++) epochs.push(run.stage);
  return epochs;
}

describe('hypnograms', () => {
  it('reads R&K and AASM stage labels', () => {
    expect(
      [
        'Sleep stage W',
        'Sleep stage 1',
        'Sleep stage N2',
        'Sleep stage 3',
        'Sleep stage 4',
        'Sleep stage R',
        'Sleep stage ?',
        'Movement time',
        'Lights off@@EEG F4-A1',
      ].map(stageOfText),
    ).toEqual(['W', 'N1', 'N2', 'N3', 'N4', 'R', '?', 'M', null]);
  });

  it.each(['SC4001EC-Hypnogram.edf', 'SC4001EC-Hypnogram.bdf'])('imports the Sleep-EDF hypnogram %s stage for stage', async (file) => {
    const result = await run(join(EDF_DIR, file), file.endsWith('.bdf') ? 'bdf' : 'edf');
    const reference = await referenceEpochs(file);
    expect(reference.length).toBeGreaterThan(2000);
    expect(importedEpochs(result)).toEqual(reference);
    // 16:13 on 24 April 1989 (Japan time here) to the next afternoon: two sleep days with a noon boundary.
    expect(result.days.map((day) => day.day)).toEqual(['1989-04-24', '1989-04-25']);
    const night = result.days[0]!.record!;
    // The first sleep epoch starts at 00:43:30; the minute 00:43 is half asleep and counts as asleep.
    expect(night.sleepOnset).toBe(new Date(Date.parse('1989-04-25T00:43:00+09:00')).toISOString());
    // Minutes are scored by the stage that covers most of them: the total agrees with the 30-s epochs.
    const asleepEpochs = reference.filter((stage) => ['N1', 'N2', 'N3', 'N4', 'R'].includes(stage)).length;
    expect(Math.abs(night.totalSleepMin - asleepEpochs / 2)).toBeLessThanOrEqual(5);
    expect(night.epochs.some((epoch) => epoch.state === 'rem')).toBe(true);
    expect(night.epochs.some((epoch) => epoch.state === 'deep')).toBe(true);
  });

  it('imports the HMC hypnogram (AASM, 854 epochs) exactly, with lights off and on as bed times', async () => {
    const result = await run(join(EDF_DIR, 'hmc_sn001_hypnogram.edf'), 'edf');
    const epochs = importedEpochs(result);
    expect(epochs).toEqual(await referenceEpochs('hmc_sn001_hypnogram.edf'));
    const count = (stage: Stage) => epochs.filter((epoch) => epoch === stage).length;
    expect([epochs.length, count('W'), count('N1'), count('N2'), count('N3'), count('R')]).toEqual([854, 151, 109, 430, 23, 141]);
    const night = result.days[0]!.record!;
    // Lights off 33.43 s after 23:59:30: the first whole minute in bed starts at 00:00.
    expect(night.bedTime).toBe(new Date(Date.parse('2001-01-02T00:00:00+09:00')).toISOString());
    expect(result.deviceSerial).toBeNull();
  });

  it('merges adjacent runs of a stage and cuts runs at a day boundary', () => {
    const annotations = [
      { onset: 0, duration: 30, texts: ['Sleep stage W'], record: 0, signal: 0 },
      { onset: 30, duration: 30, texts: ['Sleep stage W'], record: 0, signal: 0 },
      { onset: 60, duration: 60, texts: ['Sleep stage 2'], record: 0, signal: 0 },
    ];
    expect(hypnogramOf(annotations, 0)).toEqual([
      { startMs: 0, durationSec: 60, stage: 'W' },
      { startMs: 60_000, durationSec: 60, stage: 'N2' },
    ]);
  });
});

describe('EDF signals', () => {
  it('replays the respiration and temperature of a PSG excerpt (Sleep-EDF, mixed rates)', async () => {
    const result = await run(join(EDF_DIR, 'short_psg.edf'), 'edf');
    expect(result.channels).toEqual(['impe', 'temperature']);
    expect(result.recordStartMs).toBe(Date.parse('1989-04-24T16:13:00+09:00'));
    expect(result.recordEndMs).toBe(Date.parse('1989-04-24T16:18:00+09:00'));
    expect(result.days[0]!.record!.timeInBedMin).toBeLessThanOrEqual(5);
  });

  it('refuses a file without a usable signal or stages, saying why', async () => {
    const bytes = Buffer.from(await readFile(join(EDF_DIR, 'short_psg.edf')));
    // Relabel the respiration and temperature signals (labels: 16 bytes each after the 256-byte header).
    for (const signal of [3, 5]) bytes.write('Misc'.padEnd(16, ' '), 256 + signal * 16, 'latin1');
    const path = join(dir, 'eeg-only.edf');
    await writeFile(path, bytes);
    const error = await failure(run(path, 'edf'));
    expect(error.code).toBe('no-usable-signal');
    expect(error.message).toMatch(/no signal the sleep analysis can use/);
  });

  it('refuses a file whose header promises more records than it holds', async () => {
    const bytes = await readFile(join(EDF_DIR, 'short_psg.edf'));
    const path = join(dir, 'cut.edf');
    await writeFile(path, bytes.subarray(0, bytes.length - 5000));
    const error = await failure(run(path, 'edf'));
    expect(error.code).toBe('corrupt');
    expect(error.message).toMatch(/says 10 data records but the file holds 9/);
  });
});

describe('SMF recordings', () => {
  const path = () => join(dir, 'night.smf');
  let result: ImportResult;
  let size = 0;

  beforeAll(async () => {
    // 21:00–03:00 Japan time of a simulated bed sensor: ECG, acceleration and temperature.
    size = await writeSmfRecording(parser, path(), { serial: 'NM-IMPORT-1', fromMs: Date.parse('2026-11-20T21:00:00+09:00'), minutes: 360 });
    result = await run(path(), 'smf');
  }, 120_000);

  it('scores the night like a monitored one: one sleep day, in bed, asleep, with rates', () => {
    expect(size).toBeGreaterThan(10_000_000);
    expect(result.channels).toEqual(['ecg', 'respiAxl', 'temperature']);
    expect(result.recordStartMs).toBe(Date.parse('2026-11-20T21:00:00+09:00'));
    expect(result.recordEndMs).toBe(Date.parse('2026-11-21T03:00:00+09:00'));
    expect(result.days.map((day) => day.day)).toEqual(['2026-11-20']);
    const record = result.days[0]!.record!;
    expect(record.source).toBe('upload-1');
    expect(record.timeInBedMin).toBeGreaterThan(120);
    expect(record.totalSleepMin).toBeGreaterThan(60);
    expect(record.heartRate.avg).toBeGreaterThan(40);
    expect(record.respirationRate.avg).toBeGreaterThan(8);
  });

  it('gives the same record for the same file', async () => {
    expect(await run(path(), 'smf')).toEqual(result);
  }, 60_000);

  it('shares a long recording between two workers: the same days, channels and samples, the same stored minutes, nearly the same night', async () => {
    expect(await splitRecording(path())).not.toBeNull();
    let parallelChunks = 0;
    const parallel = await runImport(
      { path: path(), format: 'smf', rule: DEFAULT_SLEEP_DAY, source: 'upload-1', storeSignals: true },
      { chunk: () => parallelChunks++ },
    );
    let wholeChunks = 0;
    await importRecording(
      parser,
      { path: path(), format: 'smf', rule: DEFAULT_SLEEP_DAY, source: 'upload-1', storeSignals: true },
      { chunk: () => wholeChunks++ },
    );
    expect(parallelChunks).toBe(wholeChunks);
    expect({ ...parallel, days: parallel.days.map((day) => day.day) }).toEqual({ ...result, days: result.days.map((day) => day.day) });
    const [a, b] = [parallel.days[0]!.record!, result.days[0]!.record!];
    // The second worker's estimator starts ten minutes early; by the split it has settled.
    expect(Math.abs(a.timeInBedMin - b.timeInBedMin)).toBeLessThanOrEqual(3);
    expect(Math.abs(a.totalSleepMin - b.totalSleepMin)).toBeLessThanOrEqual(5);
    expect(Math.abs((a.heartRate.avg ?? 0) - (b.heartRate.avg ?? 0))).toBeLessThanOrEqual(1);
    // Processing the file again splits it the same way: the same record.
    expect(await runImport({ path: path(), format: 'smf', rule: DEFAULT_SLEEP_DAY, source: 'upload-1' })).toEqual(parallel);
  }, 120_000);

  it('refuses a file cut short, a changed byte and a file that is not SMF, saying where', async () => {
    const bytes = await readFile(path());
    const cut = join(dir, 'cut.smf');
    await writeFile(cut, bytes.subarray(0, 200_000));
    expect((await failure(run(cut, 'smf'))).message).toMatch(/ends inside a frame/);

    const changed = Buffer.from(bytes.subarray(0, 300_000));
    changed[150_000] = (changed[150_000]! + 1) % 256;
    const flipped = join(dir, 'flipped.smf');
    await writeFile(flipped, changed);
    const crc = await failure(run(flipped, 'smf'));
    expect(crc.code).toBe('corrupt');

    const junk = join(dir, 'junk.smf');
    await writeFile(junk, Buffer.concat([bytes.subarray(0, 1000), Buffer.alloc(500, 7)]));
    expect((await failure(run(junk, 'smf'))).code).toBe('corrupt');
  });
});

describe('per-minute CSV', () => {
  const rule = sleepDayRuleOf({ sleepDayBoundaryHour: 12 }, 'Asia/Tokyo');
  const header = '時刻,状態,呼吸数(回/分),心拍数(拍/分),体動,呼吸停止';

  /** 22:00–06:00: out of bed 10 min, awake 20 min, asleep with a waking at 02:00, up at 06:00. */
  function night(): string {
    const lines = [header];
    for (let minute = 0; minute < 480; minute++) {
      const at = new Date(Date.parse('2026-11-20T22:00:00+09:00') + minute * 60_000 + 9 * 3_600_000).toISOString().replace('T', ' ').slice(0, 16);
      const state = minute < 10 ? '離床' : minute < 30 ? '覚醒' : minute >= 240 && minute < 250 ? '覚醒' : minute % 90 < 20 ? '深い睡眠' : '浅い睡眠';
      const pauses = minute === 100 || minute === 300 ? 1 : 0;
      lines.push(`${at},${state},${state === '離床' ? '' : 14},${state === '離床' ? '' : 60},${state === '覚醒' ? 12 : 1},${pauses}`);
    }
    return `${lines.join('\r\n')}\r\n`;
  }

  it.each([
    ['UTF-8 with BOM', (text: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')])],
    ['Shift_JIS', (text: string) => iconv.encode(text, 'Shift_JIS')],
  ])('reads %s with Japanese headers into the sleep day', async (_name, encode) => {
    const path = join(dir, `night-${_name.length}.csv`);
    await writeFile(path, encode(night()));
    const result = await run(path, 'csv', rule);
    expect(result.days.map((day) => day.day)).toEqual(['2026-11-20']);
    const record = result.days[0]!.record!;
    expect(record.bedTime).toBe(new Date(Date.parse('2026-11-20T22:10:00+09:00')).toISOString());
    expect(record.timeInBedMin).toBe(470);
    expect(record.totalSleepMin).toBe(440);
    expect(record.wasoMin).toBe(10);
    expect(record.apneaEvents).toBe(2);
    expect(record.respirationRate.avg).toBe(14);
    expect(result.sampleCount).toBe(480);
  });

  it('says which line is wrong', async () => {
    const path = join(dir, 'bad.csv');
    await writeFile(path, `${header}\n2026-11-20 22:00,覚醒,14,60,1,0\nyesterday,覚醒,14,60,1,0\n`);
    const error = await failure(run(path, 'csv', rule));
    expect(error.code).toBe('bad-csv');
    expect(error.message).toMatch(/Line 3/);
    for (const impossible of ['2026-13-01 22:00', '2026-02-30 22:00', '2026-11-20 25:00']) {
      await writeFile(path, `${header}\n${impossible},覚醒,14,60,1,0\n`);
      expect((await failure(run(path, 'csv', rule))).code).toBe('bad-csv');
    }
    await writeFile(path, 'a,b\n1,2\n');
    expect((await failure(run(path, 'csv', rule))).message).toMatch(/time column/);
  });
});
