import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext } from './support/browser.ts';
import { startServer, WEB_DIST, type RunningServer } from './support/server.ts';

// This file serves its own copy of the built app, so that it can publish a "new version" of the
// service worker without touching the build the other browser tests use.
let webCopy: string;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  webCopy = mkdtempSync(join(tmpdir(), 'nemuri-web-'));
  cpSync(WEB_DIST, webCopy, { recursive: true });
  server = await startServer({ env: { DATABASE_URL: 'memory://', WEB_DIST: webCopy } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(webCopy, { recursive: true, force: true });
});

async function activeWorkerScript(page: Page): Promise<string | undefined> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.active?.scriptURL;
  });
}

describe('service worker and the update notice', () => {
  it('registers /sw.js, offers 「更新」 when a new version waits, and reloads into it', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('heading', { name: 'ログイン' }).waitFor();
    expect(await activeWorkerScript(page)).toBe(`${server.url}/sw.js`);

    // Publish a new version: a single changed byte in sw.js makes the browser install a new worker.
    appendFileSync(join(webCopy, 'sw.js'), `\n// release ${Date.now()}\n`);
    await page.reload();

    const notice = page.locator('.mantine-Notification-root', { hasText: '新しいバージョンが利用可能です' });
    await notice.waitFor({ timeout: 30_000 });
    const container = page.locator('.mantine-Notifications-root', { has: notice });
    expect(await container.getAttribute('data-position')).toMatch(/^top/);
    expect(await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting))).toBe(true);

    // Persistent: it does not time out.
    await page.waitForTimeout(6000);
    expect(await notice.isVisible()).toBe(true);

    const reloaded = page.waitForEvent('load');
    await notice.getByRole('button', { name: '更新' }).click();
    await reloaded;
    await page.getByRole('heading', { name: 'ログイン' }).waitFor();
    const state = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return { waiting: Boolean(registration?.waiting), controlled: Boolean(navigator.serviceWorker.controller) };
    });
    expect(state).toEqual({ waiting: false, controlled: true });
    expect(await page.locator('.mantine-Notification-root', { hasText: '新しいバージョンが利用可能です' }).count()).toBe(0);
    await context.close();
  });

  it('names the PNG icons Android and iOS install the app with (manifest 192 and 512, apple-touch-icon), and serves them', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('heading', { name: 'ログイン' }).waitFor();
    const linked = (rel: string) => page.locator(`link[rel="${rel}"]`).getAttribute('href');
    const manifestHref = await linked('manifest');
    const appleHref = await linked('apple-touch-icon');
    expect(manifestHref).not.toBeNull();
    expect(appleHref).toBe('/apple-touch-icon.png');
    const manifest = (await (await context.request.get(`${server.url}${manifestHref ?? ''}`)).json()) as {
      icons: { src: string; sizes: string; type: string }[];
    };
    const pngs = manifest.icons.filter((icon) => icon.type === 'image/png');
    expect(pngs.map((icon) => icon.sizes).sort()).toEqual(['192x192', '512x512']);
    /** The width and height a PNG's IHDR chunk states, after checking it is served as a PNG. */
    const pngSize = async (path: string) => {
      const reply = await context.request.get(`${server.url}${path}`);
      expect(reply.status(), path).toBe(200);
      expect(reply.headers()['content-type'], path).toBe('image/png');
      const body = await reply.body();
      expect([...body.subarray(0, 8)], path).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      return `${body.readUInt32BE(16)}x${body.readUInt32BE(20)}`;
    };
    for (const icon of pngs) expect(await pngSize(icon.src)).toBe(icon.sizes);
    expect(await pngSize(appleHref ?? '')).toBe('180x180');
    await context.close();
  });
});
