/**
 * The per-minute CSV an import reads (docs/imports.md): the text parsed as RFC 4180 (quotes first, so a
 * quoted field may hold commas, line breaks and doubled quotes), each heading matched to what it means
 * with its unit — `(…)`, `[…]`, `（…）`, `［…］` or a trailing unit name such as `回/分` or `bpm` — and
 * every column judged before a value is read: understood, context only, or not usable (unknown heading,
 * unit that is not the column's, second column of one meaning, no heading). The browser previews a file
 * with this; the server imports it with the same, so both say the same thing about each column.
 */
import type { ReadColumn } from './imports.ts';

export type CsvColumn = 'time' | 'state' | 'inBed' | 'respirationRate' | 'heartRate' | 'activity' | 'pauses' | 'serial' | 'room' | 'sleepDay';

/** Columns whose values become the sleep day's minutes. */
export const CSV_DATA_COLUMNS = ['state', 'inBed', 'respirationRate', 'heartRate', 'activity', 'pauses'] as const satisfies readonly CsvColumn[];
/** Columns read for what they say about the file (the device, the room, the sleep day), not as minutes. */
export const CSV_CONTEXT_COLUMNS = ['serial', 'room', 'sleepDay'] as const satisfies readonly CsvColumn[];
/** Columns whose values are numbers. */
export const CSV_NUMBER_COLUMNS = ['respirationRate', 'heartRate', 'activity', 'pauses'] as const satisfies readonly CsvColumn[];

/** Headings by meaning, compared after NFKC, lower case and without the unit. */
export const CSV_ALIASES: Readonly<Record<CsvColumn, readonly string[]>> = {
  time: ['time', 'timestamp', 'datetime', 'date time', 'date_time', '日時', '時刻', '日付時刻', '開始', '開始時刻', '測定日時', '測定時刻'],
  state: ['state', 'status', 'stage', 'sleep state', 'sleep stage', '状態', '睡眠状態', 'ステージ', '睡眠段階'],
  inBed: ['inbed', 'in bed', 'in_bed', 'presence', '在床', '在床状態'],
  respirationRate: ['respirationrate', 'respiration rate', 'respiration', 'respiratory rate', 'rr', '呼吸数', '呼吸'],
  heartRate: ['heartrate', 'heart rate', 'hr', 'pulse', 'pulse rate', '心拍数', '心拍', '脈拍', '脈拍数'],
  activity: ['activity', 'movement', 'motion', '体動', '体動数', '体動指数'],
  pauses: ['pauses', 'apnea', 'apneas', 'apnoea', '呼吸停止', '無呼吸', '呼吸停止回数', '無呼吸回数'],
  serial: ['serial', 'device', 'deviceserial', 'device serial', 'シリアル', 'シリアル番号', 'デバイス', '機器'],
  room: ['room', '部屋', '部屋名', '居室'],
  sleepDay: ['sleep day', 'sleepday', '睡眠日'],
};

/**
 * The units each column accepts, normalised (NFKC, lower case, no spaces); '' is no unit. A rate is
 * per minute whatever the words (回/分 and 拍/分 are what the product's own export writes); a time
 * column may name its zone, JST or UTC, and the zone then decides which instant a row is.
 */
export const CSV_UNITS: Readonly<Record<CsvColumn, readonly string[]>> = {
  time: ['', 'jst', 'utc', 'gmt', 'utc+9', 'utc+09:00', '日本時間'],
  state: [''],
  inBed: [''],
  respirationRate: ['', '回/分', '呼吸/分', '/分', '回/min', 'bpm', 'brpm', 'rpm', '/min', 'breaths/min', 'br/min', 'min-1', 'min^-1', '回毎分'],
  heartRate: ['', '拍/分', '回/分', '/分', '拍/min', '回/min', 'bpm', '/min', 'beats/min', 'min-1', 'min^-1', '拍毎分'],
  activity: ['', '回', '回/分', '/分', '/min', 'count', 'counts', 'counts/min', 'index', '指数'],
  pauses: ['', '回', '回数', '回/分', 'count', 'counts', 'times', 'events'],
  serial: [''],
  room: [''],
  sleepDay: [''],
};

/** A unit written after the name without brackets (`心拍数 拍/分`, `heart rate bpm`): only these are recognised. */
const BARE_UNITS = ['回/分', '拍/分', '呼吸/分', 'bpm', 'brpm', '/min', '/分', 'jst', 'utc'];

export type CsvColumnProblem = 'unknown' | 'unit' | 'duplicate' | 'empty';

/** One heading as understood. */
export interface CsvHeading {
  index: number;
  header: string;
  column: CsvColumn | null;
  /** The unit (its NFKC form: （回／分） reads 回/分, ℃ reads °C); null: none. */
  unit: string | null;
  /** Why the column cannot be read (null: it can). */
  problem: CsvColumnProblem | null;
}

const normaliseUnit = (unit: string): string => unit.normalize('NFKC').toLowerCase().replace(/\s+/g, '');

/** The name and the unit of a heading: `呼吸数[回/分]` → 呼吸数, 回/分; `心拍数（拍／分）` → 心拍数, 拍/分. */
export function splitHeading(header: string): { name: string; unit: string | null } {
  const text = header
    .replace(/^\uFEFF/, '')
    .normalize('NFKC')
    .trim();
  const bracketed = /^(.*?)\s*[([]([^()[\]]*)[)\]]\s*$/.exec(text);
  if (bracketed !== null) return { name: (bracketed[1] as string).trim(), unit: (bracketed[2] as string).trim() };
  const lower = text.toLowerCase();
  for (const unit of BARE_UNITS) {
    if (lower.endsWith(unit) && lower.length > unit.length) {
      const name = text.slice(0, text.length - unit.length).replace(/[\s_]+$/, '');
      // `心拍数/分` or `heart rate bpm`: the name must stand apart from the unit or end before a slash.
      if (name !== '' && (/[\s_]$/.test(text.slice(0, text.length - unit.length)) || unit.startsWith('/') || /[^\x20-\x7e]$/.test(name))) return { name, unit };
    }
  }
  return { name: text, unit: null };
}

/** What each heading of the header row means, with the reason for any column that cannot be read. */
export function readHeadings(headers: readonly string[]): CsvHeading[] {
  const taken = new Set<CsvColumn>();
  return headers.map((header, index) => {
    const { name, unit } = splitHeading(header);
    const key = name.toLowerCase().replace(/\s+/g, ' ');
    if (key === '') return { index, header, column: null, unit, problem: 'empty' };
    const column = (Object.keys(CSV_ALIASES) as CsvColumn[]).find((candidate) => CSV_ALIASES[candidate].includes(key)) ?? null;
    if (column === null) return { index, header, column, unit, problem: 'unknown' };
    if (!CSV_UNITS[column].includes(normaliseUnit(unit ?? ''))) return { index, header, column, unit, problem: 'unit' };
    if (taken.has(column)) return { index, header, column, unit, problem: 'duplicate' };
    taken.add(column);
    return { index, header, column, unit, problem: null };
  });
}

/** The zone a time column's unit names, or null when it names none (the room's zone applies). */
export function timeZoneOfUnit(unit: string | null): string | null {
  const normal = normaliseUnit(unit ?? '');
  if (normal === '') return null;
  return ['utc', 'gmt'].includes(normal) ? 'UTC' : 'Asia/Tokyo';
}

/** A parsed CSV: its rows of cells (blank lines left out) and the line each row starts on (1-based). */
export interface CsvTable {
  delimiter: string;
  rows: string[][];
  lines: number[];
}

export class CsvSyntaxError extends Error {
  override readonly name = 'CsvSyntaxError';
  readonly line: number;

  constructor(line: number, message: string) {
    super(`Line ${line}: ${message}`);
    this.line = line;
  }
}

/** Comma, or a tab or semicolon when the first line is split by those instead (outside quotes). */
export function csvDelimiterOf(text: string): string {
  let quoted = false;
  let commas = 0;
  let tabs = 0;
  let semicolons = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && char === ',') commas++;
    else if (!quoted && char === '\t') tabs++;
    else if (!quoted && char === ';') semicolons++;
  }
  return tabs > 0 ? '\t' : semicolons > 0 && commas === 0 ? ';' : ',';
}

/**
 * RFC 4180 over the whole text: a field in quotes may hold the delimiter, CR, LF and `""` (one quote);
 * line ends are CRLF, LF or CR. A quote inside an unquoted field is kept as it is (as spreadsheets
 * read it); a quote left open at the end is an error that names the line it opened on.
 */
export function parseCsv(text: string, delimiter = csvDelimiterOf(text)): CsvTable {
  const rows: string[][] = [];
  const lines: number[] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let wasQuoted = false;
  let line = 1;
  let rowLine = 1;
  let quoteLine = 1;
  const endCell = () => {
    row.push(wasQuoted ? cell : cell.trim());
    cell = '';
    wasQuoted = false;
  };
  const endRow = () => {
    endCell();
    if (row.length > 1 || row[0] !== '') {
      rows.push(row);
      lines.push(rowLine);
    }
    row = [];
  };
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let i = start; i < text.length; i++) {
    const char = text[i] as string;
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (char === '\n' || (char === '\r' && text[i + 1] !== '\n')) line++;
        cell += char;
      }
    } else if (char === '"' && cell.trim() === '' && !wasQuoted) {
      quoted = true;
      wasQuoted = true;
      cell = '';
      quoteLine = line;
    } else if (char === delimiter) endCell();
    else if (char === '\r' || char === '\n') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else cell += char;
  }
  if (quoted) throw new CsvSyntaxError(quoteLine, 'a quoted field is never closed (a " is missing)');
  endRow();
  return { delimiter, rows, lines };
}

/** How each heading reads, as the preview and the upload history list it (`ReadColumn`). */
export function csvReadColumns(headings: readonly CsvHeading[], counts: readonly number[], skipping: boolean): ReadColumn[] {
  return headings.map((heading) => {
    const base = { name: heading.header, as: heading.column, unit: heading.unit, values: counts[heading.index] ?? 0 };
    if (heading.problem !== null) {
      // A column without heading or values holds nothing to lose (a trailing delimiter).
      const harmless = heading.problem === 'empty' && (counts[heading.index] ?? 0) === 0;
      return { ...base, status: harmless || skipping ? 'skipped' : 'problem', reason: heading.problem };
    }
    return { ...base, status: (CSV_CONTEXT_COLUMNS as readonly string[]).includes(heading.column as string) ? 'context' : 'read', reason: null };
  });
}

/** Non-empty cells per column (a cell of `-` is no value, as the product's export writes a gap). */
export function valueCounts(table: CsvTable, width: number): number[] {
  const counts = new Array<number>(width).fill(0);
  for (let r = 1; r < table.rows.length; r++) {
    const cells = table.rows[r] as string[];
    for (let c = 0; c < width; c++) {
      const value = cells[c];
      if (value !== undefined && value !== '' && value !== '-') counts[c] = (counts[c] as number) + 1;
    }
  }
  return counts;
}

/** The text of a CSV file: UTF-8 (a BOM is dropped) when the bytes are valid UTF-8, else Windows-31J (Shift_JIS as Excel in Japan writes it). */
export function decodeCsvText(bytes: Uint8Array): string {
  try {
    return new Decoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    // The WHATWG "shift_jis" decoder is Windows-31J (NEC and IBM extensions included).
    return new Decoder('shift_jis').decode(bytes);
  }
}

// The WHATWG TextDecoder of browsers and Node; this package is typed without their libraries.
const Decoder = (globalThis as unknown as { TextDecoder: new (label: string, options?: { fatal?: boolean }) => { decode(bytes: Uint8Array): string } })
  .TextDecoder;
