import { Alert, Anchor, Button, Paper, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { REGISTRABLE_DOMAIN_KINDS, type RegistrableDomainKind } from '@nemuri/shared/registration';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { registerDomain } from '../../lib/authClient.ts';
import { iconSize } from '../../lib/icons.ts';
import { checkNewAccount, EMPTY_NEW_ACCOUNT, NewAccountFields, type NewAccountErrors } from './NewAccountFields.tsx';
import { useAuthAction } from '../../lib/useAuthAction.ts';

/** /register: a new organisation (facility, corporation or household) with the registering person as its owner. */
export default function RegisterScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [domainKind, setDomainKind] = useState<RegistrableDomainKind>('facility');
  const [domainName, setDomainName] = useState('');
  const [account, setAccount] = useState(EMPTY_NEW_ACCOUNT);
  const [fieldErrors, setFieldErrors] = useState<NewAccountErrors & { domainName?: string }>({});
  const { pending, error, run } = useAuthAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const errors = { ...checkNewAccount(t, account), ...(domainName.trim() ? {} : { domainName: t('register.validation.domainName') }) };
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    await run(async () => {
      await registerDomain({ domainName: domainName.trim(), domainKind, name: account.name.trim(), email: account.email.trim(), password: account.password });
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
          <TextInput
            label={t('register.domainName')}
            placeholder={t(`register.domainNamePlaceholder.${domainKind}`)}
            value={domainName}
            onChange={(event) => setDomainName(event.currentTarget.value)}
            error={fieldErrors.domainName}
            required
          />
          <NewAccountFields value={account} errors={fieldErrors} onChange={setAccount} />
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
