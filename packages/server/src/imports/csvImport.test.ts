/**
 * Per-minute CSV, column by column: units in every kind of bracket keep their values, a column the
 * importer cannot read stops it (or is skipped when the uploader chose so) and every column is listed,
 * quoted fields are read before lines are split, and a cell that is not a value stops the import at its
 * line. Nothing reaches a sleep day with part of the file silently left out.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleepDayRuleOf } from '../sleep/sleepDay.ts';
import { importCsv } from './csvImport.ts';
import { ImportError } from './importError.ts';

const rule = sleepDayRuleOf({ sleepDayBoundaryHour: 12 }, 'Asia/Tokyo');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nemuri-csv-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<ImportError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ImportError) return error;
    throw error;
  }
  throw new Error('expected the import to fail');
}

const csvRun = (path: string, unknownColumns: 'refuse' | 'skip' = 'refuse') => importCsv(path, rule, 'upload-1', unknownColumns);

/** 23:00–00:00 (YYYY/MM/DD HH:MM) with the header and one line per minute from `row(minute, time)`. */
async function csvFile(name: string, heading: string, row: (minute: number, at: string) => string, minutes = 60): Promise<string> {
  const lines = [heading];
  for (let minute = 0; minute < minutes; minute++) {
    const at = new Date(Date.parse('2026-11-20T23:00:00+09:00') + minute * 60_000 + 9 * 3_600_000)
      .toISOString()
      .replace('T', ' ')
      .slice(0, 16)
      .replaceAll('-', '/');
    lines.push(row(minute, at));
  }
  const path = join(dir, name);
  await writeFile(path, `${lines.join('\r\n')}\r\n`);
  return path;
}

const series = (f: (minute: number) => number) => Array.from({ length: 60 }, (_, minute) => f(minute));

describe('per-minute CSV columns', () => {
  it.each([
    ['[]', '時刻,状態,呼吸数[回/分],心拍数[拍/分],体動[回],呼吸停止[回]'],
    ['（）', '時刻,状態,呼吸数（回／分）,心拍数（拍／分）,体動,呼吸停止回数'],
    ['［］', '時刻,状態,呼吸数［回/分］,心拍数［bpm］,体動,呼吸停止'],
    ['unit names', '時刻,状態,呼吸数 回/分,心拍数 拍/分,体動,呼吸停止'],
    ['English', 'Time,State,Respiration rate (breaths/min),Heart rate [bpm],Activity,Apnea'],
  ])('keeps every value whatever the brackets of the units: %s', async (name, heading) => {
    const path = await csvFile(
      `units-${name}.csv`,
      heading,
      (minute, at) => `${at},浅い睡眠,${12 + (minute % 3)},${55 + (minute % 5)},${minute % 2},${minute === 7 ? 1 : 0}`,
    );
    const result = await csvRun(path);
    const record = result.days[0]!.record!;
    const minutes = record.epochs.filter((epoch) => epoch.state !== 'unknown');
    expect(minutes).toHaveLength(60);
    expect(minutes.map((epoch) => epoch.respirationRate)).toEqual(series((minute) => 12 + (minute % 3)));
    expect(minutes.map((epoch) => epoch.heartRate)).toEqual(series((minute) => 55 + (minute % 5)));
    expect(minutes.map((epoch) => epoch.activity)).toEqual(series((minute) => minute % 2));
    expect(record.apneaEvents).toBe(1);
    expect(result.channels).toEqual(['activity', 'heartRate', 'pauses', 'respirationRate', 'state']);
    expect(result.columns.map((column) => [column.as, column.status, column.values])).toEqual([
      ['time', 'read', 60],
      ['state', 'read', 60],
      ['respirationRate', 'read', 60],
      ['heartRate', 'read', 60],
      ['activity', 'read', 60],
      ['pauses', 'read', 60],
    ]);
  });

  it('stops at a column it cannot read, listing each column, unless the uploader chose to skip it', async () => {
    const path = await csvFile('unknown.csv', '時刻,状態,心拍数(拍/分),体温(℃),呼吸数(回/時)', (minute, at) => `${at},浅い睡眠,60,36.${minute % 10},${minute}`);
    const refused = await failure(csvRun(path));
    expect(refused.code).toBe('unknown-columns');
    expect(refused.message).toContain('"体温(℃)" (unknown), "呼吸数(回/時)" (unit)');
    expect(refused.columns?.map((column) => [column.name, column.status, column.reason, column.values])).toEqual([
      ['時刻', 'read', null, 60],
      ['状態', 'read', null, 60],
      ['心拍数(拍/分)', 'read', null, 60],
      ['体温(℃)', 'problem', 'unknown', 60],
      ['呼吸数(回/時)', 'problem', 'unit', 60],
    ]);
    const skipped = await csvRun(path, 'skip');
    expect(skipped.days[0]!.record!.epochs.filter((epoch) => epoch.heartRate === 60)).toHaveLength(60);
    expect(skipped.columns.filter((column) => column.status === 'skipped').map((column) => [column.name, column.reason])).toEqual([
      ['体温(℃)', 'unknown'],
      ['呼吸数(回/時)', 'unit'],
    ]);
    expect(skipped.channels).toEqual(['heartRate', 'state']);
  });

  it('reads quoted fields before splitting lines', async () => {
    const path = await csvFile(
      'quoted.csv',
      '"時刻","状態","心拍数\r\n(拍/分)",部屋',
      (minute, at) => `"${at}","浅い睡眠","${60 + (minute % 2)}","""みどり"" 101号室\n(個室)"`,
    );
    const result = await csvRun(path);
    expect(result.days[0]!.record!.epochs.filter((epoch) => epoch.state !== 'unknown').map((epoch) => epoch.heartRate)).toEqual(
      series((minute) => 60 + (minute % 2)),
    );
    expect(result.columns.map((column) => [column.name, column.as, column.status])).toEqual([
      ['時刻', 'time', 'read'],
      ['状態', 'state', 'read'],
      ['心拍数\r\n(拍/分)', 'heartRate', 'read'],
      ['部屋', 'room', 'context'],
    ]);
  });

  it('refuses rows of two rooms, a value that is not one, a row wider than the header and an open quote, naming the line', async () => {
    const rooms = await csvFile('rooms.csv', '時刻,状態,部屋', (minute, at) => `${at},覚醒,${minute < 30 ? '101号室' : '102号室'}`);
    expect((await failure(csvRun(rooms))).message).toContain('2 rooms (101号室, 102号室)');
    const words = await csvFile('words.csv', '時刻,状態,心拍数', (minute, at) => `${at},覚醒,${minute === 5 ? '測定不能' : 60}`);
    const error = await failure(csvRun(words));
    expect(error.code).toBe('bad-csv');
    expect(error.message).toBe('Line 7: "測定不能" in column "心拍数" is not a number');
    const wide = await csvFile('wide.csv', '時刻,状態', (minute, at) => `${at},覚醒${minute === 2 ? ',60' : ''}`);
    expect((await failure(csvRun(wide))).message).toBe('Line 4: 3 fields, but the header names 2 columns');
    const open = join(dir, 'open.csv');
    await writeFile(open, '時刻,状態\n2026/11/20 23:00,"覚醒\n2026/11/20 23:01,覚醒\n');
    expect((await failure(csvRun(open))).message).toMatch(/^Line 2: a quoted field is never closed/);
  });

  it('reads the time in the zone its heading names', async () => {
    const path = await csvFile('utc.csv', '時刻(UTC),状態', (_minute, at) => `${at},浅い睡眠`);
    const result = await csvRun(path);
    // 23:00 UTC is 08:00 the next morning in Tokyo.
    expect(result.recordStartMs).toBe(Date.parse('2026-11-20T23:00:00Z'));
  });
});
