/**
 * The links of sign-in mail, in the browser: a password reset requested on the "forgot password"
 * form, its mail read from the development outbox (as a system admin), the link followed to
 * /handleauth, a new password set and used; the e-mail verification link; broken links.
 */
import { describe, expect, inject, it } from 'vitest';
import { useBrowserTab } from './support/browser.ts';
import { linkIn as linkInMail, mailTo as mailToIn, type OutboxMail } from './support/outbox.ts';

const baseURL = inject('baseURL');
const PASSWORD_LABEL = /^パスワード( \*)?$/;
const tab = useBrowserTab(baseURL);

const mailTo = (to: string, subject: string) => mailToIn(tab.browser, baseURL, to, subject);
const linkIn = (mail: OutboxMail) => linkInMail(mail, /https?:\/\/\S+\/handleauth\?\S+/);

async function signUp(email: string, password: string): Promise<void> {
  const response = await tab.context.request.post(`${baseURL}/api/auth/sign-up/email`, {
    data: { name: 'テスト 利用者', email, password },
    headers: { origin: baseURL },
  });
  if (!response.ok()) throw new Error(`sign-up answered ${response.status()}`);
}

describe('/handleauth', () => {
  it('resets a forgotten password through the mailed link', { timeout: 180_000 }, async () => {
    const email = `reset-${Date.now()}@example.com`;
    await signUp(email, 'the-old-password');
    await tab.context.clearCookies();

    await tab.page.goto('/login');
    await tab.page.getByRole('link', { name: 'パスワードを忘れた場合' }).click();
    await tab.page.waitForURL((url) => url.pathname === '/handleauth' && url.searchParams.get('mode') === 'resetPassword');
    await tab.page.getByLabel('メールアドレス').fill(email);
    await tab.page.getByRole('button', { name: '再設定用のリンクを送信' }).click();
    const sent = tab.page.getByRole('status');
    // Under a whole run's load the mail and its answer took over 30 s once (alone: under 2 s).
    await sent.waitFor({ timeout: 90_000 });
    const message = await sent.textContent();
    expect(message).toContain('パスワード再設定用のリンクを送信しました');

    // No account enumeration: an unknown address gets the very same message.
    await tab.page.goto('/handleauth?mode=resetPassword');
    await tab.page.getByLabel('メールアドレス').fill('nobody-at-all@example.com');
    await tab.page.getByRole('button', { name: '再設定用のリンクを送信' }).click();
    await tab.page.getByRole('status').waitFor();
    expect(await tab.page.getByRole('status').textContent()).toBe(message);

    const link = linkIn(await mailTo(email, '【ねむりモニター】パスワードの再設定'));
    expect(link.searchParams.get('mode')).toBe('resetPassword');
    await tab.page.goto(`${link.pathname}${link.search}`);
    await tab.page.getByLabel(/^新しいパスワード/).fill('the-new-password');
    await tab.page.getByLabel(/^パスワード（確認）/).fill('the-new-password');
    await tab.page.getByRole('button', { name: 'パスワードを変更' }).click();
    await tab.page.getByRole('status').filter({ hasText: 'パスワードを変更しました' }).waitFor();

    // The link is spent: a second use says so in Japanese.
    await tab.page.goto(`${link.pathname}${link.search}`);
    await tab.page.getByLabel(/^新しいパスワード/).fill('another-password');
    await tab.page.getByLabel(/^パスワード（確認）/).fill('another-password');
    await tab.page.getByRole('button', { name: 'パスワードを変更' }).click();
    await tab.page.getByRole('alert').filter({ hasText: 'リンクが無効です' }).waitFor();

    await tab.page.goto('/login');
    await tab.page.getByLabel('メールアドレス').fill(email);
    await tab.page.getByLabel(PASSWORD_LABEL).fill('the-new-password');
    await tab.page.getByRole('button', { name: 'ログイン', exact: true }).click();
    await tab.page.waitForURL((url) => url.pathname === '/');
  });

  it('verifies the address through the link mailed on sign-up', async () => {
    const email = `verify-${Date.now()}@example.com`;
    await signUp(email, 'a-fine-password');
    const link = linkIn(await mailTo(email, '【ねむりモニター】メールアドレスの確認'));
    expect(link.searchParams.get('mode')).toBe('verifyEmail');
    await tab.page.goto(`${link.pathname}${link.search}`);
    await tab.page.getByRole('status').filter({ hasText: 'メールアドレスを確認しました。' }).waitFor();
    const me = (await (await tab.context.request.get(`${baseURL}/api/me`)).json()) as { user: { isEmailVerified: boolean } };
    expect(me.user.isEmailVerified).toBe(true);
  });

  it('changes the address from /account-info through the mailed link, and the old address takes it back', async () => {
    const stamp = Date.now();
    const oldEmail = `before-${stamp}@example.com`;
    const newEmail = `after-${stamp}@example.com`;
    await signUp(oldEmail, 'a-fine-password');
    await tab.page.goto('/account-info');
    await tab.page.getByLabel('新しいメールアドレス').fill(newEmail);
    await tab.page.getByRole('button', { name: '確認メールを送信' }).click();
    await tab.page
      .getByRole('status')
      .filter({ hasText: `${newEmail} に確認メールを送信しました` })
      .waitFor();

    const change = linkIn(await mailTo(newEmail, '【ねむりモニター】メールアドレス変更の確認'));
    expect(change.searchParams.get('mode')).toBe('changeEmail');
    await tab.page.goto(`${change.pathname}${change.search}`);
    await tab.page.getByRole('status').filter({ hasText: 'メールアドレスを変更しました。' }).waitFor();
    const me = async () => ((await (await tab.context.request.get(`${baseURL}/api/me`)).json()) as { user: { email: string } | null }).user;
    expect((await me())?.email).toBe(newEmail);

    const recover = linkIn(await mailTo(oldEmail, '【ねむりモニター】メールアドレスが変更されました'));
    await tab.page.goto(`${recover.pathname}${recover.search}`);
    await tab.page.getByRole('status').filter({ hasText: '元のメールアドレスに戻し' }).waitFor();
    expect(await me()).toBeNull();
  });

  it('says in Japanese when a link is broken', async () => {
    await tab.page.goto('/handleauth?mode=verifyEmail&token=not-a-token');
    await tab.page.getByRole('alert').filter({ hasText: 'メールアドレスを確認できませんでした。 リンクが無効です' }).waitFor();
    await tab.page.goto('/handleauth?mode=somethingElse');
    await tab.page.getByRole('alert').filter({ hasText: 'リンクが正しくありません' }).waitFor();
  });
});
