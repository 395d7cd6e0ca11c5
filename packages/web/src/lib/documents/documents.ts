/**
 * The page's document client: same-origin requests with the session cookie, and one WebSocket to
 * `/api/live` for every live subscription on the page (client.ts). A socket acts for the session
 * it was opened with, so it reconnects whenever the signed-in identity changes (session.ts).
 */
import { LIVE_PATH } from '@nemuri/shared/documents/live';
import { fetchCurrentUser, onIdentityChange, setCurrentUser } from '../session.ts';
import { DocumentsClient, type SocketLike } from './client.ts';

function liveUrl(): string {
  return `${window.location.protocol === 'https:' ? 'wss:' : 'ws:'}//${window.location.host}${LIVE_PATH}`;
}

export function createBrowserDocumentsClient(): DocumentsClient {
  const client = new DocumentsClient({
    baseUrl: '',
    liveUrl: liveUrl(),
    fetch: (url, init) => window.fetch(url, init),
    // The browser's WebSocket has the members SocketLike names; its event types are richer.
    openSocket: (url) => new WebSocket(url) as unknown as SocketLike,
    // Signed out elsewhere, disabled or given another level: the page learns who it is now.
    onSessionChanged: () => void fetchCurrentUser().then(setCurrentUser, () => undefined),
  });
  // Also when connecting: that socket would act for the previous session. Without subscriptions nothing opens.
  onIdentityChange(() => client.live.reconnect());
  // Back online: try at once instead of waiting out the reconnect delay.
  window.addEventListener('online', () => {
    if (!client.live.connected) client.live.reconnect();
  });
  return client;
}

/** The page's client. Nothing connects until something subscribes. */
export const documents: DocumentsClient = createBrowserDocumentsClient();
