/**
 * Live records, queries and counts for React: `useDocument(path)`, `useQuery(query)`,
 * `useCount(query)` subscribe while the component is mounted and follow every change; null as the
 * argument subscribes to nothing. The arguments are compared by their JSON, so a query written
 * inline in the render does not subscribe again on every render.
 *
 * The client is the page's (documents.ts) unless a `DocumentsProvider` above gives another.
 */
import { createContext, createElement, useContext, useEffect, useState, type ReactNode } from 'react';
import type { DocumentError } from '@nemuri/shared/documents/errors';
import type { DocumentsClient, Listener, Unsubscribe } from './client.ts';
import { documents } from './documents.ts';
import type { Chosen, QueryInput, RecordAt, RecordOfQuery } from './records.ts';

const DocumentsContext = createContext<DocumentsClient | null>(null);

export function DocumentsProvider({ client, children }: { client: DocumentsClient; children?: ReactNode }): ReactNode {
  return createElement(DocumentsContext.Provider, { value: client }, children);
}

export function useDocumentsClient(): DocumentsClient {
  return useContext(DocumentsContext) ?? documents;
}

export interface DocumentState<T> {
  /** null while loading, when there is no such record, and after an error. */
  data: T | null;
  loading: boolean;
  error: DocumentError | null;
}

export interface QueryState<T> {
  /** Empty while loading and after an error. */
  data: T[];
  loading: boolean;
  error: DocumentError | null;
}

export interface CountState {
  /** 0 while loading and after an error. */
  count: number;
  loading: boolean;
  error: DocumentError | null;
}

type Kind = 'document' | 'query' | 'count';

interface Received {
  client: DocumentsClient;
  kind: Kind;
  key: string;
  value: unknown;
  error: DocumentError | null;
}

function subscribe(client: DocumentsClient, kind: Kind, argument: unknown, listener: Listener<unknown>): Unsubscribe {
  switch (kind) {
    case 'document':
      return client.subscribeDocument(argument as string, listener);
    case 'query':
      return client.subscribeQuery(argument as QueryInput, listener);
    case 'count':
      return client.subscribeCount(argument as QueryInput, listener);
  }
}

/** The latest value of the subscription named by kind and key (JSON of its argument). */
function useLive(kind: Kind, key: string | null): { value: unknown; loading: boolean; error: DocumentError | null } {
  const client = useDocumentsClient();
  const [received, setReceived] = useState<Received | null>(null);
  useEffect(() => {
    if (key === null) return undefined;
    return subscribe(client, kind, JSON.parse(key), {
      next: (value) => setReceived({ client, kind, key, value, error: null }),
      error: (error) => setReceived({ client, kind, key, value: undefined, error }),
    });
  }, [client, kind, key]);
  if (key === null) return { value: undefined, loading: false, error: null };
  // What was received for earlier arguments is not this subscription's.
  if (received === null || received.client !== client || received.kind !== kind || received.key !== key)
    return { value: undefined, loading: true, error: null };
  return { value: received.value, loading: false, error: received.error };
}

/** The record at `path`, live; `useDocument('rooms/r1')` is typed `RecordOf<'rooms'>`. */
export function useDocument<T = never, P extends string = string>(path: P | null): DocumentState<Chosen<T, RecordAt<P>>> {
  const { value, loading, error } = useLive('document', path === null ? null : JSON.stringify(path));
  return { data: (value ?? null) as Chosen<T, RecordAt<P>> | null, loading, error };
}

/** The query's records, live. */
export function useQuery<T = never, const Q extends QueryInput = QueryInput>(query: Q | null): QueryState<Chosen<T, RecordOfQuery<Q>>> {
  const { value, loading, error } = useLive('query', query === null ? null : JSON.stringify(query));
  return { data: (value ?? []) as Chosen<T, RecordOfQuery<Q>>[], loading, error };
}

/** How many records the query matches, live. */
export function useCount(query: QueryInput | null): CountState {
  const { value, loading, error } = useLive('count', query === null ? null : JSON.stringify(query));
  return { count: typeof value === 'number' ? value : 0, loading, error };
}
