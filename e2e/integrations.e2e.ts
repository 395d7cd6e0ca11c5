/**
 * Integration API keys in the browser, in a facility of its own: the owner opens /domain-config,
 * tab 外部連携, creates a key for the care-record software (its secret shown once), which then reads
 * the facility's rooms with it and nothing else; the owner revokes the key on the screen and the key
 * is refused from then on. A general staff member does not see the tab, and the API refuses them.
 * The tab also works on a phone-sized screen.
 */
import type { BrowserContext } from 'playwright-core';
import { apiKeysPath } from '@nemuri/shared/integrations';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newContext, useBrowser } from './support/browser.ts';
import { ok, openPage, registerOwnFacility, type OwnFacility } from './support/ownFacility.ts';

const baseURL = inject('baseURL');
const shared = useBrowser();
const stamp = Date.now();
const headers = { origin: baseURL };

let own: OwnFacility | undefined;
let staff: BrowserContext | undefined;
let outsider: BrowserContext | undefined;

function facility(): OwnFacility {
  if (own === undefined) throw new Error('the facility is set up before the tests');
  return own;
}

beforeAll(async () => {
  own = await registerOwnFacility(shared.browser, baseURL, {
    ownerEmail: `ik-owner-${stamp}@example.com`,
    ownerName: '連携 オーナー',
    domainName: `E2E 連携ホーム ${stamp}`,
    password: 'integrations-e2e-1',
  });
  staff = (await own.invite(`ik-staff-${stamp}@example.com`, ROLE_LEVELS.generalStaff, '連携 スタッフ')).context;
  // The room the integration reads.
  await ok(
    own.owner.request.put(`${baseURL}/api/documents/rooms/ik-room-${stamp}`, { data: { data: { domainId: own.domainId, name: '連携 101号室' } }, headers }),
  );
  // The integrating system: no session of anyone's.
  outsider = await newContext(shared.browser, baseURL);
});

afterAll(async () => {
  for (const context of [own?.owner, staff, outsider]) await context?.close();
});

describe('integration API keys', () => {
  it('an owner creates a key (shown once), the system reads the rooms with it, and a revoked key is refused', async () => {
    const { owner, domainId } = facility();
    const page = await openPage(owner, '/domain-config');
    await page.getByRole('tab', { name: '外部連携' }).click();
    await page.getByText('まだ API キーはありません。').waitFor();
    await page.getByLabel('名前').fill('介護記録ソフト');
    await page.getByRole('checkbox', { name: 'アラートの読み取り' }).check();
    await page.getByRole('button', { name: '発行する' }).click();

    const dialog = page.getByRole('dialog', { name: '新しい API キー' });
    await dialog.getByText('このキーが表示されるのは今回だけです', { exact: false }).waitFor();
    const secret = (await dialog.getByTestId('api-key-secret').innerText()).trim();
    expect(secret).toMatch(/^nmk_[A-Za-z0-9]{16}_[A-Za-z0-9_-]{43}$/);
    await dialog.getByRole('button', { name: '保存しました' }).click();

    const card = page.getByTestId('api-key').filter({ hasText: '介護記録ソフト' });
    await card.getByText('有効').waitFor();
    await card.getByText('部屋と睡眠の読み取り').waitFor();
    await card.getByText('アラートの読み取り').waitFor();
    // The list never shows the secret again.
    expect(await page.content()).not.toContain(secret.slice(-43));

    const request = (outsider as BrowserContext).request;
    const bearer = { authorization: `Bearer ${secret}` };
    const rooms = await ok<{ documents: { name: string; domainId: string }[] }>(
      request.post(`${baseURL}/api/documents/query`, { data: { query: { collection: 'rooms', limit: 50 } }, headers: bearer }),
    );
    expect(rooms.documents.map((room) => room.name)).toEqual(['連携 101号室']);
    expect(rooms.documents.every((room) => room.domainId === domainId)).toBe(true);
    // Outside its scopes: managing keys, reading staff.
    expect((await request.get(`${baseURL}${apiKeysPath(domainId)}`, { headers: bearer })).status()).toBe(403);
    expect((await request.get(`${baseURL}/api/me`, { headers: bearer })).status()).toBe(403);

    await card.getByRole('button', { name: '介護記録ソフト を失効させる' }).click();
    await page.getByRole('dialog', { name: 'API キーを失効させますか？' }).getByRole('button', { name: '失効させる' }).click();
    await card.getByText('失効', { exact: true }).waitFor();
    expect((await request.post(`${baseURL}/api/documents/query`, { data: { query: { collection: 'rooms', limit: 50 } }, headers: bearer })).status()).toBe(401);
    await page.close();
  });

  it('is not offered to general staff, and the API refuses them', async () => {
    const context = staff as BrowserContext;
    const page = await openPage(context, '/domain-config');
    // Staff (level 2) are below the page's level: the guard keeps them out, and no key tab shows.
    expect(await page.getByRole('tab', { name: '外部連携' }).count()).toBe(0);
    expect(
      (await context.request.post(`${baseURL}${apiKeysPath(facility().domainId)}`, { data: { name: 'x', scopes: ['rooms.read'] }, headers })).status(),
    ).toBe(403);
    await page.close();
  });

  it('fits a phone screen', async () => {
    const page = await facility().owner.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/domain-config');
    await page.getByRole('tab', { name: '外部連携' }).click();
    await page.getByRole('button', { name: '発行する' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.close();
  });
});
