/** What the room screens read from the document engine, live; the room list and its pickers whole (page after page), since they are grouped and searched across all rooms. */
import type { SleepDayRecord } from '../roomSleepData.ts';
import { useQuery } from '../../../lib/documents/hooks.ts';
import { useEveryLiveRecord } from '../../../lib/documents/pagedHooks.ts';
import type { RecordOf } from '../../../lib/documents/records.ts';

export const useRoomsByName = () => useEveryLiveRecord<RecordOf<'rooms'>>({ collection: 'rooms', orderBy: [['name']] });
export const useDevices = () => useEveryLiveRecord<RecordOf<'devices'>>({ collection: 'devices' });
export const useDomains = () => useEveryLiveRecord<RecordOf<'domains'>>({ collection: 'domains' });
/** The room's latest sleep day; `enabled` false reads nothing. */
export const useLatestSleepDay = (roomId: string, enabled: boolean) =>
  useQuery<SleepDayRecord>(enabled ? { collection: `rooms/${roomId}/sleeps`, orderBy: [['bedTime', 'desc']], limit: 1 } : null);
