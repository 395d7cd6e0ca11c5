/** What the audit log's filters offer: the domains and staff in the caller's scope, live. */
import { useEveryLiveRecord } from '../../../lib/documents/pagedHooks.ts';
import type { RecordOf } from '../../../lib/documents/records.ts';

export const useDomainChoices = () => useEveryLiveRecord<RecordOf<'domains'>>({ collection: 'domains' });
export const useStaffChoices = () => useEveryLiveRecord<RecordOf<'domains/staff'>>({ collection: 'staff', collectionGroup: true });
