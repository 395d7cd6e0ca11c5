/**
 * The per-minute CSV an import reads (docs/api.md, "Imports"): its columns by Japanese or English
 * header, and the line splitting. The browser previews a file with these; the server imports it.
 */

export type CsvColumn = 'time' | 'state' | 'inBed' | 'respirationRate' | 'heartRate' | 'activity' | 'pauses' | 'serial';

export const CSV_ALIASES: Readonly<Record<CsvColumn, readonly string[]>> = {
  time: ['time', 'timestamp', 'datetime', 'date time', '日時', '時刻', '日付時刻', '開始', '開始時刻'],
  state: ['state', 'status', 'stage', '状態', '睡眠状態', 'ステージ'],
  inBed: ['inbed', 'in bed', 'in_bed', 'presence', '在床'],
  respirationRate: ['respirationrate', 'respiration rate', 'respiration', 'rr', '呼吸数'],
  heartRate: ['heartrate', 'heart rate', 'hr', 'pulse', '心拍数', '脈拍'],
  activity: ['activity', 'movement', '体動'],
  pauses: ['pauses', 'apnea', 'apneas', '呼吸停止', '無呼吸', '呼吸停止回数'],
  serial: ['serial', 'device', 'deviceserial', 'シリアル', 'シリアル番号', 'デバイス'],
};

const normalise = (header: string): string =>
  header
    .replace(/^\uFEFF/, '')
    .replace(/[(（][^)）]*[)）]/g, '')
    .trim()
    .toLowerCase();

export function columnsOf(headers: readonly string[]): Map<CsvColumn, number> {
  const columns = new Map<CsvColumn, number>();
  headers.forEach((header, index) => {
    const name = normalise(header);
    for (const [column, aliases] of Object.entries(CSV_ALIASES) as [CsvColumn, readonly string[]][]) {
      if (!columns.has(column) && aliases.includes(name)) columns.set(column, index);
    }
  });
  return columns;
}

/** Splits one CSV line (RFC 4180 quotes). */
export function splitCsvLine(line: string, delimiter: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i] as string;
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === delimiter) {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  cells.push(cell);
  return cells.map((value) => value.trim());
}

/** Comma, or a tab or semicolon when the header line is split by those instead. */
export function csvDelimiterOf(headerLine: string): string {
  return headerLine.includes('\t') ? '\t' : headerLine.includes(';') && !headerLine.includes(',') ? ';' : ',';
}

/** The text of a CSV file: UTF-8 (a BOM is dropped) when the bytes are valid UTF-8, else Shift_JIS, as Excel in Japan writes it. */
export function decodeCsvText(bytes: Uint8Array): string {
  try {
    return new Decoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new Decoder('shift_jis').decode(bytes);
  }
}

// The WHATWG TextDecoder of browsers and Node; this package is typed without their libraries.
const Decoder = (globalThis as unknown as { TextDecoder: new (label: string, options?: { fatal?: boolean }) => { decode(bytes: Uint8Array): string } }).TextDecoder;
