/**
 * The live raw views in the browser, fed by the simulated demo devices through the real MQTT path:
 * the device picker, every `/monitoring-device/…` view drawing its sweeping traces and current values,
 * the EIT image, pause, the room views, and the tenant scope (another facility's device stays hidden).
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { useBrowserTab } from './support/browser.ts';
import { startLiveDevice, type LiveDevice, type LiveDeviceOptions } from './support/liveDevice.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
const tab = useBrowserTab(baseURL);

const streaming: LiveDevice[] = [];
afterEach(async () => {
  const devices = streaming.splice(0);
  await Promise.all(devices.map((device) => device.stop()));
  for (const device of devices) expect(device.failures).toEqual([]);
});

/** The device streams live (in bed, breathing) for the rest of the test. */
function stream(serial: string, options: LiveDeviceOptions = {}): void {
  streaming.push(startLiveDevice(baseURL, serial, { script: { presence: 'asleep', offline: false, apnea: false }, ...options }));
}

/** Pixels of a canvas that are not fully transparent: a drawn trace or image. */
async function paintedPixels(page: Page, testId: string): Promise<number> {
  return page
    .getByTestId(testId)
    .first()
    .evaluate((element) => {
      const canvas = element as HTMLCanvasElement;
      const data = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data;
      let painted = 0;
      if (data) for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 0) painted++;
      return painted;
    });
}

async function canvasSnapshot(page: Page): Promise<string> {
  return page.getByTestId('sweep-canvas').evaluate((element) => (element as HTMLCanvasElement).toDataURL());
}

async function deviceOfRoom(page: Page, roomId: string): Promise<string> {
  const response = await page.context().request.get(`${baseURL}/api/documents/rooms/${roomId}`);
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { document: { deviceSerial: string } };
  return body.document.deviceSerial;
}

/** A value box shows a number (the trace has data under the cursor). */
async function expectNumber(page: Page, testId: string): Promise<void> {
  await expect.poll(async () => page.getByTestId(testId).locator('[data-value]').getAttribute('data-value'), { timeout: 15_000 }).toMatch(/^-?\d/);
}

describe('live raw views', () => {
  it('lists the devices in scope and opens a view from the picker', async () => {
    const { page, context } = tab;
    await signInByApi(context, baseURL, 'admin@example.com');
    const chest = await deviceOfRoom(page, 'demo-a-201');
    stream(chest);
    await page.goto('/monitoring-device/');
    const row = page.locator(`[data-testid="device-row"][data-serial="${chest}"]`);
    await row.waitFor({ timeout: 15_000 });
    // Facility B's devices are not in facility A's administrator's scope.
    const other = await page.locator('[data-testid="device-row"]').allInnerTexts();
    expect(other.some((text) => text.includes('松の間'))).toBe(false);
    await row.getByRole('link', { name: '心電図' }).click();
    await page.waitForURL(`**/monitoring-device/raw-ecg?serial=${chest}`);
    await page.getByRole('heading', { name: /心電図 — 201号室/ }).waitFor();
    await expect.poll(() => page.getByTestId('device-link').textContent(), { timeout: 15_000 }).toBe('オンライン');
    await expectNumber(page, 'value-ecg-0');
    await expect.poll(() => paintedPixels(page, 'sweep-canvas'), { timeout: 10_000 }).toBeGreaterThan(500);
  });

  it('draws every view of a chest sensor with its current values', async () => {
    const { page, context } = tab;
    await signInByApi(context, baseURL, 'admin@example.com');
    const chest = await deviceOfRoom(page, 'demo-a-202');
    stream(chest);
    const views: [string, string[]][] = [
      ['raw-respi-axl', ['value-respiAxl-0', 'value-respiAxl-1', 'value-respiAxl-2']],
      ['raw-impe', ['value-impe-0']],
      ['raw-respihr', ['value-respiHr-0', 'value-respiHr-1']],
      ['raw-temparature', ['value-temperature-0']],
      ['raw-button', ['value-button-0']],
      ['raw-multi', ['value-ecg-0', 'value-respiAxl-2', 'value-impe-0', 'value-temperature-0']],
    ];
    for (const [view, values] of views) {
      await page.goto(`/monitoring-device/${view}?serial=${chest}`);
      for (const value of values) await expectNumber(page, value);
      await expect.poll(() => paintedPixels(page, 'sweep-canvas'), { timeout: 10_000 }).toBeGreaterThan(200);
      // The sweep moves: the canvas changes from one moment to the next.
      const before = await canvasSnapshot(page);
      await expect.poll(async () => (await canvasSnapshot(page)) !== before, { timeout: 5_000 }).toBe(true);
    }
    await page.getByTestId('button-presses').waitFor({ state: 'detached' });
  });

  it('pauses and resumes the sweep', async () => {
    const { page, context } = tab;
    await signInByApi(context, baseURL, 'admin@example.com');
    const chest = await deviceOfRoom(page, 'demo-a-203');
    stream(chest);
    await page.goto(`/monitoring-device/raw-ecg?serial=${chest}`);
    await expectNumber(page, 'value-ecg-0');
    await page.getByRole('button', { name: '一時停止' }).click();
    await page.getByText('一時停止中').waitFor();
    // The frame under way when the button was pressed may still be drawn. Then the picture stops:
    // live, the sweep changes it every 200 ms; paused, at most one redraw (a layout change of the
    // page resizing the canvas) may come.
    await page.waitForTimeout(300);
    const pictures: string[] = [];
    for (let taken = 0; taken < 6; taken++) {
      pictures.push(await canvasSnapshot(page));
      await page.waitForTimeout(200);
    }
    expect(pictures.filter((picture, index) => index > 0 && picture !== pictures[index - 1]).length).toBeLessThanOrEqual(1);
    const frozen = pictures[pictures.length - 1];
    await page.getByRole('button', { name: '再開' }).click();
    await expect.poll(async () => (await canvasSnapshot(page)) !== frozen, { timeout: 5_000 }).toBe(true);
  });

  it("shows a room's device by room, and says so when the room has no device", async () => {
    const { page, context } = tab;
    await signInByApi(context, baseURL, 'admin@example.com');
    stream(await deviceOfRoom(page, 'demo-a-101'), { channels: ['respiAxl', 'respiHr', 'button'] });
    await page.goto('/monitoring-room/raw-respi-axl?roomId=demo-a-101');
    await page.getByRole('heading', { name: /呼吸・体動 — 101号室/ }).waitFor({ timeout: 15_000 });
    await expectNumber(page, 'value-respiAxl-2');
    await page
      .locator('label')
      .filter({ hasText: /^ボタン$/ })
      .click();
    await page.waitForURL('**/monitoring-room/raw-button?roomId=demo-a-101');
    await page.getByTestId('button-presses').waitFor();
    await page.goto('/monitoring-room/raw-multi?roomId=no-such-room');
    await page.getByRole('alert').getByText('部屋が見つからないか、表示する権限がありません。').waitFor({ timeout: 10_000 });
  });

  it('reconstructs the EIT image of the EIT belt live', async () => {
    const { page, context } = tab;
    // The EIT belt is in facility B: the corporation's privilege administrator sees both facilities.
    await signInByApi(context, baseURL, 'privilege@example.com');
    const eit = await deviceOfRoom(page, 'demo-b-05');
    stream(eit, { channels: ['eit', 'respiHr', 'temperature'] });
    await page.goto(`/monitoring-device/raw-eit?serial=${eit}`);
    await expectNumber(page, 'value-eit-0');
    await page.getByTestId('eit-image').waitFor({ timeout: 15_000 });
    await expect.poll(() => paintedPixels(page, 'eit-image'), { timeout: 15_000 }).toBeGreaterThan(20_000);
  });

  it('says so when the device is offline', async () => {
    const { page, context } = tab;
    await signInByApi(context, baseURL, 'admin@example.com');
    // Nobody streams this room's device in the browser tests.
    const quiet = await deviceOfRoom(page, 'demo-a-208');
    await page.goto(`/monitoring-device/raw-ecg?serial=${quiet}`);
    await page.getByTestId('device-offline').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('device-link').textContent()).toBe('オフライン');
  });

  it("never shows another facility's device", async () => {
    const { page, context } = tab;
    await signInByApi(context, baseURL, 'privilege@example.com');
    const otherFacility = await deviceOfRoom(page, 'demo-b-01');
    await context.clearCookies();
    await signInByApi(context, baseURL, 'admin@example.com');
    await page.goto(`/monitoring-device/raw-ecg?serial=${otherFacility}`);
    await page.getByRole('alert').getByText(`機器 ${otherFacility} は見つからないか、表示する権限がありません。`).waitFor({ timeout: 15_000 });
    await expect(page.getByTestId('sweep-canvas').count()).resolves.toBe(0);
  });
});
