/**
 * The page's document client: same-origin requests through the page's HTTP client (lib/http), and
 * one WebSocket to `/api/live` for every live subscription on the page (client.ts), kept by the
 * page's socket rules (lib/live). A socket acts for the session it was opened with, so it reconnects
 * whenever the signed-in identity changes (session.ts).
 */
import { LIVE_PATH } from '@nemuri/shared/documents/live';
import { liveUrlOf, openSocketInBrowser, rereadSignedInUser } from '../live/browserLiveSocket.ts';
import { onIdentityChange } from '../session.ts';
import { DocumentsClient } from './client.ts';

export function createBrowserDocumentsClient(): DocumentsClient {
  const client = new DocumentsClient({
    baseUrl: '',
    liveUrl: liveUrlOf(LIVE_PATH),
    openSocket: (url) => openSocketInBrowser(url),
    onSessionChanged: rereadSignedInUser,
  });
  // Also when connecting: that socket would act for the previous session. Without subscriptions nothing opens.
  onIdentityChange(() => client.live.reconnect());
  return client;
}

/** The page's client. Nothing connects until something subscribes. */
export const documents: DocumentsClient = createBrowserDocumentsClient();
