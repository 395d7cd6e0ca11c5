/** Anonymous sign-in in the browser: from the login page's link to a signed-in level-1 user. */
import { describe, expect, inject, it } from 'vitest';
import { useBrowserTab } from './support/browser.ts';

const baseURL = inject('baseURL');
const tab = useBrowserTab(baseURL);

describe('anonymous sign-in', () => {
  it('signs in without an account as a level-1 user without a domain', async () => {
    await tab.page.goto('/login');
    await tab.page.getByRole('link', { name: '匿名でログイン' }).click();
    await tab.page.waitForURL((url) => url.pathname === '/anonymous');
    await tab.page.getByRole('button', { name: '匿名で利用を開始' }).click();
    await tab.page.waitForURL((url) => url.pathname === '/');
    await tab.page.getByRole('heading', { name: /ようこそ/ }).waitFor();

    const me = (await (await tab.context.request.get(`${baseURL}/api/me`)).json()) as { user: Record<string, unknown> };
    expect(me.user).toMatchObject({ isAnonymous: true, providerId: 'anonymous', accessLevel: 1, domainId: null, rootDomainId: null, email: null });

    // A signed-in user is sent home from the sign-in pages.
    await tab.page.goto('/anonymous');
    await tab.page.waitForURL((url) => url.pathname === '/');
  });
});
