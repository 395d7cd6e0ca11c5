/** The rooms the alert history filters by, by name, live. */
import { useQuery } from '../../../lib/documents/hooks.ts';

export const useRoomsByName = () => useQuery({ collection: 'rooms', orderBy: [['name']], limit: 500 });
