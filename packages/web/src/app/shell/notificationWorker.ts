/**
 * The service worker's notifications (imported into /sw.js by Workbox's `importScripts`, built as
 * /sw-notifications.js by vite.config.ts): a push message from the server (shared
 * notifications.ts `PushMessage`, decrypted by the browser) becomes a notification with the room
 * and alert type, and the actions
 *   確認 (acknowledge): POST to the message's acknowledgeUrl with the browser's session cookie — the
 *        server checks that session and the caller's rights; signed out, the app opens instead;
 *   開く (open): the room's page, in an open window of the app if there is one.
 * When the browser renews the push subscription (`pushsubscriptionchange`: the push service expired
 * it, or the browser rotated its keys), the worker subscribes again if the browser has not already,
 * and tells the server with the browser's session, naming the old endpoint so that the server
 * replaces that device rather than adding one (a device left on the old endpoint would hear nothing).
 * Self-contained on purpose (type imports only): it runs as a classic script beside Workbox's.
 */
import type { PushMessage, PushSubscriptionInput } from '@nemuri/shared/notifications';

const worker = globalThis as unknown as ServiceWorkerGlobalScope;

/** Shared notifications.ts NOTIFICATIONS_API, written out: a value import would make this a module. */
const NOTIFICATIONS_API = '/api/notifications';
const ACKNOWLEDGE = 'acknowledge';
const OPEN = 'open';

function messageOf(event: PushEvent): PushMessage {
  try {
    const message = event.data?.json() as PushMessage | undefined;
    if (message !== undefined && typeof message.title === 'string') return message;
  } catch {
    // Not JSON: shown as text below.
  }
  return {
    kind: 'test',
    title: 'ねむりモニター',
    body: event.data?.text() ?? '',
    tag: 'nemuri',
    alertId: null,
    roomId: null,
    alertType: null,
    url: '/',
    acknowledgeUrl: null,
  };
}

worker.addEventListener('push', (event) => {
  const message = messageOf(event);
  const actions =
    message.acknowledgeUrl === null
      ? [{ action: OPEN, title: '開く' }]
      : [
          { action: ACKNOWLEDGE, title: '確認' },
          { action: OPEN, title: '開く' },
        ];
  // `actions` is in the notification options of browsers that show buttons (Chrome, Edge); TypeScript's DOM types lag.
  const options: NotificationOptions & { actions: { action: string; title: string }[]; renotify: boolean } = {
    body: message.body,
    tag: message.tag,
    renotify: true,
    requireInteraction: message.kind === 'alert',
    icon: '/icon-192.png',
    badge: '/icon-192.png',
    lang: 'ja',
    data: message,
    actions,
  };
  event.waitUntil(worker.registration.showNotification(message.title, options));
});

/** Focuses a window of the app on `url`, or opens one. */
async function openApp(url: string): Promise<void> {
  const target = new URL(url, worker.location.origin).href;
  const windows = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const existing = windows.find((client) => new URL(client.url).origin === worker.location.origin);
  if (existing !== undefined) {
    // Focusing needs the click's user activation; navigating a window the worker controls does not.
    await existing.focus().catch(() => undefined);
    if ((await existing.navigate(target).catch(() => null)) !== null) return;
  }
  await worker.clients.openWindow(target);
}

async function acknowledge(message: PushMessage): Promise<void> {
  if (message.acknowledgeUrl === null) return openApp(message.url);
  const response = await fetch(message.acknowledgeUrl, {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: '{}',
  }).catch(() => null);
  if (response?.ok === true) return;
  // Signed out, or the session no longer allows it: the app asks for a sign-in, then shows the room.
  return openApp(message.url);
}

worker.addEventListener('notificationclick', (event) => {
  const message = event.notification.data as PushMessage | null;
  event.notification.close();
  if (message === null) return;
  event.waitUntil(event.action === ACKNOWLEDGE ? acknowledge(message) : openApp(message.url));
});

/** The event's fields (Firefox and Safari; TypeScript's DOM library lacks the type). */
interface SubscriptionChange extends ExtendableEvent {
  oldSubscription?: PushSubscription | null;
  newSubscription?: PushSubscription | null;
}

async function serverKey(old: PushSubscription | null): Promise<BufferSource | string> {
  const known = old?.options.applicationServerKey;
  if (known !== undefined && known !== null) return known;
  const response = await fetch(`${NOTIFICATIONS_API}/vapid-public-key`, { credentials: 'include', headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`vapid-public-key: HTTP ${response.status}`);
  return ((await response.json()) as { publicKey: string }).publicKey;
}

async function resubscribe(old: PushSubscription | null, renewed: PushSubscription | null): Promise<void> {
  const subscription = renewed ?? (await worker.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: await serverKey(old) }));
  const json = subscription.toJSON();
  const input: PushSubscriptionInput = {
    endpoint: subscription.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
    ...(old === null ? {} : { replaces: old.endpoint }),
  };
  // Signed out by now: the server refuses (401) and the device is registered again from /account-info.
  await fetch(`${NOTIFICATIONS_API}/subscriptions`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(input),
  });
}

worker.addEventListener('pushsubscriptionchange', (event) => {
  const change = event as SubscriptionChange;
  change.waitUntil(resubscribe(change.oldSubscription ?? null, change.newSubscription ?? null));
});
