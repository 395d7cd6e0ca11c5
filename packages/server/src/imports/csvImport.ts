/**
 * A per-minute CSV (docs/imports.md): one row per minute with its time and any of state, in bed,
 * respiration rate, heart rate, activity and breathing pauses, headed in Japanese or English with or
 * without units — the report's per-minute CSV reads back as it was written. UTF-8 (with or without
 * BOM) or Windows-31J. Nothing is dropped without a word: a column that cannot be read stops the
 * import unless the uploader chose to skip it, a cell that is not a value stops it at its line, and
 * the upload records what every column gave.
 */
import { readFile } from 'node:fs/promises';
import { analyzeSleepDay, createNightEpochs, EPOCH_MS, PRESENCE_IN_BED, PRESENCE_OUT_OF_BED, type EpochState, type NightEpochs } from '@nemuri/analysis/sleep';
import {
  CSV_DATA_COLUMNS,
  CSV_NUMBER_COLUMNS,
  CsvSyntaxError,
  csvReadColumns,
  decodeCsvText,
  parseCsv,
  readHeadings,
  timeZoneOfUnit,
  type CsvColumn as Column,
  type CsvHeading,
} from '@nemuri/shared/importCsv';
import { READ_COLUMNS_MAX, type UnknownColumnChoice } from '@nemuri/shared/imports';
import { sleepDayOf, sleepDayRange, zonedDateTime, type SleepDayRule } from '../sleep/sleepDay.ts';
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
  // What the product's own export writes for a minute without data (report/columns.ts EPOCH_STATE_LABELS_JA).
  データなし: 'unknown',
  '': 'unknown',
  '-': 'unknown',
};

const IN_BED_WORDS: Readonly<Record<string, boolean>> = {
  '1': true,
  true: true,
  yes: true,
  在床: true,
  はい: true,
  '0': false,
  false: false,
  no: false,
  離床: false,
  いいえ: false,
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
  return /^\d{4}-\d\d-\d\dT[\d:.]+([zZ]|[+-]\d\d:?\d\d)$/.test(text) ? Date.parse(text) : Number.NaN;
}

/** A cell as a number: NaN when empty (or `-`, a gap); undefined when it is not a number at all. */
function numberOf(text: string): number | undefined {
  if (text === '' || text === '-') return Number.NaN;
  const value = Number(text.normalize('NFKC'));
  return Number.isFinite(value) ? value : undefined;
}

const problemList = (headings: readonly CsvHeading[]): string =>
  headings
    .filter((heading) => heading.problem !== null)
    .map((heading) => `"${heading.header}" (${heading.problem})`)
    .join(', ');

export async function importCsv(path: string, rule: SleepDayRule, source: string, unknownColumns: UnknownColumnChoice = 'refuse'): Promise<ImportResult> {
  const bytes = await readFile(path);
  if (bytes.length > CSV_MAX_BYTES)
    throw new ImportError(
      'too-large',
      `A per-minute CSV is at most ${CSV_MAX_BYTES / 1024 / 1024} MB; this file is ${Math.round(bytes.length / 1024 / 1024)} MB`,
    );
  let table;
  try {
    table = parseCsv(decodeCsvText(bytes));
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new ImportError('bad-csv', error.message);
    throw error;
  }
  const header = table.rows[0];
  if (header === undefined) throw new ImportError('empty-file', 'The file is empty');
  if (header.length > READ_COLUMNS_MAX)
    throw new ImportError('bad-csv', `The header names ${header.length} columns; a per-minute CSV has at most ${READ_COLUMNS_MAX}`);
  const headings = readHeadings(header);
  const columns = new Map<Column, number>();
  for (const heading of headings) if (heading.problem === null && heading.column !== null) columns.set(heading.column, heading.index);
  const skipping = unknownColumns === 'skip';
  const counts = new Array<number>(header.length).fill(0);
  const readColumns = () => csvReadColumns(headings, counts, skipping);

  const timeColumn = columns.get('time');
  if (timeColumn === undefined) throw new ImportError('bad-csv', 'The first line must name the columns, with a time column (時刻 or time)', readColumns());
  if (!CSV_DATA_COLUMNS.some((column) => columns.has(column))) {
    throw new ImportError(
      'bad-csv',
      'No column to import: give at least one of 状態/state, 在床/inBed, 呼吸数/respirationRate, 心拍数/heartRate, 体動/activity, 呼吸停止/pauses',
      readColumns(),
    );
  }
  const timeZone = timeZoneOfUnit(headings[timeColumn]?.unit ?? null) ?? rule.timeZone;

  const nights = new Map<string, { epochs: NightEpochs; scored: (EpochState | null)[] }>();
  const channels = new Set<string>();
  const rooms = new Set<string>();
  const serials = new Set<string>();
  let rows = 0;
  let startMs = Number.POSITIVE_INFINITY;
  let endMs = Number.NEGATIVE_INFINITY;
  for (let r = 1; r < table.rows.length; r++) {
    const cells = table.rows[r] as string[];
    const line = table.lines[r] as number;
    // Cells beyond the header's columns would be read into nothing.
    for (let c = header.length; c < cells.length; c++)
      if (cells[c] !== '')
        throw new ImportError('bad-csv', `Line ${line}: ${cells.length} fields, but the header names ${header.length} columns`, readColumns());
    for (let c = 0; c < header.length; c++) if ((cells[c] ?? '') !== '' && cells[c] !== '-') counts[c] = (counts[c] as number) + 1;
    const cell = (column: Column): string | undefined => {
      const index = columns.get(column);
      return index === undefined ? undefined : (cells[index] ?? '');
    };
    const at = instantOf(cell('time') ?? '', timeZone);
    if (!Number.isFinite(at)) throw new ImportError('bad-csv', `Line ${line}: "${cell('time') ?? ''}" is not a date and time (2026/11/20 22:15 or ISO 8601)`);
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
    if (stateText !== undefined && word === undefined)
      throw new ImportError(
        'bad-csv',
        `Line ${line}: unknown state "${stateText}" (覚醒, 浅い睡眠, 深い睡眠, レム睡眠, 睡眠, 離床, データなし)`,
        readColumns(),
      );
    const inBedText = cell('inBed')?.toLowerCase();
    const inBed = inBedText === undefined || inBedText === '' || inBedText === '-' ? null : IN_BED_WORDS[inBedText];
    if (inBed === undefined) throw new ImportError('bad-csv', `Line ${line}: "${cell('inBed')}" is not in bed or out of bed (1/0, 在床/離床)`, readColumns());
    if (word === 'outOfBed' || inBed === false) epochs.presence[i] = PRESENCE_OUT_OF_BED;
    else if ((word !== undefined && word !== 'unknown') || inBed === true) epochs.presence[i] = PRESENCE_IN_BED;
    if (word !== undefined && word !== 'unknown' && word !== 'outOfBed') scored[i] = word === 'asleep' ? 'light' : word;
    const values: Partial<Record<Column, number>> = {};
    for (const column of CSV_NUMBER_COLUMNS) {
      const text = cell(column);
      if (text === undefined) continue;
      const value = numberOf(text);
      if (value === undefined)
        throw new ImportError(
          'bad-csv',
          `Line ${line}: "${text}" in column "${headings[columns.get(column) as number]?.header}" is not a number`,
          readColumns(),
        );
      values[column] = value;
    }
    epochs.respirationRate[i] = values.respirationRate ?? Number.NaN;
    epochs.heartRate[i] = values.heartRate ?? Number.NaN;
    epochs.activity[i] = values.activity ?? Number.NaN;
    const pauses = values.pauses ?? Number.NaN;
    epochs.apneaEvents[i] = Number.isFinite(pauses) && pauses > 0 ? Math.min(65535, Math.round(pauses)) : 0;
    for (const column of CSV_DATA_COLUMNS) if ((cell(column) ?? '') !== '') channels.add(column);
    const room = cell('room');
    if (room) rooms.add(room.replace(/^'/, ''));
    const serial = cell('serial');
    if (serial) serials.add(serial);
    rows++;
    startMs = Math.min(startMs, at);
    endMs = Math.max(endMs, at + EPOCH_MS);
  }
  // Only after the rows: the refusal lists how many values each column held.
  if (headings.some((heading) => heading.problem !== null && !(heading.problem === 'empty' && counts[heading.index] === 0)) && !skipping) {
    throw new ImportError(
      'unknown-columns',
      `Columns that cannot be read: ${problemList(headings)}. Choose to import without them, or correct the file`,
      readColumns(),
    );
  }
  if (rows === 0) throw new ImportError('empty-file', 'The file has a header but no rows', readColumns());
  if (rooms.size > 1)
    throw new ImportError(
      'bad-csv',
      `The rows are of ${rooms.size} rooms (${[...rooms].slice(0, 5).join(', ')}): import one room's rows into its room`,
      readColumns(),
    );
  if (serials.size > 1)
    throw new ImportError(
      'bad-csv',
      `The rows are of ${serials.size} devices (${[...serials].slice(0, 5).join(', ')}): import one device's rows at a time`,
      readColumns(),
    );
  const days = [...nights]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([day, { epochs, scored }]) => ({
      day,
      record: analyzeSleepDay(epochs, source, scored.some((state) => state !== null) ? scored : undefined),
      stages: [],
    }))
    .filter((day) => day.record.epochs.some((epoch) => epoch.state !== 'unknown'));
  if (days.length === 0) throw new ImportError('no-usable-signal', 'No row says in bed or out of bed (a state, an in-bed column, or a rate)', readColumns());
  return {
    recordStartMs: startMs,
    recordEndMs: endMs,
    channels: [...channels].sort(),
    columns: readColumns(),
    sampleCount: rows,
    deviceSerial: [...serials][0] ?? null,
    days,
  };
}
