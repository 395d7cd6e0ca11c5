import type { TFunction } from 'i18next';
import { AuthError } from './authClient.ts';

export function authErrorMessage(t: TFunction, error: unknown): string {
  return t(`auth.errors.${error instanceof AuthError ? error.code : 'unknown'}`);
}
