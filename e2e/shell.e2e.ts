import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newContext, watchConsole } from './support/browser.ts';

const baseURL = inject('baseURL');
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  context = await newContext(browser, baseURL);
  page = await context.newPage();
});
afterEach(async () => {
  await context.close();
});

describe('app shell as a newcomer sees it', () => {
  it('opens in Japanese and dark mode, and remembers a switch to light', async () => {
    await page.goto('/login');
    await page.getByRole('heading', { name: 'ログイン' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('ja');
    expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(36, 36, 36)');

    await page.getByRole('button', { name: 'ライトモードに切り替え' }).click();
    expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('light');
    await page.reload();
    await page.getByRole('heading', { name: 'ログイン' }).waitFor();
    expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('light');
  });

  it('sends a signed-out user to sign-in with the way back', async () => {
    await page.goto('/room/abc/history?day=2026-11-01');
    await page.waitForURL('**/login?redirect=**');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/room/abc/history?day=2026-11-01');
    await page.getByRole('heading', { name: 'ログイン' }).waitFor();
  });

  it('shows the not-found page with a link home', async () => {
    const response = await page.goto('/this/page/does/not/exist');
    expect(response?.status()).toBe(200);
    await page.getByText('ページが見つかりません').waitFor();
    expect(await page.getByRole('link', { name: 'ホームへ戻る' }).getAttribute('href')).toBe('/');
  });

  it('shows a persistent red offline notice at the bottom and removes it when back online', async () => {
    await page.goto('/login');
    await page.getByRole('heading', { name: 'ログイン' }).waitFor();
    await context.setOffline(true);
    const notice = page.locator('.mantine-Notification-root', { hasText: 'インターネットに接続されていません' });
    await notice.waitFor();
    const container = page.locator('.mantine-Notifications-root', { has: notice });
    expect(await container.getAttribute('data-position')).toMatch(/^bottom/);
    expect(await notice.getAttribute('style')).toContain('red');
    expect(await notice.locator('svg.tabler-icon-wifi-off').count()).toBe(1);
    expect(await notice.locator('button').count()).toBe(0);
    // Persistent: still there long after the default 5 s timeout.
    await page.waitForTimeout(6000);
    expect(await notice.isVisible()).toBe(true);

    await context.setOffline(false);
    await notice.waitFor({ state: 'detached' });
  });

  it('loads a screen chunk only when its route is opened', async () => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/login');
    await page.getByRole('heading', { name: 'ログイン' }).waitFor();
    expect(scripts.some((path) => /LoginScreen-[\w-]+\.js$/.test(path))).toBe(true);
    expect(scripts.some((path) => /MonitoringScreen-[\w-]+\.js$/.test(path))).toBe(false);
    expect(scripts.some((path) => /MasterScreen-[\w-]+\.js$/.test(path))).toBe(false);

    await page.evaluate(() => {
      window.history.pushState({}, '', '/master');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.waitForURL('**/login?redirect=%2Fmaster');
    expect(scripts.some((path) => /MasterScreen-[\w-]+\.js$/.test(path))).toBe(true);
  });

  it('starts even when the backend client cannot load, and logs why', async () => {
    const console = watchConsole(page);
    await page.route('**/api/me', (route) => route.abort());
    await page.goto('/login');
    await page.getByRole('heading', { name: 'ログイン' }).waitFor();
    expect(console.errors.some((text) => text.includes('[startup] backend client failed'))).toBe(true);
  });

  it('loads the WebAssembly parser at start-up, and starts without it when it cannot', async () => {
    const console = watchConsole(page);
    const wasm = page.waitForResponse((response) => /\/assets\/parser-[\w-]+\.wasm$/.test(response.url()));
    await page.goto('/login');
    const response = await wasm;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/wasm');
    await page.getByRole('heading', { name: 'ログイン' }).waitFor();
    await page.waitForTimeout(300);
    expect(console.errors).toEqual([]);

    const failing = await context.newPage();
    const failingConsole = watchConsole(failing);
    await failing.route('**/assets/parser-*.wasm', (route) => route.abort());
    await failing.goto('/login');
    await failing.getByRole('heading', { name: 'ログイン' }).waitFor();
    await expect.poll(() => failingConsole.errors.some((text) => text.includes('[startup] parser failed'))).toBe(true);
  });

  it('scrolls to the top-left on navigation', async () => {
    await page.setViewportSize({ width: 400, height: 300 });
    await page.goto('/this/page/does/not/exist');
    await page.getByText('ページが見つかりません').waitFor();
    await page.evaluate(() => {
      document.body.style.minHeight = '3000px';
      document.body.style.minWidth = '3000px';
      window.scrollTo(500, 800);
    });
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'ホームへ戻る' }).click();
    await page.waitForURL('**/login?redirect=%2F');
    expect(await page.evaluate(() => [window.scrollX, window.scrollY])).toEqual([0, 0]);
  });
});
