/**
 * What the master screens (/master, developers) read from the document engine, live: every
 * record kind across tenants, and one domain's, device's or device type's records.
 */
import type { QueryInput } from '../../../lib/documents/records.ts';
import { useQuery } from '../../../lib/documents/hooks.ts';

/** Records per master list: the lists show everything (developers, few tenants). */
const ALL = 1000;

export const useAllDomains = () => useQuery({ collection: 'domains', limit: ALL });
export const useAllRooms = () => useQuery({ collection: 'rooms', limit: ALL });
export const useAllDevices = () => useQuery({ collection: 'devices', limit: ALL });
export const useDeviceTypes = () => useQuery({ collection: 'deviceTypes', limit: 200 });
export const useViews = () => useQuery({ collection: 'views', limit: ALL });
export const useParameters = (limit: number) => useQuery({ collection: 'parameters', limit });

/** The release notes; `enabled` false reads nothing. */
export const useReleaseHistories = (enabled = true) => useQuery(enabled ? { collection: 'histories', limit: ALL } : null);

export const useDeviceBorrows = (serial: string, limit: number) => useQuery({ collection: `devices/${serial}/borrows`, orderBy: [['from', 'desc']], limit });
export const useRoomUploads = (roomId: string | null, limit: number) =>
  useQuery(roomId ? { collection: `rooms/${roomId}/uploads`, orderBy: [['createdAt', 'desc']], limit } : null);
export const useRoomNights = (roomId: string, nights: number) =>
  useQuery({ collection: `rooms/${roomId}/sleeps`, orderBy: [['bedTime', 'desc']], limit: nights });
export const useDomainRooms = (domainId: string) => useQuery({ collection: 'rooms', where: [['domainId', '==', domainId]], limit: ALL });
export const useDeviceTypeParameters = (typeId: string) => useQuery({ collection: 'parameters', where: [['deviceTypeId', '==', typeId]], limit: ALL });
export const useDeviceTypeDevices = (typeId: string) => useQuery({ collection: 'devices', where: [['deviceTypeId', '==', typeId]], limit: ALL });

/** The record sections of a domain's data tab, each a query of its own. */
export function domainDataQueries(domainId: string, limit: number): Record<'staff' | 'rooms' | 'devices' | 'ownedDevices' | 'partners' | 'bills', QueryInput> {
  return {
    staff: { collection: `domains/${domainId}/staff`, limit },
    rooms: { collection: 'rooms', where: [['domainId', '==', domainId]], limit },
    devices: { collection: 'devices', where: [['domainId', '==', domainId]], limit },
    ownedDevices: { collection: 'devices', where: [['ownerAgencyDomainId', '==', domainId]], limit },
    partners: { collection: `domains/${domainId}/partners`, limit },
    bills: { collection: `domains/${domainId}/bills`, limit },
  };
}
