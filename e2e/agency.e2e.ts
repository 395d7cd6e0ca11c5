/**
 * The agency area in the browser, on the demo data: the agency administrator opens the statistics
 * (figures and charts), the partners, a partner's five tabs, generates this month's bills (a forecast
 * of the days passed, refused at issue), then a past month's, issues one after confirming and
 * downloads its PDF invoice (number, due date, legal name); an agency user (level 50) sees the bills but
 * no way to change them; agency A never sees a second agency B's partner or bill (screens and API);
 * a developer picks either agency at the top and sees that agency's data only. Partners come by
 * consent: the agency administrator sends a request to a corporation of this file's own, whose
 * owner accepts it on a phone (ドメイン設定 › 代理店), and later ends the partnership.
 *
 * This month's and the fourth month back's bills are this file's own (the demo data bills the three
 * months before this one): they are removed afterwards, so other files see the demo bills as they were.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newContext, watchConsole } from './support/browser.ts';
import { signInByApi } from './support/session.ts';

const run = promisify(execFile);
const baseURL = inject('baseURL');
const AGENCY = DEMO_DOMAINS.agency;
const AGENCY_NAME = 'ねむりケア販売株式会社';
const CORP = DEMO_DOMAINS.corporation;
const CORP_NAME = '社会福祉法人さくら会';

/** This month in Japan time, `YYYY-MM`: not billed by the demo data, so generating makes fresh drafts. */
/** `YYYY-MM` in Japan time, `back` months before this one. */
function monthBack(back: number): string {
  const jst = new Date(Date.now() + 9 * 3_600_000);
  const index = jst.getUTCFullYear() * 12 + jst.getUTCMonth() - back;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}
const MONTH = monthBack(0);
/** A month that is over and that the demo data does not bill (it bills the three before this one). */
const PAST_MONTH = monthBack(4);
/** On the 1st no day of this month has passed: nothing is billed yet. */
const DAYS_PASSED = new Date(Date.now() + 9 * 3_600_000).getUTCDate() - 1;
/** A second agency, this file's own, with a partner and a bill that agency A must never see. */
const stamp = `${Date.now().toString(36)}${process.pid.toString(36)}`;
const AGENCY_B = `e2e-agency-b-${stamp}`;
const AGENCY_B_NAME = `E2E代理店B ${stamp}`;
const B_PARTNER = `e2e-b-partner-${stamp}`;
const B_PARTNER_NAME = `E2E取引先B ${stamp}`;
const B_BILL = `${B_PARTNER}-2026-01`;
const CUSTOMER_NAME = `E2E法人 ${stamp}`;
/** The corporation registered by the consent test (removed afterwards). */
let customerId: string | null = null;

let browser: Browser;
let maker: BrowserContext;
const contexts: BrowserContext[] = [];

async function signedInContext(email: string): Promise<BrowserContext> {
  const context = await newContext(browser, baseURL);
  contexts.push(context);
  await signInByApi(context, baseURL, email);
  return context;
}

async function billIdsOf(month: string): Promise<string[]> {
  const response = await maker.request.post(`${baseURL}/api/documents/query`, {
    headers: { origin: baseURL },
    data: { query: { collection: `domains/${AGENCY}/bills`, where: [['month', '==', month]] } },
  });
  const body = (await response.json()) as { documents?: { documentReferenceId: string }[] };
  return (body.documents ?? []).map((bill) => bill.documentReferenceId);
}

async function asMaker(method: 'PUT' | 'DELETE', path: string, data?: unknown): Promise<number> {
  const response = await maker.request.fetch(`${baseURL}/api/documents/${path}`, {
    method,
    headers: { origin: baseURL },
    ...(data === undefined ? {} : { data: { data } }),
  });
  return response.status();
}

beforeAll(async () => {
  browser = await launchBrowser();
  maker = await signedInContext('developer@example.com');
  expect(await asMaker('PUT', `domains/${AGENCY_B}`, { name: AGENCY_B_NAME, kind: 'agency', rootDomainId: AGENCY_B })).toBe(200);
  expect(await asMaker('PUT', `domains/${AGENCY_B}/partners/${B_PARTNER}`, { name: B_PARTNER_NAME, monthlyUnitPrice: 1000, status: 'active' })).toBe(200);
  expect(
    await asMaker('PUT', `domains/${AGENCY_B}/bills/${B_BILL}`, {
      partnerDomainId: B_PARTNER,
      partnerName: B_PARTNER_NAME,
      month: '2026-01',
      status: 'issued',
      subtotal: 1000,
      consumptionTax: 100,
      total: 1100,
    }),
  ).toBe(200);
});

afterAll(async () => {
  if (maker !== undefined) {
    for (const id of [...(await billIdsOf(MONTH)), ...(await billIdsOf(PAST_MONTH))])
      await maker.request.delete(`${baseURL}/api/documents/domains/${AGENCY}/bills/${id}`, { headers: { origin: baseURL } });
    await asMaker('DELETE', `domains/${AGENCY_B}/bills/${B_BILL}`);
    await asMaker('DELETE', `domains/${AGENCY_B}/partners/${B_PARTNER}`);
    await asMaker('DELETE', `domains/${AGENCY_B}`);
    if (customerId !== null) {
      await asMaker('DELETE', `domains/${AGENCY}/partners/${customerId}`);
      await asMaker('DELETE', `domains/${AGENCY}/partnerRequests/${customerId}`);
    }
  }
  for (const context of contexts) await context.close();
  await browser?.close();
});

/** A client-side navigation to `/agency/{section}?agency={agencyId}` (a predicate: `?` is special in URL globs). */
const waitForAgencyPage = (page: Page, section: string, agencyId: string) =>
  page.waitForURL((url) => url.pathname === `/agency/${section}` && url.searchParams.get('agency') === agencyId);

const billRow = (page: Page, partnerId: string, month = MONTH) => page.locator(`[data-testid="agency-bill-row"][data-bill="${partnerId}-${month}"]`);

describe('agency area', () => {
  it('the agency administrator sees statistics and partners, bills a month, issues a bill and downloads its invoice', async () => {
    const context = await signedInContext('agency-admin@example.com');
    const page = await context.newPage();
    const pageConsole = watchConsole(page);

    // Statistics: figures and the two charts.
    await page.goto('/agency/statistics');
    await page.getByRole('heading', { name: '統計' }).waitFor();
    await page.getByTestId('chart-revenue').waitFor();
    await page.getByTestId('chart-devices').waitFor();
    expect(await page.getByTestId('stat-devices').textContent()).toMatch(/機器数\d+台/);
    expect(await page.getByTestId('stat-rooms').textContent()).toContain('室');

    // Partners, and one partner's tabs.
    await page.getByRole('tab', { name: '取引先' }).click();
    await page.waitForURL('**/agency/partners');
    const partnerRow = page.locator(`[data-testid="agency-partner-row"][data-partner="${CORP}"]`);
    await partnerRow.waitFor();
    expect(await page.getByTestId('agency-partner-row').count()).toBe(2);
    expect(await partnerRow.textContent()).toContain('2,980円');
    await partnerRow.getByRole('link', { name: CORP_NAME }).click();
    await page.waitForURL(`**/agency/partner/${CORP}`);
    expect(await page.getByTestId('partner-name').textContent()).toBe(CORP_NAME);
    await page.getByTestId('partner-overview').waitFor();
    await page.getByRole('tab', { name: '機器' }).last().click();
    await page.getByTestId('agency-devices').waitFor();
    expect(await page.getByTestId('agency-device-row').count()).toBeGreaterThan(0);
    await page.getByRole('tab', { name: '部屋' }).click();
    await page.getByTestId('partner-rooms').getByText('さくら苑').first().waitFor();
    await page.getByRole('tab', { name: '請求' }).last().click();
    await page.getByTestId('agency-bills').waitFor();
    expect(await page.getByTestId('agency-bill-row').count()).toBe(3);
    await page.getByRole('tab', { name: 'スタッフ' }).click();
    await page.getByTestId('partner-staff').getByText('鈴木 管理').waitFor();

    // Bills: this month's drafts for both partners, counting only the days passed (見込み), not issuable yet.
    await page.goto('/agency/bills');
    await page.getByTestId('invoice-settings').getByLabel('登録番号').waitFor();
    expect(await page.getByTestId('invoice-settings').getByLabel('登録番号').inputValue()).toMatch(/^T\d{13}$/);
    const generate = async (month: string) => {
      await page.getByTestId('generate-bills').getByLabel('対象月').click();
      await page.getByRole('option', { name: month, exact: true }).click();
      await page.getByRole('button', { name: 'この月の請求を作成' }).click();
    };
    if (DAYS_PASSED > 0) {
      await generate(MONTH);
      await billRow(page, CORP).waitFor();
      await billRow(page, DEMO_DOMAINS.household).waitFor();
      expect(await billRow(page, CORP).getAttribute('data-status')).toBe('draft');
      expect(await billRow(page, CORP).getByTestId('bill-forecast').textContent()).toMatch(/^見込み（\d{4}\/\d\d\/\d\dまで）$/);
      await page.getByRole('button', { name: `${CORP_NAME} ${MONTH} を発行` }).click();
      await page.getByRole('dialog', { name: '請求を発行' }).getByRole('button', { name: '発行する' }).click();
      await page.getByText('まだ終わっていない月の請求は発行できません', { exact: false }).first().waitFor();
      expect(await billRow(page, CORP).getAttribute('data-status')).toBe('draft');
      await page.getByRole('dialog', { name: '請求を発行' }).getByRole('button', { name: 'キャンセル' }).click();
    }

    // A month that is over: issue one after confirming; it takes the next invoice number and offers its PDF.
    await generate(PAST_MONTH);
    await billRow(page, CORP, PAST_MONTH).waitFor();
    expect(await billRow(page, CORP, PAST_MONTH).getByTestId('bill-forecast').count()).toBe(0);
    await page.getByRole('button', { name: `${CORP_NAME} ${PAST_MONTH} を発行` }).click();
    const confirm = page.getByRole('dialog', { name: '請求を発行' });
    await confirm.getByRole('button', { name: '発行する' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expect.poll(() => billRow(page, CORP, PAST_MONTH).getAttribute('data-status')).toBe('issued');
    expect(await billRow(page, CORP, PAST_MONTH).getByTestId('bill-status').textContent()).toBe('発行済み');
    const number = ((await billRow(page, CORP, PAST_MONTH).getByTestId('bill-number').textContent()) ?? '').replace('No. ', '');
    expect(number).toMatch(/^\d{6}$/);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      billRow(page, CORP, PAST_MONTH)
        .getByRole('link', { name: `${CORP_NAME} ${PAST_MONTH} の請求書PDF` })
        .click(),
    ]);
    const dir = await mkdtemp(join(tmpdir(), 'nemuri-e2e-invoice-'));
    try {
      const file = join(dir, 'invoice.pdf');
      await download.saveAs(file);
      expect((await readFile(file)).subarray(0, 5).toString()).toBe('%PDF-');
      const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', file, '-']);
      expect(stdout).toContain('適格請求書');
      expect(stdout).toMatch(/登録番号: T\d{13}/);
      expect(stdout).toContain(`${CORP_NAME} 御中`);
      expect(stdout).toContain(`請求書番号: ${number}`);
      expect(stdout).toMatch(/お支払期限: \d{4}年\d{1,2}月\d{1,2}日/);
      expect(stdout).toContain('消費税（10%）');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    // The one refusal the browser logs is the issue of the month under way (409 month-not-over).
    expect(pageConsole.errors).toEqual(DAYS_PASSED > 0 ? ['Failed to load resource: the server responded with a status of 409 (Conflict)'] : []);
  });

  it('an agency user (level 50) sees the bills but cannot generate, issue or edit', async () => {
    const context = await signedInContext('agency@example.com');
    const page = await context.newPage();
    await page.goto('/agency/bills');
    await page.getByTestId('agency-bills').waitFor();
    await page.getByTestId('invoice-settings').waitFor();
    expect(await page.getByRole('button', { name: 'この月の請求を作成' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /を発行$/ }).count()).toBe(0);
    await page.goto('/agency/partners');
    await page.getByTestId('agency-partners').waitFor();
    expect(await page.getByRole('button', { name: '取引先を申請' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /への申請を取り下げ$/ }).count()).toBe(0);
  });

  it('a partner by consent: the agency sends a request, the customer’s owner accepts it on a phone, the agency sees the customer, the owner ends it', async () => {
    // A corporation of this file's own, registered the way anyone can, with its owner signed in.
    const customer = await newContext(browser, baseURL);
    contexts.push(customer);
    const registered = await customer.request.post(`${baseURL}/api/auth/registration/domain`, {
      headers: { origin: baseURL },
      data: {
        name: `E2E オーナー ${stamp}`,
        email: `e2e-customer-${stamp}@example.com`,
        password: `pw-${stamp}-Long!`,
        domainName: CUSTOMER_NAME,
        domainKind: 'corporation',
      },
    });
    expect(registered.status(), await registered.text()).toBe(200);
    customerId = ((await registered.json()) as { domainId: string }).domainId;

    const agencyContext = await signedInContext('agency-admin@example.com');
    const agencyPage = await agencyContext.newPage();
    const pageConsole = watchConsole(agencyPage);
    await agencyPage.goto('/agency/partners');
    await agencyPage.getByRole('button', { name: '取引先を申請' }).click();
    const dialog = agencyPage.getByRole('dialog', { name: '取引先の申請' });
    await dialog.getByText('承認されるまで、相手の機器や部屋は見られません').waitFor();
    await dialog.getByLabel('ドメイン（法人・個人）').click();
    await agencyPage.getByRole('option', { name: CUSTOMER_NAME, exact: true }).click();
    await dialog.getByLabel('月額単価（税抜）').fill('3200');
    await dialog.getByRole('button', { name: '申請を送る' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const requestRow = agencyPage.locator(`[data-testid="agency-request-row"][data-domain="${customerId}"]`);
    await requestRow.waitFor();
    expect(await requestRow.getByTestId('request-status').textContent()).toBe('申請中');
    // Asked, not consented: not a partner.
    expect(await agencyPage.locator(`[data-testid="agency-partner-row"][data-partner="${customerId}"]`).count()).toBe(0);

    // The owner answers on a phone.
    const phone = await customer.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto('/domain-config');
    await phone.getByRole('tab', { name: '代理店' }).click();
    const card = phone.locator(`[data-testid="partner-request"][data-agency="${AGENCY}"]`);
    await card.getByText(AGENCY_NAME).waitFor();
    expect(await card.textContent()).toContain('3,200円');
    const accept = card.getByRole('button', { name: `${AGENCY_NAME} の申請を承認` });
    const box = await accept.boundingBox();
    expect(box !== null && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await accept.click();
    await expect.poll(() => card.getAttribute('data-status')).toBe('accepted');
    expect(await card.textContent()).toContain('取引中');

    await agencyPage.reload();
    await agencyPage.locator(`[data-testid="agency-partner-row"][data-partner="${customerId}"]`).waitFor();
    expect(await requestRow.getByTestId('request-status').textContent()).toBe('承認済み');

    // The owner ends it: the agency no longer has the partner.
    await card.getByRole('button', { name: `${AGENCY_NAME} との取引を終了` }).click();
    await phone.getByRole('dialog', { name: '取引を終了' }).getByRole('button', { name: '終了する' }).click();
    await expect.poll(() => card.getAttribute('data-status')).toBe('ended');
    await agencyPage.reload();
    await requestRow.waitFor();
    expect(await requestRow.getByTestId('request-status').textContent()).toBe('取引終了');
    expect(await agencyPage.locator(`[data-testid="agency-partner-row"][data-partner="${customerId}"]`).count()).toBe(0);
    expect(pageConsole.errors).toEqual([]);
  });

  it('agency A never sees agency B: not on its screens (even when asked for B in the address), not through the API', async () => {
    const context = await signedInContext('agency-admin@example.com');
    const page = await context.newPage();
    await page.goto(`/agency/bills?agency=${AGENCY_B}`);
    await page.getByTestId('agency-bills').waitFor();
    expect(await page.getByTestId('agency-name').textContent()).toBe(AGENCY_NAME);
    expect(await page.locator(`[data-bill="${B_BILL}"]`).count()).toBe(0);
    expect(await page.getByText(B_PARTNER_NAME).count()).toBe(0);
    await page.goto(`/agency/partner/${B_PARTNER}`);
    await page.getByRole('alert').getByText('取引先が見つかりません。').waitFor();
    for (const path of ['overview', 'statistics', `bills/${B_BILL}/pdf`]) {
      expect((await context.request.get(`${baseURL}/api/agency/${AGENCY_B}/${path}`)).status()).toBe(403);
    }
    // Out of scope answers like missing.
    expect((await context.request.get(`${baseURL}/api/documents/domains/${AGENCY_B}/bills/${B_BILL}`)).status()).toBe(404);
  });

  it('a developer picks the agency at the top and sees that agency’s partners, bills and devices only', async () => {
    const page = await maker.newPage();
    await page.goto('/agency/partners');
    const picker = page.getByTestId('agency-picker');
    await picker.click();
    await page.getByRole('option', { name: AGENCY_B_NAME, exact: true }).click();
    // Without `?agency=` the first agency by name is shown, so choosing B may not change the address.
    await expect.poll(() => picker.inputValue()).toBe(AGENCY_B_NAME);
    await page.locator(`[data-testid="agency-partner-row"][data-partner="${B_PARTNER}"]`).waitFor();
    expect(await page.getByTestId('agency-partner-row').count()).toBe(1);
    await page.getByRole('tab', { name: '請求' }).click();
    await page.locator(`[data-testid="agency-bill-row"][data-bill="${B_BILL}"]`).waitFor();
    expect(await page.getByTestId('agency-bill-row').count()).toBe(1);

    await picker.click();
    await page.getByRole('option', { name: AGENCY_NAME, exact: true }).click();
    await waitForAgencyPage(page, 'bills', AGENCY);
    await expect.poll(() => picker.inputValue()).toBe(AGENCY_NAME);
    await page.locator(`[data-testid="agency-bill-row"][data-bill="${CORP}-${MONTH}"]`).waitFor();
    expect(await page.locator(`[data-bill="${B_BILL}"]`).count()).toBe(0);
    await page.getByRole('tab', { name: '取引先' }).click();
    await waitForAgencyPage(page, 'partners', AGENCY);
    await page.locator(`[data-testid="agency-partner-row"][data-partner="${CORP}"]`).waitFor();
    await page.getByRole('tab', { name: '機器' }).click();
    await waitForAgencyPage(page, 'devices', AGENCY);
    await page.getByTestId('agency-devices').waitFor();
    expect(await page.getByTestId('agency-device-row').count()).toBeGreaterThan(10);
    await page.close();
  });
});

describe('agency bills, devices, partners and requests, paged', () => {
  const AGENCY_C = `e2e-agency-c-${stamp}`;
  const C_PARTNER = `e2e-c-partner-${stamp}`;
  /** 60 months of bills, 2020-01 … 2024-12: more than one page (50). */
  /** 55 devices of agency C in stock: more than one page (50). */
  const SERIALS = Array.from({ length: 55 }, (_, index) => `E2EC${stamp.toUpperCase()}${String(index).padStart(2, '0')}`);
  /** 51 more partners (52 with C_PARTNER: more than a page of 50), named after C_PARTNER's name so that it sorts first; 21 of them with a request (a page is 20). */
  const EXTRA_PARTNERS = Array.from({ length: 51 }, (_, index) => `e2e-c-extra-${stamp}-${String(index).padStart(2, '0')}`);
  const MONTHS = Array.from({ length: 60 }, (_, index) => `${2020 + Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`);

  beforeAll(async () => {
    expect(await asMaker('PUT', `domains/${AGENCY_C}`, { name: `E2E代理店C ${stamp}`, kind: 'agency', rootDomainId: AGENCY_C })).toBe(200);
    expect(await asMaker('PUT', `domains/${AGENCY_C}/partners/${C_PARTNER}`, { name: `E2E取引先C ${stamp}`, monthlyUnitPrice: 1000, status: 'active' })).toBe(
      200,
    );
    for (const month of MONTHS)
      expect(
        await asMaker('PUT', `domains/${AGENCY_C}/bills/${C_PARTNER}-${month}`, {
          partnerDomainId: C_PARTNER,
          month,
          status: 'paid',
          subtotal: 1000,
          consumptionTax: 100,
          total: 1100,
        }),
      ).toBe(200);
    for (const serial of SERIALS)
      expect(await asMaker('PUT', `devices/${serial}`, { deviceTypeId: 'nemuri-chest', ownerAgencyDomainId: AGENCY_C, domainId: null, status: 'stock' })).toBe(
        200,
      );
    for (const [index, id] of EXTRA_PARTNERS.entries()) {
      const name = `E2E取引先C ${stamp} ${String(index).padStart(2, '0')}`;
      expect(await asMaker('PUT', `domains/${AGENCY_C}/partners/${id}`, { name, monthlyUnitPrice: 1000, status: 'active' })).toBe(200);
      // The first 21 also have their (accepted) request, a day apart.
      if (index <= 20) {
        const requestedAt = new Date(Date.UTC(2026, 0, 1 + index)).toISOString();
        expect(
          await asMaker('PUT', `domains/${AGENCY_C}/partnerRequests/${id}`, {
            customerDomainId: id,
            customerName: name,
            agencyName: `E2E代理店C ${stamp}`,
            status: 'accepted',
            partnerName: name,
            monthlyUnitPrice: 1000,
            requestedBy: 'e2e',
            requestedAt,
            answeredAt: requestedAt,
          }),
        ).toBe(200);
      }
    }
  }, 180_000);

  afterAll(async () => {
    for (const month of MONTHS) await asMaker('DELETE', `domains/${AGENCY_C}/bills/${C_PARTNER}-${month}`);
    for (const serial of SERIALS) await asMaker('DELETE', `devices/${serial}`);
    for (const id of EXTRA_PARTNERS) {
      await asMaker('DELETE', `domains/${AGENCY_C}/partnerRequests/${id}`);
      await asMaker('DELETE', `domains/${AGENCY_C}/partners/${id}`);
    }
    await asMaker('DELETE', `domains/${AGENCY_C}/partners/${C_PARTNER}`);
    await asMaker('DELETE', `domains/${AGENCY_C}`);
  }, 120_000);

  it('the bills list reads a page of 50 from the server, newest first, and pages back and forth', async () => {
    const page = await maker.newPage();
    await page.goto(`/agency/bills?agency=${AGENCY_C}`);
    const rows = page.getByTestId('agency-bill-row');
    await page.locator(`[data-testid="agency-bill-row"][data-bill="${C_PARTNER}-2024-12"]`).waitFor();
    expect(await rows.count()).toBe(50);
    const pager = page.getByTestId('bills-pager');
    await pager.getByText('1ページ目').waitFor();
    await pager.getByRole('button', { name: '古い請求書' }).click();
    await pager.getByText('2ページ目').waitFor();
    await page.locator(`[data-testid="agency-bill-row"][data-bill="${C_PARTNER}-2020-01"]`).waitFor();
    expect(await rows.count()).toBe(10);
    expect(await page.locator(`[data-bill="${C_PARTNER}-2024-12"]`).count()).toBe(0);
    expect(await pager.getByRole('button', { name: '古い請求書' }).isDisabled()).toBe(true);
    await pager.getByRole('button', { name: '新しい請求書' }).click();
    await page.locator(`[data-testid="agency-bill-row"][data-bill="${C_PARTNER}-2024-12"]`).waitFor();
    // The partner's bills tab pages the same way.
    await page.goto(`/agency/partner/${C_PARTNER}?agency=${AGENCY_C}&tab=bills`);
    await page.getByTestId('bills-pager').getByRole('button', { name: '古い請求書' }).waitFor();
    expect(await rows.count()).toBe(50);
    await page.close();
  }, 90_000);

  it('the partners list reads a page of 50 by name and the requests a page of 20 newest first, each with a pager', async () => {
    const page = await maker.newPage();
    await page.goto(`/agency/partners?agency=${AGENCY_C}`);
    const partners = page.getByTestId('agency-partner-row');
    await page.locator(`[data-testid="agency-partner-row"][data-partner="${C_PARTNER}"]`).waitFor();
    expect(await partners.count()).toBe(50);
    const partnersPager = page.getByTestId('agency-partners-pager');
    await partnersPager.getByRole('button', { name: '次のページ' }).click();
    await partnersPager.getByText('2ページ目').waitFor();
    await page.locator(`[data-testid="agency-partner-row"][data-partner="${EXTRA_PARTNERS.at(-1)}"]`).waitFor();
    await expect.poll(() => partners.count()).toBe(2);
    expect(await page.locator(`[data-partner="${C_PARTNER}"]`).count()).toBe(0);
    await partnersPager.getByRole('button', { name: '前のページ' }).click();
    await page.locator(`[data-testid="agency-partner-row"][data-partner="${C_PARTNER}"]`).waitFor();

    const requests = page.getByTestId('agency-request-row');
    await page.locator(`[data-testid="agency-request-row"][data-domain="${EXTRA_PARTNERS[20]}"]`).waitFor();
    expect(await requests.count()).toBe(20);
    const requestsPager = page.getByTestId('agency-requests-pager');
    await requestsPager.getByRole('button', { name: '古い申請' }).click();
    await page.locator(`[data-testid="agency-request-row"][data-domain="${EXTRA_PARTNERS[0]}"]`).waitFor();
    await expect.poll(() => requests.count()).toBe(1);
    expect(await requestsPager.getByRole('button', { name: '古い申請' }).isDisabled()).toBe(true);
    await page.close();
  }, 90_000);

  it('the devices list reads a page of 50 from the server, pages, and searches on the server', async () => {
    const page = await maker.newPage();
    await page.goto(`/agency/devices?agency=${AGENCY_C}`);
    const rows = page.getByTestId('agency-device-row');
    await page.locator(`[data-testid="agency-device-row"][data-serial="${SERIALS[0]}"]`).waitFor();
    expect(await rows.count()).toBe(50);
    await page.getByText('55台 / 全55台').waitFor();
    await page.getByTestId('devices-pager').getByRole('button', { name: '2ページ目' }).click();
    await page.locator(`[data-testid="agency-device-row"][data-serial="${SERIALS[54]}"]`).waitFor();
    expect(await rows.count()).toBe(5);
    await page.getByLabel('検索').fill(SERIALS[7] as string);
    await page.locator(`[data-testid="agency-device-row"][data-serial="${SERIALS[7]}"]`).waitFor();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await page.getByTestId('devices-pager').count()).toBe(0);
    await page.close();
  }, 90_000);
});
