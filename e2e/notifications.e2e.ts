/**
 * Alerts reach a phone: a staff member turns push notifications on at /account-info; an alert's
 * push message is delivered to the app's registered service worker as the browser's push service
 * would (Chromium's DevTools protocol, ServiceWorker.deliverPushMessage), and the worker shows the
 * notification with 確認 and 開く. 確認 acknowledges the alert with the browser's session (signed
 * out: nothing is acknowledged, the app opens); 開く takes the app to the room. The server's side
 * of the push (VAPID, encryption, the push service) is tested against a stand-in push service in
 * packages/server/src/notifications/. When the browser renews the push subscription
 * (`pushsubscriptionchange`), the worker tells the server, which moves the device to the new
 * endpoint instead of keeping a dead one.
 */
import type { Browser, BrowserContext, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { acknowledgePath, NOTIFICATIONS_API } from '@nemuri/shared/notifications';
import { launchBrowser, newContext } from './support/browser.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  // Every staff member is notified at once (no on-duty schedule needed for this test).
  const admin = await newContext(browser, baseURL);
  await signInByApi(admin, baseURL, 'admin@example.com');
  const settings = await admin.request.put(`${baseURL}${NOTIFICATIONS_API}/domains/${DEMO_DOMAINS.facilityA}/settings`, {
    headers: { origin: baseURL },
    data: {
      showResidentName: false,
      escalation: [{ target: 'allStaff', afterMin: 0 }],
      rateLimit: { max: 10, windowMin: 5 },
      webhookUrl: null,
      webhookAlertTypes: [],
    },
  });
  expect(settings.status(), await settings.text()).toBe(200);
  await admin.close();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

async function roomOfFacility(context: BrowserContext): Promise<{ id: string; name: string; residentName: string }> {
  const reply = await context.request.post(`${baseURL}/api/documents/query`, {
    headers: { origin: baseURL },
    data: { query: { collection: 'rooms', where: [['domainId', '==', DEMO_DOMAINS.facilityA]], limit: 1 } },
  });
  const room = ((await reply.json()) as { documents: { documentReferenceId: string; name: string; residentName: string }[] }).documents[0];
  if (room === undefined) throw new Error('no room in the demo facility');
  return { id: room.documentReferenceId, name: room.name, residentName: room.residentName };
}

/** The push message the server sends for a nurse call in the room (server notifications/escalation.ts). */
function messageFor(alertId: string, room: { id: string; name: string }) {
  return {
    kind: 'alert',
    title: `【緊急】${room.name} ナースコール`,
    body: '12:00 発生',
    tag: `alert-${alertId}`,
    alertId,
    roomId: room.id,
    alertType: 'button',
    url: `/room/${room.id}`,
    acknowledgeUrl: acknowledgePath(alertId),
  };
}

async function openAlert(context: BrowserContext, roomId: string): Promise<string> {
  const id = `e2e-${Date.now().toString(36)}`;
  const reply = await context.request.put(`${baseURL}/api/documents/alerts/${id}`, {
    headers: { origin: baseURL },
    data: { data: { domainId: DEMO_DOMAINS.facilityA, roomId, type: 'button', startedAt: new Date().toISOString() }, merge: false },
  });
  expect(reply.status(), await reply.text()).toBe(200);
  return id;
}

async function serviceWorkerOf(context: BrowserContext, page: Page): Promise<Worker> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  return context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
}

/** Delivers a push message to the page's service worker as the browser's push service would. */
async function deliverPush(page: Page, data: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const registration = new Promise<string>((resolve) =>
    cdp.on(
      'ServiceWorker.workerRegistrationUpdated',
      ({ registrations }: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
        const found = registrations.find((candidate) => !candidate.isDeleted && candidate.scopeURL === `${baseURL}/`);
        if (found !== undefined) resolve(found.registrationId);
      },
    ),
  );
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: baseURL, registrationId: await registration, data });
  await cdp.detach();
}

async function shownNotifications(page: Page): Promise<{ title: string; body: string; tag: string; actions: string[] }[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const shown = await registration.getNotifications();
    return shown.map((notification) => ({
      title: notification.title,
      body: notification.body,
      tag: notification.tag,
      actions: ((notification as Notification & { actions?: { title: string }[] }).actions ?? []).map((action) => action.title),
    }));
  });
}

/** The user taps one of the notification's buttons (dispatched in the worker: headless Chromium has no notification centre). */
async function tap(worker: Worker, tag: string, action: string): Promise<void> {
  await worker.evaluate(
    async ({ tag: wanted, action: chosen }) => {
      // Types of the worker's scope, which the tools' DOM library does not declare.
      interface Scope {
        registration: { getNotifications(filter: { tag: string }): Promise<Notification[]> };
        dispatchEvent(event: Event): boolean;
      }
      const scope = globalThis as unknown as Scope;
      const NotificationEventOf = (
        globalThis as unknown as { NotificationEvent: new (type: string, init: { notification: Notification; action: string }) => Event }
      ).NotificationEvent;
      const [notification] = await scope.registration.getNotifications({ tag: wanted });
      if (notification === undefined) throw new Error(`no notification ${wanted}`);
      // A synthetic event's waitUntil throws (only the browser may extend it); the handler's work has started by then.
      scope.dispatchEvent(new NotificationEventOf('notificationclick', { notification, action: chosen }));
    },
    { tag, action },
  );
}

describe('alerts on the phone', () => {
  it('turns push on at /account-info, shows the alert with 確認 and 開く, and 確認 acknowledges it', async () => {
    const context = await newContext(browser, baseURL);
    await context.grantPermissions(['notifications'], { origin: baseURL });
    await signInByApi(context, baseURL, 'staff@example.com');
    const page = await context.newPage();
    await page.goto('/account-info');
    const section = page.getByRole('region', { name: '通知', exact: true });
    await section.waitFor();
    await section.getByRole('switch', { name: 'この端末などへのプッシュ通知' }).check({ force: true });
    await section.getByRole('button', { name: '保存' }).click();
    await page.getByText('通知の設定を保存しました').waitFor();
    await section.getByText('登録された端末はありません').waitFor();
    await section.getByRole('button', { name: 'この端末で通知を受け取る' }).waitFor();
    const saved = await context.request.get(`${baseURL}${NOTIFICATIONS_API}/preferences`);
    expect(((await saved.json()) as { channels: { push: boolean } }).channels.push).toBe(true);

    const room = await roomOfFacility(context);
    const alertId = await openAlert(context, room.id);
    const worker = await serviceWorkerOf(context, page);
    await deliverPush(page, JSON.stringify(messageFor(alertId, room)));
    await expect
      .poll(() => shownNotifications(page), { timeout: 10_000 })
      .toEqual([{ title: `【緊急】${room.name} ナースコール`, body: '12:00 発生', tag: `alert-${alertId}`, actions: ['確認', '開く'] }]);

    await tap(worker, `alert-${alertId}`, 'acknowledge');
    const me = (await (await context.request.get(`${baseURL}/api/me`)).json()) as { user: { uid: string } };
    await expect
      .poll(
        async () =>
          ((await (await context.request.get(`${baseURL}/api/documents/alerts/${alertId}`)).json()) as { document: { acknowledgedBy?: string } }).document
            .acknowledgedBy,
        { timeout: 10_000 },
      )
      .toBe(me.user.uid);
    expect(await shownNotifications(page)).toEqual([]);
    await context.close();
  }, 120_000);

  it('確認 when signed out acknowledges nothing and opens the app instead', async () => {
    const staff = await newContext(browser, baseURL);
    await signInByApi(staff, baseURL, 'staff@example.com');
    const room = await roomOfFacility(staff);
    const alertId = await openAlert(staff, room.id);
    await staff.close();
    const context = await newContext(browser, baseURL);
    await context.grantPermissions(['notifications'], { origin: baseURL });
    const page = await context.newPage();
    await page.goto('/login');
    const worker = await serviceWorkerOf(context, page);
    await page.reload();
    await deliverPush(page, JSON.stringify(messageFor(alertId, room)));
    await expect.poll(() => shownNotifications(page).then((shown) => shown.length), { timeout: 10_000 }).toBe(1);
    await tap(worker, `alert-${alertId}`, 'acknowledge');
    // The app is asked to show the room, which asks for a sign-in first.
    await page.waitForURL(/\/login|\/room\//, { timeout: 10_000 });
    const admin = await newContext(browser, baseURL);
    await signInByApi(admin, baseURL, 'admin@example.com');
    const record = (await (await admin.request.get(`${baseURL}/api/documents/alerts/${alertId}`)).json()) as { document: { acknowledgedBy?: string | null } };
    expect(record.document.acknowledgedBy ?? null).toBeNull();
    await admin.close();
    await context.close();
  }, 120_000);

  it('開く takes the app to the room', async () => {
    const context = await newContext(browser, baseURL);
    await context.grantPermissions(['notifications'], { origin: baseURL });
    await signInByApi(context, baseURL, 'staff@example.com');
    const page = await context.newPage();
    await page.goto('/');
    const worker = await serviceWorkerOf(context, page);
    // Controlled by the worker from this load on.
    await page.reload();
    const room = await roomOfFacility(context);
    await deliverPush(page, JSON.stringify(messageFor('open-test', room)));
    await expect
      .poll(() => shownNotifications(page).then((shown) => shown.map((notification) => notification.tag)), { timeout: 10_000 })
      .toEqual(['alert-open-test']);
    await tap(worker, 'alert-open-test', 'open');
    await page.waitForURL(new RegExp(`/room/${room.id}`), { timeout: 10_000 });
    await context.close();
  }, 120_000);

  it('a renewed push subscription (pushsubscriptionchange) replaces the device on the server', async () => {
    const context = await newContext(browser, baseURL);
    await context.grantPermissions(['notifications'], { origin: baseURL });
    // The administrator has push off: nothing is ever sent to these endpoints (no network beyond localhost).
    await signInByApi(context, baseURL, 'admin@example.com');
    const page = await context.newPage();
    await page.goto('/account-info');
    const worker = await serviceWorkerOf(context, page);
    const suffix = Date.now().toString(36);
    const keys = { p256dh: `B${'A'.repeat(86)}`, auth: 'AAAAAAAAAAAAAAAAAAAAAA' };
    const renewedKeys = { p256dh: `B${'Q'.repeat(86)}`, auth: 'QQQQQQQQQQQQQQQQQQQQQQ' };
    const oldEndpoint = `https://fcm.googleapis.com/fcm/send/e2e-old-${suffix}`;
    const newEndpoint = `https://fcm.googleapis.com/fcm/send/e2e-new-${suffix}`;
    const list = async () =>
      ((await (await context.request.get(`${baseURL}${NOTIFICATIONS_API}/subscriptions`)).json()) as { subscriptions: { id: string; label: string | null }[] })
        .subscriptions;
    const added = await context.request.post(`${baseURL}${NOTIFICATIONS_API}/subscriptions`, {
      headers: { origin: baseURL },
      data: { endpoint: oldEndpoint, keys, label: 'Android · Chrome' },
    });
    expect(added.status(), await added.text()).toBe(200);
    const [device] = await list();

    await worker.evaluate(
      async ({ oldEndpoint: previous, newEndpoint: next, renewedKeys: nextKeys }) => {
        // The browser's event, as Firefox and Safari dispatch it (Chromium's DevTools cannot); its
        // waitUntil hands the handler's work back here, so that this waits for the server's answer.
        const scope = globalThis as unknown as { dispatchEvent(event: Event): boolean };
        const ExtendableEventOf = (globalThis as unknown as { ExtendableEvent: new (type: string) => Event }).ExtendableEvent;
        const event = new ExtendableEventOf('pushsubscriptionchange');
        let work: Promise<unknown> = Promise.reject(new Error('the worker did not handle pushsubscriptionchange'));
        Object.defineProperty(event, 'oldSubscription', { value: { endpoint: previous, options: { applicationServerKey: null } } });
        Object.defineProperty(event, 'newSubscription', { value: { endpoint: next, toJSON: () => ({ endpoint: next, keys: nextKeys }) } });
        Object.defineProperty(event, 'waitUntil', { value: (promise: Promise<unknown>) => (work = promise) });
        scope.dispatchEvent(event);
        await work;
      },
      { oldEndpoint, newEndpoint, renewedKeys },
    );
    // The same device (id, label), now on the new endpoint: posting the new endpoint again adds
    // nothing, while the old one is a device the server no longer knows.
    expect(await list()).toEqual([device]);
    const again = await context.request.post(`${baseURL}${NOTIFICATIONS_API}/subscriptions`, {
      headers: { origin: baseURL },
      data: { endpoint: newEndpoint, keys: renewedKeys, label: 'Android · Chrome' },
    });
    expect(((await again.json()) as { subscriptions: unknown[] }).subscriptions).toEqual([{ ...device, label: 'Android · Chrome' }]);
    const withOld = await context.request.post(`${baseURL}${NOTIFICATIONS_API}/subscriptions`, {
      headers: { origin: baseURL },
      data: { endpoint: oldEndpoint, keys },
    });
    expect(((await withOld.json()) as { subscriptions: unknown[] }).subscriptions.length).toBe(2);
    for (const { id } of await list()) await context.request.delete(`${baseURL}${NOTIFICATIONS_API}/subscriptions/${id}`, { headers: { origin: baseURL } });
    expect(await list()).toEqual([]);
    await context.close();
  }, 120_000);
});
