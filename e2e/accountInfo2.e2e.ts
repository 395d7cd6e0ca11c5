/**
 * /account-info beyond the basics (accountInfo.e2e.ts has name, second factor and sign-out), for
 * users of their own made by sign-up: name and phone kept across a reload, a photo, changing the
 * password (the old one stops working, other devices are signed out), the list of signed-in
 * devices with signing out one of them and all the others, and language and theme.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newContext } from './support/browser.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
const PASSWORD = 'account-two-password';
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let browser: Browser;
const opened: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  for (const context of opened) await context.close();
  await browser?.close();
});

async function freshContext(): Promise<BrowserContext> {
  const context = await newContext(browser, baseURL);
  opened.push(context);
  return context;
}

/** A new user signed up in a new browser profile, with the account page open. */
async function signedUpUser(name: string): Promise<{ email: string; context: BrowserContext; page: Page }> {
  const email = `account2-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const context = await freshContext();
  const signUp = await context.request.post(`${baseURL}/api/auth/sign-up/email`, { data: { name, email, password: PASSWORD }, headers: { origin: baseURL } });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  const page = await context.newPage();
  await page.goto('/account-info');
  await page.getByRole('heading', { name: 'アカウント情報' }).waitFor();
  return { email, context, page };
}

/** The same user in another browser (a tablet at the nurse station). */
async function elsewhere(email: string, password = PASSWORD): Promise<BrowserContext> {
  const context = await freshContext();
  await signInByApi(context, baseURL, email, password);
  return context;
}

interface MeUser {
  displayName: string | null;
  photoURL: string | null;
}
const me = async (context: BrowserContext): Promise<MeUser | null> =>
  ((await (await context.request.get(`${baseURL}/api/me`)).json()) as { user: MeUser | null }).user;

const signInAnswers = async (email: string, password: string): Promise<number> => {
  const context = await freshContext();
  const response = await context.request.post(`${baseURL}/api/auth/sign-in/email`, { data: { email, password }, headers: { origin: baseURL } });
  return response.status();
};

describe('/account-info, the rest of it', () => {
  it('keeps the name and phone number across a reload, refuses a wrong number in Japanese, and takes a photo', async () => {
    const { context, page } = await signedUpUser('名前 前');
    const profile = page.getByRole('region', { name: 'プロフィール' });
    await profile.getByLabel('お名前').fill('名前 後');
    await profile.getByLabel('電話番号').fill('090-12');
    await profile.getByRole('button', { name: '保存' }).click();
    await profile.getByText('電話番号の形式が正しくありません').waitFor();

    await profile.getByLabel('電話番号').fill('+81 90 1234 5678');
    await profile.getByRole('button', { name: '保存' }).click();
    await profile.getByRole('status').filter({ hasText: '保存しました' }).waitFor();
    expect(await profile.getByLabel('電話番号').inputValue()).toBe('090-1234-5678');

    await page.reload();
    await page.getByRole('heading', { name: 'アカウント情報' }).waitFor();
    const reloaded = page.getByRole('region', { name: 'プロフィール' });
    await expect.poll(() => reloaded.getByLabel('電話番号').inputValue()).toBe('090-1234-5678');
    expect(await reloaded.getByLabel('お名前').inputValue()).toBe('名前 後');
    expect((await me(context))?.displayName).toBe('名前 後');

    await reloaded.locator('input[type="file"]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    await expect.poll(async () => (await me(context))?.photoURL ?? null).toMatch(/^\/api\/account\/photos\//);
    await expect.poll(() => reloaded.getByTestId('account-photo').locator('img').getAttribute('src')).toMatch(/^\/api\/account\/photos\//);
    await reloaded.locator('input[type="file"]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await reloaded.getByRole('alert').filter({ hasText: 'PNG・JPEG・WebP の画像を選んでください' }).waitFor();
    await reloaded.getByRole('button', { name: '写真を削除' }).click();
    await expect.poll(async () => (await me(context))?.photoURL ?? null).toBeNull();
  });

  it('changes the password: the old one stops working, the new one works, other devices are signed out', async () => {
    const { email, context, page } = await signedUpUser('パスワード 変更');
    const tablet = await elsewhere(email);
    expect(await me(tablet)).not.toBeNull();

    const section = page.getByRole('region', { name: 'パスワードの変更' });
    await section.getByLabel(/^現在のパスワード/).fill('not-the-password');
    await section.getByLabel(/^新しいパスワード$/).fill('brand-new-password');
    await section.getByLabel(/^新しいパスワード（確認）/).fill('brand-new-passwor');
    await section.getByRole('button', { name: 'パスワードを変更' }).click();
    await section.getByRole('alert').filter({ hasText: 'パスワードが一致しません' }).waitFor();

    await section.getByLabel(/^新しいパスワード（確認）/).fill('brand-new-password');
    await section.getByRole('button', { name: 'パスワードを変更' }).click();
    await section.getByRole('alert').filter({ hasText: 'パスワードが正しくありません' }).waitFor();

    await section.getByLabel(/^現在のパスワード/).fill(PASSWORD);
    await section.getByRole('button', { name: 'パスワードを変更' }).click();
    await section.getByRole('status').filter({ hasText: 'パスワードを変更しました' }).waitFor();

    expect(await me(context)).not.toBeNull();
    expect(await me(tablet)).toBeNull();
    expect(await signInAnswers(email, PASSWORD)).toBe(401);
    expect(await signInAnswers(email, 'brand-new-password')).toBe(200);
  });

  it('lists the signed-in devices and signs out one of them, then every other one', async () => {
    const { email, context, page } = await signedUpUser('端末 一覧');
    const tablet = await elsewhere(email);
    await page.reload();
    const section = page.getByRole('region', { name: 'ログイン中の端末' });
    const current = section.locator('[data-testid="account-session"][data-current="true"]');
    const others = section.locator('[data-testid="account-session"][data-current="false"]');
    await expect.poll(() => others.count()).toBe(1);
    expect(await current.count()).toBe(1);
    expect(await current.getByText('この端末').count()).toBe(1);
    expect(await current.textContent()).toMatch(/Chrome \/ Linux/);
    expect(await current.textContent()).toMatch(/IPアドレス 127\.0\.0\.1/);

    await others.getByRole('button', { name: 'この端末をログアウト' }).click();
    await section.getByRole('status').filter({ hasText: '選んだ端末をログアウトしました' }).waitFor();
    expect(await me(tablet)).toBeNull();
    await expect.poll(() => others.count()).toBe(0);
    expect(await section.getByRole('button', { name: '他のすべての端末からログアウト' }).isDisabled()).toBe(true);

    const [phone, desk] = [await elsewhere(email), await elsewhere(email)];
    await page.reload();
    await expect.poll(() => page.getByRole('region', { name: 'ログイン中の端末' }).locator('[data-testid="account-session"]').count()).toBe(3);
    await page.getByRole('region', { name: 'ログイン中の端末' }).getByRole('button', { name: '他のすべての端末からログアウト' }).click();
    await page
      .getByRole('region', { name: 'ログイン中の端末' })
      .getByRole('status')
      .filter({ hasText: 'この端末以外のすべての端末をログアウトしました' })
      .waitFor();
    expect(await me(phone)).toBeNull();
    expect(await me(desk)).toBeNull();
    expect(await me(context)).not.toBeNull();
  });

  it('switches the theme and the language, and remembers both', async () => {
    const { page } = await signedUpUser('表示 設定');
    const display = page.getByRole('region', { name: '表示' });
    await display.getByText('ダーク', { exact: true }).click();
    await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
    await display.getByText('ライト', { exact: true }).click();
    await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('light');

    await display.getByText('English', { exact: true }).click();
    await page.getByRole('heading', { name: 'Account information' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('en');

    await page.reload();
    await page.getByRole('heading', { name: 'Account information' }).waitFor();
    expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('light');
    await page.getByRole('region', { name: 'Display' }).getByText('日本語', { exact: true }).click();
    await page.getByRole('heading', { name: 'アカウント情報' }).waitFor();
  });
});
