/** What the station and the raw views read from the document engine, live (the room states come over their own socket, lib/live/roomStates.ts). */
import { useEveryLiveRecord } from '../../../lib/documents/pagedHooks.ts';
import type { RecordOf } from '../../../lib/documents/records.ts';

export const useRoomsByName = () => useEveryLiveRecord<RecordOf<'rooms'>>({ collection: 'rooms', orderBy: [['name']] });
export const useRooms = () => useEveryLiveRecord<RecordOf<'rooms'>>({ collection: 'rooms' });
/** `enabled` false reads nothing. */
export const useDevices = (enabled = true) => useEveryLiveRecord<RecordOf<'devices'>>(enabled ? { collection: 'devices' } : null);
export const useDeviceTypes = () => useEveryLiveRecord<RecordOf<'deviceTypes'>>({ collection: 'deviceTypes' });
