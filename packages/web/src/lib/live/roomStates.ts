/**
 * Live room states from the server's estimator (WebSocket `/api/monitoring/live`, docs/api.md
 * "Monitoring"): one socket per page shared by every component that asks, kept by the page's socket
 * rules (liveSocket.ts: back within 2 s of the server, a new socket whenever the signed-in identity
 * changes); closed when nobody listens any more.
 *
 * The server sends every second, so silence is a lost connection even while the socket still looks
 * open (a network that vanished without closing it, a sleeping laptop): after STALE_AFTER_MS without a
 * message the socket is dropped and opened again, and `connected` is false meanwhile, so that screens
 * mark what they show as old instead of presenting it as live.
 */
import { useSyncExternalStore } from 'react';
import { MONITORING_LIVE_PATH, type LiveRoomState, type MonitoringServerMessage } from '@nemuri/shared/monitoring';
import { onIdentityChange } from '../session.ts';
import { browserLiveSocket } from './browserLiveSocket.ts';
import type { LiveSocket } from './liveSocket.ts';

export interface RoomStatesSnapshot {
  /** By room id; empty until the first message. */
  rooms: ReadonlyMap<string, LiveRoomState>;
  /** Server time of the latest message (ms), null before the first. */
  at: number | null;
  /** Messages arrive: false while connecting, after a lost connection and while the browser is offline. */
  connected: boolean;
  /** Whether a message ever arrived on this page (a lost connection, not the first connect, when false). */
  wasConnected: boolean;
  /** The server's refusal (e.g. permission-denied), null when fine. */
  error: string | null;
}

const EMPTY: RoomStatesSnapshot = { rooms: new Map(), at: null, connected: false, wasConnected: false, error: null };
/** The server sends once a second: this long without a message, the connection is taken as lost. */
export const STALE_AFTER_MS = 5000;

let snapshot: RoomStatesSnapshot = EMPTY;
const listeners = new Set<() => void>();
let socket: LiveSocket | null = null;

function publish(next: RoomStatesSnapshot): void {
  snapshot = next;
  for (const listener of listeners) listener();
}

function receive(data: unknown): void {
  if (typeof data !== 'string') return;
  let message: MonitoringServerMessage;
  try {
    message = JSON.parse(data) as MonitoringServerMessage;
  } catch {
    return;
  }
  if (message.type === 'rooms')
    publish({ rooms: new Map(message.rooms.map((room) => [room.roomId, room])), at: message.at, connected: true, wasConnected: true, error: null });
  else publish({ ...snapshot, error: message.code });
}

/** Made with the first listener: the page's socket does not exist before a screen asks for it. */
function pageSocket(): LiveSocket {
  socket ??= browserLiveSocket(MONITORING_LIVE_PATH, {
    wanted: () => listeners.size > 0,
    onOpen: () => socket?.send({ type: 'subscribe-rooms' }),
    onMessage: receive,
    onDown: () => publish({ ...snapshot, connected: false }),
    staleAfterMs: STALE_AFTER_MS,
    // A refusal (e.g. permission-denied) is an answer: the server says nothing more on purpose.
    silenceIsExpected: () => snapshot.error !== null,
  });
  return socket;
}

// The socket reopens for the new session (browserLiveSocket.ts); the rooms shown were the old one's.
onIdentityChange(() => {
  if (listeners.size > 0) publish(EMPTY);
});

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  pageSocket().connect();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      socket?.close();
      snapshot = EMPTY;
    }
  };
}

/** The live states of the rooms in the user's scope, updated every second. */
export function useRoomStates(): RoomStatesSnapshot {
  return useSyncExternalStore(
    subscribe,
    () => snapshot,
    () => EMPTY,
  );
}

/**
 * One value drawn from the live states (a primitive, or a part kept as is): the component renders
 * again only when that value changes, not on every second's message. E.g. the connection alone.
 */
export function useRoomStatesSelector<T>(select: (snapshot: RoomStatesSnapshot) => T): T {
  return useSyncExternalStore(
    subscribe,
    () => select(snapshot),
    () => select(EMPTY),
  );
}
