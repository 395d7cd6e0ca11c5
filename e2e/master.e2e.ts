/**
 * The master area in the browser. A senior developer (101) opens the overview, creates, corrects
 * and deletes a parameter (a value outside its range is refused in Japanese) and a release note (a
 * taken version too), opens a device type's detail and from it a device with its live-view link,
 * and looks into a domain's data, sleep and history tabs. A developer (100) sees the same area
 * read-only, and the server refuses their writes. After an update the newest release note is shown
 * once, until closed.
 *
 * The parameter and release note are this file's own (removed afterwards); the release note's
 * version is far below the running one, so help's "newest" stays as other files expect. The history
 * entry comes from an update of もみじ荘's phone number to the value it already has.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { APP_VERSION } from '@nemuri/shared/version';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newContext, watchConsole } from './support/browser.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
const stamp = `${Date.now().toString(36)}${process.pid.toString(36)}`;
const PARAMETER = `e2eMaster_${stamp}`;
const RELEASE_VERSION = `0.0.${Date.now() % 1_000_000}`;
const RELEASE_ID = `v${RELEASE_VERSION.replaceAll('.', '-')}`;
const FACILITY_B = DEMO_DOMAINS.facilityB;

let browser: Browser;
let senior: BrowserContext;
let developer: BrowserContext;
const contexts: BrowserContext[] = [];

async function signedInContext(email: string): Promise<BrowserContext> {
  const context = await newContext(browser, baseURL);
  contexts.push(context);
  await signInByApi(context, baseURL, email);
  return context;
}

async function api(
  context: BrowserContext,
  method: 'GET' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  data?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await context.request.fetch(`${baseURL}${path}`, { method, headers: { origin: baseURL }, ...(data === undefined ? {} : { data }) });
  const text = await response.text();
  return { status: response.status(), body: text === '' ? null : (JSON.parse(text) as unknown) };
}

beforeAll(async () => {
  browser = await launchBrowser();
  senior = await signedInContext('senior@example.com');
  developer = await signedInContext('developer@example.com');
});

afterAll(async () => {
  if (senior !== undefined) {
    await api(senior, 'DELETE', `/api/documents/parameters/${PARAMETER}`);
    await api(senior, 'DELETE', `/api/documents/histories/${RELEASE_ID}`);
  }
  for (const context of contexts) await context.close();
  await browser?.close();
});

const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true }).waitFor();

describe('master area', () => {
  it('shows the overview with counts and health', async () => {
    const page = await developer.newPage();
    const pageConsole = watchConsole(page);
    await page.goto('/master');
    await heading(page, 'マスター設定');
    await page.getByTestId('master-health').getByText('正常').waitFor();
    const rooms = page.locator('[data-testid="master-count"][data-count-id="rooms"] [data-testid="master-count-value"]');
    await rooms.waitFor();
    expect(Number(await rooms.textContent())).toBeGreaterThan(0);
    const facilities = page.locator('[data-testid="master-count"][data-count-id="domains-facility"] [data-testid="master-count-value"]');
    expect(Number(await facilities.textContent())).toBeGreaterThanOrEqual(2);
    await page.locator('[data-testid="master-count"][data-count-id="alertsOpen"] [data-testid="master-count-value"]').waitFor();
    expect(pageConsole.errors).toEqual([]);
  });

  it('lets a senior developer create, correct and delete a parameter, with range checks in Japanese', async () => {
    const page = await senior.newPage();
    const pageConsole = watchConsole(page);
    await page.goto('/master/paramater-lists');
    await heading(page, 'パラメータ一覧');
    await page.getByTestId('parameter-table').waitFor();
    expect(await page.getByTestId('master-read-only').count()).toBe(0);

    await page.getByRole('button', { name: 'パラメータを追加' }).click();
    const dialog = page.getByRole('dialog', { name: 'パラメータの追加' });
    await dialog.getByRole('textbox', { name: 'キー' }).fill(PARAMETER);
    await dialog.getByRole('textbox', { name: '値', exact: true }).fill('50');
    await dialog.getByRole('textbox', { name: '最小値' }).fill('0');
    await dialog.getByRole('textbox', { name: '最大値' }).fill('10');
    await dialog.getByRole('textbox', { name: '単位' }).fill('秒');
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.getByText('最大値（10）以下にしてください。').waitFor();
    await dialog.getByRole('textbox', { name: '値', exact: true }).fill('5');
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.locator(`[data-testid="parameter-row"][data-key="${PARAMETER}"]`);
    await expect.poll(() => row.getByTestId('parameter-value').textContent()).toBe('5 秒');
    const stored = await api(senior, 'GET', `/api/documents/parameters/${PARAMETER}`);
    expect((stored.body as { document: Record<string, unknown> }).document).toMatchObject({
      key: PARAMETER,
      type: 'number',
      value: 5,
      min: 0,
      max: 10,
      unit: '秒',
    });

    // A second parameter with the same key is refused next to the form.
    await page.getByRole('button', { name: 'パラメータを追加' }).click();
    await dialog.getByRole('textbox', { name: 'キー' }).fill(PARAMETER);
    await dialog.getByRole('textbox', { name: '値', exact: true }).fill('1');
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.getByTestId('master-refusal').getByText('同じIDの記録がすでにあります').waitFor();
    await dialog.getByRole('button', { name: 'キャンセル' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await row.getByRole('button', { name: `${PARAMETER} を編集` }).click();
    const edit = page.getByRole('dialog', { name: 'パラメータの編集' });
    await edit.getByRole('textbox', { name: '値', exact: true }).fill('7');
    await edit.getByRole('button', { name: '保存' }).click();
    await edit.waitFor({ state: 'hidden' });
    await expect.poll(() => row.getByTestId('parameter-value').textContent()).toBe('7 秒');

    await row.getByRole('button', { name: `${PARAMETER} を削除` }).click();
    const confirm = page.getByRole('dialog', { name: '削除の確認' });
    await confirm.getByRole('button', { name: '削除する' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await row.waitFor({ state: 'detached' });
    expect((await api(senior, 'GET', `/api/documents/parameters/${PARAMETER}`)).status).toBe(404);
    expect(pageConsole.errors).toEqual([]);
  });

  it('lets a senior developer add, edit and delete a release note; a taken version is refused', async () => {
    const page = await senior.newPage();
    await page.goto('/master/history-lists');
    await heading(page, '更新履歴');
    await page.getByTestId('history-table').waitFor();

    await page.getByRole('button', { name: '更新履歴を追加' }).click();
    const dialog = page.getByRole('dialog', { name: '更新履歴の追加' });
    await dialog.getByRole('textbox', { name: 'バージョン' }).fill('0.1.0');
    await dialog.getByRole('textbox', { name: 'タイトル' }).fill('E2E');
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.getByTestId('master-refusal').waitFor();
    await dialog.getByRole('textbox', { name: 'バージョン' }).fill(RELEASE_VERSION);
    await dialog.getByRole('textbox', { name: 'タイトル' }).fill('E2E のお知らせ');
    await dialog.getByRole('textbox', { name: '本文' }).fill('マスター画面のテストです。');
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.locator(`[data-testid="history-row"][data-version="${RELEASE_VERSION}"]`);
    await row.getByText('E2E のお知らせ').waitFor();

    await row.getByRole('button', { name: `${RELEASE_VERSION} を編集` }).click();
    const edit = page.getByRole('dialog', { name: '更新履歴の編集' });
    await edit.getByRole('textbox', { name: 'タイトル' }).fill('E2E のお知らせ（改）');
    await edit.getByRole('button', { name: '保存' }).click();
    await edit.waitFor({ state: 'hidden' });
    await row.getByText('E2E のお知らせ（改）').waitFor();

    await row.getByRole('button', { name: `${RELEASE_VERSION} を削除` }).click();
    await page.getByRole('dialog', { name: '削除の確認' }).getByRole('button', { name: '削除する' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await api(senior, 'GET', `/api/documents/histories/${RELEASE_ID}`)).status).toBe(404);
  });

  it("opens a device type's detail, one of its devices, and the device's live view", async () => {
    const page = await developer.newPage();
    await page.goto('/master/device-types');
    await page.getByRole('link', { name: 'nemuri-chest', exact: true }).click();
    await heading(page, '機種：ねむりチェスト（胸部センサ）');
    expect(page.url()).toContain('/master/device-lists/nemuri-chest');
    await page.getByTestId('channel-table').getByText('ecg', { exact: true }).waitFor();
    await page.getByTestId('type-parameter-table').getByText('qrsDetector').waitFor();
    const device = page.getByTestId('type-device-row').getByRole('link', { name: 'NM-0009', exact: true });
    // Other files add devices of this type while this one runs (monitoringLayout: 100 whose serials
    // sort before the demo's), so the demo device may be on a later page of 50: the pager goes on.
    await page.getByTestId('type-device-row').first().waitFor();
    const next = page.getByTestId('type-device-pager').getByRole('button', { name: '次のページ' });
    for (let turned = 0; turned < 20 && !(await device.isVisible()) && (await next.isEnabled()); turned++) {
      const first = await page.getByTestId('type-device-row').first().textContent();
      await next.click();
      await expect.poll(async () => page.getByTestId('type-device-row').first().textContent()).not.toBe(first);
    }
    await device.click();
    await heading(page, '機器：NM-0009');
    const status = page.getByTestId('device-status');
    await status.getByText('ねむりチェスト（胸部センサ）').waitFor();
    await status.getByText('201号室').waitFor();
    // The device belongs to the devices (機種) area, and its domain and borrows read by name, never by id.
    const current = page.getByRole('navigation', { name: 'マスターのメニュー' }).locator('[aria-current="page"]');
    expect(await current.textContent()).toBe('機種');
    const domainName = status.getByTestId('domain-name').first();
    await expect.poll(async () => (await domainName.textContent()) ?? '').not.toMatch(/^demo-/);
    for (const cell of await page.getByTestId('device-borrow-table').getByTestId('domain-name').all()) expect(await cell.textContent()).not.toMatch(/^demo-/);
    const live = page.getByTestId('live-view-link').filter({ hasText: '心電図' });
    expect(await live.getAttribute('href')).toBe('/monitoring-device/raw-ecg?serial=NM-0009');
    await live.click();
    await page.waitForURL('**/monitoring-device/raw-ecg?serial=NM-0009');
  });

  it("looks into a domain's data, sleep and history", async () => {
    const current = await api(developer, 'GET', `/api/documents/domains/${FACILITY_B}`);
    const phone = (current.body as { document: { phone?: string | null } }).document.phone ?? null;
    expect((await api(developer, 'PATCH', `/api/documents/domains/${FACILITY_B}`, { data: { phone } })).status).toBe(200);

    const page = await developer.newPage();
    const pageConsole = watchConsole(page);
    await page.goto('/master/domain-lists');
    await page.getByPlaceholder('名前・ID・親ドメインで検索').fill('もみじ');
    const row = page.locator(`[data-testid="domain-row"][data-domain="${FACILITY_B}"]`);
    await row.waitFor();
    expect(await page.getByTestId('domain-row').count()).toBe(1);
    await row.getByRole('link', { name: 'もみじ荘' }).click();
    await heading(page, 'ドメイン：もみじ荘');

    const rooms = page.locator('[data-testid="data-section"][data-section="rooms"]');
    await rooms.getByText('demo-b-01 — 松の間').click();
    await rooms.getByTestId('json-view').getByText('"residentName": "原田 ミツ"').waitFor();

    await page.getByRole('link', { name: '睡眠', exact: true }).click();
    await page.waitForURL(`**/master/domain/${FACILITY_B}/sleep`);
    const nights = page.getByTestId('sleep-row');
    await nights.first().waitFor();
    expect(await nights.count()).toBeGreaterThan(20);
    expect(await nights.first().getByRole('link').getAttribute('href')).toMatch(/^\/room\/demo-b-0\d\/sleep\?day=\d{4}-\d\d-\d\d$/);

    await page.getByRole('link', { name: '履歴', exact: true }).click();
    await page.waitForURL(`**/master/domain/${FACILITY_B}/history`);
    await page.locator(`[data-testid="audit-log-row"][data-path="domains/${FACILITY_B}"]`).first().waitFor();
    expect(pageConsole.errors).toEqual([]);
  });

  it('is read-only for a developer (100): no editing in the screens, and the server refuses', async () => {
    const page = await developer.newPage();
    await page.goto('/master/paramater-lists');
    await page.getByTestId('master-read-only').waitFor();
    await page.getByTestId('parameter-row').first().waitFor();
    expect(await page.getByRole('button', { name: 'パラメータを追加' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /を編集$/ }).count()).toBe(0);
    await page.goto('/master/history-lists');
    await page.getByTestId('history-row').first().waitFor();
    expect(await page.getByRole('button', { name: '更新履歴を追加' }).count()).toBe(0);

    const parameter = await api(developer, 'PUT', `/api/documents/parameters/${PARAMETER}`, { data: { key: PARAMETER, type: 'number', value: 1 } });
    expect(parameter.status).toBe(403);
    expect(parameter.body).toMatchObject({ code: 'permission-denied' });
    const release = await api(developer, 'PATCH', '/api/documents/histories/v0-1-0', { data: { title: 'x' } });
    expect(release.status).toBe(403);
    const deleted = await api(developer, 'DELETE', '/api/documents/deviceTypes/nemuri-chest');
    expect(deleted.status).toBe(403);
  });

  it('shows the newest release note once after an update, until closed', async () => {
    const context = await signedInContext('senior@example.com');
    const page = await context.newPage();
    await page.goto('/');
    // A first visit only remembers the running version.
    await expect.poll(() => page.evaluate(() => window.localStorage.getItem('nemuri.lastSeenVersion'))).toBe(APP_VERSION);
    expect(await page.getByTestId('release-notice').count()).toBe(0);

    await page.evaluate(() => window.localStorage.setItem('nemuri.lastSeenVersion', '0.0.1'));
    await page.reload();
    const notice = page.getByTestId('release-notice');
    await notice.getByText(`アップデートのお知らせ（${APP_VERSION}）`).waitFor();
    await page.reload();
    await notice.waitFor();
    await notice.getByRole('button', { name: 'お知らせを閉じる' }).click();
    await notice.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => window.localStorage.getItem('nemuri.lastSeenVersion'))).toBe(APP_VERSION);
    await page.reload();
    await page.getByRole('navigation').first().waitFor();
    expect(await page.getByTestId('release-notice').count()).toBe(0);
  });
});
