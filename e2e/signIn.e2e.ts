import { describe, expect, inject, it } from 'vitest';
import { DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { useBrowserTab } from './support/browser.ts';

const baseURL = inject('baseURL');
// The label reads 「パスワード *」 (required); 「パスワード（確認）」 must not match.
const PASSWORD_LABEL = /^パスワード( \*)?$/;
const tab = useBrowserTab(baseURL);

async function fillAndSubmit(email: string, password: string): Promise<void> {
  await tab.page.getByLabel('メールアドレス').fill(email);
  await tab.page.getByLabel(PASSWORD_LABEL).fill(password);
  await tab.page.getByRole('button', { name: 'ログイン', exact: true }).click();
}

describe('signing in with e-mail and password', () => {
  it('brings the user back to the page they asked for, with the areas of their level', async () => {
    await tab.page.goto('/monitoring');
    await tab.page.waitForURL('**/login?redirect=%2Fmonitoring');
    await fillAndSubmit('admin@example.com', DEMO_PASSWORD);
    await tab.page.waitForURL((url) => url.pathname === '/monitoring');
    await tab.page.getByRole('heading', { name: 'モニタリング' }).waitFor();
    const nav = tab.page.getByRole('navigation', { name: 'メインメニュー' });
    expect(await nav.getByRole('link', { name: 'ドメイン設定' }).count()).toBe(1);
    expect(await nav.getByRole('link', { name: 'マスター' }).count()).toBe(0);
  });

  it('shows the version in the account menu and signs out on the server', async () => {
    await tab.page.goto('/login');
    await fillAndSubmit('staff@example.com', DEMO_PASSWORD);
    await tab.page.waitForURL((url) => url.pathname === '/');
    await tab.page.getByRole('heading', { name: /ようこそ/ }).waitFor();
    await tab.page.getByRole('button', { name: 'アカウントメニュー' }).click();
    // The menu opens with a transition: wait for the label rather than sampling it once.
    await tab.page.getByText('バージョン 0.8.32').waitFor();
    await tab.page.getByRole('menuitem', { name: 'ログアウト' }).click();
    await tab.page.waitForURL('**/login');
    const me = (await (await tab.context.request.get(`${baseURL}/api/me`)).json()) as { user: unknown };
    expect(me.user).toBeNull();
    await tab.page.goto('/help');
    await tab.page.waitForURL('**/login?redirect=%2Fhelp');
  });

  it('says in Japanese why a sign-in failed, without saying whether the address exists', async () => {
    await tab.page.goto('/login');
    await fillAndSubmit('admin@example.com', 'wrong-password');
    const alert = tab.page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('メールアドレスまたはパスワードが正しくありません');
    await fillAndSubmit('nobody@example.com', 'wrong-password');
    await tab.page.waitForTimeout(300);
    expect(await tab.page.getByRole('alert').textContent()).toBe('メールアドレスまたはパスワードが正しくありません');
  });

  it('checks the form before sending it', async () => {
    await tab.page.goto('/login');
    await fillAndSubmit('not-an-address', 'short');
    await tab.page.getByText('メールアドレスの形式が正しくありません').waitFor();
    expect(await tab.page.getByText('パスワードは8文字以上で入力してください').isVisible()).toBe(true);
  });

  it('lists the demo accounts and fills the form from them', async () => {
    await tab.page.goto('/login');
    const panel = tab.page.getByTestId('demo-accounts');
    await panel.waitFor();
    expect(await panel.getByRole('button').count()).toBe(12);
    await panel.getByRole('button', { name: 'owner@example.com でログインする' }).click();
    expect(await tab.page.getByLabel('メールアドレス').inputValue()).toBe('owner@example.com');
    await tab.page.getByRole('button', { name: 'ログイン', exact: true }).click();
    await tab.page.waitForURL((url) => url.pathname === '/');
  });

  it('creates an account that starts as an individual user', async () => {
    const email = `new-${Date.now()}@example.com`;
    await tab.page.goto('/signup');
    await tab.page.getByLabel('お名前').fill('新規 利用者');
    await tab.page.getByLabel('メールアドレス').fill(email);
    await tab.page.getByLabel(PASSWORD_LABEL).fill('long-enough-password');
    await tab.page.getByLabel('パスワード（確認）').fill('long-enough-password');
    await tab.page.getByRole('button', { name: 'アカウントを作成' }).click();
    await tab.page.waitForURL((url) => url.pathname === '/');
    await tab.page.getByRole('heading', { name: 'ようこそ、新規 利用者 さん' }).waitFor();
    const me = (await (await tab.context.request.get(`${baseURL}/api/me`)).json()) as { user: { accessLevel: number; email: string } };
    expect(me.user).toMatchObject({ accessLevel: 1, email });

    await tab.page.goto('/signup');
    await tab.page.waitForURL((url) => url.pathname === '/');
  });
});
