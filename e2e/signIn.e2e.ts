import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { launchBrowser, newContext } from './support/browser.ts';

const baseURL = inject('baseURL');
// The label reads 「パスワード *」 (required); 「パスワード（確認）」 must not match.
const PASSWORD_LABEL = /^パスワード( \*)?$/;
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

async function fillAndSubmit(email: string, password: string): Promise<void> {
  await page.getByLabel('メールアドレス').fill(email);
  await page.getByLabel(PASSWORD_LABEL).fill(password);
  await page.getByRole('button', { name: 'ログイン', exact: true }).click();
}

describe('signing in with e-mail and password', () => {
  it('brings the user back to the page they asked for, with the areas of their level', async () => {
    await page.goto('/monitoring');
    await page.waitForURL('**/login?redirect=%2Fmonitoring');
    await fillAndSubmit('admin@example.com', DEMO_PASSWORD);
    await page.waitForURL((url) => url.pathname === '/monitoring');
    await page.getByRole('heading', { name: 'モニタリング' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'メインメニュー' });
    expect(await nav.getByRole('link', { name: 'ドメイン設定' }).count()).toBe(1);
    expect(await nav.getByRole('link', { name: 'マスター' }).count()).toBe(0);
  });

  it('shows the version in the account menu and signs out on the server', async () => {
    await page.goto('/login');
    await fillAndSubmit('staff@example.com', DEMO_PASSWORD);
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: /ようこそ/ }).waitFor();
    await page.getByRole('button', { name: 'アカウントメニュー' }).click();
    expect(await page.getByText('バージョン 0.8.32').isVisible()).toBe(true);
    await page.getByRole('menuitem', { name: 'ログアウト' }).click();
    await page.waitForURL('**/login');
    const me = (await (await context.request.get(`${baseURL}/api/me`)).json()) as { user: unknown };
    expect(me.user).toBeNull();
    await page.goto('/help');
    await page.waitForURL('**/login?redirect=%2Fhelp');
  });

  it('says in Japanese why a sign-in failed, without saying whether the address exists', async () => {
    await page.goto('/login');
    await fillAndSubmit('admin@example.com', 'wrong-password');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('メールアドレスまたはパスワードが正しくありません');
    await fillAndSubmit('nobody@example.com', 'wrong-password');
    await page.waitForTimeout(300);
    expect(await page.getByRole('alert').textContent()).toBe('メールアドレスまたはパスワードが正しくありません');
  });

  it('checks the form before sending it', async () => {
    await page.goto('/login');
    await fillAndSubmit('not-an-address', 'short');
    await page.getByText('メールアドレスの形式が正しくありません').waitFor();
    expect(await page.getByText('パスワードは8文字以上で入力してください').isVisible()).toBe(true);
  });

  it('lists the demo accounts and fills the form from them', async () => {
    await page.goto('/login');
    const panel = page.getByTestId('demo-accounts');
    await panel.waitFor();
    expect(await panel.getByRole('button').count()).toBe(12);
    await panel.getByRole('button', { name: 'owner@example.com でログインする' }).click();
    expect(await page.getByLabel('メールアドレス').inputValue()).toBe('owner@example.com');
    await page.getByRole('button', { name: 'ログイン', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });

  it('creates an account that starts as an individual user', async () => {
    const email = `new-${Date.now()}@example.com`;
    await page.goto('/signup');
    await page.getByLabel('お名前').fill('新規 利用者');
    await page.getByLabel('メールアドレス').fill(email);
    await page.getByLabel(PASSWORD_LABEL).fill('long-enough-password');
    await page.getByLabel('パスワード（確認）').fill('long-enough-password');
    await page.getByRole('button', { name: 'アカウントを作成' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: 'ようこそ、新規 利用者 さん' }).waitFor();
    const me = (await (await context.request.get(`${baseURL}/api/me`)).json()) as { user: { accessLevel: number; email: string } };
    expect(me.user).toMatchObject({ accessLevel: 1, email });

    await page.goto('/signup');
    await page.waitForURL((url) => url.pathname === '/');
  });
});
