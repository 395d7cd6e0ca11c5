/**
 * A report link in the browser: an administrator makes a link for a room; a visitor opens it,
 * starts reading without an account (anonymous sign-in) and lands on that room's sleep page; once
 * the administrator revokes the link, the page shows nothing.
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
    const put = await tab.context.request.put(`${baseURL}/api/documents/rooms/${roomId}`, { data: { data: { domainId: 'demo-facility-a', name: 'E2E 301号室' } }, headers: { origin: baseURL } });
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
});
