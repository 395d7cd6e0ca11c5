/** The rooms of the home screen's list, by name, live. */
import { useQuery } from '../../../lib/documents/hooks.ts';

export const useRoomsByName = (limit: number) => useQuery({ collection: 'rooms', orderBy: [['name']], limit });
