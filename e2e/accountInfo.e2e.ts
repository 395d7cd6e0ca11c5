/**
 * /account-info in the browser, for a user of its own: the profile name, setting up the second
 * factor there (code computed from the secret on screen) and turning it off again, and sign-out.
 */
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newContext } from './support/browser.ts';

const baseURL = inject('baseURL');
const PASSWORD = 'account-info-password';
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  context = await newContext(browser, baseURL);
  page = await context.newPage();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

interface Me {
  user: { displayName: string | null; mfas: { kind: string }[] } | null;
}
const me = async (): Promise<Me['user']> => ((await (await context.request.get(`${baseURL}/api/me`)).json()) as Me).user;

describe('/account-info', () => {
  it('renames, sets up and turns off the second factor, and signs out', async () => {
    const email = `account-${Date.now()}@example.com`;
    const signUp = await context.request.post(`${baseURL}/api/auth/sign-up/email`, {
      data: { name: '旧 名前', email, password: PASSWORD },
      headers: { origin: baseURL },
    });
    expect(signUp.ok()).toBe(true);

    await page.goto('/account-info');
    await page.getByRole('heading', { name: 'アカウント情報' }).waitFor();
    expect(await page.getByText(email).isVisible()).toBe(true);

    const profile = page.getByRole('region', { name: 'プロフィール' });
    await profile.getByLabel('お名前').fill('新 名前');
    await profile.getByRole('button', { name: '保存' }).click();
    await profile.getByRole('status').filter({ hasText: '保存しました' }).waitFor();
    expect((await me())?.displayName).toBe('新 名前');

    const factor = page.getByRole('region', { name: '二要素認証' });
    expect(await factor.getByText('二要素認証は設定されていません。').isVisible()).toBe(true);
    await factor.getByRole('button', { name: '二要素認証を設定する' }).click();
    await factor.getByLabel(/^現在のパスワード/).fill('a-wrong-password');
    await factor.getByRole('button', { name: '認証アプリを登録する' }).click();
    await factor.getByRole('alert').filter({ hasText: 'パスワードが正しくありません' }).waitFor();
    await factor.getByLabel(/^現在のパスワード/).fill(PASSWORD);
    await factor.getByRole('button', { name: '認証アプリを登録する' }).click();
    const secret = ((await factor.getByTestId('totp-secret').textContent()) ?? '').trim();
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    await factor.getByLabel(/^確認コード/).fill(totp.generate());
    await factor.getByRole('button', { name: '確認して登録' }).click();
    await factor.getByTestId('backup-codes').waitFor();
    await factor.getByRole('button', { name: '完了' }).click();
    await factor.getByText(/認証アプリによる二要素認証が有効です/).waitFor();
    expect((await me())?.mfas).toEqual([{ kind: 'totp', enrolledAt: expect.any(String) }]);

    await factor.getByRole('button', { name: '二要素認証を無効にする' }).click();
    await factor.getByLabel(/^現在のパスワード/).fill(PASSWORD);
    await factor.getByRole('button', { name: '二要素認証を無効にする' }).click();
    await factor.getByRole('status').filter({ hasText: '二要素認証を無効にしました。' }).waitFor();
    expect((await me())?.mfas).toEqual([]);

    await page.getByRole('region', { name: 'ログアウト' }).getByRole('button', { name: 'ログアウト' }).click();
    await page.waitForURL('**/login');
    expect(await me()).toBeNull();
  });
});
