/**
 * Sends a file to `POST /api/rooms/:roomId/uploads` (docs/api.md, "Imports") with its progress
 * (lib/http/upload.ts), and reads the answer as what the import screen shows.
 */
import { ApiError } from '../../../lib/http/apiError.ts';
import { uploadWithProgress } from '../../../lib/http/upload.ts';
import { UPLOAD_FILE_NAME_HEADER, UPLOAD_UNKNOWN_COLUMNS_HEADER, type DuplicateUpload, type UnknownColumnChoice } from '@nemuri/shared/imports';

export type UploadAnswer =
  | { kind: 'created'; uploadId: string }
  | { kind: 'duplicate'; uploadId: string; fileName: string }
  | { kind: 'refused'; status: number; reason: string | null; message: string }
  | { kind: 'network' }
  | { kind: 'aborted' };

export interface UploadHandle {
  done: Promise<UploadAnswer>;
  abort(): void;
}

/** `unknownColumns`: the user's choice for columns the import cannot read (the preview asks). */
export function uploadFile(roomId: string, file: File, onProgress: (fraction: number) => void, unknownColumns: UnknownColumnChoice = 'refuse'): UploadHandle {
  const sending = uploadWithProgress(
    `/api/rooms/${encodeURIComponent(roomId)}/uploads`,
    file,
    { [UPLOAD_FILE_NAME_HEADER]: encodeURIComponent(file.name), [UPLOAD_UNKNOWN_COLUMNS_HEADER]: unknownColumns },
    onProgress,
  );
  const done = sending.done.then(
    (body): UploadAnswer => ({ kind: 'created', uploadId: String((body as { uploadId?: unknown } | null)?.uploadId) }),
    (error: unknown): UploadAnswer => {
      if (!(error instanceof ApiError)) return { kind: 'aborted' };
      if (error.isNetworkFailure) return { kind: 'network' };
      const duplicate = error.status === 409 && error.code === 'already-exists' ? (error.body as Partial<DuplicateUpload> | null) : null;
      if (typeof duplicate?.uploadId === 'string' && typeof duplicate.fileName === 'string')
        return { kind: 'duplicate', uploadId: duplicate.uploadId, fileName: duplicate.fileName };
      // Not JSON (a proxy's error page): the status says enough.
      const named = error.body !== null ? (error.reason ?? error.code) : null;
      return { kind: 'refused', status: error.status, reason: named, message: error.body !== null ? error.message : '' };
    },
  );
  return { done, abort: sending.abort };
}
