import { PasswordInput, TextInput } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { EMAIL_PATTERN, MIN_PASSWORD_LENGTH } from '../../lib/credentialRules.ts';

/** What a person gives to create an account (sign-up and registration). */
export interface NewAccount {
  name: string;
  email: string;
  password: string;
  confirm: string;
}

export type NewAccountErrors = Partial<Record<keyof NewAccount, string>>;

export const EMPTY_NEW_ACCOUNT: NewAccount = { name: '', email: '', password: '', confirm: '' };

/** The form's own checks before anything is sent; an empty object when all is well. */
export function checkNewAccount(t: TFunction, account: NewAccount): NewAccountErrors {
  const errors: NewAccountErrors = {
    name: account.name.trim() ? undefined : t('auth.validation.name'),
    email: EMAIL_PATTERN.test(account.email.trim()) ? undefined : t('auth.validation.email'),
    password: account.password.length >= MIN_PASSWORD_LENGTH ? undefined : t('auth.validation.passwordLength', { count: MIN_PASSWORD_LENGTH }),
    confirm: account.confirm === account.password ? undefined : t('auth.validation.confirm'),
  };
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message !== undefined));
}

/** Name, e-mail, password and its confirmation. */
export function NewAccountFields({ value, errors, onChange }: { value: NewAccount; errors: NewAccountErrors; onChange: (next: NewAccount) => void }) {
  const { t } = useTranslation();
  const update = (key: keyof NewAccount) => (event: { currentTarget: { value: string } }) => onChange({ ...value, [key]: event.currentTarget.value });
  return (
    <>
      <TextInput label={t('auth.name')} autoComplete="name" value={value.name} onChange={update('name')} error={errors.name} required />
      <TextInput label={t('auth.email')} type="email" autoComplete="email" value={value.email} onChange={update('email')} error={errors.email} required />
      <PasswordInput
        label={t('auth.password')}
        description={t('auth.passwordRule', { count: MIN_PASSWORD_LENGTH })}
        autoComplete="new-password"
        value={value.password}
        onChange={update('password')}
        error={errors.password}
        required
      />
      <PasswordInput
        label={t('auth.passwordConfirm')}
        autoComplete="new-password"
        value={value.confirm}
        onChange={update('confirm')}
        error={errors.confirm}
        required
      />
    </>
  );
}
