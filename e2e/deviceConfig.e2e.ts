/**
 * Device configuration in the browser: an administrator lists the facility's devices, registers
 * one by its serial and sees its secret once, rotates it, and moves a device into a room and out;
 * QR labels encode `/sn/<serial>`; `/sn/` leads to the room, the master page or registration; general
 * staff can neither register nor rotate (no button, and the API refuses).
 *
 * The devices and the room are this file's own (created as the maker and removed afterwards), so
 * other files' counts of the demo data stay as they are.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import QRCode from 'qrcode';
import { createParserSync } from '@nemuri/parser/node';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newContext, watchConsole } from './support/browser.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
const stamp = `${Date.now().toString(36)}${process.pid.toString(36)}`.toUpperCase();
const SERIAL = { register: `E2E-DC-${stamp}-R`, room: `E2E-DC-${stamp}-M`, lookup: `E2E-DC-${stamp}-L` };
const ROOM = { id: `e2e-dc-room-${stamp.toLowerCase()}`, name: `E2E 機器テスト室 ${stamp}` };

let browser: Browser;
const contexts: BrowserContext[] = [];

async function signedInPage(email: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, baseURL);
  contexts.push(context);
  await signInByApi(context, baseURL, email);
  return { context, page: await context.newPage() };
}

async function api(context: BrowserContext, method: 'PUT' | 'POST' | 'DELETE', path: string, data?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await context.request.fetch(`${baseURL}${path}`, { method, headers: { origin: baseURL }, ...(data === undefined ? {} : { data }) });
  const text = await response.text();
  return { status: response.status(), body: text === '' ? null : (JSON.parse(text) as unknown) };
}

/** One temperature frame through HTTP ingest with this secret: 202 accepted, 401 refused. */
async function ingestWith(serial: string, secret: string): Promise<number> {
  const parser = createParserSync();
  const frame = parser.encodeSmfFrame({
    channel: 'temperature',
    format: 'float32',
    sampleRate: 1,
    sequence: 0,
    startTimeUs: (Date.now() - 5000) * 1000,
    values: [36.4],
  });
  const response = await fetch(`${baseURL}/api/devices/${serial}/frames`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/octet-stream' },
    body: new Uint8Array(frame),
  });
  return response.status;
}

let maker: BrowserContext;
let privilege: BrowserContext;

beforeAll(async () => {
  browser = await launchBrowser();
  maker = (await signedInPage('developer@example.com')).context;
  const device = (domainId: string) => ({
    deviceTypeId: 'nemuri-chest',
    ownerAgencyDomainId: DEMO_DOMAINS.agency,
    domainId,
    status: 'lent',
    firmwareVersion: '2.0.0',
  });
  expect((await api(maker, 'PUT', `/api/documents/devices/${SERIAL.register}`, { data: device(DEMO_DOMAINS.facilityA) })).status).toBe(200);
  expect((await api(maker, 'PUT', `/api/documents/devices/${SERIAL.lookup}`, { data: device(DEMO_DOMAINS.facilityA) })).status).toBe(200);
  expect((await api(maker, 'PUT', `/api/documents/devices/${SERIAL.room}`, { data: device(DEMO_DOMAINS.facilityB) })).status).toBe(200);
  // Facility B (privilege administrator of the corporation): no other browser test counts its rooms.
  privilege = (await signedInPage('privilege@example.com')).context;
  expect(
    (await api(privilege, 'PUT', `/api/documents/rooms/${ROOM.id}`, { data: { domainId: DEMO_DOMAINS.facilityB, name: ROOM.name, floor: '9F' } })).status,
  ).toBe(200);
});

afterAll(async () => {
  if (privilege !== undefined) await api(privilege, 'DELETE', `/api/documents/rooms/${ROOM.id}`);
  if (maker !== undefined) for (const serial of Object.values(SERIAL)) await api(maker, 'DELETE', `/api/documents/devices/${serial}`);
  for (const context of contexts) await context.close();
  await browser?.close();
});

const card = (page: Page, serial: string) => page.locator(`[data-testid="device-card"][data-serial="${serial}"]`);

async function openActions(page: Page, serial: string, item: string): Promise<void> {
  await page.getByRole('button', { name: `${serial} の操作` }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

/** Reads the secret from its dialog and closes it; afterwards the page holds it nowhere. */
async function takeSecret(page: Page, title: string): Promise<string> {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  const secret = ((await dialog.getByTestId('device-secret').textContent()) ?? '').trim();
  expect(secret).toMatch(/^[0-9a-f]{32}$/);
  expect(await dialog.getByText('二度と表示できません', { exact: false }).isVisible()).toBe(true);
  await dialog.getByRole('button', { name: 'コピー' }).waitFor();
  await dialog.getByRole('button', { name: '控えました（閉じる）' }).click();
  await dialog.waitFor({ state: 'hidden' });
  expect(await page.content()).not.toContain(secret);
  return secret;
}

describe('device configuration', () => {
  it("lists the facility's devices in three layouts; registers one by serial with its secret shown once, and rotates it", async () => {
    const { page } = await signedInPage('admin@example.com');
    const pageConsole = watchConsole(page);
    await page.goto('/device-config');
    await page.waitForURL((url) => url.pathname === '/device-config/card');
    await card(page, 'NM-0001').waitFor();
    await card(page, SERIAL.register).waitFor();
    // Another facility's device is not listed.
    expect(await card(page, SERIAL.room).count()).toBe(0);
    expect(await card(page, SERIAL.register).locator('[data-status]').getAttribute('data-status')).toBe('lent');
    expect(await card(page, SERIAL.register).getByText('部屋未割当').isVisible()).toBe(true);

    await page.locator('label').filter({ hasText: /^表$/ }).click();
    await page.waitForURL((url) => url.pathname === '/device-config/table');
    const row = page.locator(`[data-testid="device-row"][data-serial="${SERIAL.register}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('2.0.0');
    await page
      .locator('label')
      .filter({ hasText: /^小カード$/ })
      .click();
    await page.waitForURL((url) => url.pathname === '/device-config/smallcard');
    await page.getByPlaceholder('シリアル番号・機種・部屋名で検索').fill(SERIAL.register);
    await expect.poll(() => page.getByTestId('device-card').count()).toBe(1);
    await page
      .locator('label')
      .filter({ hasText: /^カード$/ })
      .click();
    await page.waitForURL((url) => url.pathname === '/device-config/card');

    // Register by typing the serial (headless Chromium on Linux has no BarcodeDetector: typed entry, said so).
    await page.getByRole('button', { name: '機器を登録' }).click();
    const register = page.getByRole('dialog', { name: '機器の登録' });
    await register.waitFor();
    expect(
      (await register.getByTestId('qr-scan-unavailable').count()) + (await register.getByRole('button', { name: 'カメラでQRコードを読み取る' }).count()),
    ).toBe(1);
    await register.getByRole('button', { name: '登録してシークレットを発行' }).click();
    await register.getByText('シリアル番号を入力してください', { exact: true }).waitFor();
    await register.getByLabel('シリアル番号').fill('NOPE-0000');
    await register.getByRole('button', { name: '登録してシークレットを発行' }).click();
    await register.getByRole('alert').filter({ hasText: '見つかりませんでした' }).waitFor();
    await register.getByLabel('シリアル番号').fill(SERIAL.register);
    await register.getByRole('button', { name: '登録してシークレットを発行' }).click();
    const first = await takeSecret(page, '機器を登録しました');
    await expect.poll(() => card(page, SERIAL.register).locator('[data-status]').getAttribute('data-status')).toBe('in_use');
    expect(await ingestWith(SERIAL.register, first)).toBe(202);
    // The frame makes the device online in the list, live.
    await expect
      .poll(() => card(page, SERIAL.register).locator('[data-connection]').first().getAttribute('data-connection'), { timeout: 30_000 })
      .toBe('online');

    // Rotation, confirmed: the old secret stops at once, the new one works.
    await openActions(page, SERIAL.register, 'シークレットを再発行');
    const confirm = page.getByRole('dialog', { name: 'シークレットの再発行' });
    await confirm.getByRole('button', { name: '再発行する' }).click();
    const second = await takeSecret(page, 'シークレットを再発行しました');
    expect(second).not.toBe(first);
    expect(await ingestWith(SERIAL.register, first)).toBe(401);
    expect(await ingestWith(SERIAL.register, second)).toBe(202);
    // The refused serial above is the only failed request; nothing else went wrong in the page.
    expect(pageConsole.errors.filter((error) => !error.includes('status of 404'))).toEqual([]);
  });

  it('assigns a device to a room and unassigns it', async () => {
    const { context, page } = await signedInPage('privilege@example.com');
    await page.goto('/device-config/table');
    await page.getByPlaceholder('シリアル番号・機種・部屋名で検索').fill(SERIAL.room);
    const row = page.locator(`[data-testid="device-row"][data-serial="${SERIAL.room}"]`);
    await row.waitFor();
    expect(await row.getByTestId('device-room').textContent()).toBe('—');

    await openActions(page, SERIAL.room, '部屋に割り当て');
    const dialog = page.getByRole('dialog', { name: `${SERIAL.room} の部屋` });
    await dialog.getByLabel('割り当てる部屋').click();
    await page.getByRole('option', { name: ROOM.name }).click();
    await dialog.getByRole('button', { name: '割り当てる' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => row.getByTestId('device-room').textContent()).toBe(ROOM.name);
    const room = await context.request.get(`${baseURL}/api/documents/rooms/${ROOM.id}`);
    expect(((await room.json()) as { document: { deviceSerial: string } }).document.deviceSerial).toBe(SERIAL.room);

    await openActions(page, SERIAL.room, '部屋の割り当てを変更・解除');
    const again = page.getByRole('dialog', { name: `${SERIAL.room} の部屋` });
    await again.getByText(`現在の部屋: ${ROOM.name}`).waitFor();
    await again.getByRole('button', { name: '割り当てを解除' }).click();
    await again.waitFor({ state: 'hidden' });
    await expect.poll(() => row.getByTestId('device-room').textContent()).toBe('—');
    const after = await context.request.get(`${baseURL}/api/documents/rooms/${ROOM.id}`);
    expect(((await after.json()) as { document: { deviceSerial?: string | null } }).document.deviceSerial ?? null).toBeNull();
  });

  it("prints QR labels whose code is the device's /sn/ URL", async () => {
    const { page } = await signedInPage('admin@example.com');
    await page.goto('/device-config/card');
    await page.getByPlaceholder('シリアル番号・機種・部屋名で検索').fill(SERIAL.lookup);
    await expect.poll(() => page.getByTestId('device-card').count()).toBe(1);
    await page.getByRole('button', { name: 'QRラベル印刷' }).click();
    const dialog = page.getByRole('dialog', { name: 'QRラベルの印刷' });
    const image = dialog.locator(`[data-testid="qr-label-image"][data-serial="${SERIAL.lookup}"]`);
    await image.waitFor();
    const url = `${baseURL}/sn/${SERIAL.lookup}`;
    expect(await image.getAttribute('data-url')).toBe(url);

    // Decoding: the image's modules, read back from its pixels, are exactly the QR symbol of the URL.
    const symbol = QRCode.create(url, { errorCorrectionLevel: 'M' });
    const size = symbol.modules.size;
    const expected = Array.from({ length: size * size }, (_, index) => symbol.modules.get(Math.floor(index / size), index % size) === 1);
    const read = await image.evaluate(async (element, modules) => {
      const img = element as HTMLImageElement;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context2d = canvas.getContext('2d');
      if (context2d === null) throw new Error('no 2d context');
      context2d.drawImage(img, 0, 0);
      // Two quiet modules on each side (QR_LABEL_OPTIONS); the module centre decides dark or light.
      const cell = img.naturalWidth / (modules + 4);
      const { data } = context2d.getImageData(0, 0, img.naturalWidth, img.naturalHeight);
      const dark: boolean[] = [];
      for (let row = 0; row < modules; row++) {
        for (let column = 0; column < modules; column++) {
          const x = Math.floor((column + 2.5) * cell);
          const y = Math.floor((row + 2.5) * cell);
          dark.push((data[(y * img.naturalWidth + x) * 4] ?? 255) < 128);
        }
      }
      return dark;
    }, size);
    expect(read).toEqual(expected);

    // Printing shows the label sheet alone.
    await page.emulateMedia({ media: 'print' });
    const sheet = page.locator('.nemuri-qr-sheet');
    expect(await sheet.isVisible()).toBe(true);
    expect(await sheet.locator('figcaption', { hasText: SERIAL.lookup }).isVisible()).toBe(true);
    expect(await page.locator('#root').isVisible()).toBe(false);
    await page.emulateMedia({ media: 'screen' });
    expect(await sheet.isVisible()).toBe(false);
  });

  it('resolves /sn/: the room when visible, the master page for developers, else registration with the serial filled in', async () => {
    const staff = (await signedInPage('staff@example.com')).page;
    await staff.goto('/sn/NM-0001');
    await staff.waitForURL((url) => url.pathname === '/room/demo-a-101/sleep');

    const developer = (await signedInPage('developer@example.com')).page;
    await developer.goto(`/sn/${SERIAL.lookup}`);
    await developer.waitForURL((url) => url.pathname === `/master/device/${SERIAL.lookup}`);

    const admin = (await signedInPage('admin@example.com')).page;
    await admin.goto(`/sn/${SERIAL.lookup}`);
    await admin.waitForURL((url) => url.pathname === '/device-config/card' && url.searchParams.get('register') === SERIAL.lookup);
    const register = admin.getByRole('dialog', { name: '機器の登録' });
    await register.waitFor();
    expect(await register.getByLabel('シリアル番号').inputValue()).toBe(SERIAL.lookup);
    await register.getByRole('button', { name: 'キャンセル' }).click();
    await admin.waitForURL((url) => !url.searchParams.has('register'));

    await admin.goto('/sn/bad%20serial!');
    await admin.getByRole('alert').filter({ hasText: '機器のシリアル番号として正しくありません' }).waitFor();
  });

  it('does not let general staff register or rotate: no button, and the API refuses', async () => {
    const { context, page } = await signedInPage('staff@example.com');
    await page.goto(`/sn/${SERIAL.lookup}`);
    await page.waitForURL((url) => url.pathname === '/device-config/card');
    await page.getByText(`機器 ${SERIAL.lookup} の登録は管理者のみ行えます`).waitFor();
    await card(page, SERIAL.lookup).waitFor();
    expect(await page.getByRole('button', { name: '機器を登録' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: `${SERIAL.lookup} の操作` }).count()).toBe(0);
    expect(await page.getByRole('dialog').count()).toBe(0);

    const registration = await api(context, 'POST', `/api/devices/${SERIAL.lookup}/registration`, {});
    expect(registration.status).toBe(403);
    expect(registration.body).toMatchObject({ code: 'permission-denied' });
    expect((await api(context, 'POST', `/api/devices/${SERIAL.register}/secret`, {})).status).toBe(403);
    expect((await api(context, 'PUT', `/api/devices/${SERIAL.lookup}/room`, { roomId: 'demo-a-101' })).status).toBe(403);
  });
});
