import { describe, expect, inject, it } from 'vitest';
import { newContext, useBrowser } from './support/browser.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
const shared = useBrowser();

describe('interface language', () => {
  it('is Japanese by default, switches to English from the account menu, and remembers it', async () => {
    const context = await newContext(shared.browser, baseURL);
    const page = await context.newPage();
    await signInByApi(context, baseURL, 'staff@example.com');
    await page.goto('/help');
    await page.getByRole('heading', { name: 'ヘルプ' }).waitFor();

    await page.getByRole('button', { name: 'アカウントメニュー' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Help' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    expect(await nav.getByRole('link', { name: 'Reports' }).count()).toBe(1);

    await page.reload();
    await page.getByRole('heading', { name: 'Help' }).waitFor();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: '日本語' }).click();
    await page.getByRole('heading', { name: 'ヘルプ' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('ja');
    await context.close();
  });
});
