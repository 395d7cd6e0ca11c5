/**
 * The alert history (issue 18, docs/api.md "Alert history"): what the server's endpoints and the
 * /alert-history screen agree on — the filters, the row, the CSV's columns and the night summary.
 *
 * - `GET /api/monitoring/alerts?roomId&types&state&from&to&limit&cursor` → `AlertHistoryPage`, the
 *   newest first, paged by a cursor (the last row's id);
 * - `GET /api/monitoring/alerts.csv?roomId&types&state&from&to` → text/csv (UTF-8 with BOM), at most
 *   ALERT_CSV_MAX_ROWS rows of a period of at most ALERT_CSV_MAX_DAYS days;
 * - `GET /api/monitoring/night-summary?day&roomId` → `NightSummaryAnswer` (no `day`: the facility's latest night).
 * Every read is the caller's: the alerts and rooms the document engine lets them read.
 */
import { z } from 'zod/v3';
import { instantParam, periodOrderMessage, periodOrdered, recordIdParam, withCsvPeriod } from './periodQuery.ts';
import { ALERT_SEVERITIES, ALERT_SEVERITY, ALERT_TYPE_NAMES, type AlertSeverity, type AlertStatus, type AlertTypeName } from './monitoring.ts';

export const ALERT_HISTORY_PATH = '/api/monitoring/alerts';
export const ALERT_HISTORY_CSV_PATH = '/api/monitoring/alerts.csv';
export const NIGHT_SUMMARY_PATH = '/api/monitoring/night-summary';

export const ALERT_STATUSES: readonly AlertStatus[] = ['activeUnacknowledged', 'activeAcknowledged', 'endedUnacknowledged', 'endedAcknowledged'];

export const ALERT_HISTORY_DEFAULT_PAGE = 50;
export const ALERT_HISTORY_MAX_PAGE = 200;
/** A CSV holds at most this many alerts; a larger selection is refused with a request to narrow it. */
export const ALERT_CSV_MAX_ROWS = 10_000;
/** The longest period one CSV covers. */
export const ALERT_CSV_MAX_DAYS = 93;

const id = recordIdParam;
const instant = instantParam;
const types = z
  .string()
  .max(400)
  .transform((text) => text.split(','))
  .pipe(z.array(z.enum(ALERT_TYPE_NAMES)).min(1).max(ALERT_TYPE_NAMES.length));

const filterFields = {
  roomId: id.optional(),
  /** Comma-separated alert types. */
  types: types.optional(),
  state: z.enum(ALERT_STATUSES as [AlertStatus, ...AlertStatus[]]).optional(),
  /** Alerts that started at or after `from` and before `to`. */
  from: instant.optional(),
  to: instant.optional(),
};

export const alertHistoryQuery = z
  .object({
    ...filterFields,
    limit: z.coerce.number().int().min(1).max(ALERT_HISTORY_MAX_PAGE).default(ALERT_HISTORY_DEFAULT_PAGE),
    /** The id of the last alert of the previous page. */
    cursor: id.optional(),
  })
  .strict()
  .refine(periodOrdered, periodOrderMessage);
export type AlertHistoryQuery = z.infer<typeof alertHistoryQuery>;

export const alertCsvQuery = withCsvPeriod({ ...filterFields, from: instant, to: instant }, ALERT_CSV_MAX_DAYS);
export type AlertCsvQuery = z.infer<typeof alertCsvQuery>;

/** The filters of a history query, as the screen puts them in its address and the API's. */
export type AlertHistoryFilter = Pick<AlertHistoryQuery, 'roomId' | 'types' | 'state' | 'from' | 'to'>;

/** The query-string pairs (`roomId`, `types=a,b`, …) of the filters that are set. */
export function alertFilterParams(filter: AlertHistoryFilter): Record<string, string> {
  const params: Record<string, string> = {};
  if (filter.roomId !== undefined) params.roomId = filter.roomId;
  if (filter.types !== undefined && filter.types.length > 0) params.types = filter.types.join(',');
  if (filter.state !== undefined) params.state = filter.state;
  if (filter.from !== undefined) params.from = filter.from;
  if (filter.to !== undefined) params.to = filter.to;
  return params;
}

const alertStatusSchema = z.enum(ALERT_STATUSES as [AlertStatus, ...AlertStatus[]]);

/** One alert as the history lists it. `id` is the `alerts/{id}` record's id (other features add columns by it). */
export const alertHistoryRowSchema = z
  .object({
    id: z.string(),
    domainId: z.string(),
    roomId: z.string().nullable(),
    /** Null when the room is gone or the caller may not read it. */
    roomName: z.string().nullable(),
    residentName: z.string().nullable(),
    type: z.enum(ALERT_TYPE_NAMES),
    severity: z.enum(ALERT_SEVERITIES),
    status: alertStatusSchema,
    startedAt: z.string(),
    endedAt: z.string().nullable(),
    /** Until it ended, or until `at` of the answer while it lasts. */
    durationSec: z.number(),
    acknowledgedAt: z.string().nullable(),
    /** The uid that acknowledged it. */
    acknowledgedBy: z.string().nullable(),
    /** That person's name, when the caller is staff of the facility (level 2+); else null. */
    acknowledgedByName: z.string().nullable(),
  })
  .strict();
export type AlertHistoryRow = z.infer<typeof alertHistoryRowSchema>;

export const alertHistoryPageSchema = z
  .object({
    /** When the answer was made (ms since the epoch): the end of the durations of active alerts. */
    at: z.number(),
    rows: z.array(alertHistoryRowSchema),
    /** Give as `cursor` for the next page; null on the last. */
    nextCursor: z.string().nullable(),
  })
  .strict();
export type AlertHistoryPage = z.infer<typeof alertHistoryPageSchema>;

export function severityOf(type: AlertTypeName): AlertSeverity {
  return ALERT_SEVERITY[type];
}

/** The CSV is in Japanese like the printed reports: the alert types and severities by name. */
export const ALERT_TYPE_LABELS_JA: Readonly<Record<AlertTypeName, string>> = {
  noBreathing: '呼吸未検出',
  heartRhythm: '心拍異常',
  button: 'ナースコール',
  heartRateHigh: '心拍数上昇',
  heartRateLow: '心拍数低下',
  respirationHigh: '呼吸数上昇',
  respirationLow: '呼吸数低下',
  longOutOfBed: '長時間離床',
  outOfBed: '離床',
  sittingUp: '起きあがり',
  temperatureHigh: '体温上昇',
  deviceOffline: '機器の通信途絶',
};

export const ALERT_SEVERITY_LABELS_JA: Readonly<Record<AlertSeverity, string>> = { critical: '緊急', major: '重要', minor: '注意', warning: '機器' };

export const ALERT_STATUS_LABELS_JA: Readonly<Record<AlertStatus, string>> = {
  activeUnacknowledged: '発生中・未確認',
  activeAcknowledged: '発生中・確認済み',
  endedUnacknowledged: '終了・未確認',
  endedAcknowledged: '終了・確認済み',
};

export const ALERT_CSV_HEADER = ['アラートID', '部屋', '入居者', '種類', '重要度', '状態', '開始', '終了', '継続時間（分）', '確認者', '確認日時'] as const;

/**
 * `day` is the night that begins in the evening of that date (the domain's or the room's night window).
 * Without it the server answers the latest night that has begun on the facility's clock (its night
 * window in its time zone), whatever the browser's zone; `NightSummaryAnswer.day` says which.
 */
export const nightSummaryQuery = z
  .object({
    day: z
      .string()
      .regex(/^\d{4}-\d\d-\d\d$/, 'must be YYYY-MM-DD')
      .refine((text) => !Number.isNaN(Date.parse(`${text}T00:00:00Z`)), 'must be a date')
      .optional(),
    roomId: id.optional(),
  })
  .strict();
export type NightSummaryQuery = z.infer<typeof nightSummaryQuery>;

/** A room's night shift: what happened between the night's start and end. */
export const nightSummarySchema = z
  .object({
    roomId: z.string(),
    roomName: z.string(),
    /** The shift, as instants. */
    start: z.string(),
    end: z.string(),
    /** Alerts that started in the shift, by type (types without any are left out). */
    alertsByType: z.record(z.enum(ALERT_TYPE_NAMES), z.number().int()),
    alertCount: z.number().int(),
    /** From the sleep record's minutes within the shift; null without a record of the night. */
    outOfBedCount: z.number().nullable(),
    outOfBedMin: z.number().nullable(),
    sleepMin: z.number().nullable(),
  })
  .strict();
export type NightSummary = z.infer<typeof nightSummarySchema>;

export const nightSummaryAnswerSchema = z
  .object({
    /** The night answered: the one asked for, or the latest begun on the facility's clock. */
    day: z.string(),
    rooms: z.array(nightSummarySchema),
    /** Rooms left out because the answer holds at most NIGHT_SUMMARY_MAX_ROOMS. */
    truncated: z.boolean(),
  })
  .strict();
export type NightSummaryAnswer = z.infer<typeof nightSummaryAnswerSchema>;

export const NIGHT_SUMMARY_MAX_ROOMS = 200;
