/**
 * Room configuration in the browser. A facility of its own (registered here, with an administrator
 * and a general staff member invited into it, and two devices the maker registers for it) keeps the
 * demo facilities' rooms untouched for the other test files. The administrator creates a room (after
 * a Japanese validation error), edits it, assigns a free device, is warned about that device when
 * deleting, releases it and deletes the room; the table bulk-sets a floor and reorders; a general
 * staff member sees no create or delete and the API refuses their create; another facility's
 * administrator never sees these rooms.
 */
import type { APIRequestContext, BrowserContext } from 'playwright-core';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newContext, useBrowser } from './support/browser.ts';
import { ok, openPage as open, registerOwnFacility, type OwnFacility } from './support/ownFacility.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
const shared = useBrowser();
const stamp = Date.now();
const PASSWORD = 'room-config-e2e-1';
const SERIALS = [`E2E-RC-${stamp}-1`, `E2E-RC-${stamp}-2`];
const headers = { origin: baseURL };

interface Facility {
  domainId: string;
  owner: BrowserContext;
  admin: BrowserContext;
  staff: BrowserContext;
  developer: BrowserContext;
}

let facility: Facility | undefined;

function the(): Facility {
  if (facility === undefined) throw new Error('the facility is set up before the tests');
  return facility;
}

async function putRoom(request: APIRequestContext, roomId: string, data: Record<string, unknown>): Promise<void> {
  await ok(request.put(`${baseURL}/api/documents/rooms/${roomId}`, { data: { data: { domainId: the().domainId, ...data } }, headers }));
}

async function roomsNamed(request: APIRequestContext, prefix: string): Promise<Record<string, unknown>[]> {
  const query = {
    collection: 'rooms',
    where: [
      ['name', '>=', prefix],
      ['name', '<', `${prefix}\uffff`],
    ],
    limit: 100,
  };
  return (await ok<{ documents: Record<string, unknown>[] }>(request.post(`${baseURL}/api/documents/query`, { data: { query }, headers }))).documents;
}

let own: OwnFacility | undefined;
const stored = (request: APIRequestContext, path: string) => (own as OwnFacility).stored(request, path);

beforeAll(async () => {
  own = await registerOwnFacility(shared.browser, baseURL, {
    ownerEmail: `rc-owner-${stamp}@example.com`,
    ownerName: '部屋 オーナー',
    domainName: `E2E 部屋設定ホーム ${stamp}`,
    password: PASSWORD,
  });
  const admin = await own.invite(`rc-admin-${stamp}@example.com`, ROLE_LEVELS.administrator, '部屋 管理者');
  const staff = await own.invite(`rc-staff-${stamp}@example.com`, ROLE_LEVELS.generalStaff, '部屋 スタッフ');
  const developer = await newContext(shared.browser, baseURL);
  await signInByApi(developer, baseURL, 'developer@example.com');
  for (const serial of SERIALS) {
    await ok(
      developer.request.put(`${baseURL}/api/documents/devices/${serial}`, {
        data: { data: { deviceTypeId: 'nemuri-chest', domainId: own.domainId, roomId: null, status: 'stock' } },
        headers,
      }),
    );
  }
  facility = { domainId: own.domainId, owner: own.owner, admin: admin.context, staff: staff.context, developer };
});

afterAll(async () => {
  if (facility === undefined) return;
  // Whatever a failed test left behind: the maker's developer may delete anything.
  for (const room of await roomsNamed(facility.developer.request, 'E2E ')) {
    if (room.domainId === facility.domainId) await facility.developer.request.delete(`${baseURL}/api/documents/${String(room.documentPath)}`, { headers });
  }
  for (const serial of SERIALS) await facility.developer.request.delete(`${baseURL}/api/documents/devices/${serial}`, { headers });
  for (const context of [facility.owner, facility.admin, facility.staff, facility.developer]) await context.close();
});

describe('room configuration', () => {
  it('lets an administrator create, edit, assign a device to and delete a room', async () => {
    const { admin } = the();
    const page = await open(admin, '/room-config/card');
    await page.getByTestId('room-config-empty').getByText('部屋がありません').waitFor();

    // Create: an empty name is refused next to the field, in Japanese, before anything is sent.
    await page.getByTestId('room-config-empty').getByRole('button', { name: '部屋を追加' }).click();
    const form = page.getByTestId('room-config-form');
    await form.getByRole('button', { name: '追加' }).click();
    await form.getByText('部屋名を入力してください').waitFor();
    expect(await roomsNamed(admin.request, 'E2E ')).toEqual([]);
    await form.getByLabel(/^部屋名/).fill('E2E 501号室');
    await expect.poll(() => form.getByText('部屋名を入力してください').count()).toBe(0);
    await form.getByLabel(/^フロア/).fill('5F');
    await form.getByLabel(/^ユニット/).fill('北ユニット');
    await form.getByLabel(/^入居者名/).fill('試験 一郎');
    await form.getByRole('button', { name: '追加' }).click();
    await form.waitFor({ state: 'detached' });
    const card = page.getByTestId('room-config-card').filter({ hasText: 'E2E 501号室' });
    await card.getByText('試験 一郎').waitFor();
    await card.getByText('機器未割当').waitFor();
    const [created] = await roomsNamed(admin.request, 'E2E 501');
    const roomId = String(created?.documentReferenceId);
    expect(created).toMatchObject({
      name: 'E2E 501号室',
      floor: '5F',
      unit: '北ユニット',
      residentName: '試験 一郎',
      status: 'active',
      domainId: the().domainId,
      sortOrder: 1,
    });

    // Edit, and assign a free device: room and device point at each other.
    await page.getByRole('button', { name: 'E2E 501号室を編集' }).click();
    await form.getByLabel(/^入居者名/).fill('試験 二郎');
    await form.getByLabel(/^機器\s*\*?$/).click();
    await page.getByRole('option', { name: new RegExp(SERIALS[0] ?? '') }).click();
    await form.getByRole('button', { name: '保存' }).click();
    await form.waitFor({ state: 'detached' });
    await card.getByText('試験 二郎').waitFor();
    await card.getByTestId('room-device').filter({ hasText: SERIALS[0] }).waitFor();
    expect(await stored(admin.request, `rooms/${roomId}`)).toMatchObject({ residentName: '試験 二郎', deviceSerial: SERIALS[0] });
    expect(await stored(admin.request, `devices/${SERIALS[0]}`)).toMatchObject({ roomId });

    // A serial another room took meanwhile: the engine's unique rule refuses it, said in Japanese.
    await putRoom(admin.request, `e2e-rc-${stamp}-other`, { name: 'E2E 502号室', floor: '5F', unit: '北ユニット' });
    await page.getByRole('button', { name: 'E2E 502号室を編集' }).click();
    await form.getByLabel(/^機器\s*\*?$/).click();
    await page.getByRole('option', { name: new RegExp(SERIALS[1] ?? '') }).click();
    await ok(admin.request.patch(`${baseURL}/api/documents/rooms/${roomId}`, { data: { data: { deviceSerial: SERIALS[1] } }, headers }));
    await form.getByRole('button', { name: '保存' }).click();
    await form.getByRole('alert').filter({ hasText: 'この機器は既に他の部屋に割り当てられています' }).waitFor();
    await form.getByRole('button', { name: 'キャンセル' }).click();
    await ok(admin.request.patch(`${baseURL}/api/documents/rooms/${roomId}`, { data: { data: { deviceSerial: SERIALS[0] } }, headers }));
    await ok(admin.request.delete(`${baseURL}/api/documents/rooms/e2e-rc-${stamp}-other`, { headers }));

    // Delete: the dialog names the room and holds back while a device is assigned.
    await page.getByRole('button', { name: 'E2E 501号室を削除' }).click();
    const dialog = page.getByTestId('room-config-delete');
    await dialog.getByText('「E2E 501号室」を削除しますか？', { exact: false }).waitFor();
    await dialog.getByTestId('room-config-delete-device').getByText(`機器 ${SERIALS[0]} が割り当てられているため削除できません`, { exact: false }).waitFor();
    expect(await dialog.getByRole('button', { name: '削除' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: '機器の割り当てを解除' }).click();
    await dialog.getByTestId('room-config-delete-device').waitFor({ state: 'detached' });
    expect(await stored(admin.request, `devices/${SERIALS[0]}`)).toMatchObject({ roomId: null });
    expect((await stored(admin.request, `rooms/${roomId}`)).deviceSerial).toBeNull();
    await dialog.getByRole('button', { name: '削除' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('room-config-empty').waitFor();
    expect((await admin.request.get(`${baseURL}/api/documents/rooms/${roomId}`)).status()).toBe(404);
  });

  it('bulk-sets the floor of selected rooms in the table and keeps the sort order', async () => {
    const { admin } = the();
    await putRoom(admin.request, `e2e-rc-${stamp}-a`, { name: 'E2E 表A', floor: '1F', sortOrder: 1 });
    await putRoom(admin.request, `e2e-rc-${stamp}-b`, { name: 'E2E 表B', floor: '1F', sortOrder: 2 });
    await putRoom(admin.request, `e2e-rc-${stamp}-c`, { name: 'E2E 表C', floor: '1F', sortOrder: 3 });
    const page = await open(admin, '/room-config/card');
    await page.getByTestId('room-config-card').filter({ hasText: 'E2E 表A' }).waitFor();
    await page.locator('label').filter({ hasText: /^表$/ }).click();
    await page.waitForURL((url) => url.pathname === '/room-config/table');
    const table = page.getByTestId('room-config-table');
    await table.getByText('E2E 表B').waitFor();

    // Move B above A: their sort orders swap, in one transaction.
    await table.getByRole('button', { name: 'E2E 表Bを上へ移動' }).click();
    await expect
      .poll(async () => [
        (await stored(admin.request, `rooms/e2e-rc-${stamp}-a`)).sortOrder,
        (await stored(admin.request, `rooms/e2e-rc-${stamp}-b`)).sortOrder,
      ])
      .toEqual([2, 1]);
    await expect.poll(() => table.getByTestId('room-config-row').first().getAttribute('data-room')).toBe(`e2e-rc-${stamp}-b`);

    await table.getByRole('checkbox', { name: 'E2E 表Aを選択' }).check();
    await table.getByRole('checkbox', { name: 'E2E 表Cを選択' }).check();
    const bulk = page.getByTestId('room-config-bulk');
    await bulk.getByText('2件を選択中').waitFor();
    await bulk.getByRole('button', { name: 'フロア・ユニットを設定' }).click();
    const dialog = page.getByRole('dialog', { name: '2件の部屋のフロア・ユニットを設定' });
    await dialog.getByLabel(/^フロア/).fill('3F');
    await dialog.getByRole('button', { name: '適用' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(async () => (await roomsNamed(admin.request, 'E2E 表')).map((room) => `${String(room.name)} ${String(room.floor)}`).sort())
      .toEqual(['E2E 表A 3F', 'E2E 表B 1F', 'E2E 表C 3F']);
    await table.locator(`[data-room="e2e-rc-${stamp}-a"]`).getByTestId('room-floor-unit').filter({ hasText: '3F' }).waitFor();

    // Delete all three with one confirmation.
    await table.getByRole('checkbox', { name: '表示中の部屋をすべて選択' }).check();
    await bulk.getByText('3件を選択中').waitFor();
    await bulk.getByRole('button', { name: '選択した部屋を削除' }).click();
    const confirm = page.getByTestId('room-config-bulk-delete');
    await confirm.getByText('次の3件の部屋を削除しますか？', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: '削除' }).click();
    await page.getByTestId('room-config-empty').waitFor();
    expect(await roomsNamed(admin.request, 'E2E 表')).toEqual([]);
  });

  it('shows a general staff member no create or delete, and the server refuses their create', async () => {
    const { admin, staff } = the();
    await putRoom(admin.request, `e2e-rc-${stamp}-staff`, { name: 'E2E スタッフ室', floor: '2F' });
    const page = await open(staff, '/room-config/card');
    const card = page.getByTestId('room-config-card').filter({ hasText: 'E2E スタッフ室' });
    await card.waitFor();
    await card.getByRole('button', { name: 'E2E スタッフ室を編集' }).waitFor();
    expect(await page.getByRole('button', { name: '部屋を追加' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /を削除$/ }).count()).toBe(0);

    // Another user's change shows up live.
    await ok(admin.request.patch(`${baseURL}/api/documents/rooms/e2e-rc-${stamp}-staff`, { data: { data: { name: 'E2E スタッフ室（改）' } }, headers }));
    await page.getByTestId('room-config-card').filter({ hasText: 'E2E スタッフ室（改）' }).waitFor();

    // The table offers the staff bulk changes, but no bulk delete.
    await page.goto('/room-config/table');
    await page.getByRole('checkbox', { name: 'E2E スタッフ室（改）を選択' }).check();
    await page.getByTestId('room-config-bulk').getByRole('button', { name: '状態を設定' }).waitFor();
    expect(await page.getByRole('button', { name: '選択した部屋を削除' }).count()).toBe(0);

    const refused = await staff.request.put(`${baseURL}/api/documents/rooms/e2e-rc-${stamp}-by-staff`, {
      data: { data: { domainId: the().domainId, name: 'E2E 無断' } },
      headers,
    });
    expect([refused.status(), await refused.json()]).toEqual([403, { code: 'permission-denied', message: 'Missing or insufficient permissions.' }]);
    const deleteRefused = await staff.request.delete(`${baseURL}/api/documents/rooms/e2e-rc-${stamp}-staff`, { headers });
    expect(deleteRefused.status()).toBe(403);
    await ok(admin.request.delete(`${baseURL}/api/documents/rooms/e2e-rc-${stamp}-staff`, { headers }));
  });

  it('lets an owner of several facilities choose the facility of a new room', async () => {
    const owner = await newContext(shared.browser, baseURL);
    try {
      await signInByApi(owner, baseURL, 'owner@example.com');
      const page = await open(owner, '/room-config/smallcard');
      await page.locator('[data-room="demo-b-01"]').waitFor();
      await page.getByRole('button', { name: '部屋を追加' }).click();
      const form = page.getByTestId('room-config-form');
      await form.getByLabel(/^施設/).click();
      for (const name of ['さくら苑', 'もみじ荘']) await page.getByRole('option', { name }).waitFor();
      await page.getByRole('option', { name: 'もみじ荘' }).click();
      await expect.poll(() => form.getByLabel(/^施設/).inputValue()).toBe('もみじ荘');
      // Nothing is written by looking.
      await form.getByRole('button', { name: 'キャンセル' }).click();
      await form.waitFor({ state: 'detached' });
    } finally {
      await owner.close();
    }
  });

  it('never shows these rooms to another facility', async () => {
    const { admin } = the();
    await putRoom(admin.request, `e2e-rc-${stamp}-hidden`, { name: 'E2E 非公開室' });
    const other = await newContext(shared.browser, baseURL);
    try {
      await signInByApi(other, baseURL, 'admin@example.com');
      const page = await open(other, '/room-config/table');
      await page.getByTestId('room-config-table').getByText('101号室').waitFor();
      expect(await page.getByText('E2E 非公開室').count()).toBe(0);
      await page.getByPlaceholder('部屋名・入居者名・機器シリアルで検索').fill('E2E 非公開');
      await page.getByText('条件に合う部屋がありません').waitFor();
      expect(await roomsNamed(other.request, 'E2E 非公開')).toEqual([]);
      expect((await other.request.get(`${baseURL}/api/documents/rooms/e2e-rc-${stamp}-hidden`)).status()).toBe(404);
      expect((await other.request.get(`${baseURL}/api/documents/devices/${SERIALS[0]}`)).status()).toBe(404);
    } finally {
      await other.close();
      await ok(admin.request.delete(`${baseURL}/api/documents/rooms/e2e-rc-${stamp}-hidden`, { headers }));
    }
  });
});
