/**
 * What an import read, on screen: a facility owner drops a per-minute CSV whose units are in square
 * brackets and that has a column the importer does not know; the preview lists every column with what
 * it will be read as, holds the file back until the owner chooses to import without the unknown
 * column, and the history then lists the column as skipped. Every file of the shared recordings is
 * dropped at once: what is not a recording is refused before upload, the rest end in the history with
 * what was read or a warning. The history is paged.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { UPLOAD_FILE_NAME_HEADER } from '@nemuri/shared/imports';
import { SHARED_DATA_DIR } from '@nemuri/simulator/eit';
import { useBrowser } from './support/browser.ts';
import { openPage, registerOwnFacility, type OwnFacility } from './support/ownFacility.ts';

const baseURL = inject('baseURL');
const shared = useBrowser();
const stamp = Date.now().toString(36);
const ROOM = `e2e-columns-${stamp}`;
const DATA_ROOM = `e2e-dataset-${stamp}`;
const PAGED_ROOM = `e2e-paged-${stamp}`;

/** 23:00 onwards, a line a minute. */
function csv(heading: string, row: (minute: number, at: string) => string, minutes = 60): string {
  const lines = [heading];
  for (let minute = 0; minute < minutes; minute++)
    lines.push(row(minute, `2026/11/20 ${String(23 + Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`));
  return `${lines.join('\r\n')}\r\n`;
}

describe('what an import read', () => {
  let dir: string;
  let facility: OwnFacility;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nemuri-e2e-columns-'));
    facility = await registerOwnFacility(shared.browser, baseURL, {
      ownerEmail: `columns-owner-${stamp}@example.com`,
      ownerName: '列 花子',
      domainName: `列テスト苑 ${stamp}`,
      password: 'columns-test-pass-9',
    });
    for (const [id, name] of [
      [ROOM, `列 ${stamp}`],
      [DATA_ROOM, `データ ${stamp}`],
      [PAGED_ROOM, `履歴 ${stamp}`],
    ]) {
      const reply = await facility.owner.request.put(`${baseURL}/api/documents/rooms/${id}`, {
        data: { data: { domainId: facility.domainId, name } },
        headers: { origin: baseURL },
      });
      expect(reply.status(), await reply.text()).toBe(200);
    }
  }, 120_000);

  afterAll(async () => {
    await facility?.owner.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('lists each CSV column before the upload, holds back an unknown one until the owner chooses, and lists it as skipped after', async () => {
    const file = join(dir, 'night.csv');
    await writeFile(
      file,
      csv('時刻,状態,呼吸数[回/分],心拍数［拍/分］,体温(℃)', (minute, at) => `${at},浅い睡眠,14,${60 + (minute % 3)},36.5`),
    );
    const page = await openPage(facility.owner, `/room/${ROOM}/import`);
    await page.locator('input[type="file"]').setInputFiles([file]);
    const row = page.locator('tr[data-file="night.csv"]');
    await row.getByText('開始: 2026/11/20 23:00').waitFor();
    const column = (name: string) => row.locator(`[data-column="${name}"]`);
    await column('呼吸数[回/分]').getByText('呼吸数（回/分） · 値 60 件', { exact: false }).waitFor();
    expect(await column('呼吸数[回/分]').getAttribute('data-column-status')).toBe('read');
    expect(await column('心拍数［拍/分］').getAttribute('data-column-status')).toBe('read');
    await column('体温(℃)').getByText('列名から内容がわかりません').waitFor();
    expect(await column('体温(℃)').getAttribute('data-column-status')).toBe('problem');

    // Nothing to upload until the owner decides.
    await row.getByText('読めない列が 1 列あります。このままでは取り込めません。').waitFor();
    expect(await page.getByRole('button', { name: '0 件を取り込む' }).isDisabled()).toBe(true);
    await row.getByLabel('読めない列を除いて取り込む').check();
    await page.getByRole('button', { name: '1 件を取り込む' }).click();
    await row.locator('[data-status="done"]').waitFor({ timeout: 60_000 });
    await row.getByRole('link', { name: '2026/11/20' }).waitFor();

    await page.goto(`/room/${ROOM}/history`);
    const history = page.locator('tr[data-upload="night.csv"]');
    await history.getByRole('button', { name: /読み取った列を表示（5 列、うち除外・読めない列 1）/ }).click();
    expect(await history.locator('[data-column="体温(℃)"]').getAttribute('data-column-status')).toBe('skipped');
    await history.locator('[data-column="体温(℃)"]').getByText('除外').waitFor();
    await history.locator('[data-column="心拍数［拍/分］"]').getByText('取り込み済み').waitFor();
  }, 120_000);

  it('refuses what is not a recording before the upload, and shows every recording of the shared data in the history', async () => {
    const files = (await readdir(SHARED_DATA_DIR, { withFileTypes: true, recursive: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
    const page = await openPage(facility.owner, `/room/${DATA_ROOM}/import`);
    await page.locator('input[type="file"]').setInputFiles(files);
    const recordings = ['short_psg.edf', 'short_psg.bdf', 'SC4001EC-Hypnogram.edf', 'SC4001EC-Hypnogram.bdf', 'hmc_sn001_hypnogram.edf'];
    for (const path of files) {
      const name = path.split('/').pop() as string;
      const row = page.locator(`tr[data-file="${name}"]`).first();
      if (recordings.includes(name)) await row.getByTestId('file-preview').waitFor();
      else await row.getByText('取り込めない形式のファイルです').waitFor();
    }
    await page.getByRole('button', { name: `${recordings.length} 件を取り込む` }).click();
    for (const name of recordings) await page.locator(`tr[data-file="${name}"] [data-status="done"]`).waitFor({ timeout: 60_000 });

    await page.goto(`/room/${DATA_ROOM}/history`);
    const history = page.getByTestId('upload-history');
    const excerpt = history.locator('tr[data-upload="short_psg.edf"]');
    await excerpt.getByText('完了（警告あり）').waitFor();
    await excerpt
      .locator('[data-warning="too-short"]')
      .getByText(/^1989\/04\/24: 記録が \d 分と短いため、睡眠の記録にしていません/)
      .waitFor();
    await excerpt.getByRole('button', { name: /読み取った列を表示（7 列、うち除外・読めない列 5）/ }).click();
    await excerpt.locator('[data-column="Resp oro-nasal"]').getByText('呼吸（インピーダンス）', { exact: false }).waitFor();
    await excerpt.locator('[data-column="EEG Fpz-Cz"]').getByText('睡眠の解析には使いません').waitFor();
    const hmc = history.locator('tr[data-upload="hmc_sn001_hypnogram.edf"]');
    await hmc.getByRole('link', { name: '2001/01/01' }).waitFor();
    expect(await hmc.locator('[data-status="done"]').getAttribute('data-warnings')).toBe('0');
    // Newest first: the history's first row is the last file sent.
    await expect.poll(() => history.locator('tbody tr').count()).toBe(recordings.length);
  }, 180_000);

  it('pages the history, newest first', async () => {
    for (let n = 0; n < 21; n++) {
      const reply = await facility.owner.request.post(`${baseURL}/api/rooms/${PAGED_ROOM}/uploads`, {
        data: Buffer.from(csv('時刻,状態', (_minute, at) => `${at},覚醒`, 30 + n)),
        headers: {
          origin: baseURL,
          'content-type': 'application/octet-stream',
          [UPLOAD_FILE_NAME_HEADER]: encodeURIComponent(`page-${String(n).padStart(2, '0')}.csv`),
        },
      });
      expect(reply.status(), await reply.text()).toBe(201);
    }
    const page = await openPage(facility.owner, `/room/${PAGED_ROOM}/history`);
    const pages = page.getByTestId('history-pages');
    await pages.getByText('1〜20 件目（全 21 件）').waitFor();
    await expect.poll(() => page.locator('[data-testid="upload-history"] tbody tr').count()).toBe(20);
    await page.locator('tr[data-upload="page-20.csv"]').waitFor();
    expect(await pages.getByRole('button', { name: '前へ' }).isDisabled()).toBe(true);
    await pages.getByRole('button', { name: '次へ' }).click();
    await pages.getByText('21〜21 件目（全 21 件）').waitFor();
    await page.locator('tr[data-upload="page-00.csv"]').waitFor();
    expect(await pages.getByRole('button', { name: '次へ' }).isDisabled()).toBe(true);
    await pages.getByRole('button', { name: '前へ' }).click();
    await page.locator('tr[data-upload="page-20.csv"]').waitFor();
  }, 180_000);
});
