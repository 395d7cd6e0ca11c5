/**
 * Home room lists in the browser: staff of facility A see its 16 rooms (demo data) in cards, small
 * cards and a table, filter and search them, and a device that starts sending frames changes its
 * room's live state within seconds.
 */
import { createParserSync } from '@nemuri/parser/node';
import type { SmfSampleChannel } from '@nemuri/parser/smf';
import { DeviceSimulator, demoSecret, encodeSecond, SequenceCounters } from '@nemuri/simulator/index';
import { describe, expect, inject, it } from 'vitest';
import { useBrowserTab } from './support/browser.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
const tab = useBrowserTab(baseURL);

/** Sends `seconds` simulated seconds of a demo device, ending now, through HTTP ingest. */
async function sendFrames(serial: string, seconds: number): Promise<void> {
  const parser = createParserSync();
  const device = new DeviceSimulator({ serial, seed: `e2e-${serial}` });
  const sequences = new SequenceCounters();
  const start = Math.floor(Date.now() / 1000) * 1000 - seconds * 1000;
  const chunks: Uint8Array[] = [];
  for (let s = 0; s < seconds; s++) {
    const second = device.generate(start + s * 1000);
    if (second === null) continue;
    for (const frame of encodeSecond(parser, second, sequences).filter((item) => (item.channel as SmfSampleChannel) !== 'eit')) chunks.push(frame.bytes);
  }
  const body = Buffer.concat(chunks);
  const response = await fetch(`${baseURL}/api/devices/${serial}/frames`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demoSecret(serial)}`, 'content-type': 'application/octet-stream' },
    body,
  });
  expect(response.status, await response.text()).toBe(202);
}

describe('home room lists', () => {
  it("lists the facility's rooms with live states in three layouts", async () => {
    const { page } = tab;
    await signInByApi(tab.context, baseURL, 'staff@example.com');
    await page.goto('/card');
    const cards = page.getByTestId('room-card');
    // Other browser tests add rooms to the demo facility on the same server: the demo's own 16 are what this test knows.
    const demoCards = page.locator('[data-testid="room-card"][data-room^="demo-"]');
    await expect.poll(() => demoCards.count(), { timeout: 15_000 }).toBe(16);
    await page.getByTestId('room-card').filter({ hasText: '101号室' }).getByText('佐々木 トシ').waitFor();

    // A device that starts sending: its room leaves "通信なし" within seconds.
    const room101 = page.locator('[data-room="demo-a-101"]');
    await sendFrames('NM-0001', 40);
    await expect.poll(async () => room101.locator('[data-state]').getAttribute('data-state'), { timeout: 10_000 }).not.toBe('offline');

    await page.getByPlaceholder('部屋名・入居者名で検索').fill('佐々木');
    await expect.poll(() => cards.count()).toBe(1);
    await page.getByPlaceholder('部屋名・入居者名で検索').fill('');

    await page.locator('label').filter({ hasText: /^表$/ }).click();
    await page.waitForURL((url) => url.pathname === '/table');
    await page.getByTestId('room-table').getByText('102号室').waitFor();
    await page
      .locator('label')
      .filter({ hasText: /^小カード$/ })
      .click();
    await page.waitForURL((url) => url.pathname === '/smallcard');
    await expect.poll(() => demoCards.count()).toBe(16);

    await page
      .locator('label')
      .filter({ hasText: /^状態順$/ })
      .click();
    await expect.poll(async () => cards.last().getAttribute('data-room')).not.toBe('demo-a-101');
  });

  it('shows an individual user only their own rooms', async () => {
    await tab.context.clearCookies();
    await signInByApi(tab.context, baseURL, 'individual@example.com');
    await tab.page.goto('/table');
    const rows = tab.page.getByTestId('room-table').locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
  });
});
