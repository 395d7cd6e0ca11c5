/**
 * Lists longer than one engine page: `useLivePages` asks for one record more than the page and
 * starts the next page after the last record shown; `useEveryRecord` reads page after page until a
 * short page, so nothing past the first 1,000 is dropped. The client is the real one over a
 * stand-in socket and a stand-in server for HTTP (jsdom reaches no server).
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { ClientMessage, ServerMessage } from '@nemuri/shared/documents/live';
import { MAX_PAGE_SIZE } from '@nemuri/shared/documents/query';
import { describe, expect, it } from 'vitest';
import type { FetchInit } from '../http/httpClient.ts';
import { DocumentsClient, type SocketLike } from './client.ts';
import { DocumentsProvider } from './hooks.ts';
import { useEveryLiveRecord, useEveryRecord, useLivePages, type ListQuery } from './pagedHooks.ts';

class StandInSocket implements SocketLike {
  readyState = 0;
  readonly received: ClientMessage[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  send(data: string): void {
    this.received.push(JSON.parse(data) as ClientMessage);
  }
  close(): void {
    this.readyState = 3;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  answer(message: ServerMessage): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  /** The latest subscription: its id and target. */
  latest(): { id: number; target: unknown } {
    const found = this.received.filter((message) => message.type === 'subscribe').at(-1);
    if (found?.type !== 'subscribe') throw new Error('no subscription');
    return { id: Number(found.id), target: found.target };
  }
}

const device = (index: number) => {
  const id = `NM-${String(index).padStart(5, '0')}`;
  return { documentReferenceId: id, documentPath: `devices/${id}`, deviceTypeId: 't', status: 'stock' };
};
const ALL_DEVICES = Array.from({ length: 2 * MAX_PAGE_SIZE + 345 }, (_, index) => device(index));

/** The engine's answer to a devices query: by path, after `startAfter`, at most `limit`. */
function serveQuery(init: FetchInit): { documents: unknown[] } {
  const { query } = JSON.parse(init.body ?? '{}') as { query: { limit: number; startAfter?: { document: string } } };
  const after = query.startAfter?.document;
  const start = after === undefined ? 0 : ALL_DEVICES.findIndex((record) => record.documentPath === after) + 1;
  return { documents: ALL_DEVICES.slice(start, start + query.limit) };
}

function setUp() {
  const sockets: StandInSocket[] = [];
  const asked: FetchInit[] = [];
  const client = new DocumentsClient({
    baseUrl: 'http://server.test',
    fetch: (_url, init) => {
      asked.push(init);
      return Promise.resolve({ status: 200, text: () => Promise.resolve(JSON.stringify(serveQuery(init))) });
    },
    openSocket: () => {
      const socket = new StandInSocket();
      sockets.push(socket);
      return socket;
    },
  });
  const wrapper = ({ children }: { children: ReactNode }) => <DocumentsProvider client={client}>{children}</DocumentsProvider>;
  return { sockets, asked, wrapper };
}

describe('paged document hooks', () => {
  it('useLivePages shows a page, knows another follows, and starts the next after the last record shown', () => {
    const { sockets, wrapper } = setUp();
    const query: ListQuery = { collection: 'devices', where: [['deviceTypeId', '==', 't']] };
    const { result } = renderHook(() => useLivePages<ReturnType<typeof device>>(query, 3), { wrapper });
    const socket = sockets[0] as StandInSocket;
    act(() => socket.open());
    const first = socket.latest();
    expect(first.target).toEqual({ query: { ...query, limit: 4 } });
    act(() => socket.answer({ type: 'snapshot', id: first.id, documents: ALL_DEVICES.slice(0, 4) }));
    expect(result.current.page?.records.map((record) => record.documentReferenceId)).toEqual(['NM-00000', 'NM-00001', 'NM-00002']);
    expect(result.current).toMatchObject({ hasNext: true, pageIndex: 0 });

    act(() => result.current.next());
    const second = socket.latest();
    expect(second.target).toEqual({ query: { ...query, limit: 4, startAfter: { document: 'devices/NM-00002' } } });
    act(() => socket.answer({ type: 'snapshot', id: second.id, documents: ALL_DEVICES.slice(3, 5) }));
    expect(result.current.page?.records.map((record) => record.documentReferenceId)).toEqual(['NM-00003', 'NM-00004']);
    expect(result.current).toMatchObject({ hasNext: false, pageIndex: 1 });

    act(() => result.current.previous());
    expect(result.current.pageIndex).toBe(0);
  });

  it('useEveryRecord reads past the engine’s page limit, each record once', async () => {
    const { asked, wrapper } = setUp();
    const { result } = renderHook(() => useEveryRecord<ReturnType<typeof device>>({ collection: 'devices' }), { wrapper });
    expect(result.current.loading).toBe(true);
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.error).toBeNull();
    expect(result.current.data.map((record) => record.documentPath)).toEqual(ALL_DEVICES.map((record) => record.documentPath));
    expect(asked).toHaveLength(3);
  });

  it('useEveryLiveRecord follows every page live and re-chains the pages after a changed one', () => {
    const { sockets, wrapper } = setUp();
    const { result } = renderHook(() => useEveryLiveRecord<ReturnType<typeof device>>({ collection: 'devices' }), { wrapper });
    const socket = sockets[0] as StandInSocket;
    act(() => socket.open());
    const answerLatest = (records: ReturnType<typeof device>[]) => {
      const { id } = socket.latest();
      act(() => socket.answer({ type: 'snapshot', id, documents: records }));
    };
    const first = socket.latest();
    expect(first.target).toEqual({ query: { collection: 'devices', limit: MAX_PAGE_SIZE } });
    answerLatest(ALL_DEVICES.slice(0, MAX_PAGE_SIZE));
    // A full first page: the second is asked for, and nothing is shown until the chain ends.
    expect(result.current.loading).toBe(true);
    expect(socket.latest().target).toEqual({ query: { collection: 'devices', limit: MAX_PAGE_SIZE, startAfter: { document: `devices/NM-00999` } } });
    answerLatest(ALL_DEVICES.slice(MAX_PAGE_SIZE, 2 * MAX_PAGE_SIZE));
    answerLatest(ALL_DEVICES.slice(2 * MAX_PAGE_SIZE));
    expect(result.current.loading).toBe(false);
    expect(result.current.data.map((record) => record.documentPath)).toEqual(ALL_DEVICES.map((record) => record.documentPath));

    // A record deleted from the first page: the first page now ends one later, the rest follow it.
    const withoutFirst = ALL_DEVICES.slice(1);
    const subscriptions = socket.received.filter((message) => message.type === 'subscribe').length;
    act(() => socket.answer({ type: 'snapshot', id: first.id, documents: withoutFirst.slice(0, MAX_PAGE_SIZE) }));
    expect(socket.received.filter((message) => message.type === 'subscribe')).toHaveLength(subscriptions + 1);
    expect(socket.latest().target).toEqual({ query: { collection: 'devices', limit: MAX_PAGE_SIZE, startAfter: { document: `devices/NM-01000` } } });
    // Meanwhile the last whole list stays shown rather than blanking.
    expect(result.current.loading).toBe(false);
    expect(result.current.data).toHaveLength(ALL_DEVICES.length);
    answerLatest(withoutFirst.slice(MAX_PAGE_SIZE, 2 * MAX_PAGE_SIZE));
    answerLatest(withoutFirst.slice(2 * MAX_PAGE_SIZE));
    expect(result.current.data.map((record) => record.documentPath)).toEqual(withoutFirst.map((record) => record.documentPath));
  });
});
