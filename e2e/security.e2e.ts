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
    attacker = createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>罠のページ</title><p>こんにちは</p>'),
    );
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

describe('another tenant’s data in the browser', () => {
  it('shows a nurse another facility’s room as not found, with nothing of its resident', async () => {
    await tab.context.clearCookies();
    await signInByApi(tab.context, baseURL, 'staff@example.com');
    // Facility B's room, typed into the address bar by a nurse of facility A.
    await tab.page.goto(`${baseURL}/room/demo-b-02/sleep`);
    await tab.page.getByText('部屋が見つからないか、表示する権限がありません。').first().waitFor({ timeout: 15_000 });
    expect(await tab.page.locator('body').innerText()).not.toContain('中島 武');
    // The API answers it exactly like a room that does not exist.
    const [other, none] = await Promise.all(['demo-b-02', 'no-such-room'].map((id) => tab.context.request.get(`${baseURL}/api/documents/rooms/${id}`)));
    expect([other?.status(), none?.status()]).toEqual([404, 404]);
  });

  it('shows an agency its partners’ rooms without residents’ names or vitals', async () => {
    await tab.context.clearCookies();
    await signInByApi(tab.context, baseURL, 'agency@example.com');
    const answer = await tab.context.request.get(`${baseURL}/api/documents/rooms/demo-a-101`);
    expect(answer.status()).toBe(200);
    const room = ((await answer.json()) as { document: Record<string, unknown> }).document;
    expect(room.name).toBe('101号室');
    expect(room).not.toHaveProperty('residentName');
    expect(room).not.toHaveProperty('residentNote');
    const states = (await (await tab.context.request.get(`${baseURL}/api/monitoring/rooms`)).json()) as {
      rooms: { roomId: string; heartRate: number | null; respirationRate: number | null }[];
    };
    expect(states.rooms.length).toBeGreaterThan(0);
    expect(states.rooms.filter((state) => state.heartRate !== null || state.respirationRate !== null)).toEqual([]);
    await tab.page.goto(`${baseURL}/monitoring`);
    await expect.poll(() => tab.page.getByTestId('room-card').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const text = await tab.page.locator('body').innerText();
    for (const resident of ['佐々木 トシ', '石川 正男', '中島 武']) expect(text).not.toContain(resident);
  });
});
