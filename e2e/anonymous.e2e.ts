/** Anonymous sign-in in the browser: from the login page's link to a signed-in level-1 user. */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newContext } from './support/browser.ts';

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

describe('anonymous sign-in', () => {
  it('signs in without an account as a level-1 user without a domain', async () => {
    await page.goto('/login');
    await page.getByRole('link', { name: '匿名でログイン' }).click();
    await page.waitForURL((url) => url.pathname === '/anonymous');
    await page.getByRole('button', { name: '匿名で利用を開始' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: /ようこそ/ }).waitFor();

    const me = (await (await context.request.get(`${baseURL}/api/me`)).json()) as { user: Record<string, unknown> };
    expect(me.user).toMatchObject({ isAnonymous: true, providerId: 'anonymous', accessLevel: 1, domainId: null, rootDomainId: null, email: null });

    // A signed-in user is sent home from the sign-in pages.
    await page.goto('/anonymous');
    await page.waitForURL((url) => url.pathname === '/');
  });
});
