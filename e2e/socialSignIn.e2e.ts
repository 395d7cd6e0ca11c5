/**
 * Google and LINE in the browser, against the local OpenID provider the browser tests run
 * (support/globalSetup.ts): sign-in from /login, then /link: link LINE, unlink it, and the last
 * way in cannot be unlinked.
 */
import type { SignedInUser } from '@nemuri/shared/user';
import { describe, expect, inject, it } from 'vitest';
import { useBrowserTab } from './support/browser.ts';

const baseURL = inject('baseURL');
const issuers = { google: inject('googleIssuer'), line: inject('lineIssuer') };
const tab = useBrowserTab(baseURL);

/** The account the local provider signs in as next. */
async function nextLogin(provider: keyof typeof issuers, accountId: string): Promise<void> {
  const response = await fetch(`${issuers[provider]}/test/next-login`, { method: 'POST', body: JSON.stringify({ accountId }) });
  expect(response.status).toBe(204);
}

async function me(): Promise<SignedInUser | null> {
  return ((await (await tab.context.request.get(`${baseURL}/api/me`)).json()) as { user: SignedInUser | null }).user;
}

describe('social sign-in and /link', () => {
  it('signs in with Google from /login, links LINE on /link and unlinks it again', async () => {
    const { page } = tab;
    const googleId = `g-${Date.now()}`;
    await nextLogin('google', googleId);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Google でログイン' }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.host === new URL(baseURL).host);
    expect(await me()).toMatchObject({ email: `${googleId}@google.example`, providerId: 'google', loginProviders: [{ provider: 'google', uid: googleId }] });

    await page.goto('/link');
    const google = page.getByTestId('link-google');
    const line = page.getByTestId('link-line');
    await google.getByText('連携済み').waitFor();
    await line.getByText('未連携').waitFor();
    // The only way in cannot be unlinked: the server refuses, the page says why in Japanese.
    await google.getByRole('button', { name: 'Google の連携を解除' }).click();
    await page.getByRole('alert').filter({ hasText: '最後のログイン方法は解除できません' }).waitFor();
    await google.getByText('連携済み').waitFor();

    await nextLogin('line', `l-${googleId}`);
    await line.getByRole('button', { name: 'LINE と連携' }).click();
    await page.waitForURL((url) => url.pathname === '/link');
    await line.getByText('連携済み').waitFor();
    expect((await me())?.loginProviders).toEqual(expect.arrayContaining([{ provider: 'line', uid: `l-${googleId}` }]));

    await line.getByRole('button', { name: 'LINE の連携を解除' }).click();
    await line.getByText('未連携').waitFor();
    expect((await me())?.loginProviders).toEqual([{ provider: 'google', uid: googleId }]);
  });
});
