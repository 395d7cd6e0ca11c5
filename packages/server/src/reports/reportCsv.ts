/**
 * The report CSV's text: the per-day metrics (with each room's period averages) or the per-minute
 * epochs, encoded by the downloads' one encoder (http/csvDownload.ts). Rows come from @nemuri/shared/report, as on the screen and in the PDF; the
 * shared writer (report/csv.ts) neutralises text a spreadsheet would run as a formula.
 */
import { dayCsvRows, EPOCH_CSV_HEADER, epochCsvRows } from '@nemuri/shared/report/columns';
import { toCsv, type CsvCell } from '@nemuri/shared/report/csv';
import type { CsvKind } from '@nemuri/shared/report/reportApi';
import { METRIC_KEYS } from '@nemuri/shared/report/roomReport';
import type { LoadedReport } from './reportData.ts';

export function csvText(loaded: readonly LoadedReport[], kind: CsvKind): string {
  if (kind === 'days')
    return toCsv(
      dayCsvRows(
        loaded.map((entry) => entry.report),
        METRIC_KEYS,
      ),
    );
  const rows: CsvCell[][] = [EPOCH_CSV_HEADER];
  for (const { report, sleeps } of loaded) {
    for (const row of report.rows) {
      const record = sleeps.get(row.day);
      if (record !== undefined) rows.push(...epochCsvRows(report.room.name, row.day, record, report.rule.timeZone));
    }
  }
  return toCsv(rows);
}
