import type { TFunction } from 'i18next';
import { authErrorMessage } from '../../lib/authErrorMessage.ts';
import { ApiError } from '../../lib/http/apiError.ts';
import { ProfileInputError } from './api/accountApi.ts';

/** Japanese text for a failed account action: refused profile input (here or by the server), else the sign-in messages. */
export function accountErrorMessage(t: TFunction, error: unknown): string {
  const reason = error instanceof ProfileInputError || error instanceof ApiError ? error.reason : null;
  if (reason !== null) return t(`accountInfo.errors.${reason}`, { defaultValue: t('accountInfo.errors.invalid-photo') });
  return authErrorMessage(t, error);
}
