/**
 * A report link in the browser: an administrator makes a link for a room; a visitor opens it,
 * starts reading without an account (anonymous sign-in) and lands on that room's sleep page; once
 * the administrator revokes the link, the page shows nothing. A room's links are listed a page
 * (10) at a time, newest first, with an empty state for a room without links.
 */
import type { SignedInUser } from '@nemuri/shared/user';
import { describe, expect, inject, it } from 'vitest';
import { newContext, useBrowserTab } from './support/browser.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
const tab = useBrowserTab(baseURL);

describe('report links', () => {
  it('lets a visitor read one room through a link, without an account', async () => {
    const roomId = `e2e-report-${Date.now()}`;
    await signInByApi(tab.context, baseURL, 'admin@example.com');
    const put = await tab.context.request.put(`${baseURL}/api/documents/rooms/${roomId}`, {
      data: { data: { domainId: 'demo-facility-a', name: 'E2E 301号室' } },
      headers: { origin: baseURL },
    });
    expect(put.status()).toBe(200);
    const made = await tab.context.request.post(`${baseURL}/api/auth/report-access/links`, { data: { roomId }, headers: { origin: baseURL } });
    expect(made.status()).toBe(200);
    const link = new URL(((await made.json()) as { url: string }).url);

    const visitor = await newContext(tab.browser, baseURL);
    try {
      const page = await visitor.newPage();
      await page.goto(`${link.pathname}${link.search}`);
      await page.getByText('「E2E 301号室」の睡眠レポートを閲覧できるリンクです。', { exact: false }).waitFor();
      await page.getByRole('button', { name: 'レポートの閲覧を開始' }).click();
      await page.waitForURL((url) => url.pathname === `/room/${roomId}/sleep`);
      const me = ((await (await visitor.request.get(`${baseURL}/api/me`)).json()) as { user: SignedInUser | null }).user;
      expect(me).toMatchObject({ isAnonymous: true, accessLevel: 1 });
      expect((await visitor.request.get(`${baseURL}/api/documents/rooms/${roomId}`)).status()).toBe(200);

      // Revoked by the administrator: the visitor's room page and the API show nothing from then on.
      const { id } = (await made.json()) as { id: string };
      expect((await tab.context.request.post(`${baseURL}/api/reports/links/${id}/revoke`, { data: {}, headers: { origin: baseURL } })).status()).toBe(200);
      expect((await visitor.request.get(`${baseURL}/api/documents/rooms/${roomId}`)).status()).toBe(404);
      await page.reload();
      await page.getByText('部屋を表示できません').waitFor();

      await page.goto('/register-report-access-user?token=not-a-token');
      await page.getByRole('alert').filter({ hasText: 'リンクが見つかりません' }).waitFor();
    } finally {
      await visitor.close();
    }
  });

  it("lists a room's links a page at a time, newest first, and says when a room has none", async () => {
    const stamp = `${Date.now().toString(36)}${process.pid.toString(36)}`;
    const rooms = {
      many: { id: `e2e-links-many-${stamp}`, name: `E2E リンク多 ${stamp}` },
      none: { id: `e2e-links-none-${stamp}`, name: `E2E リンク無 ${stamp}` },
    };
    await signInByApi(tab.context, baseURL, 'admin@example.com');
    for (const room of Object.values(rooms)) {
      expect(
        (
          await tab.context.request.put(`${baseURL}/api/documents/rooms/${room.id}`, {
            data: { data: { domainId: 'demo-facility-a', name: room.name } },
            headers: { origin: baseURL },
          })
        ).status(),
      ).toBe(200);
    }
    // 11 links, the first valid 1 day, the newest 11 days: one more than a page (10). Making links
    // is a sign-in endpoint with its own per-minute limit: a refusal is waited out.
    for (let days = 1; days <= 11; days++) {
      for (;;) {
        const made = await tab.context.request.post(`${baseURL}/api/auth/report-access/links`, {
          data: { roomId: rooms.many.id, validDays: days },
          headers: { origin: baseURL },
        });
        if (made.status() !== 429) {
          expect(made.status(), await made.text()).toBe(200);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 1000 * Number(made.headers()['retry-after'] ?? '5')));
      }
    }
    const page = tab.page;
    const open = async (roomName: string) => {
      await page.goto('/report');
      await page.getByRole('combobox', { name: '部屋', exact: true }).click();
      await page.getByRole('option', { name: roomName }).click();
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'レポートを表示' }).click();
      await page.getByTestId('report-room').waitFor();
      await page.getByRole('button', { name: '閲覧リンク' }).click();
    };

    await open(rooms.none.name);
    await page.getByRole('dialog').getByText('この部屋のリンクはまだありません。').waitFor();
    expect(await page.getByTestId('report-links-pager').count()).toBe(0);

    await open(rooms.many.name);
    const rows = page.getByTestId('report-link-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(10);
    const pager = page.getByTestId('report-links-pager');
    await pager.getByText('1ページ目').waitFor();
    expect(await pager.getByRole('button', { name: '新しいリンク' }).isDisabled()).toBe(true);
    const newestExpiry = await rows.first().locator('td').nth(1).textContent();
    await pager.getByRole('button', { name: '古いリンク' }).click();
    await pager.getByText('2ページ目').waitFor();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await pager.getByRole('button', { name: '古いリンク' }).isDisabled()).toBe(true);
    // The oldest link (valid 1 day) expires before the newest (11 days).
    expect(await rows.first().locator('td').nth(1).textContent()).not.toBe(newestExpiry);
    await pager.getByRole('button', { name: '新しいリンク' }).click();
    await pager.getByText('1ページ目').waitFor();
    await expect.poll(() => rows.count()).toBe(10);
  }, 120_000);
});
