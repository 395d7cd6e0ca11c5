/**
 * The overview's counts (/master): each a live count query of the document engine, which counts
 * across every tenant for a developer, so no aggregate endpoint is needed.
 */
import type { Query } from '@nemuri/shared/documents/query';

export const DOMAIN_KINDS = ['corporation', 'facility', 'individual', 'agency', 'developer'] as const;
import { DEVICE_STATUSES } from '@nemuri/shared/documents/collections';

export { DEVICE_STATUSES };
export type DomainKind = (typeof DOMAIN_KINDS)[number];
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

/** A device is online when it sent something this recently (the device list's window too). */
export const ONLINE_WINDOW_MS = 45_000;

export type CountGroup = 'domains' | 'devices' | 'other';

export interface CountItem {
  /** Unique; `master.counts.<labelKey>` names it. */
  id: string;
  group: CountGroup;
  labelKey: string;
  query: Query;
  /** Something needs a look when this count is above 0 (failing uploads, open alerts). */
  warnWhenPositive?: boolean;
}

/** Since when a device counts as online, at `nowMs` (ISO, compared as text like the stored timestamps). */
export function onlineSince(nowMs: number): string {
  return new Date(nowMs - ONLINE_WINDOW_MS).toISOString();
}

/** The count queries of the overview at `nowMs` (only "online" depends on the time). */
export function countItems(nowMs: number): CountItem[] {
  return [
    { id: 'domains', group: 'domains', labelKey: 'domainsTotal', query: { collection: 'domains' } },
    ...DOMAIN_KINDS.map((kind): CountItem => ({
      id: `domains-${kind}`,
      group: 'domains',
      labelKey: `kinds.${kind}`,
      query: { collection: 'domains', where: [['kind', '==', kind]] },
    })),
    { id: 'rooms', group: 'other', labelKey: 'rooms', query: { collection: 'rooms' } },
    { id: 'deviceTypes', group: 'other', labelKey: 'deviceTypes', query: { collection: 'deviceTypes' } },
    {
      id: 'uploadsFailed',
      group: 'other',
      labelKey: 'uploadsFailed',
      query: { collection: 'uploads', collectionGroup: true, where: [['status', '==', 'failed']] },
      warnWhenPositive: true,
    },
    { id: 'alertsOpen', group: 'other', labelKey: 'alertsOpen', query: { collection: 'alerts', where: [['endedAt', '==', null]] }, warnWhenPositive: true },
    { id: 'devices', group: 'devices', labelKey: 'devicesTotal', query: { collection: 'devices' } },
    { id: 'devicesOnline', group: 'devices', labelKey: 'devicesOnline', query: { collection: 'devices', where: [['lastSeenAt', '>=', onlineSince(nowMs)]] } },
    ...DEVICE_STATUSES.map((status): CountItem => ({
      id: `devices-${status}`,
      group: 'devices',
      labelKey: `statuses.${status}`,
      query: { collection: 'devices', where: [['status', '==', status]] },
    })),
  ];
}

/** Whether a device is online at `nowMs` by its last contact. */
export function isOnline(lastSeenAt: string | null | undefined, nowMs: number): boolean {
  if (typeof lastSeenAt !== 'string') return false;
  const seen = Date.parse(lastSeenAt);
  return Number.isFinite(seen) && nowMs - seen < ONLINE_WINDOW_MS;
}
