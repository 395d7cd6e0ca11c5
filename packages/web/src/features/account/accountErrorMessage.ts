import type { TFunction } from 'i18next';
import { authErrorMessage } from '../auth/authErrorMessage.ts';
import { ProfileInputError } from './accountApi.ts';

/** Japanese text for a failed account action: refused profile input, else the sign-in messages. */
export function accountErrorMessage(t: TFunction, error: unknown): string {
  if (error instanceof ProfileInputError) return t(`accountInfo.errors.${error.reason}`, { defaultValue: t('accountInfo.errors.invalid-photo') });
  return authErrorMessage(t, error);
}
