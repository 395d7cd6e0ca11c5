/**
 * A page's live socket comes back within 2 s of the server (issue 25): the web app's document client
 * (the real code, with the reconnection policy every live socket of the page shares, reconnect.ts)
 * against a real server that stops, stays away long enough for the waits to reach their cap, and
 * starts again on the same port and data.
 */
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DocumentsClient, type SocketLike } from '../../../web/src/lib/documents/client.ts';
import { LIVE_RECONNECT } from '../../../web/src/lib/live/reconnect.ts';
import { eventually } from '../ingest/faultTesting.ts';
import { signedInClient, startIngestServer, type IngestTestServer } from '../ingest/testing.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';
import { freePort } from '../testing/freePort.ts';

describe('a live socket after a server restart', () => {
  let dir: TempDir;
  let base: IngestTestServer | undefined;
  afterAll(async () => {
    await base?.stop();
    await dir?.remove();
  });

  it('is open again within 2 s of the server being back, after an outage longer than the longest wait', { timeout: 300_000 }, async () => {
    dir = await makeTempDir('nemuri-reconnect-');
    const env = { PORT: String(await freePort()), DATABASE_URL: '' };
    base = await startIngestServer(env, dir.path);
    const browser = await signedInClient(base.server, 'staff@example.com');
    const cookie = browser.cookieHeader;
    const client = new DocumentsClient({
      baseUrl: base.server.url,
      fetch: (url, init) => fetch(url, { method: init.method, headers: { ...init.headers, cookie } }),
      openSocket: (url) => new WebSocket(url, { headers: { cookie } }) as unknown as SocketLike,
    });
    try {
      const stop = client.subscribeQuery({ collection: 'rooms' }, { next: () => undefined, error: () => undefined });
      await eventually(() => client.live.connected || undefined, 'the socket open');
      await base.stop();
      base = undefined;
      await eventually(() => !client.live.connected || undefined, 'the socket closed');
      // Long enough for several failed attempts: the waits reach their cap.
      await new Promise((resolve) => setTimeout(resolve, LIVE_RECONNECT.maxMs * 3));
      base = await startIngestServer(env, dir.path);
      const backAt = Date.now();
      await eventually(() => client.live.connected || undefined, 'the socket open again', 5000, 10);
      const reconnectMs = Date.now() - backAt;
      console.log(`live socket reconnected ${reconnectMs} ms after the server was back`);
      expect(reconnectMs).toBeLessThan(2000);
      stop();
    } finally {
      client.live.close();
    }
  });
});
