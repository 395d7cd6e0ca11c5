/** What the station and the raw views read from the document engine, live (the room states come over their own socket, lib/live/roomStates.ts). */
import { useQuery } from '../../../lib/documents/hooks.ts';

/** Rooms, devices and types per station: a ward's worth and more. */
const STATION = 500;

export const useRoomsByName = () => useQuery({ collection: 'rooms', orderBy: [['name']], limit: STATION });
export const useRooms = () => useQuery({ collection: 'rooms', limit: STATION });
/** `enabled` false reads nothing. */
export const useDevices = (enabled = true) => useQuery(enabled ? { collection: 'devices', limit: STATION } : null);
export const useDeviceTypes = () => useQuery({ collection: 'deviceTypes', limit: 100 });
