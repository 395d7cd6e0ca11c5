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
});
