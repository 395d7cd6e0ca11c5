/**
 * Device lending in the browser: a developer lends a test device to もみじ荘 (demo-facility-b) and
 * sees it listed as lent and under its holder; a lend begun in a second tab before that is refused
 * with a Japanese message (and so is a second lend through the API); the developer returns it after
 * confirming, lends it again, and its history shows both borrows. A facility administrator can
 * neither open the page nor lend through the API.
 *
 * The device is this file's own (created as the maker, removed with its borrows afterwards), so
 * other files' counts of the demo data stay as they are.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newContext, watchConsole } from './support/browser.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
const stamp = `${Date.now().toString(36)}${process.pid.toString(36)}`.toUpperCase();
const SERIAL = `E2E-DB-${stamp}`;
const FACILITY_B = 'もみじ荘';
const FACILITY_A = 'さくら苑';

let browser: Browser;
let maker: BrowserContext;
const contexts: BrowserContext[] = [];

async function signedInContext(email: string): Promise<BrowserContext> {
  const context = await newContext(browser, baseURL);
  contexts.push(context);
  await signInByApi(context, baseURL, email);
  return context;
}

async function api(context: BrowserContext, method: 'PUT' | 'POST' | 'DELETE', path: string, data?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await context.request.fetch(`${baseURL}${path}`, { method, headers: { origin: baseURL }, ...(data === undefined ? {} : { data }) });
  const text = await response.text();
  return { status: response.status(), body: text === '' ? null : (JSON.parse(text) as unknown) };
}

async function borrowIds(): Promise<string[]> {
  const reply = await api(maker, 'POST', '/api/documents/query', { query: { collection: `devices/${SERIAL}/borrows` } });
  return ((reply.body as { documents?: { documentReferenceId: string }[] }).documents ?? []).map((borrow) => borrow.documentReferenceId);
}

beforeAll(async () => {
  browser = await launchBrowser();
  maker = await signedInContext('developer@example.com');
  const device = { deviceTypeId: 'nemuri-chest', ownerAgencyDomainId: DEMO_DOMAINS.agency, domainId: null, status: 'stock', firmwareVersion: '2.0.0' };
  expect((await api(maker, 'PUT', `/api/documents/devices/${SERIAL}`, { data: device })).status).toBe(200);
});

afterAll(async () => {
  if (maker !== undefined) {
    for (const id of await borrowIds()) await api(maker, 'DELETE', `/api/documents/devices/${SERIAL}/borrows/${id}`);
    await api(maker, 'DELETE', `/api/documents/devices/${SERIAL}`);
  }
  for (const context of contexts) await context.close();
  await browser?.close();
});

const row = (page: Page) => page.locator(`[data-testid="borrow-row"][data-serial="${SERIAL}"]`);

async function openList(page: Page): Promise<void> {
  await page.goto('/device-borrow');
  await page.getByRole('heading', { name: '機器貸出' }).waitFor();
  await page.getByPlaceholder('シリアル番号・機種・貸出先で検索').fill(SERIAL);
  await row(page).waitFor();
}

async function chooseDomain(page: Page, dialog: ReturnType<Page['getByRole']>, name: string): Promise<void> {
  await dialog.getByLabel('貸出先').click();
  await page.getByRole('option', { name, exact: true }).click();
}

describe('device lending', () => {
  it('lends a device, refuses a second lend in Japanese, returns it after confirming, and keeps the history', async () => {
    const page = await maker.newPage();
    const pageConsole = watchConsole(page);
    await openList(page);
    expect(await row(page).getByTestId('borrow-status').textContent()).toBe('在庫');

    // A colleague's tab opens the lend dialog for the same device before this tab lends it.
    const other = await maker.newPage();
    await openList(other);
    await row(other)
      .getByRole('button', { name: `${SERIAL} を貸し出す` })
      .click();
    const late = other.getByRole('dialog', { name: `${SERIAL} を貸し出す` });
    await late.waitFor();
    await chooseDomain(other, late, FACILITY_A);

    await row(page)
      .getByRole('button', { name: `${SERIAL} を貸し出す` })
      .click();
    const dialog = page.getByRole('dialog', { name: `${SERIAL} を貸し出す` });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: '貸し出す' }).click();
    await dialog.getByText('貸出先を選んでください', { exact: true }).last().waitFor();
    await chooseDomain(page, dialog, FACILITY_B);
    await dialog.getByLabel('メモ').fill('E2E 試用貸出');
    await dialog.getByRole('button', { name: '貸し出す' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => row(page).getByTestId('borrow-status').textContent()).toBe('貸出中');
    expect(await row(page).getByTestId('borrow-holder').textContent()).toBe(FACILITY_B);
    const stored = await maker.request.get(`${baseURL}/api/documents/devices/${SERIAL}`);
    expect(((await stored.json()) as { document: Record<string, unknown> }).document).toMatchObject({ domainId: DEMO_DOMAINS.facilityB, status: 'lent' });

    // The second lend: refused, with the reason in Japanese; the device stays with もみじ荘.
    await late.getByRole('button', { name: '貸し出す' }).click();
    await late.getByRole('alert').filter({ hasText: 'この機器はすでに貸出中です' }).waitFor();
    const again = await api(maker, 'POST', `/api/devices/${SERIAL}/borrows`, { toDomainId: DEMO_DOMAINS.facilityA, from: new Date().toISOString() });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'already-exists', reason: 'already-lent' });
    await other.close();
    expect(await row(page).getByTestId('borrow-holder').textContent()).toBe(FACILITY_B);

    // Current holders: the device under もみじ荘.
    await page.getByRole('tab', { name: '貸出先ごと' }).click();
    const group = page.locator(`[data-testid="holder-group"][data-domain="${DEMO_DOMAINS.facilityB}"]`);
    await group.getByRole('button', { name: SERIAL }).waitFor();
    await page.getByRole('tab', { name: '機器一覧' }).click();
    await page.getByPlaceholder('シリアル番号・機種・貸出先で検索').fill(SERIAL);

    // Return, after a confirmation.
    await row(page)
      .getByRole('button', { name: `${SERIAL} を返却` })
      .click();
    const confirm = page.getByRole('dialog', { name: `${SERIAL} の返却` });
    await confirm.getByText(`${FACILITY_B}に貸し出している ${SERIAL} を返却済みにしますか？`).waitFor();
    await confirm.getByRole('button', { name: '返却する' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expect.poll(() => row(page).getByTestId('borrow-status').textContent()).toBe('在庫');

    // Lent again after the return; the history keeps both borrows, newest first.
    await row(page)
      .getByRole('button', { name: `${SERIAL} を貸し出す` })
      .click();
    await chooseDomain(page, dialog, FACILITY_A);
    await dialog.getByRole('button', { name: '貸し出す' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => row(page).getByTestId('borrow-holder').textContent()).toBe(FACILITY_A);
    await row(page)
      .getByRole('button', { name: `${SERIAL} の貸出履歴` })
      .click();
    const history = page.getByRole('dialog', { name: `${SERIAL} の貸出履歴` });
    const entries = history.getByTestId('borrow-history-row');
    await expect.poll(() => entries.count()).toBe(2);
    expect(await entries.nth(0).textContent()).toContain(FACILITY_A);
    expect(await entries.nth(0).textContent()).toContain('貸出中');
    expect(await entries.nth(1).textContent()).toContain(FACILITY_B);
    expect(await entries.nth(1).textContent()).toContain('E2E 試用貸出');
    expect(await entries.nth(1).textContent()).not.toContain('貸出中');
    expect(await borrowIds()).toHaveLength(2);
    expect(pageConsole.errors).toEqual([]);
  });

  it('is closed to a facility administrator: the page says so and the API refuses the lend', async () => {
    const admin = await signedInContext('admin@example.com');
    const page = await admin.newPage();
    await page.goto('/device-borrow');
    await page.getByText('このページへのアクセス権限がありません').waitFor();
    expect(await page.getByTestId('borrow-table').count()).toBe(0);
    const refused = await api(admin, 'POST', `/api/devices/${SERIAL}/borrows`, { toDomainId: DEMO_DOMAINS.facilityA, from: new Date().toISOString() });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'permission-denied' });
  });
});
