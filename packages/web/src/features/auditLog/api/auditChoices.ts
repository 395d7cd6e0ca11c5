/** What the audit log's filters offer: the domains and staff in the caller's scope, live. */
import { useQuery } from '../../../lib/documents/hooks.ts';

export const useDomainChoices = (limit: number) => useQuery({ collection: 'domains', limit });
export const useStaffChoices = (limit: number) => useQuery({ collection: 'staff', collectionGroup: true, limit });
