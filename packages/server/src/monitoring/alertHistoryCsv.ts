/**
 * The alert history as CSV, for the facility's records: the text, encoded by the downloads' one
 * encoder (http/csvDownload.ts: UTF-8 with a byte order mark or Windows-31J), Japanese headers and labels like the printed reports, times on the
 * clock of each alert's facility, through the product's one CSV writer (formula-safe).
 */
import { ALERT_CSV_HEADER, ALERT_SEVERITY_LABELS_JA, ALERT_STATUS_LABELS_JA, ALERT_TYPE_LABELS_JA, type AlertHistoryRow } from '@nemuri/shared/alertHistory';
import { toCsv, type CsvCell } from '@nemuri/shared/report/csv';

const DEFAULT_TIME_ZONE = 'Asia/Tokyo';
const formats = new Map<string, Intl.DateTimeFormat>();

/** `2026-11-24 21:03:15` on the zone's clock. */
export function localTime(iso: string | null, timeZone: string = DEFAULT_TIME_ZONE): string | null {
  if (iso === null || Number.isNaN(Date.parse(iso))) return null;
  let format = formats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('sv-SE', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(timeZone, format);
  }
  return format.format(new Date(iso));
}

/** A level-1 reader is told that staff acknowledged, not who (alertHistory.ts acknowledgerNames). */
const UNNAMED_ACKNOWLEDGER = '職員';

export function alertCsvRow(row: AlertHistoryRow, timeZone?: string): CsvCell[] {
  return [
    row.id,
    row.roomName,
    row.residentName,
    ALERT_TYPE_LABELS_JA[row.type],
    ALERT_SEVERITY_LABELS_JA[row.severity],
    ALERT_STATUS_LABELS_JA[row.status],
    localTime(row.startedAt, timeZone),
    localTime(row.endedAt, timeZone),
    Math.round(row.durationSec / 6) / 10,
    row.acknowledgedBy === null ? null : (row.acknowledgedByName ?? UNNAMED_ACKNOWLEDGER),
    localTime(row.acknowledgedAt, timeZone),
  ];
}

/** The file's text; `timeZoneOf` gives each row's facility clock (its domain's time zone). */
export function alertCsvText(rows: readonly AlertHistoryRow[], timeZoneOf: (row: AlertHistoryRow) => string | undefined = () => undefined): string {
  return toCsv([[...ALERT_CSV_HEADER], ...rows.map((row) => alertCsvRow(row, timeZoneOf(row)))]);
}
