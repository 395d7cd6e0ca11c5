import { Alert, Anchor, Button, Paper, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { signUpWithEmail } from '../../lib/authClient.ts';
import { iconSize } from '../../lib/icons.ts';
import { checkNewAccount, EMPTY_NEW_ACCOUNT, NewAccountFields, type NewAccountErrors } from './NewAccountFields.tsx';
import { useAuthAction } from '../../lib/useAuthAction.ts';

/** Account creation with e-mail and password for an individual user. */
export default function SignupScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form, setForm] = useState(EMPTY_NEW_ACCOUNT);
  const [fieldErrors, setFieldErrors] = useState<NewAccountErrors>({});
  const { pending: submitting, error, run } = useAuthAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const errors = checkNewAccount(t, form);
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
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
          <NewAccountFields value={form} errors={fieldErrors} onChange={setForm} />
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
