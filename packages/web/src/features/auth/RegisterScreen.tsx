import { Alert, Anchor, Button, Paper, PasswordInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { REGISTRABLE_DOMAIN_KINDS, type RegistrableDomainKind } from '@nemuri/shared/registration';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { registerDomain } from '../../lib/authClient.ts';
import { iconSize } from '../../lib/icons.ts';
import { EMAIL_PATTERN, MIN_PASSWORD_LENGTH } from './credentialRules.ts';
import { useAuthAction } from './useAuthAction.ts';

type Field = 'domainName' | 'name' | 'email' | 'password' | 'confirm';

/** /register: a new organisation (facility, corporation or household) with the registering person as its owner. */
export default function RegisterScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [domainKind, setDomainKind] = useState<RegistrableDomainKind>('facility');
  const [form, setForm] = useState<Record<Field, string>>({ domainName: '', name: '', email: '', password: '', confirm: '' });
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  const { pending, error, run } = useAuthAction();

  const update = (key: Field) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setForm((current) => ({ ...current, [key]: value }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const errors: Partial<Record<Field, string>> = {
      domainName: form.domainName.trim() ? undefined : t('register.validation.domainName'),
      name: form.name.trim() ? undefined : t('auth.validation.name'),
      email: EMAIL_PATTERN.test(form.email.trim()) ? undefined : t('auth.validation.email'),
      password: form.password.length >= MIN_PASSWORD_LENGTH ? undefined : t('auth.validation.passwordLength', { count: MIN_PASSWORD_LENGTH }),
      confirm: form.confirm === form.password ? undefined : t('auth.validation.confirm'),
    };
    setFieldErrors(errors);
    if (Object.values(errors).some(Boolean)) return;
    await run(async () => {
      await registerDomain({ domainName: form.domainName.trim(), domainKind, name: form.name.trim(), email: form.email.trim(), password: form.password });
      navigate('/', { replace: true });
    });
  };

  return (
    <ScreenPage>
      <Paper withBorder radius="md" p="lg" component="form" onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t('register.hint')}
          </Text>
          {error ? (
            <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
              {error}
            </Alert>
          ) : null}
          <Stack gap={4}>
            <Text size="sm" fw={500} id="register-kind">
              {t('register.domainKind')}
            </Text>
            <SegmentedControl
              aria-labelledby="register-kind"
              value={domainKind}
              onChange={(value) => setDomainKind(value as RegistrableDomainKind)}
              data={REGISTRABLE_DOMAIN_KINDS.map((kind) => ({ value: kind, label: t(`register.kinds.${kind}`) }))}
            />
          </Stack>
          <TextInput label={t('register.domainName')} placeholder={t(`register.domainNamePlaceholder.${domainKind}`)} value={form.domainName} onChange={update('domainName')} error={fieldErrors.domainName} required />
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
          <Button type="submit" loading={pending} fullWidth>
            {t('register.submit')}
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
