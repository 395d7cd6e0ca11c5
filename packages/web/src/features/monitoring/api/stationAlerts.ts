/**
 * The alerts the nurse station shows: every alert still active or not yet acknowledged (an ended one
 * nobody confirmed reads 終了・未確認 until someone does), the most urgent first, and the one the
 * banner names.
 */
import { useMemo } from 'react';
import { alertStatus, onStation, severityRank } from '@nemuri/shared/monitoring';
import { useQuery } from '../../../lib/documents/hooks.ts';
import type { RecordOf } from '../../../lib/documents/records.ts';

export type AlertRecord = RecordOf<'alerts'>;

/** Bounded like every list: more than this many open alerts at once is far beyond a night. */
const STATION_ALERT_LIMIT = 200;

/** What needs someone first: unacknowledged before acknowledged, then by severity, then the newest. */
export function stationOrder(a: AlertRecord, b: AlertRecord): number {
  return (
    Number(Boolean(a.acknowledgedAt)) - Number(Boolean(b.acknowledgedAt)) ||
    severityRank(a.type) - severityRank(b.type) ||
    b.startedAt.localeCompare(a.startedAt)
  );
}

/** The banner's alert: unacknowledged, still going before ended, then by severity and the newest. */
export function bannerAlert(alerts: readonly AlertRecord[]): AlertRecord | null {
  const waiting = alerts.filter((alert) => !alert.acknowledgedAt);
  const ended = (alert: AlertRecord) => Number(alertStatus(alert) === 'endedUnacknowledged');
  return [...waiting].sort((a, b) => ended(a) - ended(b) || stationOrder(a, b))[0] ?? null;
}

export interface StationAlerts {
  data: AlertRecord[];
  loading: boolean;
  failed: boolean;
}

export function useStationAlerts(): StationAlerts {
  // Two queries: the active ones (acknowledged or not) and the unacknowledged ones (ended or not).
  const active = useQuery({ collection: 'alerts', where: [['endedAt', '==', null]], orderBy: [['startedAt', 'desc']], limit: STATION_ALERT_LIMIT });
  const waiting = useQuery({ collection: 'alerts', where: [['acknowledgedAt', '==', null]], orderBy: [['startedAt', 'desc']], limit: STATION_ALERT_LIMIT });
  return useMemo(() => {
    const byId = new Map<string, AlertRecord>();
    for (const alert of [...active.data, ...waiting.data]) if (onStation(alert)) byId.set(alert.documentReferenceId, alert);
    return { data: [...byId.values()].sort(stationOrder), loading: active.loading || waiting.loading, failed: active.error !== null || waiting.error !== null };
  }, [active.data, active.loading, active.error, waiting.data, waiting.loading, waiting.error]);
}

/** Rooms with an alert waiting for a person: `active` flashes, `ended` (終了・未確認) is outlined. */
export function alarmsByRoom(alerts: readonly AlertRecord[]): Map<string, { count: number; alarm: 'active' | 'ended' | null }> {
  const rooms = new Map<string, { count: number; alarm: 'active' | 'ended' | null }>();
  for (const alert of alerts) {
    if (!alert.roomId) continue;
    const entry = rooms.get(alert.roomId) ?? { count: 0, alarm: null };
    entry.count++;
    const status = alertStatus(alert);
    if (status === 'activeUnacknowledged') entry.alarm = 'active';
    else if (status === 'endedUnacknowledged' && entry.alarm === null) entry.alarm = 'ended';
    rooms.set(alert.roomId, entry);
  }
  return rooms;
}
