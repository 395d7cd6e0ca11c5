/**
 * Room sleep and result pages in the browser: staff open a demo room's latest night, see its metrics
 * (the same numbers as the record read over the API) and timeline, step to the previous day, pick a
 * day in the calendar, open a minute's raw signals, and page the 7/30/90-day trends; an individual
 * user sees their own room read-only and not another facility's. The breathing-pause lane marks the
 * pauses the metrics count, and the charts zoom by wheel, drag and pinch, and back to the whole night.
 */
import { createParserSync } from '@nemuri/parser/node';
import type { SmfSampleChannel } from '@nemuri/parser/smf';
import { DeviceSimulator, demoSecret, encodeSecond, SequenceCounters } from '@nemuri/simulator/index';
import type { APIRequestContext } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { useBrowserTab } from './support/browser.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
const tab = useBrowserTab(baseURL);

interface SleepDay {
  documentReferenceId: string;
  bedTime?: string | null;
  totalSleepMin?: number;
  sleepEfficiency?: number;
  sleepLatencyMin?: number;
  wasoMin?: number;
  outOfBedCount?: number;
  heartRate?: { avg: number | null };
}

async function sleepDays(api: APIRequestContext, roomId: string, limit: number): Promise<SleepDay[]> {
  const response = await api.post(`${baseURL}/api/documents/query`, {
    data: { query: { collection: `rooms/${roomId}/sleeps`, orderBy: [['bedTime', 'desc']], limit } },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { documents: SleepDay[] }).documents;
}

/** Sends a simulated minute of a demo device from `startMs` (a minute of a past night) through HTTP ingest. */
async function sendMinute(serial: string, startMs: number): Promise<void> {
  const parser = createParserSync();
  const device = new DeviceSimulator({ serial, seed: `e2e-sleep-${serial}` });
  const sequences = new SequenceCounters();
  const chunks: Uint8Array[] = [];
  for (let s = 0; s < 60; s++) {
    const second = device.generate(startMs + s * 1000);
    if (second === null) continue;
    for (const frame of encodeSecond(parser, second, sequences).filter((item) => (item.channel as SmfSampleChannel) !== 'eit')) chunks.push(frame.bytes);
  }
  const response = await fetch(`${baseURL}/api/devices/${serial}/frames`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demoSecret(serial)}`, 'content-type': 'application/octet-stream' },
    body: Buffer.concat(chunks),
  });
  expect(response.status, await response.text()).toBe(202);
}

const duration = (minutes: number) => (minutes >= 60 ? `${Math.floor(minutes / 60)}時間${Math.round(minutes % 60)}分` : `${minutes}分`);
const clock = (iso: string) =>
  new Intl.DateTimeFormat('ja-JP', { timeZone: 'Asia/Tokyo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(Date.parse(iso));
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

async function expectMetricsOf(record: SleepDay): Promise<void> {
  const value = (key: string) => tab.page.locator(`[data-metric="${key}"] [data-value]`);
  await expect.poll(() => value('totalSleep').textContent(), { timeout: 15_000 }).toBe(duration(record.totalSleepMin ?? 0));
  expect(await value('efficiency').textContent()).toBe(`${record.sleepEfficiency}%`);
  expect(await value('latency').textContent()).toBe(duration(record.sleepLatencyMin ?? 0));
  expect(await value('waso').textContent()).toBe(duration(record.wasoMin ?? 0));
  expect(await value('outOfBedCount').textContent()).toBe(`${record.outOfBedCount}回`);
  expect(await value('bedTime').textContent()).toBe(clock(record.bedTime ?? ''));
  expect(await value('heartRate').textContent()).toContain(`${record.heartRate?.avg}`);
}

describe('room sleep and result pages', () => {
  it('shows staff a night, its neighbours, the calendar, a minute and the trends', async () => {
    const { page, context } = tab;
    await signInByApi(context, baseURL, 'staff@example.com');
    const records = await sleepDays(context.request, 'demo-a-101', 100);
    const latest = records[0] as SleepDay;
    expect(latest).toBeDefined();

    await page.goto('/room/demo-a-101/sleep');
    await page.getByText('入居者: 佐々木 トシ').waitFor();
    await expect.poll(() => page.getByTestId('sleep-day').getAttribute('data-day'), { timeout: 15_000 }).toBe(latest.documentReferenceId);
    await expectMetricsOf(latest);
    await expect.poll(() => page.locator('[data-testid="sleep-timeline"] [data-band="asleep"]').count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('[data-testid="sleep-timeline"] [data-series="heart"]').count()).toBe(1);

    // A minute of the night: nothing was stored for it on this server, and the page says so.
    const timeline = page.getByTestId('sleep-timeline');
    const box = await timeline.boundingBox();
    if (box === null) throw new Error('the timeline is not drawn');
    await timeline.click({ position: { x: box.width * 0.55, y: 40 } });
    await page.getByTestId('raw-minute-panel').getByText('この1分間の生データは保存されていません。').waitFor();

    // The previous day, with its own numbers.
    const previousDay = addDays(latest.documentReferenceId, -1);
    await page.getByRole('button', { name: '前の日' }).click();
    await page.waitForURL((url) => url.searchParams.get('day') === previousDay);
    const previous = records.find((record) => record.documentReferenceId === previousDay);
    if (previous) await expectMetricsOf(previous);
    else await page.getByText('この日の記録はありません').waitFor();

    // The calendar marks the days with records; picking one opens it.
    const calendar = page.getByTestId('sleep-calendar');
    const marked = calendar.locator('[data-has-data="true"]:not([aria-current])');
    await expect.poll(() => marked.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const pick = (await marked.first().getAttribute('data-day')) as string;
    expect(records.some((record) => record.documentReferenceId === pick)).toBe(true);
    await marked.first().click();
    await page.waitForURL((url) => url.searchParams.get('day') === pick);
    await expectMetricsOf(records.find((record) => record.documentReferenceId === pick) as SleepDay);

    // A day without a record.
    await page.goto('/room/demo-a-101/sleep?day=2020-01-01');
    await page.getByText('この日の記録はありません').waitFor();

    // Trends: 7 days by default, then 30 and 90; averages match the records.
    await page.getByRole('link', { name: '結果' }).click();
    await page.waitForURL((url) => url.pathname === '/room/demo-a-101/result');
    await expect.poll(() => page.getByTestId('result-chart').count(), { timeout: 15_000 }).toBe(8);
    await expect.poll(() => page.getByTestId('result-period').getAttribute('data-days')).toBe('7');
    const lastDay = new Date(Date.now() + (9 - 12) * 3_600_000).toISOString().slice(0, 10);
    const inPeriod = records.filter((record) => record.documentReferenceId > addDays(lastDay, -7) && record.documentReferenceId <= lastDay);
    const mean = inPeriod.reduce((sum, record) => sum + (record.totalSleepMin ?? 0), 0) / inPeriod.length;
    await expect
      .poll(() => page.locator('[data-testid="result-summary"] [data-metric="totalSleepMin"] [data-average]').getAttribute('data-average'))
      .toBe(String(Math.round(mean * 10) / 10));
    for (const days of ['30', '90']) {
      await page
        .locator('label')
        .filter({ hasText: new RegExp(`^${days}日間$`) })
        .click();
      await page.waitForURL((url) => url.searchParams.get('range') === days);
      await expect.poll(() => page.getByTestId('result-period').getAttribute('data-days')).toBe(days);
      await expect.poll(() => page.getByTestId('result-chart').count(), { timeout: 15_000 }).toBe(8);
    }
    // Staff see all four tabs.
    await page.getByRole('link', { name: '取り込み履歴' }).waitFor();
  });

  it("shows an individual user their own room read-only, and not another facility's", async () => {
    const { page, context } = tab;
    await signInByApi(context, baseURL, 'individual@example.com');
    const records = await sleepDays(context.request, 'demo-h-1', 1);
    const latest = records[0] as SleepDay;
    expect(latest).toBeDefined();

    await page.goto('/room/demo-h-1/sleep');
    await page.getByText('閲覧のみ').waitFor();
    await expect.poll(() => page.getByTestId('sleep-day').getAttribute('data-day'), { timeout: 15_000 }).toBe(latest.documentReferenceId);
    await expectMetricsOf(latest);
    expect(await page.getByRole('link', { name: 'データ取り込み' }).count()).toBe(0);

    // The device's raw signals are for staff.
    const timeline = page.getByTestId('sleep-timeline');
    const box = await timeline.boundingBox();
    if (box === null) throw new Error('the timeline is not drawn');
    await timeline.click({ position: { x: box.width * 0.55, y: 40 } });
    await page.getByTestId('raw-minute-panel').getByText('生データを表示する権限がありません。').waitFor();

    await page.goto('/room/demo-a-101/sleep');
    await page.getByText('部屋が見つからないか、表示する権限がありません。').waitFor();
    const denied = await context.request.get(`${baseURL}/api/documents/rooms/demo-a-101/sleeps/${latest.documentReferenceId}`);
    expect([403, 404]).toContain(denied.status());
  });

  it('marks the breathing pauses the page counts, and zooms by wheel, drag and pinch', async () => {
    const { page, context } = tab;
    await signInByApi(context, baseURL, 'staff@example.com');
    const records = (await sleepDays(context.request, 'demo-a-102', 60)) as (SleepDay & { apneaEvents?: number })[];
    const night = records.find((record) => (record.apneaEvents ?? 0) >= 2);
    if (night === undefined) throw new Error('no demo night with breathing pauses');
    const count = night.apneaEvents ?? 0;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/room/demo-a-102/sleep?day=${night.documentReferenceId}`);
    const timeline = page.getByTestId('sleep-timeline');
    await expect.poll(() => page.locator('[data-metric="apnea"] [data-value]').textContent(), { timeout: 15_000 }).toContain(`${count}回`);
    // The lane's marks hold exactly the pauses the metrics count.
    expect(await page.getByTestId('pause-lane-count').getAttribute('data-count')).toBe(String(count));
    const marked = await timeline.locator('[data-pause]').evaluateAll((marks) => marks.reduce((sum, mark) => sum + Number(mark.getAttribute('data-count')), 0));
    expect(marked).toBe(count);

    const view = async () => ({ start: Number(await timeline.getAttribute('data-view-start')), end: Number(await timeline.getAttribute('data-view-end')) });
    const whole = await view();
    const box = await timeline.boundingBox();
    if (box === null) throw new Error('the timeline is not drawn');
    /** Where a fraction of the plot is on the page: the chart is drawn at its pixel width, the plot 64 px from its left and 24 px from its right. */
    const plotX = (fraction: number) => box.x + 64 + fraction * (box.width - 88);
    const y = box.y + box.height / 2;
    const reset = page.getByTestId('sleep-zoom-reset');
    expect(await reset.isDisabled()).toBe(true);

    // The wheel zooms in about the pointer, which stays on the same instant.
    await page.mouse.move(plotX(0.5), y);
    await page.mouse.wheel(0, -300);
    await expect.poll(() => timeline.getAttribute('data-zoomed')).toBe('true');
    const wheeled = await view();
    expect(wheeled.end - wheeled.start).toBeLessThan((whole.end - whole.start) * 0.7);
    expect(Math.abs((wheeled.start + wheeled.end) / 2 - (whole.start + whole.end) / 2)).toBeLessThan(120_000);
    await reset.click();
    await expect.poll(() => timeline.getAttribute('data-zoomed')).toBe('false');
    expect(await view()).toEqual(whole);
    // The same from the keyboard: 拡大 halves the window about its middle.
    await page.getByRole('button', { name: '拡大' }).click();
    await expect
      .poll(async () => {
        const now = await view();
        return now.end - now.start;
      })
      .toBe((whole.end - whole.start) / 2);
    await reset.click();
    await expect.poll(() => timeline.getAttribute('data-zoomed')).toBe('false');

    // A drag across the charts zooms to the stretch dragged over, and opens no minute.
    await page.mouse.move(plotX(0.3), y);
    await page.mouse.down();
    await page.mouse.move(plotX(0.45), y, { steps: 4 });
    await page.mouse.move(plotX(0.6), y, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => timeline.getAttribute('data-zoomed')).toBe('true');
    const dragged = await view();
    const at = (fraction: number) => whole.start + fraction * (whole.end - whole.start);
    expect(Math.abs(dragged.start - at(0.3))).toBeLessThan(120_000);
    expect(Math.abs(dragged.end - at(0.6))).toBeLessThan(120_000);
    expect(new URL(page.url()).searchParams.get('minute')).toBeNull();
    expect(await page.getByTestId('raw-minute-panel').count()).toBe(0);
    await reset.click();
    await expect.poll(() => timeline.getAttribute('data-zoomed')).toBe('false');

    // Two fingers spread apart zoom in (touch input as a tablet sends it).
    const cdp = await context.newCDPSession(page);
    const touch = async (type: 'touchStart' | 'touchMove' | 'touchEnd', xs: number[]) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: xs.map((x, id) => ({ x, y, id })) });
    await touch('touchStart', [plotX(0.45), plotX(0.55)]);
    for (const spread of [0.1, 0.15, 0.2, 0.25]) await touch('touchMove', [plotX(0.5 - spread), plotX(0.5 + spread)]);
    await touch('touchEnd', []);
    await expect.poll(() => timeline.getAttribute('data-zoomed')).toBe('true');
    const pinched = await view();
    expect(pinched.end - pinched.start).toBeLessThan((whole.end - whole.start) * 0.5);
    await cdp.detach();

    // On a phone the zoom bar and the charts fit the width, and the chart's text stays readable: drawn
    // at the phone's pixel width, not a desktop drawing scaled down to 4–5 px text.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), { timeout: 15_000 })
      .toBeLessThanOrEqual(0);
    const smallestText = () =>
      timeline.evaluate((svg) => {
        const sizes = [...svg.querySelectorAll('text')].map((text) => {
          const matrix = (text as SVGTextElement).getScreenCTM();
          const scale = matrix === null ? 0 : Math.hypot(matrix.a, matrix.b);
          return parseFloat(getComputedStyle(text).fontSize) * scale;
        });
        return sizes.length === 0 ? 0 : Math.min(...sizes);
      });
    await expect.poll(smallestText, { timeout: 15_000 }).toBeGreaterThanOrEqual(11);
    const phoneBox = await timeline.boundingBox();
    expect(phoneBox?.width ?? 0).toBeLessThanOrEqual(390);
    expect(phoneBox?.width ?? 0).toBeGreaterThan(250);
  });

  it('draws the raw signals stored for a minute of the night', async () => {
    const { page, context } = tab;
    await signInByApi(context, baseURL, 'staff@example.com');
    // A room no other browser test streams to, so its live state and alerts stay theirs.
    const room = (await (await context.request.get(`${baseURL}/api/documents/rooms/demo-a-107`)).json()) as { document: { deviceSerial: string } };
    const latest = (await sleepDays(context.request, 'demo-a-107', 1))[0] as SleepDay;
    const minute = Math.floor((Date.parse(latest.bedTime ?? '') + 120 * 60_000) / 60_000) * 60_000;
    await sendMinute(room.document.deviceSerial, minute);

    await page.goto(`/room/demo-a-107/sleep?day=${latest.documentReferenceId}&minute=${minute}`);
    const panel = page.getByTestId('raw-minute-panel');
    for (const channel of ['respiAxl', 'ecg']) {
      await expect.poll(() => panel.locator(`[data-channel="${channel}"] path`).count(), { timeout: 15_000 }).toBeGreaterThan(0);
      expect(((await panel.locator(`[data-channel="${channel}"] path`).first().getAttribute('d')) ?? '').length).toBeGreaterThan(1000);
    }
    await expect.poll(() => page.getByTestId('selected-minute').count()).toBe(1);
    // The next minute has nothing stored.
    await page.goto(`/room/demo-a-107/sleep?day=${latest.documentReferenceId}&minute=${minute + 60_000}`);
    await panel.getByText('この1分間の生データは保存されていません。').waitFor();
  });
});
