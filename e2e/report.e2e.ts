/**
 * Sleep reports in the browser: a staff member opens /report, picks a room and a month, sees the
 * sleep diary and the metric table, saves a comment and downloads the PDF and the CSV (their
 * bytes checked); an administrator makes a report link for the room, a visitor opens it and reads
 * that room's report on /report, and after the administrator revokes the link the visitor sees
 * nothing.
 *
 * The room and its two nights are this file's own (October 2026, a month the demo data does not
 * reach), removed afterwards, so other files' counts of the demo data stay as they are.
 */
import { readFile } from 'node:fs/promises';
import iconv from 'iconv-lite';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newContext, watchConsole } from './support/browser.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
const stamp = `${Date.now().toString(36)}${process.pid.toString(36)}`;
const ROOM_ID = `e2e-report-${stamp}`;
const ROOM_NAME = `E2E レポート室 ${stamp}`;

let browser: Browser;
let admin: BrowserContext;
const contexts: BrowserContext[] = [];

async function signedInContext(email: string): Promise<BrowserContext> {
  const context = await newContext(browser, baseURL);
  contexts.push(context);
  await signInByApi(context, baseURL, email);
  return context;
}

async function api(context: BrowserContext, method: 'PUT' | 'DELETE', path: string, data?: unknown): Promise<number> {
  const response = await context.request.fetch(`${baseURL}${path}`, { method, headers: { origin: baseURL }, ...(data === undefined ? {} : { data }) });
  return response.status();
}

/** A night from 22:00: 10 minutes awake, 400 asleep with two breathing pauses, 5 out of bed, 60 asleep. */
function night(day: string, totalSleepMin: number) {
  const epochs = [
    ...Array.from({ length: 10 }, () => ({ state: 'awake', respirationRate: 17, heartRate: 66 })),
    ...Array.from({ length: 400 }, (_, index) => ({
      state: 'light',
      respirationRate: 14,
      heartRate: 58,
      ...(index === 100 || index === 200 ? { pauses: 1 } : {}),
    })),
    ...Array.from({ length: 5 }, () => ({ state: 'outOfBed' })),
    ...Array.from({ length: 60 }, () => ({ state: 'deep', respirationRate: 13, heartRate: 55 })),
  ];
  return {
    source: 'e2e',
    epochStart: `${day}T22:00:00+09:00`,
    bedTime: `${day}T22:00:00+09:00`,
    epochs,
    totalSleepMin,
    sleepEfficiency: 90.5,
    outOfBedCount: 1,
    respirationRate: { avg: 14.2, min: 12, max: 18 },
    heartRate: { avg: 58.4, min: 52, max: 70 },
  };
}

async function showReport(page: Page, roomName: string | null): Promise<void> {
  await page.goto('/report');
  if (roomName !== null) {
    await page.getByRole('combobox', { name: '部屋', exact: true }).click();
    await page.getByRole('option', { name: roomName }).click();
    await page.keyboard.press('Escape');
  }
  await page.getByLabel('対象月').fill('2026-10');
  await page.getByTestId('report-range').filter({ hasText: '2026/10/01 〜 2026/10/31' }).waitFor();
  await page.getByRole('button', { name: 'レポートを表示' }).click();
  await page.getByTestId('report-room').waitFor();
}

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await signedInContext('admin@example.com');
  expect(await api(admin, 'PUT', `/api/documents/rooms/${ROOM_ID}`, { data: { domainId: 'demo-facility-a', name: ROOM_NAME, floor: 'E2E階' } })).toBe(200);
  expect(await api(admin, 'PUT', `/api/documents/rooms/${ROOM_ID}/sleeps/2026-10-05`, { data: night('2026-10-05', 437) })).toBe(200);
  expect(await api(admin, 'PUT', `/api/documents/rooms/${ROOM_ID}/sleeps/2026-10-06`, { data: night('2026-10-06', 412) })).toBe(200);
});

afterAll(async () => {
  if (admin !== undefined) {
    for (const day of ['2026-10-05', '2026-10-06']) await api(admin, 'DELETE', `/api/documents/rooms/${ROOM_ID}/sleeps/${day}`);
    await api(admin, 'DELETE', `/api/documents/rooms/${ROOM_ID}`);
  }
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe('sleep reports', () => {
  it('shows a staff member the diary and the table, keeps a comment, and downloads the PDF and the CSV', async () => {
    const staff = await signedInContext('staff@example.com');
    const page = await staff.newPage();
    const console = watchConsole(page);
    await showReport(page, ROOM_NAME);

    const room = page.getByTestId('report-room');
    await expect.poll(() => room.getByTestId('diary-day').count()).toBe(31);
    expect(await room.locator('[data-day="2026-10-05"] rect[data-kind="asleep"]').count()).toBe(2);
    expect(await room.locator('[data-day="2026-10-05"] [data-testid="diary-pause"]').count()).toBe(2);
    expect(await room.locator('[data-testid="report-row"][data-day="2026-10-05"] [data-key="totalSleepMin"]').textContent()).toBe('437');
    expect(await room.locator('[data-testid="report-row"][data-day="2026-10-05"] [data-key="bedTime"]').textContent()).toBe('22:00');
    expect(await room.locator('[data-testid="report-average"] [data-key="totalSleepMin"]').textContent()).toBe('424.5');
    await room.getByTestId('report-trend-respiration').waitFor();

    await page.getByRole('textbox', { name: `${ROOM_NAME}のコメント` }).fill('10月は夜間の離床が少なく安定しています。');
    await page.getByRole('button', { name: 'コメントを保存' }).click();
    await page.getByText('コメントを保存しました').waitFor();

    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'PDFをダウンロード' }).click()]);
    expect(pdf.suggestedFilename()).toBe(`睡眠レポート_E2E_レポート室_${stamp}_2026-10-01_2026-10-31.pdf`);
    const pdfBytes = await readFile(await pdf.path());
    expect(pdfBytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfBytes.length).toBeGreaterThan(5_000);

    await page.getByRole('combobox', { name: '文字コード' }).click();
    await page.getByRole('option', { name: 'Shift_JIS' }).click();
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'CSVをダウンロード' }).click()]);
    expect(csv.suggestedFilename()).toMatch(/_日別\.csv$/);
    const lines = iconv
      .decode(await readFile(await csv.path()), 'Shift_JIS')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toMatch(/^部屋,日付,就床時刻,/);
    expect(lines.find((line) => line.includes(',2026/10/05,'))).toContain(',437,90.5,');
    expect(lines.find((line) => line.includes(',期間平均,'))).toContain(',424.5,');
    expect(console.errors).toEqual([]);
  });

  it('cancels a report being made: the browser aborts its request (on which the server stops reading, reportThreads.test.ts) and the page is back to its start', async () => {
    const staff = await signedInContext('staff@example.com');
    const page = await staff.newPage();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The answer is held back, so that the report is still being made when 中止 is pressed.
    await page.route('**/api/reports/data?**', async (route) => {
      await held;
      await route.continue().catch(() => undefined);
    });
    await page.goto('/report');
    await page.getByRole('combobox', { name: '部屋', exact: true }).click();
    await page.getByRole('option', { name: ROOM_NAME }).click();
    await page.keyboard.press('Escape');
    await page.getByLabel('対象月').fill('2026-10');
    await page.getByTestId('report-range').filter({ hasText: '2026/10/01 〜 2026/10/31' }).waitFor();
    const aborted = page.waitForEvent('requestfailed', (request) => request.url().includes('/api/reports/data'));
    await page.getByRole('button', { name: 'レポートを表示' }).click();
    await page.getByTestId('report-cancel').getByText('中止').click();
    expect((await aborted).failure()?.errorText).toContain('ABORTED');
    release();
    await page.getByText('部屋と期間を選んで「レポートを表示」を押してください。').waitFor();
    expect(await page.getByTestId('report-room').count()).toBe(0);
    await page.close();
  });

  it('lets an administrator make a link a visitor reads the report through, and revoke it', async () => {
    const page = await admin.newPage();
    await showReport(page, ROOM_NAME);
    await page.getByRole('button', { name: '閲覧リンク' }).click();
    await page.getByRole('button', { name: 'リンクを作成' }).click();
    const url = await page.getByTestId('report-link-url').inputValue();
    expect(new URL(url).pathname).toBe('/register-report-access-user');
    await page.locator('[data-testid="report-link-row"][data-state="unused"]').waitFor();

    const visitor = await newContext(browser, baseURL);
    contexts.push(visitor);
    const visitorPage = await visitor.newPage();
    const link = new URL(url);
    await visitorPage.goto(`${link.pathname}${link.search}`);
    await visitorPage.getByRole('button', { name: 'レポートの閲覧を開始' }).click();
    await visitorPage.waitForURL((address) => address.pathname === `/room/${ROOM_ID}/sleep`);
    // The visitor reads the room's pages (the /report screen is for staff) and downloads its report as PDF.
    await visitorPage.goto(`/room/${ROOM_ID}/result?range=90`);
    const pdfLink = visitorPage.getByTestId('report-downloads').getByRole('link', { name: 'PDFをダウンロード' });
    await pdfLink.waitFor();
    const pdf = await visitor.request.get(`${baseURL}${(await pdfLink.getAttribute('href')) ?? ''}`);
    expect(pdf.status()).toBe(200);
    expect((await pdf.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(await visitorPage.getByRole('link', { name: /設定|取り込み/ }).count()).toBe(0);

    // The administrator sees the read, then revokes the link.
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).or(page.locator('.mantine-Modal-close')).first().click();
    await page.getByRole('button', { name: '閲覧リンク' }).click();
    const row = page.locator('[data-testid="report-link-row"][data-state="inUse"]');
    await row.waitFor();
    await row.getByRole('button', { name: '取り消す' }).click();
    await page.locator('[data-testid="report-link-row"][data-state="revoked"]').waitFor();

    await visitorPage.goto(`/room/${ROOM_ID}/result`);
    await visitorPage.getByText('部屋を表示できません').waitFor();
    expect((await visitor.request.get(`${baseURL}/api/reports/data?rooms=${ROOM_ID}&from=2026-10-01&to=2026-10-31`)).status()).toBe(404);
  });
});
