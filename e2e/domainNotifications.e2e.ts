/**
 * /domain-config 「通知」 in the browser, in a facility of the test's own (so the demo facilities'
 * notification settings stay as other files expect): the facility's administrator sees an empty
 * delivery log; edits the escalation steps, the privacy of the resident's name, the rate limit, the
 * LINE token, the webhook's address, types and secret; saves and, after a reload, finds all of it
 * kept. They put two staff members on tonight's night shift, one for a unit, and find the schedule
 * kept after a reload. The administrator takes alerts by mail, with quiet hours across midnight
 * (/account-info); an alert then reaches them by mail (the first step), and the delivery log shows
 * the mail with its recipient, step, status and attempt.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { ALERT_TYPE_NAMES } from '@nemuri/shared/monitoring';
import { NOTIFICATIONS_API, type DomainSettingsView, type NotificationPreferences, type ShiftView } from '@nemuri/shared/notifications';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useBrowser } from './support/browser.ts';
import { ok, registerOwnFacility, type OwnFacility } from './support/ownFacility.ts';

const baseURL = inject('baseURL');
const shared = useBrowser();
const stamp = Date.now();
const headers = { origin: baseURL };
const ADMIN_NAME = '通知 管理者';
const NURSE_NAME = '夜勤 太郎';
const ROOM = `dn-room-${stamp}`;
/**
 * An address literal, so saving it resolves no name (this machine has no network). Nothing is ever
 * sent there: nurse calls are left out of its types, and the address is removed before the alert.
 */
const WEBHOOK_URL = 'https://192.88.99.10/nemuri-hook';
const LINE_TOKEN = `line-token-e2e-${stamp}`;

let own: OwnFacility | undefined;
let admin: BrowserContext | undefined;
let nurseUid = '';
let adminUid = '';

function the(): { own: OwnFacility; admin: BrowserContext } {
  if (own === undefined || admin === undefined) throw new Error('the facility is set up before the tests');
  return { own, admin };
}

beforeAll(async () => {
  own = await registerOwnFacility(shared.browser, baseURL, {
    ownerEmail: `dn-owner-${stamp}@example.com`,
    ownerName: '通知 オーナー',
    domainName: `E2E 通知ホーム ${stamp}`,
    password: 'domain-notifications-e2e-1',
  });
  const invited = await own.invite(`dn-admin-${stamp}@example.com`, ROLE_LEVELS.administrator, ADMIN_NAME);
  admin = invited.context;
  adminUid = invited.uid;
  const nurse = await own.invite(`dn-nurse-${stamp}@example.com`, ROLE_LEVELS.generalStaff, NURSE_NAME);
  nurseUid = nurse.uid;
  await nurse.context.close();
}, 120_000);

afterAll(async () => {
  await admin?.close();
  await own?.owner.close();
});

/** /domain-config at the 「通知」 tab, its settings loaded. */
async function openNotificationsTab(page: Page): Promise<void> {
  await page.goto('/domain-config');
  await page.getByRole('tab', { name: '通知' }).click();
  await page.getByRole('switch', { name: '通知に入居者名を表示する' }).waitFor({ timeout: 30_000 });
}

const settingsOf = (page: Page) => page.getByRole('region', { name: 'アラートの通知' });
const shiftsOf = (page: Page) => page.getByRole('region', { name: '当番表' });
const logOf = (page: Page) => page.getByRole('region', { name: '配信ログ' });
const input = (scope: Locator, label: string) => scope.locator(`input[aria-label="${label}"]`);

async function choose(page: Page, field: Locator, option: string): Promise<void> {
  await field.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function savedNotice(page: Page, message: string): Promise<void> {
  await page.getByText(message, { exact: true }).first().waitFor({ timeout: 30_000 });
}

/**
 * On /account-info the administrator takes alerts by mail, with quiet hours across midnight
 * (23:30–05:15; nurse calls, being critical, still go), and finds both kept after a reload.
 */
async function takeMailWithQuietNights(context: BrowserContext): Promise<void> {
  const page = await context.newPage();
  await page.goto('/account-info');
  let section = page.getByRole('region', { name: '通知', exact: true });
  await section.getByRole('switch', { name: 'メール', exact: true }).check({ force: true, timeout: 30_000 });
  await section.getByRole('switch', { name: '通知しない時間帯' }).check({ force: true });
  await section.getByLabel('開始', { exact: true }).fill('23:30');
  await section.getByLabel('終了', { exact: true }).fill('05:15');
  await section.getByRole('button', { name: '保存', exact: true }).click();
  await savedNotice(page, '通知の設定を保存しました');
  const stored = await ok<NotificationPreferences>(context.request.get(`${baseURL}${NOTIFICATIONS_API}/preferences`));
  expect(stored).toMatchObject({ channels: { push: false, mail: true, line: false }, quietHours: { start: '23:30', end: '05:15' } });
  await page.reload();
  section = page.getByRole('region', { name: '通知', exact: true });
  await expect.poll(() => section.getByLabel('開始', { exact: true }).inputValue(), { timeout: 30_000 }).toBe('23:30');
  expect(await section.getByLabel('終了', { exact: true }).inputValue()).toBe('05:15');
  expect(await section.getByRole('switch', { name: 'メール', exact: true }).isChecked()).toBe(true);
  await page.close();
}

describe('/domain-config 通知', () => {
  it('starts with an empty delivery log, in Japanese', async () => {
    const page = await the().admin.newPage();
    await openNotificationsTab(page);
    await expect.poll(() => logOf(page).innerText(), { timeout: 30_000 }).toContain('まだ配信はありません');
    expect(await logOf(page).getByRole('button', { name: '古い配信' }).isDisabled()).toBe(true);
    expect(await logOf(page).getByRole('button', { name: '新しい配信' }).isDisabled()).toBe(true);
    await page.close();
  });

  it('keeps the escalation steps, privacy, rate limit, LINE token and webhook after a reload', async () => {
    const page = await the().admin.newPage();
    await openNotificationsTab(page);
    const settings = settingsOf(page);
    await settings.getByRole('switch', { name: '通知に入居者名を表示する' }).check();
    // From 当番 → 管理者 → オーナー to 管理者 at once, 当番 after 7 minutes, everyone 15 minutes later.
    await choose(page, input(settings, '1段目の通知先'), '管理者');
    await choose(page, input(settings, '2段目の通知先'), '当番のスタッフ（部屋のユニット）');
    await input(settings, '2段目までの時間（分）').fill('7');
    await settings.getByRole('button', { name: '削除' }).last().click();
    await expect.poll(() => input(settings, '3段目の通知先').count()).toBe(0);
    await settings.getByRole('button', { name: '段を追加' }).click();
    await choose(page, input(settings, '3段目の通知先'), '全スタッフ');
    await input(settings, '3段目までの時間（分）').fill('15');
    await settings.getByLabel('1人あたりの上限（件）', { exact: true }).fill('5');
    await settings.getByLabel('上限を数える時間（分）', { exact: true }).fill('10');
    await settings.getByLabel('LINE チャネルアクセストークン', { exact: true }).fill(LINE_TOKEN);
    await settings.getByLabel('Webhook の送信先 URL', { exact: true }).fill(WEBHOOK_URL);
    // Nurse calls are not sent to the webhook (the pill's option is picked again to drop it).
    // Its pills cover the field's own input (which Playwright would wait on): click where the user does.
    await settings.getByLabel('Webhook で送るアラートの種類', { exact: true }).click({ force: true });
    await page.getByRole('option', { name: 'ナースコール', exact: true }).click();
    await page.keyboard.press('Escape');
    await settings.getByRole('button', { name: 'シークレットを発行' }).click();
    const secret = settings.getByRole('alert').filter({ hasText: 'このシークレットは今だけ表示されます' });
    await expect.poll(() => secret.locator('code').innerText(), { timeout: 30_000 }).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(await settings.innerText()).toContain('署名用シークレット: 設定済み');
    await settings.getByRole('button', { name: '保存', exact: true }).click();
    await savedNotice(page, '通知の設定を保存しました');
    await expect.poll(() => settings.innerText()).toContain('設定済みです。変更するときだけ入力してください。');

    // What the server keeps (the token and the secret never come back).
    const view = await ok<DomainSettingsView>(the().admin.request.get(`${baseURL}${NOTIFICATIONS_API}/domains/${the().own.domainId}/settings`));
    expect(view).toMatchObject({
      showResidentName: true,
      escalation: [
        { target: 'administrators', afterMin: 0 },
        { target: 'onDuty', afterMin: 7 },
        { target: 'allStaff', afterMin: 15 },
      ],
      rateLimit: { max: 5, windowMin: 10 },
      webhookUrl: WEBHOOK_URL,
      lineConfigured: true,
      webhookSecretSet: true,
    });
    expect(view.escalation).toHaveLength(3);
    expect([...view.webhookAlertTypes].sort()).toEqual(ALERT_TYPE_NAMES.filter((type) => type !== 'button').sort());
    expect(JSON.stringify(view)).not.toContain(LINE_TOKEN);

    // The screen shows the same after a reload.
    await page.reload();
    await openNotificationsTab(page);
    const again = settingsOf(page);
    expect(await again.getByRole('switch', { name: '通知に入居者名を表示する' }).isChecked()).toBe(true);
    expect(await input(again, '1段目の通知先').inputValue()).toBe('管理者');
    expect(await input(again, '2段目の通知先').inputValue()).toBe('当番のスタッフ（部屋のユニット）');
    expect(await input(again, '2段目までの時間（分）').inputValue()).toContain('7');
    expect(await input(again, '3段目の通知先').inputValue()).toBe('全スタッフ');
    expect(await input(again, '3段目までの時間（分）').inputValue()).toContain('15');
    expect(await input(again, '4段目の通知先').count()).toBe(0);
    expect(await again.getByLabel('1人あたりの上限（件）', { exact: true }).inputValue()).toBe('5');
    expect(await again.getByLabel('上限を数える時間（分）', { exact: true }).inputValue()).toBe('10');
    expect(await again.getByLabel('LINE チャネルアクセストークン', { exact: true }).inputValue()).toBe('');
    expect(await again.getByLabel('Webhook の送信先 URL', { exact: true }).inputValue()).toBe(WEBHOOK_URL);
    const text = await again.innerText();
    expect(text).toContain('設定済みです。変更するときだけ入力してください。');
    expect(text).toContain('署名用シークレット: 設定済み');
    expect(text).not.toContain('このシークレットは今だけ表示されます');
    await page.close();
  });

  it("puts staff on tonight's night shift, one of them for a unit, and keeps it after a reload", async () => {
    const page = await the().admin.newPage();
    await openNotificationsTab(page);
    const shifts = shiftsOf(page);
    const day = await shifts.getByLabel('日付', { exact: true }).inputValue();
    expect(day).toMatch(/^\d{4}-\d\d-\d\d$/);
    // The night shift is the one shown first (alerts at night are what this is for).
    expect(await shifts.getByRole('radio', { name: '夜勤' }).isChecked()).toBe(true);
    const staffField = shifts.getByLabel('当番のスタッフ', { exact: true });
    await staffField.click();
    await page.getByRole('option', { name: NURSE_NAME, exact: true }).click();
    await page.getByRole('option', { name: ADMIN_NAME, exact: true }).click();
    await page.keyboard.press('Escape');
    await shifts.getByLabel(`${NURSE_NAME} の担当ユニット`, { exact: true }).fill('2F');
    await shifts.getByRole('button', { name: '当番表を保存' }).click();
    await savedNotice(page, '通知の設定を保存しました');

    const stored = await ok<{ shifts: ShiftView[] }>(
      the().admin.request.get(`${baseURL}${NOTIFICATIONS_API}/domains/${the().own.domainId}/shifts?from=${day}&days=1`),
    );
    expect(stored.shifts).toHaveLength(1);
    expect(stored.shifts[0]).toMatchObject({ day, shift: 'night' });
    expect(Object.fromEntries(stored.shifts[0]?.assignments.map((assignment) => [assignment.uid, assignment.unit]) ?? [])).toEqual({
      [nurseUid]: '2F',
      [adminUid]: null,
    });

    await page.reload();
    await openNotificationsTab(page);
    const again = shiftsOf(page);
    await expect.poll(() => again.getByLabel(`${NURSE_NAME} の担当ユニット`, { exact: true }).inputValue(), { timeout: 30_000 }).toBe('2F');
    expect(await again.getByLabel(`${ADMIN_NAME} の担当ユニット`, { exact: true }).inputValue()).toBe('');
    // The day shift of the same day is a schedule of its own: nobody on it.
    await again.getByText('日勤', { exact: true }).click();
    await expect.poll(() => again.innerText()).toContain('当番のスタッフはいません');
    await page.close();
  });

  it('sends a nurse call by mail to an administrator with quiet hours across midnight, and lists the delivery with its recipient, step, status and attempts', async () => {
    const { own: facility, admin: context } = the();
    // No webhook from here on (see WEBHOOK_URL); administrators first (as saved above).
    const current = await ok<DomainSettingsView>(context.request.get(`${baseURL}${NOTIFICATIONS_API}/domains/${facility.domainId}/settings`));
    const { lineConfigured: _line, webhookSecretSet: _secret, ...settings } = current;
    await ok(
      context.request.put(`${baseURL}${NOTIFICATIONS_API}/domains/${facility.domainId}/settings`, {
        data: { ...settings, escalation: [{ target: 'administrators', afterMin: 0 }, ...settings.escalation.slice(1)], webhookUrl: null },
        headers,
      }),
    );
    await takeMailWithQuietNights(context);
    // A nurse call in a room of the facility: the first step goes to the administrators at once.
    await ok(
      facility.owner.request.put(`${baseURL}/api/documents/rooms/${ROOM}`, { data: { data: { domainId: facility.domainId, name: '通知 201号室' } }, headers }),
    );
    await ok(
      facility.owner.request.put(`${baseURL}/api/documents/alerts/dn-${stamp}`, {
        data: { data: { domainId: facility.domainId, roomId: ROOM, type: 'button', startedAt: new Date().toISOString() }, merge: false },
        headers,
      }),
    );

    const page = await context.newPage();
    await openNotificationsTab(page);
    const log = logOf(page);
    const row = log.locator('[data-delivery-id]').first();
    await expect
      .poll(
        async () => {
          await log.getByRole('button', { name: '更新' }).click();
          return (await row.count()) === 0 ? '' : await row.innerText();
        },
        { timeout: 60_000, interval: 2_000 },
      )
      .toContain('送信済み');
    const text = await row.innerText();
    for (const part of [ADMIN_NAME, 'メール', '1段目', '1 回']) expect(text).toContain(part);
    await row.getByRole('button', { name: '1 回' }).click();
    const attempts = log.getByTestId('delivery-attempts');
    await expect.poll(() => attempts.innerText()).toMatch(/1回目 .* 成功（\d+ ミリ秒）/);
    expect(await log.getByText('まだ配信はありません').count()).toBe(0);
    await page.close();
  });
});
