/**
 * This browser as a push device: asks for permission, subscribes with the server's VAPID key
 * through the service worker (/sw.js), and hands the subscription to the server. On iOS this works
 * only in the app installed to the home screen (Safari 16.4+).
 */
import { notificationsApi } from './api/notificationsApi.ts';

export type PushSupport = 'supported' | 'unsupported' | 'denied';

export function pushSupport(): PushSupport {
  if (typeof window === 'undefined' || !('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return 'unsupported';
  return Notification.permission === 'denied' ? 'denied' : 'supported';
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(
    base64url
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(base64url.length / 4) * 4, '='),
  );
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let index = 0; index < text.length; index += 1) bytes[index] = text.charCodeAt(index);
  return bytes;
}

/** A label for the device list, e.g. "iPhone · Safari". */
export function deviceLabel(userAgent: string): string {
  const device = /iPhone|iPad|Android|Windows|Macintosh|Linux/.exec(userAgent)?.[0] ?? 'Browser';
  const browser = /Edg|Chrome|Firefox|Safari/.exec(userAgent)?.[0]?.replace('Edg', 'Edge') ?? '';
  return browser === '' ? device : `${device} · ${browser}`;
}

/** The endpoint of this browser's current subscription, null when it has none. */
export async function currentEndpoint(): Promise<string | null> {
  if (pushSupport() === 'unsupported') return null;
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  return subscription?.endpoint ?? null;
}

/** Subscribes this browser and registers it with the server; false when permission is refused. */
export async function subscribeThisDevice(): Promise<boolean> {
  if ((await Notification.requestPermission()) !== 'granted') return false;
  const registration = await navigator.serviceWorker.ready;
  const { publicKey } = await notificationsApi.vapidPublicKey();
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  const json = subscription.toJSON();
  await notificationsApi.addSubscription({
    endpoint: subscription.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
    label: deviceLabel(navigator.userAgent),
  });
  return true;
}
