/**
 * The nurse-station view in the browser: the facility's monitored rooms in a grid, an alert that
 * appears live at the top, and its acknowledgement.
 */
import { describe, expect, inject, it } from 'vitest';
import { useBrowserTab } from './support/browser.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
const tab = useBrowserTab(baseURL);

describe('/monitoring', () => {
  it('shows the rooms, brings a new alert to the top live, and records its acknowledgement', async () => {
    const { page, context } = tab;
    await signInByApi(context, baseURL, 'admin@example.com');
    await page.goto('/monitoring');
    const grid = page.getByTestId('monitoring-grid');
    await expect.poll(() => grid.getByTestId('room-card').count(), { timeout: 15_000 }).toBe(16);
    await page.getByText('リアルタイム更新中').waitFor();

    // The grid filters like the home lists: by floor and by search.
    await page.locator('input[aria-label="フロア"]').click();
    await page.getByRole('option', { name: '2F' }).click();
    await expect.poll(() => grid.getByTestId('room-card').count()).toBe(8);
    await page.locator('input[aria-label="フロア"]').click();
    await page.getByRole('option', { name: '1F' }).click();
    await page.getByPlaceholder('部屋名・入居者名で検索').fill('103');
    await expect.poll(() => grid.getByTestId('room-card').count()).toBe(1);
    await page.getByPlaceholder('部屋名・入居者名で検索').fill('');

    // An alert as the monitoring service would store it (a nurse call in 103).
    const id = `e2e-alert-${Date.now()}`;
    const put = await context.request.put(`${baseURL}/api/documents/alerts/${id}`, {
      data: {
        data: {
          domainId: 'demo-facility-a',
          roomId: 'demo-a-103',
          deviceSerial: 'NM-0003',
          type: 'button',
          startedAt: new Date().toISOString(),
          endedAt: null,
        },
      },
      headers: { origin: baseURL },
    });
    expect(put.status()).toBe(200);
    const row = page.locator(`[data-alert="${id}"]`);
    await row.getByText('ナースコール').waitFor({ timeout: 10_000 });
    await row.getByText('103号室').waitFor();
    await grid
      .locator('[data-room="demo-a-103"]')
      .getByText(/アラート \d+件/)
      .waitFor();

    await row.getByRole('button', { name: '確認' }).click();
    await row.getByText(/に確認済み$/).waitFor({ timeout: 10_000 });
    const stored = (await (await context.request.get(`${baseURL}/api/documents/alerts/${id}`)).json()) as {
      document: { acknowledgedAt: string | null; acknowledgedBy: string | null };
    };
    expect(stored.document.acknowledgedAt).toEqual(expect.any(String));
    expect(stored.document.acknowledgedBy).toEqual(expect.any(String));
  });
});
