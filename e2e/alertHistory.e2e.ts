/**
 * The alert history in the browser, in a facility of the test's own: a nurse who was away opens
 * /alert-history and sees each alert of the last days with room, resident, type, start, duration and
 * who acknowledged it; narrows it to the unacknowledged ones, pages back through older alerts and
 * downloads the CSV. On a phone the rows are cards and nothing runs off the screen; another facility's
 * nurse sees none of it. The room's sleep page and /monitoring sum up the facility's night (alerts, out of
 * bed, sleep) on its clock whatever the browser's zone, and the room form keeps the room's own alert
 * settings (the 起きあがり delay among them). Each row opens the alert's notification steps: an open nurse
 * call escalates for real (everyone told at once, the nurse by mail) and its first step is listed.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { ALERT_CSV_HEADER } from '@nemuri/shared/alertHistory';
import { DEFAULT_DOMAIN_SETTINGS, DEFAULT_PREFERENCES, NOTIFICATIONS_API, type AlertEscalationView } from '@nemuri/shared/notifications';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newContext, useBrowser } from './support/browser.ts';
import { ok, registerOwnFacility } from './support/ownFacility.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
const shared = useBrowser();
const stamp = Date.now();
const headers = { origin: baseURL };
const ROOM = `ah-room-${stamp}`;
/** A room of its own for the alert that escalates, so the paged lists of ROOM stay as counted. */
const CALL_ROOM = `ah-call-room-${stamp}`;
const CALL_ALERT = `ah-${stamp}-call`;
/** More than one page (50) of alerts. */
const ALERT_COUNT = 55;

let nurse: BrowserContext;
let facility: { domainId: string; owner: BrowserContext } | undefined;
let nurseName = '';

/** When alert `i` started: (`i` + 1) × 20 minutes before the file began, one clock for the alerts and for what is counted. */
const alertStart = (index: number) => stamp - (index + 1) * 20 * 60_000;

/** Alert `i` started (`i` + 1) × 20 minutes ago, the newest still active. */
function alertData(domainId: string, index: number) {
  const startedAt = new Date(alertStart(index));
  return {
    domainId,
    roomId: ROOM,
    type: index % 2 === 0 ? 'button' : 'outOfBed',
    startedAt: startedAt.toISOString(),
    endedAt: index === 0 ? null : new Date(startedAt.getTime() + 90_000).toISOString(),
  };
}

/** Every third alert is acknowledged by the nurse (who and when are the server's to record). */
const acknowledgedByNurse = (index: number) => index % 3 === 0;

beforeAll(async () => {
  const own = await registerOwnFacility(shared.browser, baseURL, {
    ownerEmail: `ah-owner-${stamp}@example.com`,
    ownerName: '履歴 オーナー',
    domainName: `E2E 履歴ホーム ${stamp}`,
    password: 'alert-history-e2e-1',
  });
  nurseName = '夜勤 看護師';
  const invited = await own.invite(`ah-nurse-${stamp}@example.com`, ROLE_LEVELS.generalStaff, nurseName);
  nurse = invited.context;
  facility = { domainId: own.domainId, owner: own.owner };
  await ok(
    own.owner.request.put(`${baseURL}/api/documents/rooms/${ROOM}`, {
      data: { data: { domainId: own.domainId, name: '履歴 301号室', residentName: '青木 トメ' } },
      headers,
    }),
  );
  // Everyone is told at once, and the nurse takes alerts by mail: the open nurse call below escalates for real.
  await ok(
    own.owner.request.put(`${baseURL}${NOTIFICATIONS_API}/domains/${own.domainId}/settings`, {
      data: { ...DEFAULT_DOMAIN_SETTINGS, escalation: [{ target: 'allStaff', afterMin: 0 }] },
      headers,
    }),
  );
  await ok(
    nurse.request.put(`${baseURL}${NOTIFICATIONS_API}/preferences`, {
      data: { ...DEFAULT_PREFERENCES, channels: { push: false, mail: true, line: false } },
      headers,
    }),
  );
  await ok(own.owner.request.put(`${baseURL}/api/documents/rooms/${CALL_ROOM}`, { data: { data: { domainId: own.domainId, name: '履歴 302号室' } }, headers }));
  await ok(
    own.owner.request.put(`${baseURL}/api/documents/alerts/${CALL_ALERT}`, {
      data: { data: { domainId: own.domainId, roomId: CALL_ROOM, type: 'button', startedAt: new Date().toISOString() }, merge: false },
      headers,
    }),
  );
  for (let index = 0; index < ALERT_COUNT; index++) {
    const path = `${baseURL}/api/documents/alerts/ah-${stamp}-${String(index).padStart(2, '0')}`;
    await ok(own.owner.request.put(path, { data: { data: alertData(own.domainId, index) }, headers }));
    if (acknowledgedByNurse(index)) await ok(nurse.request.patch(path, { data: { data: { acknowledgedBy: invited.uid } }, headers }));
  }
}, 120_000);

afterAll(async () => {
  await nurse?.close();
});

async function openHistory(context: BrowserContext, query = '', viewport = { width: 1920, height: 1080 }): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  await page.goto(`/alert-history${query}`);
  await page.getByTestId('alert-history').or(page.getByTestId('alert-history-empty')).first().waitFor();
  return page;
}

const rowIds = (page: Page) => page.locator('[data-alert-id]').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.alertId ?? ''));

describe('alert history', () => {
  it('lists the alerts newest first with room, resident, type, start, duration and who acknowledged', async () => {
    const page = await openHistory(nurse, `?room=${ROOM}`);
    const ids = await rowIds(page);
    expect(ids).toHaveLength(50);
    expect(ids[0]).toBe(`ah-${stamp}-00`);
    const newest = page.locator(`[data-alert-id="ah-${stamp}-00"]`);
    await expect.poll(() => newest.innerText()).toContain('履歴 301号室');
    const text = await newest.innerText();
    expect(text).toContain('青木 トメ');
    expect(text).toContain('ナースコール');
    expect(text).toContain('継続中');
    expect(text).toContain(nurseName);
    expect(await newest.getAttribute('data-status')).toBe('activeAcknowledged');
    const second = await page.locator(`[data-alert-id="ah-${stamp}-01"]`).innerText();
    expect(second).toContain('離床');
    expect(second).toContain('1分');
    expect(second).toContain('未確認');
    // The next page continues where the first ended.
    await page.getByRole('button', { name: 'さらに古いアラート' }).click();
    await expect.poll(() => rowIds(page)).toEqual(Array.from({ length: 5 }, (_, index) => `ah-${stamp}-${String(index + 50).padStart(2, '0')}`));
    await page.getByRole('button', { name: '新しいアラート' }).click();
    await expect.poll(async () => (await rowIds(page))[0]).toBe(`ah-${stamp}-00`);
    await page.close();
  });

  it("opens an alert's notification steps from its row", async () => {
    // The server's escalation takes the first step soon after the alert opened (the change feed, else its sweep).
    const escalation = async () =>
      (await ok<AlertEscalationView>(nurse.request.get(`${baseURL}${NOTIFICATIONS_API}/alerts/${CALL_ALERT}/escalation`))).steps.length;
    await expect.poll(escalation, { timeout: 90_000, interval: 1_000 }).toBeGreaterThan(0);
    const page = await openHistory(nurse, `?room=${CALL_ROOM}`);
    await page.locator(`[data-alert-id="${CALL_ALERT}"]`).getByRole('button', { name: '通知の経過' }).click();
    const steps = page.getByRole('dialog').getByTestId('alert-escalation');
    // The first step told everyone at once; the nurse, who takes mail, is among them.
    await expect.poll(() => steps.innerText(), { timeout: 30_000 }).toMatch(/1段目 \S+ 全スタッフ（[1-9]\d*人）/);
    await page.close();
  });

  it('narrows to ended, unacknowledged alerts from the address, and downloads them as CSV', async () => {
    const page = await openHistory(nurse, `?room=${ROOM}&state=endedUnacknowledged`);
    const ids = await rowIds(page);
    expect(ids.length).toBeGreaterThan(0);
    for (const status of await page.locator('[data-alert-id]').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.status)))
      expect(status).toBe('endedUnacknowledged');
    const href = await page.getByTestId('alert-history-csv').getAttribute('href');
    expect(href).toContain('state=endedUnacknowledged');
    const csv = await nurse.request.get(`${baseURL}${href ?? ''}`);
    expect(csv.status()).toBe(200);
    const body = await csv.body();
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = body.subarray(3).toString('utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe(ALERT_CSV_HEADER.join(','));
    // Every matching alert is in the file, not only the first page.
    expect(lines).toHaveLength(
      1 + Array.from({ length: ALERT_COUNT }, (_, index) => index).filter((index) => index !== 0 && !acknowledgedByNurse(index)).length,
    );
    expect(lines[1]).toContain('履歴 301号室,青木 トメ');
    await page.close();
  });

  it('shows cards that fit a phone, and a table that fits a tablet', async () => {
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1024, height: 768 },
    ]) {
      const page = await openHistory(nurse, `?room=${ROOM}`, viewport);
      await expect.poll(() => page.locator('[data-alert-id]').count()).toBe(50);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${viewport.width}px`).toBeLessThanOrEqual(0);
      if (viewport.width === 390) expect(await page.locator('[data-testid="alert-history"] table').count()).toBe(0);
      await page.close();
    }
  });

  it('shows another facility’s nurse none of it', async () => {
    const other = await newContext(shared.browser, baseURL);
    await signInByApi(other, baseURL, 'staff@example.com');
    const page = await other.newPage();
    await page.goto(`/alert-history?room=${ROOM}`);
    // The room reads as missing, as any room outside the nurse's facility does.
    await page.getByText('選んだ部屋が見つかりません').waitFor();
    expect(await page.locator('[data-alert-id]').count()).toBe(0);
    expect((await other.request.get(`${baseURL}/api/monitoring/alerts?roomId=${ROOM}`)).status()).toBe(404);
    await other.close();
  });

  it("sums up the room's night on its sleep page", async () => {
    // Of the last two nights on the facility's clock (Tokyo, 21:00–07:00), the one with more of the test's alerts.
    const tokyoDay = (ms: number) => new Date(ms + 9 * 3_600_000).toISOString().slice(0, 10);
    const alertTimes = Array.from({ length: ALERT_COUNT }, (_, index) => alertStart(index));
    const inNight = (day: string) => {
      const start = Date.parse(`${day}T21:00:00+09:00`);
      return alertTimes.filter((at) => at >= start && at < start + 10 * 3_600_000).length;
    };
    const [day, expected] = [tokyoDay(stamp), tokyoDay(stamp - 86_400_000)]
      .map((candidate) => [candidate, inNight(candidate)] as const)
      .sort((a, b) => b[1] - a[1])[0]!;
    expect(expected).toBeGreaterThan(0);
    const page = await nurse.newPage();
    await page.goto(`/room/${ROOM}/sleep?day=${day}`);
    const panel = page.getByTestId('room-night-summary');
    // The room page, its sleep day and the summary load one after another: slow under a whole CI run.
    await expect.poll(() => panel.innerText().catch(() => ''), { timeout: 50_000, interval: 500 }).toContain(`アラート ${expected}件`);
    await page.close();
  }, 90_000);

  it("sums up the facility's last night, not the browser's calendar day, in a browser far from Tokyo", async () => {
    // The facility's nights run 21:00–07:00 in Tokyo (12:00–22:00 UTC): the latest one begun.
    const now = Date.now();
    const facilityNight = new Date(now - 12 * 3_600_000).toISOString().slice(0, 10);
    // A browser zone whose "last night" by its own clock (noon to noon) is another day than the facility's.
    const browserNight = (offsetHours: number) => new Date(now + (offsetHours - 12) * 3_600_000).toISOString().slice(0, 10);
    const [timezoneId] = (
      [
        ['Pacific/Kiritimati', 14],
        ['Pacific/Pago_Pago', -11],
      ] as const
    ).find(([, offset]) => browserNight(offset) !== facilityNight)!;
    const owner = facility?.owner;
    if (owner === undefined) throw new Error('set up before');
    // The facility's owner (the station page is for managers), signed in from a browser in that zone.
    const far = await shared.browser.newContext({ baseURL, locale: 'ja-JP', timezoneId, viewport: { width: 1280, height: 800 } });
    await far.addCookies(await owner.cookies());
    const page = await far.newPage();
    await page.goto('/monitoring');
    const panel = page.getByTestId('night-summary');
    await expect.poll(() => panel.getByTestId('night-summary-day').getAttribute('data-day'), { timeout: 15_000 }).toBe(facilityNight);
    expect(await panel.getByTestId('night-summary-day').textContent()).toBe(`${facilityNight.replaceAll('-', '/')} の夜`);
    // Stepping back and forth stays on the facility's nights; the latest is the last one.
    await panel.getByRole('button', { name: '前の夜' }).click();
    const previous = new Date(Date.parse(`${facilityNight}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    await expect.poll(() => panel.getByTestId('night-summary-day').getAttribute('data-day')).toBe(previous);
    await panel.getByRole('button', { name: '次の夜' }).click();
    await expect.poll(() => panel.getByTestId('night-summary-day').getAttribute('data-day')).toBe(facilityNight);
    expect(await panel.getByRole('button', { name: '次の夜' }).isDisabled()).toBe(true);
    // The room's night reads on the facility's clock too.
    await page.goto(`/room/${ROOM}/sleep?day=${facilityNight}`);
    await expect.poll(() => page.getByTestId('room-night-summary').innerText(), { timeout: 15_000 }).toContain('21:00〜07:00');
    await far.close();
  });

  it("keeps the room's own alert settings from the room form", async () => {
    const owner = facility?.owner;
    if (owner === undefined) throw new Error('set up before');
    const page = await owner.newPage();
    await page.goto('/room-config/card');
    await page.getByRole('button', { name: '履歴 301号室を編集' }).click();
    const form = page.getByTestId('room-config-form');
    await form.getByText('アラート設定（この部屋のみ）').click();
    const settings = form.getByTestId('room-alert-settings');
    await settings.getByLabel('離床', { exact: true }).uncheck();
    await settings.getByLabel(/^心拍数の上限/).fill('130');
    await settings.getByLabel(/^夜間の開始/).fill('22:30');
    // The early bed-exit alert (起きあがり), off in the facility, after 20 s sitting up in this room.
    await settings.getByLabel(/^起きあがりアラートまでの時間/).fill('20');
    await form.getByRole('button', { name: '保存' }).click();
    await form.waitFor({ state: 'detached' });
    const stored = await ok<{ document: Record<string, unknown> }>(owner.request.get(`${baseURL}/api/documents/rooms/${ROOM}`));
    expect(stored.document.alertSettings).toEqual({ disabledTypes: ['outOfBed'], numbers: { heartRateHigh: 130, sittingUpAlertSec: 20 }, nightStart: '22:30' });
    // Opened again, the form shows them, and out-of-range numbers are refused by the room schema.
    await page.getByRole('button', { name: '履歴 301号室を編集' }).click();
    await expect.poll(() => form.getByTestId('room-alert-overrides').textContent()).toBe('個別設定 4件');
    await form.getByText('アラート設定（この部屋のみ）').click();
    expect(await settings.getByLabel(/^起きあがりアラートまでの時間/).inputValue()).toBe('20');
    for (const numbers of [{ heartRateHigh: 900 }, { sittingUpAlertSec: 301 }, { sittingUpAlertSec: -5 }]) {
      const refused = await owner.request.patch(`${baseURL}/api/documents/rooms/${ROOM}`, { data: { data: { alertSettings: { numbers } } }, headers });
      expect(refused.status(), JSON.stringify(numbers)).toBe(400);
    }
    await page.close();
  });
});
