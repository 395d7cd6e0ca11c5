/**
 * A room's uploads (docs/api.md, "Imports"): the history a page at a time, live, and what can be
 * done to one (process again, delete).
 */
import { useCount, useQuery } from '../../../lib/documents/hooks.ts';
import { http } from '../../../lib/http/httpClient.ts';
import type { UnknownColumnChoice } from '@nemuri/shared/imports';
import { useEveryLiveRecord } from '../../../lib/documents/pagedHooks.ts';
import type { RecordOf } from '../../../lib/documents/records.ts';

export const useRoomsByName = () => useEveryLiveRecord<RecordOf<'rooms'>>({ collection: 'rooms', orderBy: [['name']] });

/** `limit` uploads of the room, newest first, after the upload created at `startAfter`. */
export function useUploadPage(roomId: string, limit: number, startAfter: string | undefined) {
  return useQuery({
    collection: `rooms/${roomId}/uploads`,
    orderBy: [['createdAt', 'desc']],
    limit,
    ...(startAfter === undefined ? {} : { startAfter: [startAfter] }),
  });
}

export const useUploadCount = (roomId: string) => useCount({ collection: `rooms/${roomId}/uploads` });

const uploadPath = (roomId: string, uploadId: string) => `/api/rooms/${encodeURIComponent(roomId)}/uploads/${encodeURIComponent(uploadId)}`;

/** Processes the file again; `unknownColumns: 'skip'` leaves out the columns the import cannot read. A refusal is an ApiError. */
export async function reprocessUpload(roomId: string, uploadId: string, options: { unknownColumns?: UnknownColumnChoice } = {}): Promise<void> {
  await http.json('POST', `${uploadPath(roomId, uploadId)}/reprocess`, { body: options });
}

export async function deleteUpload(roomId: string, uploadId: string): Promise<void> {
  await http.json('DELETE', uploadPath(roomId, uploadId));
}
