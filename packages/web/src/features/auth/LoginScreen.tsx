import { Alert, Anchor, Button, Group, Paper, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { lazy, useState, type FormEvent } from 'react';
import { OptionalPart } from '../../components/OptionalPart.tsx';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { safeRedirectTarget } from '@nemuri/shared/routeAccess';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { signInWithEmail } from '../../lib/authClient.ts';
import { iconSize } from '../../lib/icons.ts';
import { useAuthAction } from '../../lib/useAuthAction.ts';
import { useAppInfo } from '../../lib/appInfo.ts';
import { SocialSignIn } from '../../components/SocialSignIn.tsx';
import { TokenSignIn } from './TokenSignIn.tsx';
import { EMAIL_PATTERN, MIN_PASSWORD_LENGTH } from '../../lib/credentialRules.ts';

// Only a demo server lists its accounts: the table's code loads there, not with every sign-in page.
const DemoAccountsPanel = lazy(async () => ({ default: (await import('./DemoAccountsPanel.tsx')).DemoAccountsPanel }));

/** Sign-in with e-mail and password; afterwards the user returns to the page they asked for. */
export default function LoginScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});
  const { pending: submitting, error, run } = useAuthAction();
  const demo = useAppInfo()?.demo === true;
  // Set by the server when a sign-in with Google or LINE came back refused.
  const providerError = searchParams.get('error') !== null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const errors = {
      email: EMAIL_PATTERN.test(email.trim()) ? undefined : t('auth.validation.email'),
      password: password.length >= MIN_PASSWORD_LENGTH ? undefined : t('auth.validation.passwordLength', { count: MIN_PASSWORD_LENGTH }),
    };
    setFieldErrors(errors);
    if (errors.email || errors.password) return;
    await run(async () => {
      const outcome = await signInWithEmail(email.trim(), password);
      const target = safeRedirectTarget(searchParams.get('redirect'));
      if (outcome.kind === 'secondFactor') navigate(`/mfaauth?redirect=${encodeURIComponent(target)}`, { replace: true });
      else navigate(target, { replace: true });
    });
  };

  const token = searchParams.get('token');
  return (
    <ScreenPage>
      <Stack gap="lg">
        {token ? <TokenSignIn token={token} redirectTo={safeRedirectTarget(searchParams.get('redirect'))} /> : null}
        <Paper withBorder radius="md" p="lg" component="form" onSubmit={submit} noValidate>
          <Stack gap="md">
            {error || providerError ? (
              <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
                {error ?? t('auth.errors.providerFailed')}
              </Alert>
            ) : null}
            <TextInput
              label={t('auth.email')}
              type="email"
              autoComplete="username"
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
              error={fieldErrors.email}
              required
            />
            <PasswordInput
              label={t('auth.password')}
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              error={fieldErrors.password}
              required
            />
            <Anchor component={Link} to="/handleauth?mode=resetPassword" size="sm" ta="right">
              {t('auth.forgotPassword')}
            </Anchor>
            <Button type="submit" loading={submitting} fullWidth>
              {t('auth.signIn')}
            </Button>
            <SocialSignIn redirectTo={safeRedirectTarget(searchParams.get('redirect'))} />
            <Group justify="space-between" gap="xs">
              <Anchor component={Link} to="/signup" size="sm">
                {t('auth.toSignup')}
              </Anchor>
              <Anchor component={Link} to="/register" size="sm">
                {t('auth.toRegister')}
              </Anchor>
              <Anchor component={Link} to="/sso" size="sm">
                {t('auth.toSso')}
              </Anchor>
            </Group>
            <Text size="xs" c="dimmed">
              {t('auth.toAnonymousHint')}{' '}
              <Anchor component={Link} to="/anonymous" size="xs">
                {t('auth.toAnonymous')}
              </Anchor>
            </Text>
          </Stack>
        </Paper>
        {demo ? (
          <OptionalPart>
            <DemoAccountsPanel
              onPick={(demoEmail, demoPassword) => {
                setEmail(demoEmail);
                setPassword(demoPassword);
                setFieldErrors({});
              }}
            />
          </OptionalPart>
        ) : null}
      </Stack>
    </ScreenPage>
  );
}
