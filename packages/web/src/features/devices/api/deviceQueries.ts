/** What the device screens read from the document engine, live. */
import { documents } from '../../../lib/documents/documents.ts';
import { useQuery } from '../../../lib/documents/hooks.ts';

export const useDevices = (limit: number) => useQuery({ collection: 'devices', limit });
export const useDeviceTypes = () => useQuery({ collection: 'deviceTypes', limit: 200 });
export const useRoomsByName = (limit: number) => useQuery({ collection: 'rooms', orderBy: [['name']], limit });
export const useDomains = (limit: number) => useQuery({ collection: 'domains', limit });
/** Every loan in the caller's scope (the `borrows` of every device). */
export const useAllBorrows = (limit: number) => useQuery({ collection: 'borrows', collectionGroup: true, limit });

/** The room the device is in, among the rooms the user may see (the server answers only those); null when none. */
export const findRoomOfDevice = (serial: string) => documents.lookup('rooms', 'deviceSerial', serial);
