/**
 * The live hooks with the real client (client.ts) over a stand-in socket: jsdom reaches no server,
 * so the socket plays the server's side of the protocol here. The client against a real server is
 * tested in packages/server/src/live/webClient.test.ts.
 */
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { ClientMessage, ServerMessage } from '@nemuri/shared/documents/live';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { DocumentsClient, type SocketLike } from './client.ts';
import { DocumentsProvider, useCount, useDocument, useQuery } from './hooks.ts';
import type { AnyRecord, RecordOf } from './records.ts';

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
    this.onclose?.({});
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  answer(message: ServerMessage): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  /** The id of the latest subscription to this target. */
  idOf(target: unknown): number {
    const found = this.received.filter((message) => message.type === 'subscribe' && JSON.stringify(message.target) === JSON.stringify(target)).at(-1);
    if (found === undefined) throw new Error(`no subscription to ${JSON.stringify(target)} in ${JSON.stringify(this.received)}`);
    return Number(found.id);
  }
  subscribed(): unknown[] {
    const live = new Map<string | number, unknown>();
    for (const message of this.received) {
      if (message.type === 'subscribe') live.set(message.id, message.target);
      else live.delete(message.id);
    }
    return [...live.values()];
  }
}

function setUp(): { sockets: StandInSocket[]; wrapper: (props: { children: ReactNode }) => ReactNode } {
  const sockets: StandInSocket[] = [];
  const client = new DocumentsClient({
    baseUrl: 'http://server.test',
    fetch: () => Promise.reject(new Error('no HTTP in these tests')),
    openSocket: () => {
      const socket = new StandInSocket();
      sockets.push(socket);
      return socket;
    },
  });
  return { sockets, wrapper: ({ children }) => <DocumentsProvider client={client}>{children}</DocumentsProvider> };
}

const room = (id: string, name: string) => ({
  domainId: 'd',
  name,
  documentReferenceId: id,
  documentPath: `rooms/${id}`,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('live document hooks', () => {
  it('useDocument is loading, then follows each snapshot, and unsubscribes on unmount', () => {
    const { sockets, wrapper } = setUp();
    const { result, unmount } = renderHook(() => useDocument('rooms/r1'), { wrapper });
    expect(result.current).toEqual({ data: null, loading: true, error: null });
    expect(sockets).toHaveLength(1);
    const socket = sockets[0] as StandInSocket;
    act(() => socket.open());
    const id = socket.idOf({ document: 'rooms/r1' });
    act(() => socket.answer({ type: 'snapshot', id, document: room('r1', 'one') }));
    expect(result.current).toEqual({ data: room('r1', 'one'), loading: false, error: null });
    act(() => socket.answer({ type: 'snapshot', id, document: null }));
    expect(result.current).toEqual({ data: null, loading: false, error: null });
    unmount();
    expect(socket.subscribed()).toEqual([]);
  });

  it('useQuery subscribes again when the query changes, not when it is only written again', () => {
    const { sockets, wrapper } = setUp();
    const { result, rerender } = renderHook(({ domainId }: { domainId: string }) => useQuery({ collection: 'rooms', where: [['domainId', '==', domainId]] }), {
      wrapper,
      initialProps: { domainId: 'a' },
    });
    const socket = sockets[0] as StandInSocket;
    act(() => socket.open());
    const first = socket.idOf({ query: { collection: 'rooms', where: [['domainId', '==', 'a']] } });
    act(() => socket.answer({ type: 'snapshot', id: first, documents: [room('r1', 'in a')] }));
    expect(result.current.data.map((found) => found.name)).toEqual(['in a']);
    rerender({ domainId: 'a' });
    expect(socket.received.filter((message) => message.type === 'subscribe')).toHaveLength(1);
    rerender({ domainId: 'b' });
    expect(result.current).toEqual({ data: [], loading: true, error: null });
    expect(socket.subscribed()).toEqual([{ query: { collection: 'rooms', where: [['domainId', '==', 'b']] } }]);
    const second = socket.idOf({ query: { collection: 'rooms', where: [['domainId', '==', 'b']] } });
    // A late snapshot of the old query is not shown.
    act(() => socket.answer({ type: 'snapshot', id: first, documents: [room('r9', 'late')] }));
    expect(result.current.loading).toBe(true);
    act(() => socket.answer({ type: 'snapshot', id: second, documents: [room('r2', 'in b')] }));
    expect(result.current.data.map((found) => found.name)).toEqual(['in b']);
  });

  it('useCount reports an error, and null subscribes to nothing', () => {
    const { sockets, wrapper } = setUp();
    const { result } = renderHook(() => useCount({ collection: 'rooms' }), { wrapper });
    const socket = sockets[0] as StandInSocket;
    act(() => socket.open());
    const id = socket.idOf({ count: { collection: 'rooms' } });
    act(() => socket.answer({ type: 'snapshot', id, count: 4 }));
    expect(result.current).toEqual({ count: 4, loading: false, error: null });
    act(() => socket.answer({ type: 'error', id, code: 'permission-denied', message: 'Missing or insufficient permissions.' }));
    expect(result.current).toMatchObject({ count: 0, loading: false, error: { code: 'permission-denied', message: 'Missing or insufficient permissions.' } });

    const idle = setUp();
    const nothing = renderHook(() => useDocument(null), { wrapper: idle.wrapper });
    expect(nothing.result.current).toEqual({ data: null, loading: false, error: null });
    expect(idle.sockets).toHaveLength(0);
  });

  it('subscribes again after the socket was lost', async () => {
    const { sockets, wrapper } = setUp();
    const { result } = renderHook(() => useDocument('rooms/r1'), { wrapper });
    const first = sockets[0] as StandInSocket;
    act(() => first.open());
    act(() => first.close());
    await act(() => new Promise((resolve) => setTimeout(resolve, 1000)));
    expect(sockets).toHaveLength(2);
    const second = sockets[1] as StandInSocket;
    act(() => second.open());
    const id = second.idOf({ document: 'rooms/r1' });
    act(() => second.answer({ type: 'snapshot', id, document: room('r1', 'back') }));
    expect(result.current.data?.name).toBe('back');
  });

  it('types records from the registry', () => {
    const { wrapper } = setUp();
    const typed = renderHook(() => useDocument('rooms/r1'), { wrapper }).result.current;
    expectTypeOf(typed.data).toEqualTypeOf<RecordOf<'rooms'> | null>();
    const sleeps = renderHook(() => useQuery({ collection: 'sleeps', collectionGroup: true }), { wrapper }).result.current;
    expectTypeOf(sleeps.data).toEqualTypeOf<RecordOf<'rooms/sleeps'>[]>();
    const path: string = 'rooms/r1';
    expectTypeOf(renderHook(() => useDocument(path), { wrapper }).result.current.data).toEqualTypeOf<AnyRecord | null>();
    interface Mine {
      name: string;
    }
    expectTypeOf(renderHook(() => useDocument<Mine>(path), { wrapper }).result.current.data).toEqualTypeOf<Mine | null>();
  });
});
