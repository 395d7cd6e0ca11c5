/**
 * Cross-site WebSocket hijacking, as a real browser would attempt it (docs/security.md, "Live
 * sockets"): a signed-in user visits a page of another origin, which opens the server's live
 * sockets. The page is on 127.0.0.1 too, on another port: another origin but the same site, so the
 * browser does send the victim's SameSite=Lax cookie, and only the server's Origin check stands
 * between the page and the victim's live data.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useBrowserTab } from './support/browser.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
const tab = useBrowserTab(baseURL);
const PATHS = ['/api/live', '/api/signals/live', '/api/monitoring/live'];

/** Opens each socket from the page and tells how each ended: 'open', or 'closed <code>' before opening. */
function tryLiveSockets(wsBase: string): Promise<string[]> {
  return tab.page.evaluate(
    ({ wsBase, paths }) =>
      Promise.all(
        paths.map(
          (path) =>
            new Promise<string>((resolve) => {
              const socket = new WebSocket(`${wsBase}${path}`);
              socket.onopen = () => {
                resolve('open');
                socket.close();
              };
              socket.onclose = (event) => resolve(`closed ${event.code}`);
            }),
        ),
      ),
    { wsBase, paths: PATHS },
  );
}

describe('live sockets from another site', () => {
  let attacker: Server;
  let attackerUrl: string;

  beforeAll(async () => {
    attacker = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>罠のページ</title><p>こんにちは</p>'));
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => attacker.close(() => resolve()));
  });

  it('refuses the signed-in victim’s sockets opened by a page of another origin, and accepts the server’s own pages', async () => {
    await signInByApi(tab.context, baseURL, 'staff@example.com');
    const wsBase = baseURL.replace(/^http/, 'ws');

    await tab.page.goto(attackerUrl);
    // The cookie would go along: same site (cookies do not tell ports apart).
    const cookies = await tab.context.cookies(baseURL);
    expect(cookies.some((cookie) => cookie.name.includes('session_token') && cookie.sameSite === 'Lax')).toBe(true);
    // A refused handshake: the page sees only a close without a code of the server's (1006).
    expect(await tryLiveSockets(wsBase)).toEqual(['closed 1006', 'closed 1006', 'closed 1006']);

    await tab.page.goto(`${baseURL}/login`);
    expect(await tryLiveSockets(wsBase)).toEqual(['open', 'open', 'open']);
  });
});
