/** What the device screens read from the document engine, live and whole (page after page): the screens join and search devices, rooms, loans and domains across all of them. */
import { documents } from '../../../lib/documents/documents.ts';
import { useEveryLiveRecord } from '../../../lib/documents/pagedHooks.ts';
import type { RecordOf } from '../../../lib/documents/records.ts';

export const useDevices = () => useEveryLiveRecord<RecordOf<'devices'>>({ collection: 'devices' });
export const useDeviceTypes = () => useEveryLiveRecord<RecordOf<'deviceTypes'>>({ collection: 'deviceTypes' });
export const useRoomsByName = () => useEveryLiveRecord<RecordOf<'rooms'>>({ collection: 'rooms', orderBy: [['name']] });
export const useDomains = () => useEveryLiveRecord<RecordOf<'domains'>>({ collection: 'domains' });
/** Every loan in the caller's scope (the `borrows` of every device). */
export const useAllBorrows = () => useEveryLiveRecord<RecordOf<'devices/borrows'>>({ collection: 'borrows', collectionGroup: true });

/** The room the device is in, among the rooms the user may see (the server answers only those); null when none. */
export const findRoomOfDevice = (serial: string) => documents.lookup('rooms', 'deviceSerial', serial);
