/**
 * Lists that may hold more records than one engine page (1,000): never shown or counted from a
 * capped read. `useLivePages` shows one keyset page at a time, live, for a `CursorPager`;
 * `useEveryRecord` reads the whole list page after page, for screens that search or join across
 * all of it (a developer's domain list). Counts belong to the server: `useCount`.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { DocumentError } from '@nemuri/shared/documents/errors';
import { MAX_PAGE_SIZE, type Query } from '@nemuri/shared/documents/query';
import type { CursorPage, CursorPagesState } from '../cursorPages.ts';
import { useDocumentsClient, useQuery, type QueryState } from './hooks.ts';

/** A list query without its window: the hooks below set limit and start. */
export type ListQuery = Omit<Query, 'limit' | 'limitToLast' | 'startAfter'>;

type Listed = { documentPath: string };

export interface LivePage<T> extends CursorPage {
  records: T[];
}

/**
 * One page of the query at a time, live: the next page starts after the last record shown (its
 * path), so pages neither repeat nor skip; one record more than the page tells whether another follows.
 */
export function useLivePages<T extends Listed>(query: ListQuery, pageSize: number): CursorPagesState<LivePage<T>> & { error: DocumentError | null } {
  const key = JSON.stringify(query);
  const [paging, setPaging] = useState<{ key: string; cursors: (string | null)[] }>({ key, cursors: [null] });
  const cursors = useMemo(() => (paging.key === key ? paging.cursors : [null]), [paging, key]);
  const cursor = cursors.at(-1) ?? null;
  const live = useQuery<T>({ ...query, limit: pageSize + 1, ...(cursor === null ? {} : { startAfter: { document: cursor } }) });
  // `Chosen<T, …>` is T for an explicit T; TypeScript cannot see that while T is still generic.
  const records = live.data.slice(0, pageSize) as T[];
  const nextCursor = live.data.length > pageSize ? (records.at(-1)?.documentPath ?? null) : null;
  const next = useCallback(() => {
    if (nextCursor !== null) setPaging({ key, cursors: [...cursors, nextCursor] });
  }, [key, cursors, nextCursor]);
  const previous = useCallback(() => setPaging({ key, cursors: cursors.length > 1 ? cursors.slice(0, -1) : cursors }), [key, cursors]);
  // Live: every change arrives by itself, nothing to reload.
  const reload = useCallback(() => undefined, []);
  return {
    page: live.loading || live.error !== null ? null : { records, nextCursor },
    loading: live.loading,
    error: live.error,
    pageIndex: cursors.length - 1,
    hasNext: nextCursor !== null,
    next,
    previous,
    reload,
  };
}

function asDocumentError(error: unknown): DocumentError {
  return error instanceof DocumentError ? error : new DocumentError('unimplemented', error instanceof Error ? error.message : String(error));
}

/** Every record the query matches, read a full engine page at a time; `reload` reads again. */
export function useEveryRecord<T extends Listed>(query: ListQuery | null): QueryState<T> & { reload: () => void } {
  const client = useDocumentsClient();
  const key = query === null ? null : JSON.stringify(query);
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<{ request: string; data: T[]; error: DocumentError | null } | null>(null);
  const request = `${key ?? ''} ${attempt}`;
  useEffect(() => {
    if (key === null) return undefined;
    let current = true;
    const readAll = async () => {
      const all: T[] = [];
      let after: string | null = null;
      for (;;) {
        // As in useLivePages: `Chosen<T, …>` is T here.
        const page = (await client.query<T>({
          ...(JSON.parse(key) as ListQuery),
          limit: MAX_PAGE_SIZE,
          ...(after === null ? {} : { startAfter: { document: after } }),
        })) as T[];
        all.push(...page);
        const last = page.at(-1);
        if (page.length < MAX_PAGE_SIZE || last === undefined || !current) return all;
        after = last.documentPath;
      }
    };
    readAll().then(
      (data) => current && setState({ request, data, error: null }),
      (error: unknown) => current && setState({ request, data: [], error: asDocumentError(error) }),
    );
    return () => {
      current = false;
    };
  }, [client, key, request]);
  const reload = useCallback(() => setAttempt((count) => count + 1), []);
  if (key === null) return { data: [], loading: false, error: null, reload };
  if (state?.request !== request) return { data: [], loading: true, error: null, reload };
  return { data: state.data, loading: false, error: state.error, reload };
}

interface LiveChainPage<T> {
  after: string | null;
  /** The page's latest snapshot; null until the first one arrives. */
  records: T[] | null;
  stop: () => void;
}

/**
 * Every record the query matches, live, for lists that are edited on screen and searched or
 * looked up by id across all of it (device types, parameters, release notes). Each full engine
 * page subscribes the next one after its last record; when a page changes, the pages after it
 * follow its new last record, so an insert or delete anywhere shows without a reload.
 */
export function useEveryLiveRecord<T extends Listed>(query: ListQuery | null): QueryState<T> {
  const client = useDocumentsClient();
  const key = query === null ? null : JSON.stringify(query);
  const [state, setState] = useState<{ key: string; data: T[]; loading: boolean; error: DocumentError | null } | null>(null);
  useEffect(() => {
    if (key === null) return undefined;
    const base = JSON.parse(key) as ListQuery;
    const pages: LiveChainPage<T>[] = [];
    let stopped = false;
    const closeFrom = (index: number) => {
      for (const page of pages.splice(index)) page.stop();
    };
    let complete = false;
    const publish = () => {
      if (stopped) return;
      const waiting = pages.some((page) => page.records === null);
      // While the pages after a changed one re-subscribe, the last whole list stays on screen.
      if (waiting && complete) return;
      complete = !waiting;
      setState({ key, data: waiting ? [] : pages.flatMap((page) => page.records ?? []), loading: waiting, error: null });
    };
    const open = (index: number, after: string | null) => {
      const page: LiveChainPage<T> = { after, records: null, stop: () => undefined };
      pages[index] = page;
      const window = { limit: MAX_PAGE_SIZE, ...(after === null ? {} : { startAfter: { document: after } }) };
      page.stop = client.subscribeQuery<T>(
        { ...base, ...window },
        {
          next: (records) => {
            // A snapshot of a page since replaced by one with another cursor is stale.
            if (stopped || pages[index] !== page) return;
            // As in useLivePages: `Chosen<T, …>` is T here.
            page.records = records as T[];
            const last = records.length >= MAX_PAGE_SIZE ? ((records.at(-1) as T | undefined)?.documentPath ?? null) : null;
            if (last === null) closeFrom(index + 1);
            else if (pages[index + 1]?.after !== last) {
              closeFrom(index + 1);
              open(index + 1, last);
            }
            publish();
          },
          error: (error) => {
            if (!stopped) setState({ key, data: [], loading: false, error: asDocumentError(error) });
          },
        },
      );
    };
    open(0, null);
    return () => {
      stopped = true;
      closeFrom(0);
    };
  }, [client, key]);
  if (key === null) return { data: [], loading: false, error: null };
  if (state?.key !== key) return { data: [], loading: true, error: null };
  return { data: state.data, loading: state.loading, error: state.error };
}
