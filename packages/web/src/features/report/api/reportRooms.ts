/** The rooms a report can be made for: those in the caller's scope, live. */
import { useQuery } from '../../../lib/documents/hooks.ts';

export const useReportRooms = () => useQuery({ collection: 'rooms', limit: 1000 });
