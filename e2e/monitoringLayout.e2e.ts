/**
 * The station's layouts: 100 rooms on one 1920×1080 screen in the compact density (a facility of the
 * test's own, with 100 monitored rooms, five of them streaming and raising alerts: a nurse call, no
 * breathing, high rates, a fever), with the alerts listed and the banner up, nothing covering a tile,
 * and the density remembered; on a 1024×768 tablet and a 390×844 phone, in both densities, live tiles
 * (another facility of its own, with streaming devices) keep their states and numbers whole (no
 * element wider than its box, nothing on two lines, nothing outside its tile) and the page never
 * scrolls sideways. Screenshots of each go to E2E_SCREENSHOTS (default: the system's temp folder).
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { request as playwrightRequest } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { useBrowser } from './support/browser.ts';
import { startLiveDevice, type LiveDevice } from './support/liveDevice.ts';
import { ok, registerOwnFacility, type OwnFacility } from './support/ownFacility.ts';

const baseURL = inject('baseURL');
const headers = { origin: baseURL };
const shared = useBrowser();
const SCREENSHOTS = process.env.E2E_SCREENSHOTS ?? join(tmpdir(), 'nemuri-e2e');
mkdirSync(SCREENSHOTS, { recursive: true });

/** What does not fit in the page: each finding names the element and its text. */
function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const text = (element: Element) => (element.textContent ?? '').trim().slice(0, 40);
    const tooWide = (element: Element) => element.scrollWidth > element.clientWidth + 1;
    for (const tile of document.querySelectorAll<HTMLElement>('[data-testid="room-card"]')) {
      if (tooWide(tile)) problems.push(`tile wider than its box: ${text(tile)}`);
      const box = tile.getBoundingClientRect();
      for (const part of tile.querySelectorAll<HTMLElement>(
        '[data-state], [data-state] .mantine-Badge-label, [data-testid="tile-rates"], [data-testid="tile-rates"] p, [data-testid="tile-last-update"]',
      )) {
        const rect = part.getBoundingClientRect();
        if (tooWide(part)) problems.push(`cut: ${text(part)} (${part.scrollWidth} > ${part.clientWidth})`);
        if (rect.right > box.right + 0.5 || rect.left < box.left - 0.5) problems.push(`outside its tile: ${text(part)}`);
        // On one line: a wrapped number or state would be taller than its line.
        const line = Number.parseFloat(getComputedStyle(part).lineHeight);
        if (part.matches('p') && Number.isFinite(line) && rect.height > line * 1.5) problems.push(`wrapped: ${text(part)}`);
        if (Number.parseFloat(getComputedStyle(part).fontSize) < 11) problems.push(`too small to read: ${text(part)}`);
      }
    }
    if (document.documentElement.scrollWidth > window.innerWidth)
      problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${window.innerWidth})`);
    return problems;
  });
}

describe('station layouts', () => {
  it(
    'shows 100 rooms on one 1920×1080 screen in the compact density while alerts are listed and the banner shows, and remembers it',
    { timeout: 240_000 },
    async () => {
      const tag = `lay${Date.now().toString(36)}`;
      const facility = await registerOwnFacility(shared.browser, baseURL, {
        ownerEmail: `${tag}@example.com`,
        ownerName: '施設 管理者',
        domainName: `${tag} ホーム`,
        password: DEMO_PASSWORD,
      });
      const developer = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: headers });
      // The first rooms stream and raise alerts; the others are monitored rooms whose devices say nothing yet.
      const calm = { presence: 'asleep', offline: false, apnea: false, moving: false, buttonPressed: false } as const;
      const alarming = [
        { ...calm, buttonPressed: true },
        { ...calm, apnea: true },
        { ...calm, heartRate: 140, respirationRate: 32 },
        { ...calm, bodyTemperature: 38.8 },
        { ...calm, heartRate: 40, respirationRate: 7 },
      ];
      const devices: LiveDevice[] = [];
      const indexes = Array.from({ length: 100 }, (_, index) => index);
      const serial = (index: number) => `${tag.toUpperCase()}-${String(index).padStart(3, '0')}`;
      const name = (index: number) => `${Math.floor(index / 25) + 1}${String((index % 25) + 1).padStart(2, '0')}号室`;
      try {
        await ok(developer.post('/api/auth/sign-in/email', { data: { email: 'developer@example.com', password: DEMO_PASSWORD } }));
        await ok(
          developer.post('/api/documents/commit', {
            data: {
              reads: [],
              writes: indexes.map((index) => ({
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
              writes: indexes.map((index) => ({
                op: 'set',
                path: `rooms/${tag}-${index}`,
                data: {
                  domainId: facility.domainId,
                  name: name(index),
                  residentName: `入居者 ${index + 1}`,
                  floor: `${Math.floor(index / 25) + 1}F`,
                  ...(index < alarming.length ? {} : { deviceSerial: serial(index) }),
                },
              })),
            },
            headers,
          }),
        );
        for (const [index, script] of alarming.entries()) {
          const { secret } = await ok<{ secret: string }>(
            facility.owner.request.post(`/api/devices/${serial(index)}/registration`, { data: { roomId: `${tag}-${index}` }, headers }),
          );
          devices.push(startLiveDevice(baseURL, serial(index), { secret, script }));
        }
      } finally {
        await developer.dispose();
      }

      try {
        const page = await facility.owner.newPage();
        await page.setViewportSize({ width: 1920, height: 1080 });
        await page.goto('/monitoring');
        const tiles = page.getByTestId('room-card');
        await expect.poll(() => tiles.count(), { timeout: 20_000 }).toBe(100);
        await page.getByTestId('density').getByText('コンパクト').click();
        await expect.poll(() => page.getByTestId('monitoring-grid').getAttribute('data-density')).toBe('compact');
        await page.getByText('リアルタイム更新中').waitFor({ timeout: 15_000 });
        // Several alerts listed (the nurse call and no breathing within seconds, the rates and the fever once sustained) and the banner up.
        const rows = page.getByTestId('active-alerts').locator('[data-alert]');
        await expect.poll(() => rows.count(), { timeout: 150_000, interval: 1_000 }).toBeGreaterThanOrEqual(4);
        await page.getByTestId('alert-banner').waitFor();

        // Every tile wholly on the screen, and neither the banner nor the alert column over one.
        const hidden = async () =>
          page.evaluate(() => {
            const covers = [...document.querySelectorAll<HTMLElement>('[data-testid="alert-banner"], [data-testid="station-side"]')].map((element) =>
              element.getBoundingClientRect(),
            );
            return [...document.querySelectorAll<HTMLElement>('[data-testid="room-card"]')]
              .filter((tile) => {
                const rect = tile.getBoundingClientRect();
                const outside = rect.top < 0 || rect.left < 0 || rect.bottom > window.innerHeight || rect.right > window.innerWidth;
                const covered = covers.some(
                  (cover) => cover.left < rect.right && rect.left < cover.right && cover.top < rect.bottom && rect.top < cover.bottom,
                );
                return outside || covered;
              })
              .map((tile) => tile.dataset.room);
          });
        expect(await hidden(), 'tiles below or beside the screen, or under the banner or the alerts').toEqual([]);
        expect(await layoutProblems(page)).toEqual([]);
        // The banner and the alerts are themselves on the screen.
        for (const part of ['alert-banner', 'active-alerts']) {
          const box = await page.getByTestId(part).boundingBox();
          expect(box !== null && box.y >= 0 && box.x + box.width <= 1920, part).toBe(true);
        }
        await page.screenshot({ path: join(SCREENSHOTS, 'monitoring-1920x1080-compact-100.png') });

        // Remembered in this browser.
        await page.reload();
        await expect.poll(() => tiles.count(), { timeout: 20_000 }).toBe(100);
        expect(await page.getByTestId('monitoring-grid').getAttribute('data-density')).toBe('compact');
        await page.getByTestId('alert-banner').waitFor();
        expect(await hidden()).toEqual([]);
      } finally {
        await Promise.all(devices.map((device) => device.stop()));
        await facility.owner.close();
      }
      for (const device of devices) expect(device.failures).toEqual([]);
    },
  );

  describe('on a tablet and a phone', () => {
    // A facility of its own with six rooms, four of them streaming: asleep, awake in bed (the
    // longest state name), out of bed, and three-digit rates, the widest numbers a tile shows.
    const tag = `tab${Date.now().toString(36)}`;
    const devices: LiveDevice[] = [];
    let facility: OwnFacility;
    const scripts = [
      { presence: 'asleep', offline: false },
      { presence: 'in-bed-awake', offline: false, moving: false },
      { presence: 'out-of-bed', offline: false },
      { presence: 'in-bed-awake', offline: false, heartRate: 128, respirationRate: 32 },
      null,
      null,
    ] as const;
    beforeAll(async () => {
      facility = await registerOwnFacility(shared.browser, baseURL, {
        ownerEmail: `${tag}@example.com`,
        ownerName: '施設 管理者',
        domainName: `${tag} ホーム`,
        password: DEMO_PASSWORD,
      });
      const developer = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: headers });
      try {
        await ok(developer.post('/api/auth/sign-in/email', { data: { email: 'developer@example.com', password: DEMO_PASSWORD } }));
        for (const [index, script] of scripts.entries()) {
          const serial = `${tag.toUpperCase()}-${index}`;
          const roomId = `${tag}-${index}`;
          await ok(
            developer.put(`/api/documents/devices/${serial}`, {
              data: { data: { deviceTypeId: 'nemuri-chest', domainId: facility.domainId, status: 'lent' } },
            }),
          );
          await ok(
            facility.owner.request.put(`/api/documents/rooms/${roomId}`, {
              data: { data: { domainId: facility.domainId, name: `${index + 101}号室`, residentName: `入居者 ${index + 1}`, floor: '1F' } },
              headers,
            }),
          );
          const { secret } = await ok<{ secret: string }>(facility.owner.request.post(`/api/devices/${serial}/registration`, { data: { roomId }, headers }));
          if (script !== null) devices.push(startLiveDevice(baseURL, serial, { secret, script }));
        }
      } finally {
        await developer.dispose();
      }
    });
    afterAll(async () => {
      await Promise.all(devices.map((device) => device.stop()));
      for (const device of devices) expect(device.failures).toEqual([]);
      await facility?.owner.close();
    });

    for (const viewport of [
      { width: 1024, height: 768 },
      { width: 390, height: 844 },
    ]) {
      it(`keeps states and numbers whole at ${viewport.width}×${viewport.height} in both densities`, { timeout: 60_000 }, async () => {
        const page = await facility.owner.newPage();
        try {
          await page.setViewportSize(viewport);
          await page.goto('/monitoring');
          const tiles = page.getByTestId('room-card');
          await expect.poll(() => tiles.count(), { timeout: 15_000 }).toBe(scripts.length);
          await page.getByText('リアルタイム更新中').waitFor({ timeout: 15_000 });
          // The streaming rooms in their live states, with numbers.
          const grid = page.getByTestId('monitoring-grid');
          await expect.poll(() => grid.locator('[data-state="awake"]').count(), { timeout: 40_000 }).toBeGreaterThan(0);
          await expect.poll(() => grid.getByTestId('tile-rates').filter({ hasText: /\d{3}/ }).count(), { timeout: 20_000 }).toBeGreaterThan(0);
          for (const density of ['標準', 'コンパクト']) {
            await page.getByTestId('density').getByText(density).click();
            await page.waitForTimeout(300);
            expect(await layoutProblems(page), `${density}`).toEqual([]);
            await page.screenshot({
              path: join(SCREENSHOTS, `monitoring-${viewport.width}x${viewport.height}-${density === '標準' ? 'comfortable' : 'compact'}.png`),
              fullPage: true,
            });
          }
        } finally {
          await page.close();
        }
      });
    }
  });
});
