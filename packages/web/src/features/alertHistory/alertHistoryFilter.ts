/**
 * The history screen's filters as they stand in its address (`?room=…&types=a,b&state=…&from=YYYY-MM-DD&to=YYYY-MM-DD`,
 * the days inclusive, on the browser's clock) and as the API takes them (instants). Without days the
 * last seven are shown, so that the CSV, which needs a period, is always at hand.
 */
import { ALERT_STATUSES, type AlertHistoryFilter } from '@nemuri/shared/alertHistory';
import { ALERT_TYPE_NAMES, type AlertStatus, type AlertTypeName } from '@nemuri/shared/monitoring';
import { dayjs } from '../../lib/dates.ts';

export interface ScreenFilter {
  roomId: string | null;
  types: AlertTypeName[];
  state: AlertStatus | null;
  /** First and last day shown, `YYYY-MM-DD`. */
  fromDay: string;
  toDay: string;
}

export const DEFAULT_DAYS = 7;
const DAY = /^\d{4}-\d\d-\d\d$/;

const isDay = (text: string | null): text is string => text !== null && DAY.test(text) && dayjs(text, 'YYYY-MM-DD').isValid();

export function screenFilterOf(params: URLSearchParams, today: string = dayjs().format('YYYY-MM-DD')): ScreenFilter {
  const types = (params.get('types') ?? '').split(',').filter((type): type is AlertTypeName => (ALERT_TYPE_NAMES as readonly string[]).includes(type));
  const state = params.get('state');
  const toDay = isDay(params.get('to')) ? (params.get('to') as string) : today;
  const fromParam = params.get('from');
  const fromDay =
    isDay(fromParam) && fromParam <= toDay
      ? fromParam
      : dayjs(toDay)
          .subtract(DEFAULT_DAYS - 1, 'day')
          .format('YYYY-MM-DD');
  const room = params.get('room');
  return {
    roomId: room !== null && room !== '' ? room : null,
    types,
    state: (ALERT_STATUSES as readonly (string | null)[]).includes(state) ? (state as AlertStatus) : null,
    fromDay,
    toDay,
  };
}

export function screenParams(filter: ScreenFilter): Record<string, string> {
  const params: Record<string, string> = { from: filter.fromDay, to: filter.toDay };
  if (filter.roomId !== null) params.room = filter.roomId;
  if (filter.types.length > 0) params.types = filter.types.join(',');
  if (filter.state !== null) params.state = filter.state;
  return params;
}

/** The API's filter: from the first day's midnight to the midnight after the last, on the browser's clock. */
export function apiFilterOf(filter: ScreenFilter): AlertHistoryFilter {
  return {
    ...(filter.roomId === null ? {} : { roomId: filter.roomId }),
    ...(filter.types.length === 0 ? {} : { types: filter.types }),
    ...(filter.state === null ? {} : { state: filter.state }),
    from: dayjs(filter.fromDay).startOf('day').toISOString(),
    to: dayjs(filter.toDay).add(1, 'day').startOf('day').toISOString(),
  };
}

/** `40秒`, `12分`, `1時間5分` as translation keys and values. */
export function durationParts(seconds: number): { key: 'seconds' | 'minutes' | 'hours'; values: Record<string, number> } {
  if (seconds < 60) return { key: 'seconds', values: { seconds } };
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return { key: 'minutes', values: { minutes } };
  return { key: 'hours', values: { hours: Math.floor(minutes / 60), minutes: minutes % 60 } };
}
