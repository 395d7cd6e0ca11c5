/** What the room screens read from the document engine, live. */
import type { SleepDayRecord } from '../roomSleepData.ts';
import { useQuery } from '../../../lib/documents/hooks.ts';

export const useRoomsByName = (limit: number) => useQuery({ collection: 'rooms', orderBy: [['name']], limit });
export const useDevices = (limit: number) => useQuery({ collection: 'devices', limit });
export const useDomains = () => useQuery({ collection: 'domains', limit: 200 });
/** The room's latest sleep day; `enabled` false reads nothing. */
export const useLatestSleepDay = (roomId: string, enabled: boolean) =>
  useQuery<SleepDayRecord>(enabled ? { collection: `rooms/${roomId}/sleeps`, orderBy: [['bedTime', 'desc']], limit: 1 } : null);
