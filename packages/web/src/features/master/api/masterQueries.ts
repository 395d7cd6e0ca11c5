/**
 * What the master screens (/master, developers) read from the document engine, live: every
 * record kind across tenants, and one domain's, device's or device type's records.
 */
import type { RecordOf } from '../../../lib/documents/records.ts';
import { useQuery } from '../../../lib/documents/hooks.ts';
import { useEveryLiveRecord, useEveryRecord, type ListQuery } from '../../../lib/documents/pagedHooks.ts';

/** Rows per page of the lists that can grow (a domain's records, a type's devices). */
export const MASTER_PAGE = 50;

/** Every domain, read page after page: the domain list searches and names parents across all of them. */
export const useAllDomains = () => useEveryRecord<RecordOf<'domains'>>({ collection: 'domains' });
/*
 * The edited master lists are read whole and live, page after page: they are searched, sorted and
 * checked for a taken id across every record, and name device types by id.
 */
export const useDeviceTypes = () => useEveryLiveRecord<RecordOf<'deviceTypes'>>({ collection: 'deviceTypes' });
export const useViews = () => useEveryLiveRecord<RecordOf<'views'>>({ collection: 'views' });
export const useParameters = () => useEveryLiveRecord<RecordOf<'parameters'>>({ collection: 'parameters' });

/** The release notes; `enabled` false reads nothing. */
export const useReleaseHistories = (enabled = true) => useEveryLiveRecord<RecordOf<'histories'>>(enabled ? { collection: 'histories' } : null);

export const useDeviceBorrows = (serial: string, limit: number) => useQuery({ collection: `devices/${serial}/borrows`, orderBy: [['from', 'desc']], limit });
export const useRoomUploads = (roomId: string | null, limit: number) =>
  useQuery(roomId ? { collection: `rooms/${roomId}/uploads`, orderBy: [['createdAt', 'desc']], limit } : null);
export const useRoomNights = (roomId: string, nights: number) =>
  useQuery({ collection: `rooms/${roomId}/sleeps`, orderBy: [['bedTime', 'desc']], limit: nights });

export const useDeviceTypeParameters = (typeId: string) =>
  useEveryLiveRecord<RecordOf<'parameters'>>({ collection: 'parameters', where: [['deviceTypeId', '==', typeId]] });
/** A type's devices (by serial), for useLivePages and, the same query, useCount. */
export const deviceTypeDevicesQuery = (typeId: string): ListQuery => ({ collection: 'devices', where: [['deviceTypeId', '==', typeId]] });
/** A domain's rooms, for useCount. */
export const domainRoomsQuery = (domainId: string): ListQuery => ({ collection: 'rooms', where: [['domainId', '==', domainId]] });
/** Every room of a domain (the sleep tab's room picker), read page after page. */
export const useDomainRooms = (domainId: string) => useEveryRecord<RecordOf<'rooms'>>(domainRoomsQuery(domainId));

/** The record sections of a domain's data tab, each a query of its own (paged and counted apart). */
export function domainDataQueries(domainId: string): Record<'staff' | 'rooms' | 'devices' | 'ownedDevices' | 'partners' | 'bills', ListQuery> {
  return {
    staff: { collection: `domains/${domainId}/staff` },
    rooms: domainRoomsQuery(domainId),
    devices: { collection: 'devices', where: [['domainId', '==', domainId]] },
    ownedDevices: { collection: 'devices', where: [['ownerAgencyDomainId', '==', domainId]] },
    partners: { collection: `domains/${domainId}/partners` },
    bills: { collection: `domains/${domainId}/bills` },
  };
}
