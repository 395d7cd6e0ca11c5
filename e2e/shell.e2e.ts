import { describe, expect, inject, it } from 'vitest';
import { useBrowserTab, watchConsole } from './support/browser.ts';

const baseURL = inject('baseURL');
const tab = useBrowserTab(baseURL);

describe('app shell as a newcomer sees it', () => {
  it('opens in Japanese and dark mode, and remembers a switch to light', async () => {
    await tab.page.goto('/login');
    await tab.page.getByRole('heading', { name: 'ログイン' }).waitFor();
    expect(await tab.page.locator('html').getAttribute('lang')).toBe('ja');
    expect(await tab.page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
    const background = await tab.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(36, 36, 36)');

    await tab.page.getByRole('button', { name: 'ライトモードに切り替え' }).click();
    expect(await tab.page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('light');
    await tab.page.reload();
    await tab.page.getByRole('heading', { name: 'ログイン' }).waitFor();
    expect(await tab.page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('light');
  });

  it('sends a signed-out user to sign-in with the way back', async () => {
    await tab.page.goto('/room/abc/history?day=2026-11-01');
    await tab.page.waitForURL('**/login?redirect=**');
    expect(new URL(tab.page.url()).searchParams.get('redirect')).toBe('/room/abc/history?day=2026-11-01');
    await tab.page.getByRole('heading', { name: 'ログイン' }).waitFor();
  });

  it('shows the not-found page with a link home', async () => {
    const response = await tab.page.goto('/this/page/does/not/exist');
    // The app's page, with an honest status (the server knows the route table).
    expect(response?.status()).toBe(404);
    await tab.page.getByText('ページが見つかりません').waitFor();
    expect(await tab.page.getByRole('link', { name: 'ホームへ戻る' }).getAttribute('href')).toBe('/');
  });

  it('shows a persistent red offline notice at the bottom and removes it when back online', async () => {
    await tab.page.goto('/login');
    await tab.page.getByRole('heading', { name: 'ログイン' }).waitFor();
    await tab.context.setOffline(true);
    const notice = tab.page.locator('.mantine-Notification-root', { hasText: 'インターネットに接続されていません' });
    await notice.waitFor();
    const container = tab.page.locator('.mantine-Notifications-root', { has: notice });
    expect(await container.getAttribute('data-position')).toMatch(/^bottom/);
    expect(await notice.getAttribute('style')).toContain('red');
    expect(await notice.locator('svg.tabler-icon-wifi-off').count()).toBe(1);
    expect(await notice.locator('button').count()).toBe(0);
    // Persistent: still there long after the default 5 s timeout.
    await tab.page.waitForTimeout(6000);
    expect(await notice.isVisible()).toBe(true);

    await tab.context.setOffline(false);
    await notice.waitFor({ state: 'detached' });
  });

  it('loads a screen chunk only when its route is opened', async () => {
    const scripts: string[] = [];
    tab.page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await tab.page.goto('/login');
    await tab.page.getByRole('heading', { name: 'ログイン' }).waitFor();
    // The sign-in screen rides in the sign-in pages' shared chunk (packages/web/vite.config.ts SIGN_IN_KIT).
    expect(scripts.some((path) => /sign-in-[\w-]+\.js$/.test(path))).toBe(true);
    expect(scripts.some((path) => /MonitoringPage-[\w-]+\.js$/.test(path))).toBe(false);
    expect(scripts.some((path) => /MasterScreen-[\w-]+\.js$/.test(path))).toBe(false);

    await tab.page.evaluate(() => {
      window.history.pushState({}, '', '/master');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await tab.page.waitForURL('**/login?redirect=%2Fmaster');
    expect(scripts.some((path) => /MasterScreen-[\w-]+\.js$/.test(path))).toBe(true);
  });

  it('starts even when the backend client cannot load, and logs why', async () => {
    const console = watchConsole(tab.page);
    await tab.page.route('**/api/me', (route) => route.abort());
    await tab.page.goto('/login');
    await tab.page.getByRole('heading', { name: 'ログイン' }).waitFor();
    expect(console.errors.some((text) => text.includes('[startup] backend client failed'))).toBe(true);
  });

  it('loads the WebAssembly parser at start-up, and starts without it when it cannot', async () => {
    const console = watchConsole(tab.page);
    const wasm = tab.page.waitForResponse((response) => /\/assets\/parser-[\w-]+\.wasm$/.test(response.url()));
    await tab.page.goto('/login');
    const response = await wasm;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/wasm');
    await tab.page.getByRole('heading', { name: 'ログイン' }).waitFor();
    await tab.page.waitForTimeout(300);
    expect(console.errors).toEqual([]);

    // A context of its own without a service worker: the first page's worker may already serve the
    // module from its cache, past the route that fails it.
    const failingContext = await tab.browser.newContext({ baseURL, locale: 'ja-JP', timezoneId: 'Asia/Tokyo', serviceWorkers: 'block' });
    try {
      const failing = await failingContext.newPage();
      const failingConsole = watchConsole(failing);
      await failing.route('**/assets/parser-*.wasm', (route) => route.abort());
      await failing.goto('/login');
      await failing.getByRole('heading', { name: 'ログイン' }).waitFor();
      await expect.poll(() => failingConsole.errors.some((text) => text.includes('[startup] parser failed')), { timeout: 10_000 }).toBe(true);
    } finally {
      await failingContext.close();
    }
  });

  it('scrolls to the top-left on navigation', async () => {
    await tab.page.setViewportSize({ width: 400, height: 300 });
    await tab.page.goto('/this/page/does/not/exist');
    await tab.page.getByText('ページが見つかりません').waitFor();
    await tab.page.evaluate(() => {
      document.body.style.minHeight = '3000px';
      document.body.style.minWidth = '3000px';
      window.scrollTo(500, 800);
    });
    expect(await tab.page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await tab.page.getByRole('link', { name: 'ホームへ戻る' }).click();
    await tab.page.waitForURL('**/login?redirect=%2F');
    expect(await tab.page.evaluate(() => [window.scrollX, window.scrollY])).toEqual([0, 0]);
  });
});
