/**
 * Joining in the browser: /register creates an organisation with its owner; the owner's
 * invitation mail links to /registerUser/:domainId, where the invitee creates an account and joins.
 */
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { SignedInUser } from '@nemuri/shared/user';
import { describe, expect, inject, it } from 'vitest';
import { newContext, useBrowserTab } from './support/browser.ts';
import { linkIn, mailTo } from './support/outbox.ts';

const baseURL = inject('baseURL');
const tab = useBrowserTab(baseURL);
const PASSWORD_LABEL = /^パスワード( \*)?$/;
const CONFIRM_LABEL = /^パスワード（確認）( \*)?$/;

async function me(request: { get(url: string): Promise<{ json(): Promise<unknown> }> }): Promise<SignedInUser | null> {
  return ((await (await request.get(`${baseURL}/api/me`)).json()) as { user: SignedInUser | null }).user;
}

describe('registration', () => {
  it('registers a facility, invites a staff member by mail, and the invitee joins through the link', async () => {
    const stamp = Date.now();
    const ownerEmail = `owner-${stamp}@example.com`;
    const staffEmail = `staff-${stamp}@example.com`;
    const { page } = tab;

    await page.goto('/login');
    await page.getByRole('link', { name: '組織を新しく登録' }).click();
    await page.waitForURL((url) => url.pathname === '/register');
    await page.getByRole('radio', { name: '施設' }).check({ force: true });
    await page.getByLabel(/^名称/).fill('ひまわり苑');
    await page.getByLabel(/^お名前/).fill('登録 太郎');
    await page.getByLabel(/^メールアドレス/).fill(ownerEmail);
    await page.getByLabel(PASSWORD_LABEL).fill('owner-password-1');
    await page.getByLabel(CONFIRM_LABEL).fill('owner-password-1');
    await page.getByRole('button', { name: '登録して始める' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const owner = await me(tab.context.request);
    expect(owner).toMatchObject({ email: ownerEmail, accessLevel: ROLE_LEVELS.ownerAdministrator });
    expect(owner?.domainId).toBe(owner?.rootDomainId);

    const invited = await tab.context.request.post(`${baseURL}/api/auth/registration/invitations`, {
      data: { email: staffEmail, accessLevel: ROLE_LEVELS.generalStaff },
      headers: { origin: baseURL },
    });
    expect(invited.status()).toBe(200);
    const link = linkIn(await mailTo(tab.browser, baseURL, staffEmail, 'ひまわり苑 への招待'), /https?:\/\/\S+\/registerUser\/\S+/);

    const invitee = await newContext(tab.browser, baseURL);
    try {
      const invitePage = await invitee.newPage();
      await invitePage.goto(`${link.pathname}${link.search}`);
      await invitePage.getByText('「ひまわり苑」に一般スタッフとして招待されています。').waitFor();
      await expect(invitePage.getByLabel(/^メールアドレス/).inputValue()).resolves.toBe(staffEmail);
      await invitePage.getByLabel(/^お名前/).fill('新人 スタッフ');
      await invitePage.getByLabel(PASSWORD_LABEL).fill('staff-password-1');
      await invitePage.getByLabel(CONFIRM_LABEL).fill('staff-password-1');
      await invitePage.getByRole('button', { name: 'アカウントを作成して参加' }).click();
      await invitePage.waitForURL((url) => url.pathname === '/');
      expect(await me(invitee.request)).toMatchObject({ email: staffEmail, accessLevel: ROLE_LEVELS.generalStaff, domainId: owner?.domainId });

      // The link is spent now.
      await invitePage.goto(`${link.pathname}${link.search}`);
      await invitePage.getByText('この招待はすでに使用されています').waitFor();
    } finally {
      await invitee.close();
    }
  });

  it('explains a broken invitation link', async () => {
    await tab.context.clearCookies();
    await tab.page.goto('/registerUser/some-domain?invitation=not-an-invitation');
    await tab.page.getByRole('alert').filter({ hasText: '招待が見つかりません' }).waitFor();
    await tab.page.goto('/registerUser/some-domain');
    await tab.page.getByRole('alert').filter({ hasText: '招待が見つかりません' }).waitFor();
  });
});
