/** The rooms a report can be made for: those in the caller's scope, live. */
import { useEveryLiveRecord } from '../../../lib/documents/pagedHooks.ts';
import type { RecordOf } from '../../../lib/documents/records.ts';

export const useReportRooms = () => useEveryLiveRecord<RecordOf<'rooms'>>({ collection: 'rooms' });
