/**
 * The CSV downloads: the per-day metrics (with each room's period averages) or the per-minute
 * epochs, in UTF-8 with a byte order mark or in Shift_JIS — Excel in Japan opens either correctly,
 * plain UTF-8 it garbles. Rows come from @nemuri/shared/report, as on the screen and in the PDF; the
 * shared writer (report/csv.ts) neutralises text a spreadsheet would run as a formula.
 */
import iconv from 'iconv-lite';
import { dayCsvRows, EPOCH_CSV_HEADER, epochCsvRows } from '@nemuri/shared/report/columns';
import { toCsv, type CsvCell } from '@nemuri/shared/report/csv';
import type { CsvEncoding, CsvKind } from '@nemuri/shared/report/reportApi';
import { METRIC_KEYS } from '@nemuri/shared/report/roomReport';
import type { LoadedReport } from './reportData.ts';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export function csvText(loaded: readonly LoadedReport[], kind: CsvKind): string {
  if (kind === 'days') return toCsv(dayCsvRows(loaded.map((entry) => entry.report), METRIC_KEYS));
  const rows: CsvCell[][] = [EPOCH_CSV_HEADER];
  for (const { report, sleeps } of loaded) {
    for (const row of report.rows) {
      const record = sleeps.get(row.day);
      if (record !== undefined) rows.push(...epochCsvRows(report.room.name, row.day, record, report.rule.timeZone));
    }
  }
  return toCsv(rows);
}

/** The bytes of the CSV in the chosen encoding (characters Shift_JIS lacks become `?`). */
export function encodeCsv(text: string, encoding: CsvEncoding): Buffer {
  return encoding === 'sjis' ? iconv.encode(text, 'Shift_JIS') : Buffer.concat([BOM, Buffer.from(text, 'utf8')]);
}
