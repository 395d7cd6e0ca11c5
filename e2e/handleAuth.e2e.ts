/**
 * The links of sign-in mail, in the browser: a password reset requested on the "forgot password"
 * form, its mail read from the development outbox (as a system admin), the link followed to
 * /handleauth, a new password set and used; the e-mail verification link; broken links.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newContext } from './support/browser.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
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

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
}

/** The newest mail to `to` with `subject`, read from the development outbox as the system admin. */
async function mailTo(to: string, subject: string): Promise<OutboxMail> {
  const admin = await newContext(browser, baseURL);
  try {
    await signInByApi(admin, baseURL, 'sysadmin@example.com');
    for (let attempt = 0; attempt < 50; attempt++) {
      const { mails } = (await (await admin.request.get(`${baseURL}/api/dev/outbox`)).json()) as { mails: OutboxMail[] };
      const mail = mails.find((item) => item.to === to && item.subject === subject);
      if (mail) return mail;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no mail "${subject}" to ${to} in the outbox`);
  } finally {
    await admin.close();
  }
}

function linkIn(mail: OutboxMail): URL {
  const match = /https?:\/\/\S+\/handleauth\?\S+/.exec(mail.text);
  if (match === null) throw new Error(`no /handleauth link in: ${mail.text}`);
  return new URL(match[0]);
}

async function signUp(email: string, password: string): Promise<void> {
  const response = await context.request.post(`${baseURL}/api/auth/sign-up/email`, { data: { name: 'テスト 利用者', email, password }, headers: { origin: baseURL } });
  if (!response.ok()) throw new Error(`sign-up answered ${response.status()}`);
}

describe('/handleauth', () => {
  it('resets a forgotten password through the mailed link', async () => {
    const email = `reset-${Date.now()}@example.com`;
    await signUp(email, 'the-old-password');
    await context.clearCookies();

    await page.goto('/login');
    await page.getByRole('link', { name: 'パスワードを忘れた場合' }).click();
    await page.waitForURL((url) => url.pathname === '/handleauth' && url.searchParams.get('mode') === 'resetPassword');
    await page.getByLabel('メールアドレス').fill(email);
    await page.getByRole('button', { name: '再設定用のリンクを送信' }).click();
    const sent = page.getByRole('status');
    await sent.waitFor();
    const message = await sent.textContent();
    expect(message).toContain('パスワード再設定用のリンクを送信しました');

    // No account enumeration: an unknown address gets the very same message.
    await page.goto('/handleauth?mode=resetPassword');
    await page.getByLabel('メールアドレス').fill('nobody-at-all@example.com');
    await page.getByRole('button', { name: '再設定用のリンクを送信' }).click();
    await page.getByRole('status').waitFor();
    expect(await page.getByRole('status').textContent()).toBe(message);

    const link = linkIn(await mailTo(email, '【Nemuri Monitor】パスワードの再設定'));
    expect(link.searchParams.get('mode')).toBe('resetPassword');
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByLabel(/^新しいパスワード/).fill('the-new-password');
    await page.getByLabel(/^パスワード（確認）/).fill('the-new-password');
    await page.getByRole('button', { name: 'パスワードを変更' }).click();
    await page.getByRole('status').filter({ hasText: 'パスワードを変更しました' }).waitFor();

    // The link is spent: a second use says so in Japanese.
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByLabel(/^新しいパスワード/).fill('another-password');
    await page.getByLabel(/^パスワード（確認）/).fill('another-password');
    await page.getByRole('button', { name: 'パスワードを変更' }).click();
    await page.getByRole('alert').filter({ hasText: 'リンクが無効です' }).waitFor();

    await page.goto('/login');
    await page.getByLabel('メールアドレス').fill(email);
    await page.getByLabel(PASSWORD_LABEL).fill('the-new-password');
    await page.getByRole('button', { name: 'ログイン', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });

  it('verifies the address through the link mailed on sign-up', async () => {
    const email = `verify-${Date.now()}@example.com`;
    await signUp(email, 'a-fine-password');
    const link = linkIn(await mailTo(email, '【Nemuri Monitor】メールアドレスの確認'));
    expect(link.searchParams.get('mode')).toBe('verifyEmail');
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByRole('status').filter({ hasText: 'メールアドレスを確認しました。' }).waitFor();
    const me = (await (await context.request.get(`${baseURL}/api/me`)).json()) as { user: { isEmailVerified: boolean } };
    expect(me.user.isEmailVerified).toBe(true);
  });

  it('says in Japanese when a link is broken', async () => {
    await page.goto('/handleauth?mode=verifyEmail&token=not-a-token');
    await page.getByRole('alert').filter({ hasText: 'メールアドレスを確認できませんでした。 リンクが無効です' }).waitFor();
    await page.goto('/handleauth?mode=somethingElse');
    await page.getByRole('alert').filter({ hasText: 'リンクが正しくありません' }).waitFor();
  });
});
