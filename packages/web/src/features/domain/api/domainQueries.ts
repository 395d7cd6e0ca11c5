/** What the domain configuration screen reads from the document engine, live. */
import { useQuery } from '../../../lib/documents/hooks.ts';
import type { RecordOf } from '../../../lib/documents/records.ts';
import type { Invitation, StaffMember } from './domainConfigApi.ts';
import { useEveryLiveRecord } from '../../../lib/documents/pagedHooks.ts';

/** The domains to choose from; `enabled` false reads nothing. */
export const useDomainChoices = (enabled: boolean) => useEveryLiveRecord<RecordOf<'domains'>>(enabled ? { collection: 'domains' } : null);
export const useStaff = (domainId: string, limit: number) => useQuery<StaffMember>({ collection: `domains/${domainId}/staff`, limit });
export const useInvitations = (domainId: string, limit: number) =>
  useQuery<Invitation>({ collection: 'invitations', where: [['domainId', '==', domainId]], limit });
