/** The rooms of the home screen's list, by name, live. */
import { useEveryLiveRecord } from '../../../lib/documents/pagedHooks.ts';
import type { RecordOf } from '../../../lib/documents/records.ts';

export const useRoomsByName = () => useEveryLiveRecord<RecordOf<'rooms'>>({ collection: 'rooms', orderBy: [['name']] });
