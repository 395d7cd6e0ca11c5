/**
 * The report's table columns with their Japanese headings and how a value is written, shared by the
 * PDF, the CSV and the screen (the screen takes its headings from the locale, with the same keys).
 * Durations stay in minutes and rates keep one decimal, so the PDF, the CSV and the screen show
 * the very same figures.
 */
import {
  CLOCK_KEYS,
  type ClockKey,
  type MetricKey,
  type ReportAverages,
  type ReportDayRow,
  type RoomReport,
  type SleepEpoch,
  type SleepRecord,
  epochOriginMs,
} from './roomReport.ts';
import type { CsvCell } from './csv.ts';
import { dateTimeOf } from './sleepDayClock.ts';

/** Japanese column headings (the PDF and the CSV are always in Japanese). */
export const METRIC_LABELS_JA: Readonly<Record<MetricKey, string>> = {
  bedTime: '就床時刻',
  sleepOnset: '入眠時刻',
  finalWake: '最終覚醒時刻',
  outOfBedTime: '起床時刻',
  timeInBedMin: '在床時間(分)',
  totalSleepMin: '総睡眠時間(分)',
  sleepEfficiency: '睡眠効率(%)',
  sleepLatencyMin: '入眠潜時(分)',
  wasoMin: '中途覚醒時間(分)',
  awakenings: '中途覚醒回数',
  outOfBedCount: '離床回数',
  outOfBedMin: '離床時間(分)',
  respirationAvg: '呼吸数(回/分)',
  heartRateAvg: '心拍数(回/分)',
  apneaEvents: '呼吸停止回数',
  apneaIndex: '呼吸停止指数(回/時)',
  movementIndex: '体動指数',
};

export const REPORT_LABELS_JA = {
  title: '睡眠レポート',
  period: '期間',
  room: '部屋',
  floor: 'フロア',
  resident: '入居者',
  day: '日付',
  average: '期間平均',
  diary: '睡眠日誌',
  metrics: '日ごとの指標',
  trend: '呼吸数・心拍数の推移',
  respiration: '呼吸数(回/分)',
  heartRate: '心拍数(回/分)',
  comment: 'コメント',
  noRecords: 'この期間の睡眠の記録はありません',
  recordedDays: '記録のある日数',
  outOfBed: '離床',
  inBedAwake: '在床・覚醒',
  asleep: '睡眠',
  pause: '呼吸停止',
  generatedAt: '作成日時',
} as const;

const isClock = (key: MetricKey): key is ClockKey => (CLOCK_KEYS as readonly string[]).includes(key);

/** A number as the report writes it: whole numbers as they are, others with one decimal. */
export function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : (Math.round(value * 10) / 10).toFixed(1);
}

/** A cell of a day row or of the averages: a clock time as text, a metric as a number, or null. */
export function cellValue(source: Pick<ReportDayRow | ReportAverages, 'clocks' | 'numbers'>, key: MetricKey): string | number | null {
  if (isClock(key)) return source.clocks[key]?.clock ?? null;
  return source.numbers[key];
}

/** A cell of a day row or of the averages as the screen and the PDF write it; empty when there is no value. */
export function cellText(source: Pick<ReportDayRow | ReportAverages, 'clocks' | 'numbers'>, key: MetricKey): string {
  const value = cellValue(source, key);
  return value === null ? '' : typeof value === 'number' ? formatNumber(value) : value;
}

/** A day (`YYYY-MM-DD`) in the product's form `YYYY/MM/DD` (constants.ts DATE_FORMAT), as the PDF and the CSV write it. */
export function reportDate(day: string): string {
  return /^\d{4}-\d\d-\d\d/.test(day) ? `${day.slice(0, 4)}/${day.slice(5, 7)}/${day.slice(8)}` : day;
}

/** `M/D(曜)` of a sleep day, as Japanese care records write dates. */
export function dayLabelJa(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return `${date.getUTCMonth() + 1}/${date.getUTCDate()}(${'日月火水木金土'[date.getUTCDay()]})`;
}

/**
 * The per-day CSV (csv.ts writes it): a heading row, then room, day and the metrics; each room's
 * average row follows its days. Metrics are number cells, names text cells.
 */
export function dayCsvRows(reports: readonly RoomReport[], keys: readonly MetricKey[]): CsvCell[][] {
  const header = ['部屋', '日付', ...keys.map((key) => METRIC_LABELS_JA[key])];
  const rows: CsvCell[][] = [header];
  for (const report of reports) {
    for (const row of report.rows) rows.push([report.room.name, reportDate(row.day), ...keys.map((key) => cellValue(row, key))]);
    rows.push([report.room.name, REPORT_LABELS_JA.average, ...keys.map((key) => cellValue(report.averages, key))]);
  }
  return rows;
}

export const EPOCH_STATE_LABELS_JA: Readonly<Record<SleepEpoch['state'], string>> = {
  awake: '覚醒',
  light: '浅い睡眠',
  deep: '深い睡眠',
  rem: 'レム睡眠',
  outOfBed: '離床',
  unknown: 'データなし',
};

export const EPOCH_CSV_HEADER = ['部屋', '睡眠日', '時刻', '状態', '呼吸数(回/分)', '心拍数(回/分)', '体動', '呼吸停止回数'];

/** The per-minute CSV rows of one room's record of one sleep day (no heading). */
export function epochCsvRows(roomName: string, day: string, record: SleepRecord, timeZone: string): CsvCell[][] {
  const origin = epochOriginMs(record);
  if (origin === null) return [];
  const value = (n: number | null | undefined): number | null => (typeof n === 'number' && Number.isFinite(n) ? n : null);
  return (record.epochs ?? []).map((epoch, index) => [
    roomName,
    reportDate(day),
    reportDate(dateTimeOf(origin + index * 60_000, timeZone)),
    EPOCH_STATE_LABELS_JA[epoch.state],
    value(epoch.respirationRate),
    value(epoch.heartRate),
    value(epoch.activity),
    value(epoch.pauses),
  ]);
}

/** The diary's colours, the same on the screen, on paper and in the PDF. */
export const DIARY_COLORS = { outOfBed: '#f08c00', inBedAwake: '#ffe066', asleep: '#1c7ed6', pause: '#e03131' } as const;
