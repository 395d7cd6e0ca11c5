/**
 * The nurse station as a night nurse relies on it, in a facility of the test's own (two monitored
 * rooms, an administrator who signs up and a colleague): a new alert brings a full-width banner and
 * a pulsing tile (still, for reduced motion), its row names room, resident, type, start and a ticking
 * elapsed time, and who acknowledged it when; the sound, held back by the browser, is enabled once
 * and remembered; a lost live connection greys the station out with the time of its last update and
 * everything catches up once it is back, without a reload; station mode goes full screen and asks
 * to keep the screen on.
 */
import type { APIRequestContext, BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { request as playwrightRequest } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { useBrowser } from './support/browser.ts';
import { ok, registerOwnFacility, type OwnFacility } from './support/ownFacility.ts';

const baseURL = inject('baseURL');
const headers = { origin: baseURL };
const TAG = `stn${Date.now().toString(36)}`;
const ROOMS = [
  { id: `${TAG}-1`, name: '501号室', resident: '高橋 ハナ' },
  { id: `${TAG}-2`, name: '502号室', resident: '伊藤 ジロウ' },
];

describe('the nurse station', () => {
  const shared = useBrowser();
  let facility: OwnFacility;
  let colleague: { context: BrowserContext; uid: string };
  let developer: APIRequestContext;

  beforeAll(async () => {
    facility = await registerOwnFacility(shared.browser, baseURL, {
      ownerEmail: `${TAG}@example.com`,
      ownerName: '夜勤 主任',
      domainName: `${TAG} ホーム`,
      password: DEMO_PASSWORD,
    });
    // Desktop browsers hold Web Audio back until the page gets a click or key press; headless Chromium
    // plays at once whatever its autoplay flag says. The owner's pages get the desktop policy back.
    await facility.owner.addInitScript(() => {
      const Browsers = window.AudioContext;
      window.AudioContext = class extends Browsers {
        constructor(options?: AudioContextOptions) {
          super(options);
          void super.suspend();
        }
        override resume(): Promise<void> {
          return navigator.userActivation.isActive ? super.resume() : new Promise<void>(() => undefined);
        }
      };
    });
    colleague = await facility.invite(`${TAG}-b@example.com`, 3, '早番 花子');
    developer = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: headers });
    await ok(developer.post('/api/auth/sign-in/email', { data: { email: 'developer@example.com', password: DEMO_PASSWORD } }));
    const serial = (index: number) => `${TAG.toUpperCase()}-${index}`;
    await ok(
      developer.post('/api/documents/commit', {
        data: {
          reads: [],
          writes: ROOMS.map((_, index) => ({
            op: 'set',
            path: `devices/${serial(index)}`,
            data: { deviceTypeId: 'nemuri-chest', domainId: facility.domainId, status: 'lent' },
          })),
        },
      }),
    );
    await ok(
      facility.owner.request.post('/api/documents/commit', {
        data: {
          reads: [],
          writes: ROOMS.map((room, index) => ({
            op: 'set',
            path: `rooms/${room.id}`,
            // The devices never send: on a slow run the file outlasts the domain's 5 minutes before a
            // device-offline alert, which would then be the banner's next alert. This test is about calls.
            data: {
              domainId: facility.domainId,
              name: room.name,
              residentName: room.resident,
              floor: '5F',
              deviceSerial: serial(index),
              alertSettings: { disabledTypes: ['deviceOffline'] },
            },
          })),
        },
        headers,
      }),
    );
  });

  afterAll(async () => {
    await developer?.dispose();
    await facility?.owner.close();
    await colleague?.context.close();
  });

  const raiseAlert = async (room: (typeof ROOMS)[number], type: string, startedAt = new Date()) => {
    const id = `${TAG}-alert-${type}-${startedAt.getTime()}`;
    await ok(
      facility.owner.request.put(`/api/documents/alerts/${id}`, {
        data: { data: { domainId: facility.domainId, roomId: room.id, type, startedAt: startedAt.toISOString(), endedAt: null } },
        headers,
      }),
    );
    return id;
  };

  const openStation = async (context: BrowserContext): Promise<Page> => {
    const page = await context.newPage();
    await page.goto('/monitoring');
    await expect.poll(() => page.getByTestId('room-card').count(), { timeout: 15_000 }).toBe(ROOMS.length);
    await page.getByText('リアルタイム更新中').waitFor({ timeout: 15_000 });
    return page;
  };

  it('sounds only once enabled, remembers it, and warns while the browser holds sound back', async () => {
    const page = await openStation(facility.owner);
    const warning = page.getByTestId('sound-blocked');
    await warning.getByText('アラート音が鳴らない状態です').waitFor();
    await warning.getByRole('button', { name: 'アラート音を有効にする' }).click();
    await warning.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => window.localStorage.getItem('nemuri.monitoring.soundEnabled'))).toBe('1');

    // A new page load: the browser may hold sound back again; the station says so, and any touch ends it.
    await page.reload();
    await page.getByText('リアルタイム更新中').waitFor({ timeout: 15_000 });
    if (await warning.isVisible()) {
      await warning.getByText('ブラウザーが音を止めています').waitFor();
      await page.getByRole('heading', { name: 'モニタリング' }).click();
      await warning.waitFor({ state: 'detached' });
    }

    // Muting is a choice, shown calmly and remembered.
    await page.getByTestId('mute-switch').check({ force: true });
    await page.getByTestId('sound-muted').waitFor();
    await page.reload();
    await page.getByTestId('sound-muted').waitFor({ timeout: 15_000 });
    await page.getByTestId('mute-switch').uncheck({ force: true });
    await page.getByTestId('sound-muted').waitFor({ state: 'detached' });
    await page.close();
  });

  it('brings a new alert up as a banner and a pulsing tile, with resident, elapsed time and who acknowledged it', { timeout: 60_000 }, async () => {
    const page = await openStation(facility.owner);
    const chimes = () => page.evaluate(() => (window as unknown as { __chimes?: number }).__chimes ?? 0);
    await page.evaluate(() => {
      const create = AudioContext.prototype.createOscillator;
      AudioContext.prototype.createOscillator = function (this: AudioContext) {
        const holder = window as unknown as { __chimes?: number };
        holder.__chimes = (holder.__chimes ?? 0) + 1;
        return create.call(this);
      };
    });
    // The sound was enabled in this browser before (the previous test): a first touch lets it play.
    await page.getByRole('heading', { name: 'モニタリング' }).click();
    await page.getByTestId('sound-blocked').waitFor({ state: 'detached' });

    const room = ROOMS[0]!;
    const id = await raiseAlert(room, 'button', new Date(Date.now() - 65_000));
    const banner = page.getByTestId('alert-banner');
    await banner.waitFor({ timeout: 10_000 });
    for (const text of ['ナースコール', room.name, room.resident]) await banner.getByText(text).first().waitFor();
    await banner.getByText(/^経過 1:0\d$/).waitFor();
    await expect.poll(chimes, { timeout: 5_000 }).toBeGreaterThan(0);

    // The row: room, resident, type, start, a ticking elapsed time.
    const row = page.locator(`[data-alert="${id}"]`);
    for (const text of ['ナースコール', room.name, room.resident]) await row.getByText(text).waitFor();
    await row.getByText(/^発生 \d\d:\d\d:\d\d$/).waitFor();
    const elapsed = row.getByTestId('alert-elapsed');
    const first = await elapsed.textContent();
    await expect.poll(() => elapsed.textContent(), { timeout: 5_000 }).not.toBe(first);

    // The room's tile pulses; asked for less motion, it is outlined without moving.
    const tile = page.locator(`[data-testid="room-card"][data-room="${room.id}"]`);
    await expect.poll(() => tile.getAttribute('data-alarm')).toBe('active');
    const blink = (element: Element) => getComputedStyle(element, '::after').animationName;
    expect(await tile.evaluate(blink)).not.toBe('none');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await tile.evaluate(blink)).toBe('none');
    expect(await tile.evaluate((element) => getComputedStyle(element).boxShadow)).not.toBe('none');
    expect(await banner.evaluate(blink)).toBe('none');

    // A colleague acknowledges it (the server records who and when): the row says so, the banner and the pulse go.
    await ok(colleague.context.request.patch(`/api/documents/alerts/${id}`, { data: { data: { acknowledgedBy: colleague.uid } }, headers }));
    await row.getByText(/^早番 花子が \d\d:\d\d:\d\d に確認済み$/).waitFor({ timeout: 10_000 });
    await page.locator(`[data-banner-alert="${id}"]`).waitFor({ state: 'detached' });
    await banner.waitFor({ state: 'detached' });
    await expect.poll(() => tile.getAttribute('data-alarm')).toBeNull();

    // Acknowledged from the banner by the signed-in nurse: their own name.
    const second = await raiseAlert(ROOMS[1]!, 'noBreathing');
    await banner.getByText('呼吸未検出').waitFor({ timeout: 10_000 });
    await banner.getByRole('button', { name: `${ROOMS[1]!.name}を確認` }).click();
    await page
      .locator(`[data-alert="${second}"]`)
      .getByText(/^夜勤 主任が \d\d:\d\d:\d\d に確認済み$/)
      .waitFor({ timeout: 10_000 });
    await banner.waitFor({ state: 'detached' });
    await page.close();
  });

  it('greys out with the last update while the live connection is lost and catches up when it is back', { timeout: 90_000 }, async () => {
    const page = await facility.owner.newPage();
    // Every live socket of the page goes through the test: `cut` stops all answers without closing
    // anything (as a network that went silent), new sockets then open to nowhere.
    let cut = false;
    await page.routeWebSocket(/\/api\/(monitoring\/)?live$/, (socket: WebSocketRoute) => {
      if (cut) return;
      const server = socket.connectToServer();
      socket.onMessage((message) => {
        if (!cut) server.send(message);
      });
      server.onMessage((message) => {
        if (!cut) socket.send(message);
      });
    });
    await page.goto('/monitoring');
    await expect.poll(() => page.getByTestId('room-card').count(), { timeout: 15_000 }).toBe(ROOMS.length);
    const badge = page.getByTestId('connection');
    await expect.poll(() => badge.textContent(), { timeout: 15_000 }).toBe('リアルタイム更新中');
    const tile = page.locator(`[data-testid="room-card"][data-room="${ROOMS[0]!.id}"]`);
    expect(await tile.getAttribute('data-stale')).toBe('false');

    cut = true;
    await expect.poll(() => badge.textContent(), { timeout: 10_000 }).toBe('再接続中');
    expect(await page.getByText('リアルタイム更新中').count()).toBe(0);
    expect(await tile.getAttribute('data-stale')).toBe('true');
    await tile.getByText(/^最終更新 \d\d:\d\d:\d\d$/).waitFor();
    expect(await tile.evaluate((element) => getComputedStyle(element).filter)).toContain('grayscale');
    await page
      .getByTestId('stale-notice')
      .getByText(/最終更新 \d\d:\d\d:\d\d/)
      .waitFor();

    // Meanwhile an alert opens: nothing reaches the page.
    const id = await raiseAlert(ROOMS[1]!, 'outOfBed');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await page.locator(`[data-alert="${id}"]`).count()).toBe(0);

    cut = false;
    await expect.poll(() => badge.textContent(), { timeout: 20_000 }).toBe('リアルタイム更新中');
    await expect.poll(() => tile.getAttribute('data-stale')).toBe('false');
    expect(await page.getByTestId('stale-notice').count()).toBe(0);
    await page.locator(`[data-alert="${id}"]`).getByText('離床').waitFor({ timeout: 15_000 });
    await page.getByTestId('alert-banner').getByText('離床').waitFor();
    // Acknowledged, so that no later test's station opens with this banner arriving over its tiles.
    await ok(colleague.context.request.patch(`/api/documents/alerts/${id}`, { data: { data: { acknowledgedBy: colleague.uid } }, headers }));
    await page.getByTestId('alert-banner').waitFor({ state: 'detached', timeout: 10_000 });
    await page.close();
  });

  it('opens the room from its tile, and the live waveforms one click further', async () => {
    const page = await openStation(facility.owner);
    const room = ROOMS[1]!;
    await page.locator(`[data-testid="room-card"][data-room="${room.id}"]`).click();
    await page.waitForURL(`**/room/${room.id}/sleep`);
    await page.getByTestId('room-resident').getByText(room.resident).waitFor();
    await page.getByTestId('room-live-waveforms').click();
    await page.waitForURL(`**/monitoring-room/raw-multi?roomId=${room.id}`);
    await page.close();
  });

  it('station mode goes full screen, asks to keep the screen on, and says what to do where it cannot', async () => {
    const page = await openStation(facility.owner);
    const station = page.getByTestId('station');
    await page.getByTestId('station-mode-enter').click();
    await expect.poll(() => station.getAttribute('data-station-mode')).toBe('on');
    await expect.poll(() => page.evaluate(() => document.fullscreenElement !== null)).toBe(true);
    // The station covers the app's header and menu.
    expect(await station.evaluate((element) => getComputedStyle(element).position)).toBe('fixed');
    await expect.poll(() => station.getAttribute('data-wake-lock')).not.toBe('off');
    const wakeLock = await station.getAttribute('data-wake-lock');
    if (wakeLock !== 'held')
      await page
        .getByTestId('station-mode-notice')
        .getByText(/自動ロック/)
        .waitFor();

    await page.getByTestId('station-mode-exit').click();
    await expect.poll(() => station.getAttribute('data-station-mode')).toBe('off');
    await expect.poll(() => page.evaluate(() => document.fullscreenElement === null)).toBe(true);
    expect(await station.getAttribute('data-wake-lock')).toBe('off');
    await page.close();
  });
});
