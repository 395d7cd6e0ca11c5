import { notifications, type NotificationData } from '@mantine/notifications';
import { NOTIFICATION_DEFAULT_POSITION, NOTIFICATION_DEFAULT_TIMEOUT_MS, NOTIFICATION_PERSISTENT_TIMEOUT_MS } from '@nemuri/shared/constants';

export interface NotifyOptions extends Omit<NotificationData, 'autoClose'> {
  /** Milliseconds before the notification closes; 0 keeps it until the app hides it. */
  timeout?: number;
}

/** Converts the specification's timeout (0 = persistent) to Mantine's `autoClose`. */
export function autoCloseOf(timeout: number): number | false {
  return timeout === NOTIFICATION_PERSISTENT_TIMEOUT_MS ? false : timeout;
}

export function notify({ timeout = NOTIFICATION_DEFAULT_TIMEOUT_MS, position = NOTIFICATION_DEFAULT_POSITION, ...rest }: NotifyOptions): string {
  return notifications.show({ ...rest, position, autoClose: autoCloseOf(timeout) });
}

export function hideNotification(id: string): void {
  notifications.hide(id);
}
