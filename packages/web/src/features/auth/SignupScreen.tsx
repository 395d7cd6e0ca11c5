import { Alert, Anchor, Button, Paper, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { signUpWithEmail } from '../../lib/authClient.ts';
import { iconSize } from '../../lib/icons.ts';
import { useAuthAction } from './useAuthAction.ts';
import { EMAIL_PATTERN, MIN_PASSWORD_LENGTH } from './credentialRules.ts';

interface SignupErrors {
  name?: string;
  email?: string;
  password?: string;
  confirm?: string;
}

/** Account creation with e-mail and password for an individual user. */
export default function SignupScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form, setForm] = useState({ name: '', email: '', password: '', confirm: '' });
  const [fieldErrors, setFieldErrors] = useState<SignupErrors>({});
  const { pending: submitting, error, run } = useAuthAction();

  const update = (key: keyof typeof form) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setForm((current) => ({ ...current, [key]: value }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const errors: SignupErrors = {
      name: form.name.trim() ? undefined : t('auth.validation.name'),
      email: EMAIL_PATTERN.test(form.email.trim()) ? undefined : t('auth.validation.email'),
      password: form.password.length >= MIN_PASSWORD_LENGTH ? undefined : t('auth.validation.passwordLength', { count: MIN_PASSWORD_LENGTH }),
      confirm: form.confirm === form.password ? undefined : t('auth.validation.confirm'),
    };
    setFieldErrors(errors);
    if (Object.values(errors).some(Boolean)) return;
    await run(async () => {
      await signUpWithEmail(form.name.trim(), form.email.trim(), form.password);
      navigate('/', { replace: true });
    });
  };

  return (
    <ScreenPage>
      <Paper withBorder radius="md" p="lg" component="form" onSubmit={submit} noValidate>
        <Stack gap="md">
          {error ? (
            <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
              {error}
            </Alert>
          ) : null}
          <TextInput label={t('auth.name')} autoComplete="name" value={form.name} onChange={update('name')} error={fieldErrors.name} required />
          <TextInput label={t('auth.email')} type="email" autoComplete="email" value={form.email} onChange={update('email')} error={fieldErrors.email} required />
          <PasswordInput
            label={t('auth.password')}
            description={t('auth.passwordRule', { count: MIN_PASSWORD_LENGTH })}
            autoComplete="new-password"
            value={form.password}
            onChange={update('password')}
            error={fieldErrors.password}
            required
          />
          <PasswordInput label={t('auth.passwordConfirm')} autoComplete="new-password" value={form.confirm} onChange={update('confirm')} error={fieldErrors.confirm} required />
          <Button type="submit" loading={submitting} fullWidth>
            {t('auth.createAccount')}
          </Button>
          <Text size="sm">
            {t('auth.haveAccount')}{' '}
            <Anchor component={Link} to="/login" size="sm">
              {t('auth.signIn')}
            </Anchor>
          </Text>
        </Stack>
      </Paper>
    </ScreenPage>
  );
}
