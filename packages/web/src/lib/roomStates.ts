/**
 * Live room states from the server's estimator (WebSocket `/api/monitoring/live`, docs/api.md
 * "Monitoring"): one socket per page shared by every component that asks, reconnecting with backoff
 * and whenever the signed-in identity changes; closed when nobody listens any more.
 */
import { useSyncExternalStore } from 'react';
import { POLICY_CLOSE_CODE, SESSION_CHANGED_CLOSE_CODE } from '@nemuri/shared/liveSockets';
import { MONITORING_LIVE_PATH, type LiveRoomState, type MonitoringServerMessage } from '@nemuri/shared/monitoring';
import { fetchCurrentUser, onIdentityChange, setCurrentUser } from './session.ts';

export interface RoomStatesSnapshot {
  /** By room id; empty until the first message. */
  rooms: ReadonlyMap<string, LiveRoomState>;
  /** Server time of the latest message (ms), null before the first. */
  at: number | null;
  connected: boolean;
  /** The server's refusal (e.g. permission-denied), null when fine. */
  error: string | null;
}

const EMPTY: RoomStatesSnapshot = { rooms: new Map(), at: null, connected: false, error: null };
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;

let snapshot: RoomStatesSnapshot = EMPTY;
const listeners = new Set<() => void>();
let socket: WebSocket | null = null;
let retryMs = RETRY_FIRST_MS;
let retry: ReturnType<typeof setTimeout> | undefined;

function publish(next: RoomStatesSnapshot): void {
  snapshot = next;
  for (const listener of listeners) listener();
}

function connect(): void {
  if (socket !== null || listeners.size === 0) return;
  const url = `${window.location.protocol === 'https:' ? 'wss:' : 'ws:'}//${window.location.host}${MONITORING_LIVE_PATH}`;
  const opened = new WebSocket(url);
  socket = opened;
  opened.addEventListener('open', () => {
    retryMs = RETRY_FIRST_MS;
    opened.send(JSON.stringify({ type: 'subscribe-rooms' }));
    publish({ ...snapshot, connected: true });
  });
  opened.addEventListener('message', (event: MessageEvent) => {
    if (typeof event.data !== 'string') return;
    const message = JSON.parse(event.data) as MonitoringServerMessage;
    if (message.type === 'rooms') publish({ rooms: new Map(message.rooms.map((room) => [room.roomId, room])), at: message.at, connected: true, error: null });
    else publish({ ...snapshot, error: message.code });
  });
  opened.addEventListener('close', (event: CloseEvent) => {
    if (socket !== opened) return;
    socket = null;
    publish({ ...snapshot, connected: false });
    // Re-scoped by the server (signed out, disabled, level changed): learn who we are now, come back at once.
    if (event.code === SESSION_CHANGED_CLOSE_CODE) {
      retryMs = RETRY_FIRST_MS;
      void fetchCurrentUser().then(setCurrentUser, () => undefined);
    } else if (event.code === POLICY_CLOSE_CODE) retryMs = RETRY_MAX_MS;
    if (listeners.size === 0) return;
    retry = setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  });
}

function disconnect(): void {
  clearTimeout(retry);
  const closing = socket;
  socket = null;
  closing?.close();
}

onIdentityChange(() => {
  if (socket === null) return;
  // The socket acts for the session it was opened with: open one for the session as it is now.
  disconnect();
  publish(EMPTY);
  connect();
});

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  connect();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      disconnect();
      snapshot = EMPTY;
    }
  };
}

/** The live states of the rooms in the user's scope, updated every second. */
export function useRoomStates(): RoomStatesSnapshot {
  return useSyncExternalStore(subscribe, () => snapshot, () => EMPTY);
}
