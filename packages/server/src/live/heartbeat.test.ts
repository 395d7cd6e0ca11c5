/**
 * The live sockets' heartbeat and session re-check (socketRuntime.ts), with short intervals (the
 * real server pings every 30 s and checks sessions every 5 s): pings keep an answering socket
 * open and cut one that stops answering, and a socket whose session has ended is closed with 4401
 * at the next check even when nothing told the runtime (the session removed behind its back).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, startTestServer, type DocumentsClient, type TestServer } from '../documents/testing.ts';
import { SESSION_ENDED } from './livePlugin.ts';
import { LiveSocket, settle } from './testing.ts';

describe('the live socket heartbeat', () => {
  let test: TestServer;
  let kept: DocumentsClient;
  let leaving: DocumentsClient;

  beforeAll(async () => {
    test = await startTestServer('pglite');
    test.server.app.live.configure({ heartbeatMs: 100, recheckMs: 200 });
    [kept, leaving] = await Promise.all([signedIn(test.server, 'senior@example.com'), signedIn(test.server, 'staff@example.com')]);
  });
  afterAll(async () => {
    await test?.stop();
  });

  it('keeps a socket that answers pings, and closes it with 4401 once its session has ended', async () => {
    const keptSocket = await LiveSocket.open(test.server.url, kept.cookieHeader);
    const leavingSocket = await LiveSocket.open(test.server.url, leaving.cookieHeader);
    keptSocket.subscribe(1, { document: 'rooms/r1' });
    expect(await keptSocket.until(1)).toEqual({ type: 'snapshot', id: 1, document: null });
    await settle(350);
    // Removed in the database, as another server process or an expiry would: only the periodic check sees it.
    await test.server.database.query('delete from "session" where "userId" = (select id from "user" where email = $1)', ['staff@example.com']);
    expect(await leavingSocket.closed).toBe(SESSION_ENDED);
    await settle(250);
    keptSocket.subscribe(2, { count: { collection: 'deviceTypes' } });
    expect(await keptSocket.until(2)).toMatchObject({ type: 'snapshot', id: 2 });
    await keptSocket.close();
  });

  it('cuts a socket that stops answering pings', async () => {
    const silent = await LiveSocket.open(test.server.url, kept.cookieHeader, { autoPong: false });
    const started = Date.now();
    // ws reports a terminated connection as 1006 (no close frame).
    expect(await silent.closed).toBe(1006);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
