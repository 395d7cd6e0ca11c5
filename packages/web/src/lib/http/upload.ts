/**
 * A file sent with its progress: the browser streams it from disk and XMLHttpRequest reports the
 * bytes sent, which fetch does not. Otherwise a call like any other of lib/http: the same request id
 * header, and a refusal is the same ApiError.
 */
import { ApiError, NETWORK_FAILURE } from './apiError.ts';
import { apiErrorOf, newRequestId, REQUEST_ID_HEADER } from './httpClient.ts';

export interface UploadHandle {
  /** The answer's JSON (null when empty); an ApiError for a refusal or no answer; an AbortError after `abort`. */
  done: Promise<unknown>;
  abort(): void;
}

export function uploadWithProgress(path: string, file: Blob, headers: Readonly<Record<string, string>>, onProgress: (fraction: number) => void): UploadHandle {
  const request = new XMLHttpRequest();
  const requestId = newRequestId();
  const done = new Promise<unknown>((resolve, reject) => {
    request.open('POST', path);
    request.setRequestHeader('accept', 'application/json');
    request.setRequestHeader('content-type', 'application/octet-stream');
    request.setRequestHeader(REQUEST_ID_HEADER, requestId);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onerror = () => reject(new ApiError({ status: 0, code: NETWORK_FAILURE, message: `POST ${path} had no answer`, requestId }));
    request.onabort = () => reject(new DOMException('the upload was cancelled', 'AbortError'));
    request.onload = () => {
      const answer = {
        status: request.status,
        headers: { get: (name: string) => request.getResponseHeader(name) },
        text: () => Promise.resolve(request.responseText),
      };
      if (request.status >= 200 && request.status <= 299) {
        try {
          resolve(request.responseText === '' ? null : (JSON.parse(request.responseText) as unknown));
        } catch {
          resolve(null);
        }
      } else reject(apiErrorOf('POST', path, answer, request.responseText, requestId));
    };
    request.send(file);
  });
  return { done, abort: () => request.abort() };
}
