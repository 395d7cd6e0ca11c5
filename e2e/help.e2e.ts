/**
 * /help: the topics follow the route access table (general staff see staff areas, not agency or
 * master; a developer sees master), search narrows them, and the version and the newest release
 * note are shown.
 */
import { APP_VERSION } from '@nemuri/shared/version';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { useBrowserTab } from './support/browser.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
const tab = useBrowserTab(baseURL);

async function openHelp(email: string): Promise<Page> {
  await signInByApi(tab.context, baseURL, email);
  await tab.page.goto('/help');
  await tab.page.getByRole('heading', { name: 'ヘルプ' }).waitFor();
  await tab.page.getByTestId('help-topic-home').waitFor();
  return tab.page;
}

const shown = async (page: Page, id: string): Promise<boolean> => (await page.getByTestId(`help-topic-${id}`).count()) === 1;

describe('/help', () => {
  it('shows general staff the staff areas only, with the version and the newest release note', async () => {
    const page = await openHelp('staff@example.com');
    for (const id of ['home', 'room', 'roomConfig', 'deviceConfig', 'dataImport', 'report', 'account']) expect(await shown(page, id), id).toBe(true);
    for (const id of ['monitoring', 'domainConfig', 'agency', 'deviceBorrow', 'master']) expect(await shown(page, id), id).toBe(false);

    expect((await page.getByTestId('help-version').textContent())?.trim()).toBe(APP_VERSION);
    const release = page.getByTestId('help-release');
    await release.waitFor();
    expect(await release.textContent()).toContain(`最新の更新（${APP_VERSION}`);

    await page.getByTestId('help-topic-roomConfig').getByRole('button').click();
    await page.getByText('部屋名（必須）、フロア、ユニット').waitFor();
  });

  it('narrows the topics by search and opens what it found', async () => {
    const page = await openHelp('staff@example.com');
    const search = page.getByRole('searchbox', { name: 'ヘルプを検索' });
    await search.fill('パスワード');
    await expect.poll(() => page.getByTestId('help-count').textContent()).toBe('1件の項目');
    expect(await shown(page, 'account')).toBe(true);
    await page.getByText('他の端末ではログアウトされます').waitFor();

    await search.fill('ＣＳＶ');
    await expect.poll(async () => (await shown(page, 'report')) && (await shown(page, 'dataImport')) && !(await shown(page, 'account'))).toBe(true);

    await search.fill('存在しない言葉');
    await page.getByText('該当する項目がありません').waitFor();
    await search.fill('');
    await expect.poll(() => page.getByTestId('help-count').textContent()).toBe('7件の項目');
  });

  it('shows a developer the master, lending and agency topics, and an administrator the alerts', async () => {
    const page = await openHelp('developer@example.com');
    for (const id of ['master', 'deviceBorrow', 'agency', 'monitoring', 'domainConfig']) expect(await shown(page, id), id).toBe(true);
    await page.getByTestId('help-topic-monitoring').getByRole('button').click();
    // Alert names as the monitoring screen shows them.
    await page.getByTestId('help-topic-monitoring').getByText('呼吸未検出', { exact: true }).first().waitFor();
  });
});
