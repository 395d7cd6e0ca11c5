import type { NotificationData, notifications as NotificationsApi } from '@mantine/notifications';
import { NOTIFICATION_DEFAULT_POSITION, NOTIFICATION_DEFAULT_TIMEOUT_MS, NOTIFICATION_PERSISTENT_TIMEOUT_MS } from '@nemuri/shared/constants';

export interface NotifyOptions extends Omit<NotificationData, 'autoClose'> {
  /** Milliseconds before the notification closes; 0 keeps it until the app hides it. */
  timeout?: number;
}

/** Converts the specification's timeout (0 = persistent) to Mantine's `autoClose`. */
export function autoCloseOf(timeout: number): number | false {
  return timeout === NOTIFICATION_PERSISTENT_TIMEOUT_MS ? false : timeout;
}

// The notifications' code loads after the first page (app/App.tsx mounts their container lazily):
// the sign-in page shows none, and on a slow network its bytes would delay the form. Calls made
// before it arrives run in order once it has.
type NotificationsModule = { notifications: typeof NotificationsApi };
let loaded: Promise<NotificationsModule> | undefined;
let pending: Promise<void> = Promise.resolve();
let lastId = 0;

function whenLoaded(action: (module: NotificationsModule) => void): void {
  loaded ??= import('@mantine/notifications');
  const module = loaded;
  pending = pending
    .then(async () => action(await module))
    .catch((error: unknown) => {
      loaded = undefined;
      console.error('notifications could not be shown', error);
    });
}

/** Shows a notification; answers its id (the one given, or a new one) at once. */
export function notify({ timeout = NOTIFICATION_DEFAULT_TIMEOUT_MS, position = NOTIFICATION_DEFAULT_POSITION, ...rest }: NotifyOptions): string {
  const id = rest.id ?? `notice-${++lastId}`;
  whenLoaded(({ notifications }) => notifications.show({ ...rest, id, position, autoClose: autoCloseOf(timeout) }));
  return id;
}

export function hideNotification(id: string): void {
  whenLoaded(({ notifications }) => notifications.hide(id));
}
