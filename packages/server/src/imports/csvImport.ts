/**
 * A per-minute CSV (docs/api.md, "Imports"): one row per minute with its time and any of state, in bed,
 * respiration rate, heart rate, activity and breathing pauses, headed in Japanese or English — the
 * report's per-minute CSV reads back as it was written. UTF-8 (with or without BOM) or Shift_JIS.
 */
import { readFile } from 'node:fs/promises';
import { analyzeSleepDay, createNightEpochs, EPOCH_MS, PRESENCE_IN_BED, PRESENCE_OUT_OF_BED, type EpochState, type NightEpochs } from '@nemuri/analysis/sleep';
import { sleepDayOf, sleepDayRange, zonedDateTime, type SleepDayRule } from '../sleep/sleepDay.ts';
import { columnsOf, csvDelimiterOf, decodeCsvText, splitCsvLine, type CsvColumn as Column } from '@nemuri/shared/importCsv';
import { ImportError } from './importError.ts';
import type { ImportResult } from './importResult.ts';

/** A per-minute CSV of a month is a few megabytes; anything far larger is not one. */
export const CSV_MAX_BYTES = 64 * 1024 * 1024;

const STATE_WORDS: Readonly<Record<string, EpochState | 'asleep'>> = {
  awake: 'awake',
  wake: 'awake',
  w: 'awake',
  覚醒: 'awake',
  light: 'light',
  浅い睡眠: 'light',
  deep: 'deep',
  深い睡眠: 'deep',
  rem: 'rem',
  r: 'rem',
  レム睡眠: 'rem',
  asleep: 'asleep',
  sleep: 'asleep',
  睡眠: 'asleep',
  outofbed: 'outOfBed',
  'out of bed': 'outOfBed',
  離床: 'outOfBed',
  unknown: 'unknown',
  不明: 'unknown',
  '': 'unknown',
  '-': 'unknown',
};

const LOCAL_TIME = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/;

function instantOf(text: string, timeZone: string): number {
  const local = LOCAL_TIME.exec(text);
  if (local !== null) {
    const [, y, mo, d, h, mi, s] = local;
    const two = (value: string | undefined) => (value ?? '0').padStart(2, '0');
    const wall = `${y}-${two(mo)}-${two(d)}T${two(h)}:${two(mi)}:${two(s)}`;
    // A date that does not exist (month 13, 30 February, 25 o'clock) is no time at all.
    const asUtc = Date.parse(`${wall}Z`);
    return Number.isNaN(asUtc) || new Date(asUtc).toISOString().slice(0, 19) !== wall ? Number.NaN : zonedDateTime(wall, timeZone);
  }
  // With a zone (2026-11-20T22:15:00+09:00 or …Z) the text says which instant it is.
  return /[zZ]|[+-]\d\d:?\d\d$/.test(text) ? Date.parse(text) : Number.NaN;
}

function numberOf(text: string | undefined): number {
  if (text === undefined || text === '' || text === '-') return Number.NaN;
  const value = Number(text);
  return Number.isFinite(value) ? value : Number.NaN;
}

export async function importCsv(path: string, rule: SleepDayRule, source: string): Promise<ImportResult> {
  const bytes = await readFile(path);
  if (bytes.length > CSV_MAX_BYTES) throw new ImportError('too-large', `A per-minute CSV is at most ${CSV_MAX_BYTES / 1024 / 1024} MB; this file is ${Math.round(bytes.length / 1024 / 1024)} MB`);
  const lines = decodeCsvText(bytes).split(/\r\n|\n|\r/);
  const headerIndex = lines.findIndex((line) => line.trim() !== '');
  if (headerIndex < 0) throw new ImportError('empty-file', 'The file is empty');
  const headerLine = lines[headerIndex] as string;
  const delimiter = csvDelimiterOf(headerLine);
  const columns = columnsOf(splitCsvLine(headerLine, delimiter));
  const timeColumn = columns.get('time');
  if (timeColumn === undefined) throw new ImportError('bad-csv', 'The first line must name the columns, with a time column (時刻 or time)');
  if (!['state', 'inBed', 'respirationRate', 'heartRate', 'activity'].some((column) => columns.has(column as Column))) {
    throw new ImportError('bad-csv', 'No column to import: give at least one of 状態/state, 在床/inBed, 呼吸数/respirationRate, 心拍数/heartRate, 体動/activity');
  }

  const nights = new Map<string, { epochs: NightEpochs; scored: (EpochState | null)[] }>();
  const channels = new Set<string>();
  let rows = 0;
  let startMs = Number.POSITIVE_INFINITY;
  let endMs = Number.NEGATIVE_INFINITY;
  let serial: string | null = null;
  for (let n = headerIndex + 1; n < lines.length; n++) {
    const line = lines[n] as string;
    if (line.trim() === '') continue;
    const cells = splitCsvLine(line, delimiter);
    const cell = (column: Column): string | undefined => {
      const index = columns.get(column);
      return index === undefined ? undefined : cells[index];
    };
    const at = instantOf(cell('time') ?? '', rule.timeZone);
    if (!Number.isFinite(at)) throw new ImportError('bad-csv', `Line ${n + 1}: "${cell('time') ?? ''}" is not a date and time (2026-11-20 22:15 or ISO 8601)`);
    const day = sleepDayOf(at, rule);
    let night = nights.get(day);
    if (night === undefined) {
      const range = sleepDayRange(day, rule);
      const minutes = Math.round((range.endMs - range.startMs) / EPOCH_MS);
      night = { epochs: createNightEpochs(range.startMs, minutes), scored: new Array<EpochState | null>(minutes).fill(null) };
      nights.set(day, night);
    }
    const i = Math.floor((at - night.epochs.startMs) / EPOCH_MS);
    const { epochs, scored } = night;
    const stateText = cell('state');
    const word = stateText === undefined ? undefined : STATE_WORDS[stateText.toLowerCase()];
    if (stateText !== undefined && word === undefined) throw new ImportError('bad-csv', `Line ${n + 1}: unknown state "${stateText}"`);
    const inBedText = cell('inBed')?.toLowerCase();
    const inBed = inBedText === undefined || inBedText === '' ? null : ['1', 'true', 'yes', '在床', 'はい'].includes(inBedText);
    if (word === 'outOfBed' || inBed === false) epochs.presence[i] = PRESENCE_OUT_OF_BED;
    else if ((word !== undefined && word !== 'unknown') || inBed === true) epochs.presence[i] = PRESENCE_IN_BED;
    if (word !== undefined && word !== 'unknown' && word !== 'outOfBed') scored[i] = word === 'asleep' ? 'light' : word;
    epochs.respirationRate[i] = numberOf(cell('respirationRate'));
    epochs.heartRate[i] = numberOf(cell('heartRate'));
    epochs.activity[i] = numberOf(cell('activity'));
    const pauses = numberOf(cell('pauses'));
    epochs.apneaEvents[i] = Number.isFinite(pauses) && pauses > 0 ? Math.min(65535, Math.round(pauses)) : 0;
    for (const column of columns.keys()) if (column !== 'time' && column !== 'serial' && (cell(column) ?? '') !== '') channels.add(column);
    serial ??= cell('serial') || null;
    rows++;
    startMs = Math.min(startMs, at);
    endMs = Math.max(endMs, at + EPOCH_MS);
  }
  if (rows === 0) throw new ImportError('empty-file', 'The file has a header but no rows');
  const days = [...nights]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([day, { epochs, scored }]) => ({ day, record: analyzeSleepDay(epochs, source, scored.some((state) => state !== null) ? scored : undefined), stages: [] }))
    .filter((day) => day.record.timeInBedMin > 0);
  if (days.length === 0) throw new ImportError('no-usable-signal', 'No minute of the file is in bed');
  return { recordStartMs: startMs, recordEndMs: endMs, channels: [...channels].sort(), sampleCount: rows, deviceSerial: serial, days };
}
