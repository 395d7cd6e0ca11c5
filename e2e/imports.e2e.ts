/**
 * Importing recordings through the screens: an administrator drops an SMF recording and an EDF+
 * hypnogram on a room's import page, sees what the browser read from each, uploads them with progress
 * and watches them processed; the SMF night appears as a sleep day whose minutes zoom to the raw
 * signals, the hypnogram's day shows its scored stages, and the history lists both. The bulk import
 * matches a file to its room by device serial and refuses a file that is not a recording.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createParserSync } from '@nemuri/parser/node';
import { SHARED_DATA_DIR } from '@nemuri/simulator/eit';
import { writeSmfRecording } from '../packages/server/src/imports/testing.ts';
import { newContext, useBrowser } from './support/browser.ts';
import { openPage, registerOwnFacility, type OwnFacility } from './support/ownFacility.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
const shared = useBrowser();
const HYPNOGRAM = join(SHARED_DATA_DIR, 'edf', 'SC4001EC-Hypnogram.edf');
const stamp = Date.now().toString(36);
const SERIAL = `E2E-IMP-${stamp}`;
const ROOM = `e2e-import-${stamp}`;
const BULK_SERIAL = `E2E-IMB-${stamp}`;
const BULK_ROOM = `e2e-import-bulk-${stamp}`;

async function put(context: BrowserContext, path: string, data: Record<string, unknown>): Promise<void> {
  const reply = await context.request.put(`${baseURL}/api/documents/${path}`, { data: { data }, headers: { origin: baseURL } });
  if (reply.status() !== 200) throw new Error(`PUT ${path}: ${reply.status()} ${await reply.text()}`);
}

/** A sleep day two days ago, so the recording is well inside the raw-signal retention. */
function nightStart(): { day: string; startMs: number } {
  const day = new Date(Date.now() - 2 * 86_400_000 + 9 * 3_600_000).toISOString().slice(0, 10);
  return { day, startMs: Date.parse(`${day}T23:00:00+09:00`) };
}

describe('importing recordings', () => {
  let dir: string;
  const night = nightStart();
  let maker: BrowserContext;
  let facility: OwnFacility;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nemuri-e2e-import-'));
    const parser = createParserSync();
    await writeSmfRecording(parser, join(dir, `${SERIAL}_night.smf`), { serial: SERIAL, fromMs: night.startMs, minutes: 90 });
    await writeSmfRecording(parser, join(dir, `${BULK_SERIAL}_night.smf`), { serial: BULK_SERIAL, fromMs: night.startMs, minutes: 30, seed: 'bulk' });
    // A facility of this file's own (other files count the demo facility's rooms); its owner imports.
    facility = await registerOwnFacility(shared.browser, baseURL, {
      ownerEmail: `import-owner-${stamp}@example.com`,
      ownerName: '取込 太郎',
      domainName: `取込テスト苑 ${stamp}`,
      password: 'import-test-pass-9',
    });
    // The rooms' devices, made by the maker and placed in the facility.
    maker = await newContext(shared.browser, baseURL);
    await signInByApi(maker, baseURL, 'developer@example.com');
    for (const serial of [SERIAL, BULK_SERIAL])
      await put(maker, `devices/${serial}`, { deviceTypeId: 'nemuri-pad', domainId: facility.domainId, status: 'in_use' });
    await put(facility.owner, `rooms/${ROOM}`, { domainId: facility.domainId, name: `取込 ${stamp}`, deviceSerial: SERIAL });
    await put(facility.owner, `rooms/${BULK_ROOM}`, { domainId: facility.domainId, name: `一括 ${stamp}`, deviceSerial: BULK_SERIAL });
  }, 120_000);

  afterAll(async () => {
    await maker?.close();
    await facility?.owner.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('previews, uploads and processes an SMF night and an EDF+ hypnogram; the night zooms to raw signals', async () => {
    const page = await openPage(facility.owner, `/room/${ROOM}/import`);
    await page.getByRole('heading', { name: `データ取り込み — 取込 ${stamp}` }).waitFor();
    await page.locator('input[type="file"]').setInputFiles([join(dir, `${SERIAL}_night.smf`), HYPNOGRAM]);

    const smfRow = page.locator(`tr[data-file="${SERIAL}_night.smf"]`);
    const edfRow = page.locator('tr[data-file="SC4001EC-Hypnogram.edf"]');
    await smfRow.getByText('SMF 記録').waitFor();
    await smfRow.getByText('長さ: 1時間30分').waitFor();
    await smfRow.getByText(`シリアル番号: ${SERIAL}`).waitFor();
    for (const channel of ['ecg', 'respiAxl', 'temperature']) await smfRow.locator(`[data-column="${channel}"][data-column-status="read"]`).waitFor();
    await edfRow.getByText(/睡眠段階 \d+ エポック/).waitFor();
    await edfRow.getByText('開始: 1989/04/24 16:13:00').waitFor();
    await edfRow.locator('[data-column="EDF Annotations"][data-column-status="read"]').getByText('睡眠段階', { exact: false }).waitFor();

    await page.getByRole('button', { name: '2 件を取り込む' }).click();
    for (const row of [smfRow, edfRow]) await row.locator('[data-status="done"]').waitFor({ timeout: 60_000 });
    await edfRow.getByRole('link', { name: '1989/04/24' }).waitFor();
    // The afternoon after the night is no sleep day, and says so.
    await edfRow.locator('[data-warning="outside-night"]').getByText('1989/04/25: 夜間（18時〜翌10時）の記録が 0 分のため', { exact: false }).waitFor();
    await edfRow.locator('[data-status="done"][data-warnings="1"]').getByText('完了（警告あり）').waitFor();

    // The hypnogram's night shows the stages as scored.
    await edfRow.getByRole('link', { name: '1989/04/24' }).click();
    await page.locator('[data-testid="sleep-day"][data-day="1989-04-24"]').waitFor();
    await expect.poll(() => page.locator('[data-stage="N2"]').count()).toBeGreaterThan(10);
    await page.getByText('睡眠段階（判定済み）').waitFor();

    // The SMF night: its day, and a minute's raw signals from the stored recording.
    await page.goto(`/room/${ROOM}/import`);
    await page.goto(`/room/${ROOM}/sleep?day=${night.day}&minute=${night.startMs + 30 * 60_000}`);
    await page.locator(`[data-testid="sleep-day"][data-day="${night.day}"]`).waitFor();
    const panel = page.getByTestId('raw-minute-panel');
    for (const channel of ['respiAxl', 'ecg']) {
      await expect.poll(() => panel.locator(`[data-channel="${channel}"] path`).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    }

    // The history: both uploads, done, with their period and days; the same file again is recognised.
    await page.goto(`/room/${ROOM}/history`);
    const history = page.getByTestId('upload-history');
    await history.locator(`tr[data-upload="${SERIAL}_night.smf"] [data-status="done"]`).waitFor();
    await history.locator('tr[data-upload="SC4001EC-Hypnogram.edf"]').getByText('睡眠段階あり', { exact: false }).waitFor();
    await page.goto(`/room/${ROOM}/import`);
    await page.locator('input[type="file"]').setInputFiles([HYPNOGRAM]);
    await page.getByRole('button', { name: '1 件を取り込む' }).click();
    await page.getByTestId('upload-duplicate').getByText('同じファイルが「SC4001EC-Hypnogram.edf」として取り込み済みです').waitFor();
  }, 180_000);

  it('reprocesses and deletes from the history, after confirmation', async () => {
    const page = await openPage(facility.owner, `/room/${ROOM}/history`);
    const row = page.locator('tr[data-upload="SC4001EC-Hypnogram.edf"]');
    await row.getByRole('button', { name: '再処理' }).click();
    await page.getByText('「SC4001EC-Hypnogram.edf」を再処理します').waitFor();
    await row.locator('[data-status="done"]').waitFor({ timeout: 30_000 });
    await row.getByRole('button', { name: '削除' }).click();
    await page.getByRole('dialog').getByText('「SC4001EC-Hypnogram.edf」と、このファイルから作った睡眠の記録 1 日分を削除します。元に戻せません。').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: '削除する' }).click();
    await expect.poll(() => row.count()).toBe(0);
    const gone = await facility.owner.request.get(`${baseURL}/api/documents/rooms/${ROOM}/sleeps/1989-04-24`);
    expect(gone.status()).toBe(404);
  }, 60_000);

  it('matches files to rooms by device serial in the bulk import and refuses what is not a recording', async () => {
    const page = await openPage(facility.owner, '/data-import');
    await page.getByTestId('import-drop-zone').waitFor();
    expect(await page.getByRole('heading', { name: 'データ取り込み', exact: true }).first().textContent()).toBe('データ取り込み');
    const notes = join(dir, 'notes.txt');
    await writeFile(notes, 'not a recording');
    await page.locator('input[type="file"]').setInputFiles([join(dir, `${BULK_SERIAL}_night.smf`), notes]);
    const row = page.locator(`tr[data-file="${BULK_SERIAL}_night.smf"]`);
    await row.getByText('シリアル番号で自動割り当て').waitFor();
    await expect.poll(() => row.locator(`input[aria-label="${BULK_SERIAL}_night.smf の取り込み先の部屋"]`).inputValue()).toBe(`一括 ${stamp}`);
    await page.locator('tr[data-file="notes.txt"]').getByText('取り込めない形式のファイルです').waitFor();
    await page.getByRole('button', { name: '1 件を取り込む' }).click();
    await row.locator('[data-status="done"]').waitFor({ timeout: 60_000 });
  }, 120_000);
});
