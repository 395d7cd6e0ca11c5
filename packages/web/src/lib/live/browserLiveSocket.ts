/**
 * The page's live sockets (liveSocket.ts) with the browser's parts: the page's own host (ws: or
 * wss:), the browser's WebSocket, a re-read of `/api/me` when the server closes with
 * SESSION_CHANGED_CLOSE_CODE, and a new socket whenever the signed-in identity changes here
 * (session.ts): a socket acts for the session it was opened with.
 */
import { fetchCurrentUser, onIdentityChange, setCurrentUser } from '../session.ts';
import { LiveSocket, type LiveSocketOptions, type SocketLike } from './liveSocket.ts';

export function liveUrlOf(path: string): string {
  return `${window.location.protocol === 'https:' ? 'wss:' : 'ws:'}//${window.location.host}${path}`;
}

/** Signed out elsewhere, disabled or given another level: the page learns who it is now. */
export function rereadSignedInUser(): void {
  void fetchCurrentUser().then(setCurrentUser, () => undefined);
}

export function openSocketInBrowser(url: string, binaryType?: BinaryType): SocketLike {
  const socket = new WebSocket(url);
  if (binaryType !== undefined) socket.binaryType = binaryType;
  // The browser's WebSocket has the members SocketLike names; its event types are richer.
  return socket as unknown as SocketLike;
}

export interface BrowserLiveSocketOptions extends Omit<LiveSocketOptions, 'url' | 'openSocket' | 'onSessionChanged'> {
  /** `arraybuffer` for channels that send binary frames. */
  binaryType?: BinaryType;
}

/** A live socket to `path` on the page's host, following the signed-in identity. */
export function browserLiveSocket(path: string, { binaryType, ...options }: BrowserLiveSocketOptions): LiveSocket {
  const socket = new LiveSocket({
    ...options,
    url: liveUrlOf(path),
    openSocket: (url) => openSocketInBrowser(url, binaryType),
    onSessionChanged: rereadSignedInUser,
  });
  onIdentityChange(() => socket.reopen());
  return socket;
}
