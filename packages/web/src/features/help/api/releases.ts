/** The newest release notes for /help, live. */
import { useQuery } from '../../../lib/documents/hooks.ts';

/** Release notes are few (one per version): the newest is among the latest dated ones. */
export const useLatestReleases = () => useQuery({ collection: 'histories', orderBy: [['date', 'desc']], limit: 20 });
