/**
 * Domain configuration in the browser, in a facility of its own (registered here, with an
 * administrator and two general staff members invited into it), so that the demo facilities'
 * settings stay as the other test files expect. The administrator edits the basic information
 * (after a Japanese validation error), the night window and a threshold (checked over the API),
 * invites a staff member and resends the invitation, changes a member's level and is refused when
 * granting above their level (on the screen and by the API); a general staff member cannot open
 * the page and the API refuses their change of the domain.
 */
import type { APIRequestContext, BrowserContext } from 'playwright-core';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newContext, useBrowser } from './support/browser.ts';
import { ok, openPage as open, registerOwnFacility, type OwnFacility } from './support/ownFacility.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
const shared = useBrowser();
const stamp = Date.now();
const PASSWORD = 'domain-config-e2e-1';
const headers = { origin: baseURL };

interface Facility {
  domainId: string;
  owner: BrowserContext;
  admin: BrowserContext;
  staff: BrowserContext;
  memberUid: string;
}

let facility: Facility | undefined;

function the(): Facility {
  if (facility === undefined) throw new Error('the facility is set up before the tests');
  return facility;
}

async function invitationsTo(request: APIRequestContext, email: string): Promise<Record<string, unknown>[]> {
  const query = {
    collection: 'invitations',
    where: [
      ['domainId', '==', the().domainId],
      ['email', '==', email],
    ],
    limit: 50,
  };
  return (await ok<{ documents: Record<string, unknown>[] }>(request.post(`${baseURL}/api/documents/query`, { data: { query }, headers }))).documents;
}

let own: OwnFacility | undefined;
const stored = (request: APIRequestContext, path: string) => (own as OwnFacility).stored(request, path);

beforeAll(async () => {
  own = await registerOwnFacility(shared.browser, baseURL, {
    ownerEmail: `dc-owner-${stamp}@example.com`,
    ownerName: '設定 オーナー',
    domainName: `E2E 施設設定ホーム ${stamp}`,
    password: PASSWORD,
  });
  const admin = await own.invite(`dc-admin-${stamp}@example.com`, ROLE_LEVELS.administrator, '設定 管理者');
  const staff = await own.invite(`dc-staff-${stamp}@example.com`, ROLE_LEVELS.generalStaff, '設定 スタッフ');
  const member = await own.invite(`dc-member-${stamp}@example.com`, ROLE_LEVELS.generalStaff, '設定 メンバー');
  await member.context.close();
  facility = { domainId: own.domainId, owner: own.owner, admin: admin.context, staff: staff.context, memberUid: member.uid };
});

afterAll(async () => {
  if (facility === undefined) return;
  for (const context of [facility.owner, facility.admin, facility.staff]) await context.close();
});

describe('domain configuration', () => {
  it('lets an administrator edit the basic information, after a Japanese validation error', async () => {
    const { admin, domainId } = the();
    const page = await open(admin, '/domain-config');
    const form = page.getByRole('form', { name: '基本情報' });
    const name = form.getByLabel(/^施設名(\s*\*)?$/);
    await name.waitFor();
    await expect.poll(() => name.inputValue(), { timeout: 10_000 }).toBe(`E2E 施設設定ホーム ${stamp}`);

    // An empty name and an impossible latitude are refused next to the fields, before anything is sent.
    await name.fill('');
    await form.getByLabel(/^緯度/).fill('95');
    await form.getByLabel(/^経度/).fill('139.7');
    await form.getByRole('button', { name: '保存' }).click();
    await form.getByText('施設名を入力してください').waitFor();
    await form.getByText('緯度は-90〜90の範囲で入力してください').waitFor();
    expect((await stored(admin.request, `domains/${domainId}`)).name).toBe(`E2E 施設設定ホーム ${stamp}`);

    await name.fill('E2E ひだまり苑');
    await form.getByLabel(/^施設名（カナ）/).fill('イーツーイー ヒダマリエン');
    await form.getByLabel(/^郵便番号/).fill('100-0005');
    await form.getByLabel(/^市区町村/).fill('千代田区');
    await form.getByLabel(/^電話番号/).fill('03-1234-5678');
    await form.getByLabel(/^緯度/).fill('35.681236');
    await expect.poll(() => form.getByText('施設名を入力してください').count(), { timeout: 10_000 }).toBe(0);
    await form.getByRole('button', { name: '保存' }).click();
    await page.getByText('保存しました').waitFor();
    expect(await stored(admin.request, `domains/${domainId}`)).toMatchObject({
      name: 'E2E ひだまり苑',
      nameKana: 'イーツーイー ヒダマリエン',
      address: { postalCode: '100-0005', city: '千代田区' },
      phone: '03-1234-5678',
      location: { latitude: 35.681236, longitude: 139.7 },
    });
  });

  it('changes the night window and a threshold, and they persist', async () => {
    const { admin, domainId } = the();
    const page = await open(admin, '/domain-config');
    await page.getByRole('tab', { name: '日付' }).click();
    const dates = page.getByRole('form', { name: '日付' });
    await dates.getByLabel(/^夜間の開始時刻/).fill('25:00');
    await dates.getByRole('button', { name: '保存' }).click();
    await dates.getByText('夜間の開始時刻は「21:00」のように24時間表記（HH:MM）で入力してください').waitFor();
    await dates.getByLabel(/^夜間の開始時刻/).fill('22:00');
    await dates.getByLabel(/^夜間の終了時刻/).fill('06:30');
    await dates.getByRole('button', { name: '保存' }).click();
    await expect
      .poll(async () => (await stored(admin.request, `domains/${domainId}`)).dates, { timeout: 10_000 })
      .toMatchObject({ nightStart: '22:00', nightEnd: '06:30' });

    await page.getByRole('tab', { name: '数値' }).click();
    const numbers = page.getByRole('form', { name: '数値' });
    await numbers.getByText('範囲 60〜200回/分（既定値 110回/分）').waitFor();
    await numbers.getByLabel(/^心拍数の上限/).fill('250');
    await numbers.getByRole('button', { name: '保存' }).click();
    await numbers.getByText('心拍数の上限は60〜200回/分の範囲で入力してください').waitFor();
    await numbers.getByLabel(/^心拍数の上限/).fill('120');
    await numbers.getByLabel(/^アラートの再通知間隔/).fill('10');
    await numbers.getByRole('button', { name: '保存' }).click();
    await expect
      .poll(async () => (await stored(admin.request, `domains/${domainId}`)).numbers, { timeout: 10_000 })
      .toEqual({ heartRateHigh: 120, alertResoundMin: 10 });

    // After a reload the screen shows what is stored.
    await page.reload();
    await page.getByRole('tab', { name: '数値' }).click();
    await expect
      .poll(
        () =>
          page
            .getByRole('form', { name: '数値' })
            .getByLabel(/^心拍数の上限/)
            .inputValue(),
        { timeout: 10_000 },
      )
      .toBe('120');
  });

  it('invites a staff member, shows the link state and resends the invitation', async () => {
    const { admin } = the();
    const email = `dc-new-${stamp}@example.com`;
    const page = await open(admin, '/domain-config');
    await page.getByRole('tab', { name: 'スタッフ' }).click();
    const inviteForm = page.getByRole('form', { name: 'スタッフを招待' });
    await inviteForm.getByLabel(/^メールアドレス/).fill('not-an-address');
    await inviteForm.getByRole('button', { name: '招待する' }).click();
    await inviteForm.getByText('メールアドレスの形式が正しくありません').waitFor();
    await inviteForm.getByLabel(/^メールアドレス/).fill(email);
    await inviteForm.getByRole('button', { name: '招待する' }).click();
    await page.getByText(`${email} に招待メールを送りました`).waitFor();
    const row = page.locator(`[data-invitation-email="${email}"]`);
    await row.getByText('有効').waitFor();
    expect(await invitationsTo(admin.request, email)).toEqual([expect.objectContaining({ accessLevel: ROLE_LEVELS.generalStaff })]);

    // Resending sends a new link and revokes the old one.
    await row.getByRole('button', { name: '再送' }).click();
    await page.getByText(`${email} に招待を再送しました`, { exact: false }).waitFor();
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(2);
    await row.getByText('取り消し済み').waitFor();
    await expect
      .poll(
        async () => (await invitationsTo(admin.request, email)).map((invitation) => (typeof invitation.revokedAt === 'string' ? 'revoked' : 'open')).sort(),
        { timeout: 10_000 },
      )
      .toEqual(['open', 'revoked']);
  });

  it('changes a member’s level, and refuses a level above the administrator’s own (screen and API)', async () => {
    const { admin, domainId, memberUid } = the();
    const page = await open(admin, '/domain-config');
    await page.getByRole('tab', { name: 'スタッフ' }).click();
    const level = page.getByRole('combobox', { name: '設定 メンバーの権限' });
    await level.click();
    await page.getByRole('option', { name: '個人ユーザー（1）' }).click();
    await page.getByText('設定 メンバーさんの権限を「個人ユーザー」に変更しました').waitFor();
    await expect
      .poll(async () => (await stored(admin.request, `domains/${domainId}/staff/${memberUid}`)).accessLevel, { timeout: 10_000 })
      .toBe(ROLE_LEVELS.individualUser);

    await level.click();
    await page.getByRole('option', { name: '特権管理者（4）' }).click();
    await page.getByText('「特権管理者」は付与できません', { exact: false }).waitFor();
    expect((await stored(admin.request, `domains/${domainId}/staff/${memberUid}`)).accessLevel).toBe(ROLE_LEVELS.individualUser);

    const refused = await admin.request.patch(`${baseURL}/api/documents/domains/${domainId}/staff/${memberUid}`, {
      data: { data: { accessLevel: ROLE_LEVELS.privilegeAdministrator } },
      headers,
    });
    expect(refused.status()).toBe(403);
    const invitation = await admin.request.post(`${baseURL}/api/auth/registration/invitations`, {
      data: { email: `dc-boss-${stamp}@example.com`, accessLevel: ROLE_LEVELS.privilegeAdministrator },
      headers,
    });
    expect(invitation.status()).toBe(403);
    // The owner's record is administrator information: shown, not editable by an administrator.
    await page.locator('tr').filter({ hasText: '設定 オーナー' }).getByText('変更できません（管理者以上の情報）').waitFor();
  });

  it('disables and enables a member, and resets their second factor', async () => {
    const { admin, domainId, memberUid } = the();
    const page = await open(admin, '/domain-config');
    await page.getByRole('tab', { name: 'スタッフ' }).click();
    const row = page.locator('tr').filter({ hasText: '設定 メンバー' });
    await row.getByRole('button', { name: '無効にする' }).click();
    await row.getByText('無効', { exact: true }).waitFor();
    await expect.poll(async () => (await stored(admin.request, `domains/${domainId}/staff/${memberUid}`)).disabled, { timeout: 10_000 }).toBe(true);
    await row.getByRole('button', { name: '有効にする' }).click();
    await row.getByText('有効', { exact: true }).waitFor();
    await expect.poll(async () => (await stored(admin.request, `domains/${domainId}/staff/${memberUid}`)).disabled, { timeout: 10_000 }).toBe(false);

    await row.getByRole('button', { name: '二要素認証をリセット' }).click();
    const dialog = page.getByRole('dialog', { name: '二要素認証のリセット' });
    await dialog.getByText('設定 メンバーさんの二要素認証を削除し', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: '二要素認証をリセット' }).click();
    await page.getByText('設定 メンバーさんの二要素認証をリセットしました').waitFor();
  });

  it('lets an owner of several facilities choose the facility, and only shows it', async () => {
    const owner = await newContext(shared.browser, baseURL);
    try {
      await signInByApi(owner, baseURL, 'owner@example.com');
      const page = await open(owner, '/domain-config');
      const choice = page.getByRole('combobox', { name: '施設' });
      await choice.click();
      for (const name of ['さくら苑', 'もみじ荘']) await page.getByRole('option', { name }).waitFor();
      await page.getByRole('option', { name: 'もみじ荘' }).click();
      const name = page.getByRole('form', { name: '基本情報' }).getByLabel(/^施設名(\s*\*)?$/);
      await expect.poll(() => name.inputValue(), { timeout: 10_000 }).toBe('もみじ荘');
      // Nothing is written by looking; another facility's staff stay out of this one's list.
      expect(await page.getByText('E2E 施設設定ホーム').count()).toBe(0);
    } finally {
      await owner.close();
    }
  });

  it('keeps a general staff member out: the page is guarded and the API refuses their change', async () => {
    const { staff, domainId } = the();
    const page = await open(staff, '/domain-config');
    await page.getByText('このページへのアクセス権限がありません').waitFor();
    expect(await page.getByRole('tab', { name: '基本情報' }).count()).toBe(0);
    const refused = await staff.request.patch(`${baseURL}/api/documents/domains/${domainId}`, { data: { data: { name: 'E2E 乗っ取り' } }, headers });
    expect(refused.status()).toBe(403);
    expect((await stored(the().owner.request, `domains/${domainId}`)).name).not.toBe('E2E 乗っ取り');
  });
});
