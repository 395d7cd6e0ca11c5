/**
 * One page of a keyset-paged list at a time (the alert history, the audit log, …): `next` follows
 * the server's cursor, `previous` goes back through the cursors seen (keyset paging keeps each page
 * cheap however far back). A change of filter starts again at the first page. While the next page
 * loads, the last one shown stays (the screen dims it).
 */
import { useCallback, useEffect, useMemo, useState } from 'react';

export interface CursorPage {
  /** Give as `cursor` for the next page; null on the last. */
  nextCursor: string | null;
}

/** `limit=…&cursor=…` of a keyset page, as the server's list endpoints read it. */
export function cursorPageQuery(limit: number, cursor: string | null): string {
  const params = new URLSearchParams({ limit: String(limit) });
  if (cursor !== null) params.set('cursor', cursor);
  return params.toString();
}

export interface CursorPagesState<P extends CursorPage> {
  page: P | null;
  loading: boolean;
  error: Error | null;
  /** 0 for the first page. */
  pageIndex: number;
  hasNext: boolean;
  next(): void;
  previous(): void;
  reload(): void;
}

/**
 * `fetchPage` should be a stable function (module level): the filter, by its JSON, is what starts
 * a new request; the filter is handed back parsed from that JSON.
 */
export function useCursorPages<F, P extends CursorPage>(
  filter: F,
  pageSize: number,
  fetchPage: (filter: F, limit: number, cursor: string | null) => Promise<P>,
): CursorPagesState<P> {
  const key = JSON.stringify(filter);
  // The cursors that start each page seen ([null, cursor of page 2, …]), for the filter they belong to.
  const [paging, setPaging] = useState<{ key: string; cursors: (string | null)[] }>({ key, cursors: [null] });
  const cursors = useMemo(() => (paging.key === key ? paging.cursors : [null]), [paging, key]);
  const cursor = cursors.at(-1) ?? null;
  const [attempt, setAttempt] = useState(0);
  const request = `${key} ${cursor ?? ''} ${pageSize} ${attempt}`;
  // The answer to the latest request made; a request whose answer is not in yet is loading.
  const [result, setResult] = useState<{ request: string; page: P | null; error: Error | null } | null>(null);
  const [shown, setShown] = useState<P | null>(null);

  useEffect(() => {
    let current = true;
    fetchPage(JSON.parse(key) as F, pageSize, cursor).then(
      (page) => {
        if (!current) return;
        setResult({ request, page, error: null });
        setShown(page);
      },
      (failure: unknown) => {
        if (current) setResult({ request, page: null, error: failure instanceof Error ? failure : new Error(String(failure)) });
      },
    );
    return () => {
      current = false;
    };
  }, [key, cursor, pageSize, request, fetchPage]);

  const loading = result?.request !== request;
  const error = loading ? null : (result?.error ?? null);
  const nextCursor = loading ? null : (result?.page?.nextCursor ?? null);
  const next = useCallback(() => {
    if (nextCursor !== null) setPaging({ key, cursors: [...cursors, nextCursor] });
  }, [key, cursors, nextCursor]);
  const previous = useCallback(() => setPaging({ key, cursors: cursors.length > 1 ? cursors.slice(0, -1) : cursors }), [key, cursors]);
  const reload = useCallback(() => setAttempt((count) => count + 1), []);

  return { page: shown, loading, error, pageIndex: cursors.length - 1, hasNext: nextCursor !== null, next, previous, reload };
}
