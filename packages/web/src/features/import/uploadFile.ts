/**
 * Sends a file to `POST /api/rooms/:roomId/uploads` (docs/api.md, "Imports") with its progress: the
 * browser streams the file from disk (XMLHttpRequest reports upload progress, fetch does not).
 */
import { UPLOAD_FILE_NAME_HEADER, type DuplicateUpload } from '@nemuri/shared/imports';

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

export function uploadFile(roomId: string, file: File, onProgress: (fraction: number) => void): UploadHandle {
  const request = new XMLHttpRequest();
  const done = new Promise<UploadAnswer>((resolve) => {
    request.open('POST', `/api/rooms/${encodeURIComponent(roomId)}/uploads`);
    request.setRequestHeader('content-type', 'application/octet-stream');
    request.setRequestHeader(UPLOAD_FILE_NAME_HEADER, encodeURIComponent(file.name));
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onerror = () => resolve({ kind: 'network' });
    request.onabort = () => resolve({ kind: 'aborted' });
    request.onload = () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(request.responseText) as Record<string, unknown>;
      } catch {
        // Not JSON (a proxy's error page): the status says enough.
      }
      if (request.status === 201) resolve({ kind: 'created', uploadId: String(body.uploadId) });
      else if (request.status === 409 && body.code === 'already-exists') {
        const duplicate = body as unknown as DuplicateUpload;
        resolve({ kind: 'duplicate', uploadId: duplicate.uploadId, fileName: duplicate.fileName });
      } else resolve({ kind: 'refused', status: request.status, reason: typeof body.reason === 'string' ? body.reason : typeof body.code === 'string' ? body.code : null, message: typeof body.message === 'string' ? body.message : '' });
    };
    request.send(file);
  });
  return { done, abort: () => request.abort() };
}
