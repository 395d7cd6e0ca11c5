/**
 * The alert history endpoints (docs/api.md "Alert history"): a page of alerts, the CSV's address and
 * the night summaries. Filters and shapes come from @nemuri/shared/alertHistory.
 */
import {
  ALERT_HISTORY_CSV_PATH,
  ALERT_HISTORY_PATH,
  alertFilterParams,
  NIGHT_SUMMARY_PATH,
  type AlertHistoryFilter,
  type AlertHistoryPage,
  type NightSummaryAnswer,
} from '@nemuri/shared/alertHistory';
import { NOTIFICATIONS_API, type AlertEscalationView } from '@nemuri/shared/notifications';
import { http } from '../../../lib/http/httpClient.ts';

/** A failure is the page's ApiError (lib/http/apiError.ts) with the server's code. */
function get<T>(path: string): Promise<T> {
  return http.json<T>('GET', path);
}

export function fetchAlertPage(filter: AlertHistoryFilter, limit: number, cursor: string | null): Promise<AlertHistoryPage> {
  const params = new URLSearchParams({ ...alertFilterParams(filter), limit: String(limit) });
  if (cursor !== null) params.set('cursor', cursor);
  return get(`${ALERT_HISTORY_PATH}?${params.toString()}`);
}

export function alertCsvUrl(filter: AlertHistoryFilter): string {
  return `${ALERT_HISTORY_CSV_PATH}?${new URLSearchParams(alertFilterParams(filter)).toString()}`;
}

/** Without a day the server picks the facility's latest night (on its clock, not the browser's). */
export function fetchNightSummary(day: string | null, roomId?: string): Promise<NightSummaryAnswer> {
  const params = new URLSearchParams(day === null ? {} : { day });
  if (roomId !== undefined) params.set('roomId', roomId);
  return get(`${NIGHT_SUMMARY_PATH}?${params.toString()}`);
}

/** An alert's notification steps and deliveries (docs/api.md "Notifications"), for its history row. */
export function fetchAlertEscalation(alertId: string): Promise<AlertEscalationView> {
  return get(`${NOTIFICATIONS_API}/alerts/${encodeURIComponent(alertId)}/escalation`);
}
