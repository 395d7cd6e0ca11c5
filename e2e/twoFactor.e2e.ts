/**
 * The second factor in the browser, on a server of its own (enrolling mfa@example.com changes it
 * for the other browser tests): mfa@example.com is held at enrolment, enrols TOTP with a code
 * computed here from the secret on screen, sees the backup codes once, and then signs in again
 * through /mfaauth. Also: wrong codes are refused in Japanese, and after 5 code attempts a minute
 * the rate limit says so in Japanese.
 */
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { launchBrowser, newContext } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

const PASSWORD_LABEL = /^パスワード( \*)?$/;
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  // The real limits (no AUTH_RATE_LIMIT_MAX): this file signs in three times and shows the limit on codes.
  server = await startServer({ env: { DATABASE_URL: 'memory://', DEMO: '1', NEMURI_DEMO_DATA: '1' } });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});
beforeEach(async () => {
  context = await newContext(browser, server.url);
  page = await context.newPage();
});
afterEach(async () => {
  await context.close();
});

async function signIn(email: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('メールアドレス').fill(email);
  await page.getByLabel(PASSWORD_LABEL).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'ログイン', exact: true }).click();
}

let totp: TOTP;

describe('TOTP second factor', () => {
  it('holds mfa@example.com at enrolment until a TOTP app is enrolled, showing the backup codes once', async () => {
    await signIn('mfa@example.com');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: '二要素認証の登録が必要です' }).waitFor();
    await page.getByLabel(/^現在のパスワード/).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: '認証アプリを登録する' }).click();

    await page.getByRole('img', { name: '認証アプリ登録用の QR コード' }).waitFor();
    const src = await page.getByRole('img', { name: '認証アプリ登録用の QR コード' }).getAttribute('src');
    expect(src).toMatch(/^data:image\/png;base64,/);
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    totp = new TOTP({ secret: Secret.fromBase32(secret) });

    await page.getByLabel(/^確認コード/).fill('000000' === totp.generate() ? '111111' : '000000');
    await page.getByRole('button', { name: '確認して登録' }).click();
    await page.getByRole('alert').filter({ hasText: '確認コードが正しくありません' }).waitFor();

    await page.getByLabel(/^確認コード/).fill(totp.generate());
    await page.getByRole('button', { name: '確認して登録' }).click();
    await page.getByText('二要素認証を登録しました。').waitFor();
    expect(await page.getByTestId('backup-codes').locator('code').count()).toBe(10);
    await page.getByRole('button', { name: '完了' }).click();
    await page.getByRole('heading', { name: /ようこそ/ }).waitFor();

    const me = (await (await context.request.get(`${server.url}/api/me`)).json()) as { user: { accessLevel: number; mfas: { kind: string }[] } };
    expect(me.user.accessLevel).toBe(2);
    expect(me.user.mfas).toEqual([{ kind: 'totp', enrolledAt: expect.any(String) }]);
  });

  it('asks for the code at /mfaauth on the next sign-in and then opens the page asked for', async () => {
    await page.goto('/help');
    await page.waitForURL('**/login?redirect=%2Fhelp');
    await page.getByLabel('メールアドレス').fill('mfa@example.com');
    await page.getByLabel(PASSWORD_LABEL).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'ログイン', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/mfaauth');
    await page.getByRole('heading', { name: '二要素認証', exact: true }).waitFor();

    await page.getByLabel(/^確認コード/).fill('12345');
    await page.getByRole('button', { name: '確認', exact: true }).click();
    await page.getByText('6桁の数字を入力してください').waitFor();

    await page.getByLabel(/^確認コード/).fill(totp.generate());
    await page.getByRole('button', { name: '確認', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/help');
    const me = (await (await context.request.get(`${server.url}/api/me`)).json()) as { user: { email: string; accessLevel: number } };
    expect(me.user).toMatchObject({ email: 'mfa@example.com', accessLevel: 2 });
  });

  it('limits code attempts to 5 a minute, saying so in Japanese', async () => {
    await signIn('mfa@example.com');
    await page.waitForURL((url) => url.pathname === '/mfaauth');
    const wrong = (() => {
      const valid = new Set([-1, 0, 1].map((step) => totp.generate({ timestamp: Date.now() + step * 30_000 })));
      return ['000000', '111111', '222222', '333333'].find((code) => !valid.has(code)) ?? '444444';
    })();
    // Two attempts went to the tests above in this minute: the limit comes within five more.
    let limited = false;
    for (let attempt = 0; attempt < 5 && !limited; attempt++) {
      await page.getByLabel(/^確認コード/).fill(wrong);
      await page.getByRole('button', { name: '確認', exact: true }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      await page.waitForFunction(() => document.querySelector('button[type=submit]')?.getAttribute('data-loading') !== 'true');
      limited = ((await alert.textContent()) ?? '').includes('試行回数が多すぎます');
    }
    expect(limited).toBe(true);
    expect(await page.getByRole('alert').textContent()).toBe('試行回数が多すぎます。しばらく待ってから再度お試しください');
    expect(new URL(page.url()).pathname).toBe('/mfaauth');
  });
});
