import type { TFunction } from 'i18next';
import { ApiError } from '../../lib/http/apiError.ts';

/** A refusal or failure of the notification API, in the user's words. */
export function notificationErrorMessage(t: TFunction, error: unknown): string {
  if (!(error instanceof ApiError)) return t('notifications.errors.failed');
  if (error.code === 'network') return t('notifications.errors.network');
  if (error.code === 'resource-exhausted') return t('notifications.errors.tooOften');
  if (error.code === 'invalid-argument') return t('notifications.errors.invalid', { detail: error.message });
  if (error.status === 403 || error.status === 404) return t('notifications.errors.denied');
  return t('notifications.errors.failed');
}
