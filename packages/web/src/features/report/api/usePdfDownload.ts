/**
 * The report PDF fetched by the page instead of a plain link, so that the user sees it being made
 * (seconds waited, then kilobytes received) and can cancel: the server draws it in a worker thread,
 * which takes seconds for a month of many rooms. The file is saved under the server's Japanese name
 * (Content-Disposition `filename*`). Cancelling aborts the request.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/http/apiError.ts';
import { fetchResponse } from '../../../lib/http/httpClient.ts';

export type PdfDownloadState =
  { phase: 'idle' } | { phase: 'making'; seconds: number } | { phase: 'receiving'; kilobytes: number } | { phase: 'failed'; status: number | null };

/** The file name of a Content-Disposition header: the RFC 5987 `filename*` first, else `filename`. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '');
  if (extended?.[1] !== undefined) {
    try {
      return decodeURIComponent(extended[1]);
    } catch {
      // A malformed escape: the plain name below.
    }
  }
  return /filename="([^"]+)"/i.exec(disposition ?? '')?.[1] ?? fallback;
}

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function usePdfDownload(): { state: PdfDownloadState; start: (url: string) => void; cancel: () => void } {
  const [state, setState] = useState<PdfDownloadState>({ phase: 'idle' });
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const cancel = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    setState({ phase: 'idle' });
  }, []);

  const start = useCallback((url: string) => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    const started = Date.now();
    setState({ phase: 'making', seconds: 0 });
    const timer = setInterval(
      () => setState((current) => (current.phase === 'making' ? { phase: 'making', seconds: Math.floor((Date.now() - started) / 1000) } : current)),
      1000,
    );
    void (async () => {
      try {
        const response = await fetchResponse(url, { signal: abort.signal, accept: 'application/pdf' });
        clearInterval(timer);
        if (response.body === null) {
          setState({ phase: 'failed', status: response.status });
          return;
        }
        const reader = response.body.getReader();
        const chunks: Uint8Array<ArrayBuffer>[] = [];
        let received = 0;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(value);
          received += value.length;
          setState({ phase: 'receiving', kilobytes: Math.round(received / 1024) });
        }
        save(new Blob(chunks, { type: 'application/pdf' }), fileNameOf(response.headers.get('content-disposition'), 'sleep-report.pdf'));
        setState({ phase: 'idle' });
      } catch (error) {
        clearInterval(timer);
        if (abort.signal.aborted) return;
        setState({ phase: 'failed', status: error instanceof ApiError && !error.isNetworkFailure ? error.status : null });
      } finally {
        if (controller.current === abort) controller.current = null;
      }
    })();
  }, []);

  return { state, start, cancel };
}
