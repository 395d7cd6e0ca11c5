/**
 * Signing in on another device with a QR code from /account-info: the code carries a one-time
 * token; opening it signs the same user in once, and a second use is refused.
 */
import { describe, expect, inject, it } from 'vitest';
import { newContext, useBrowserTab } from './support/browser.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
const tab = useBrowserTab(baseURL);

describe('sign-in QR code', () => {
  it('signs the user in on another device once', async () => {
    await signInByApi(tab.context, baseURL, 'staff@example.com');
    await tab.page.goto('/account-info');
    await tab.page.getByRole('button', { name: 'ログイン用QRコードを表示' }).click();
    const qr = tab.page.getByTestId('sign-in-qr');
    await qr.waitFor();
    const link = new URL((await qr.getAttribute('data-url')) ?? '');
    expect(link.pathname).toBe('/login');

    const tablet = await newContext(tab.browser, baseURL);
    try {
      const page = await tablet.newPage();
      await page.goto(`${link.pathname}${link.search}`);
      await page.waitForURL((url) => url.pathname === '/');
      const me = (await (await tablet.request.get(`${baseURL}/api/me`)).json()) as { user: { email: string } | null };
      expect(me.user?.email).toBe('staff@example.com');
    } finally {
      await tablet.close();
    }

    const late = await newContext(tab.browser, baseURL);
    try {
      const page = await late.newPage();
      await page.goto(`${link.pathname}${link.search}`);
      await page.getByRole('alert').filter({ hasText: 'リンクが無効です' }).waitFor();
    } finally {
      await late.close();
    }
  });
});
