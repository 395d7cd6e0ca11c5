import { Alert, Anchor, Button, Loader, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { confirmEmailChange, recoverEmail, requestPasswordReset, resetPassword, verifyEmail } from '../../lib/authClient.ts';
import { iconSize } from '../../lib/icons.ts';
import { authErrorMessage } from '../../lib/authErrorMessage.ts';
import { EMAIL_PATTERN, MIN_PASSWORD_LENGTH } from '../../lib/credentialRules.ts';

/**
 * /handleauth: where the links of sign-in mail land. `mode=resetPassword&token=…` asks for a new
 * password; `mode=resetPassword` without a token asks for the address to mail a reset link to
 * (the "forgot password" form); `mode=verifyEmail&token=…` verifies the address at once;
 * `mode=changeEmail&token=…` completes a change of address; `mode=recoverEmail&token=…` takes one back.
 */
export default function HandleAuthScreen() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const mode = searchParams.get('mode');
  const token = searchParams.get('token') ?? '';

  let content;
  if (mode === 'resetPassword' && token !== '') content = <NewPasswordForm token={token} />;
  else if (mode === 'resetPassword') content = <RequestResetForm />;
  else if (mode === 'verifyEmail' && token !== '') content = <VerifyEmail token={token} />;
  else if (mode === 'changeEmail' && token !== '')
    content = (
      <VerifyEmail
        token={token}
        action={confirmEmailChange}
        working="auth.handle.changingEmail"
        done="auth.handle.emailChanged"
        failed="auth.handle.emailChangeFailed"
      />
    );
  else if (mode === 'recoverEmail' && token !== '')
    content = (
      <VerifyEmail
        token={token}
        action={recoverEmail}
        working="auth.handle.recoveringEmail"
        done="auth.handle.emailRecovered"
        failed="auth.handle.emailRecoverFailed"
      />
    );
  else content = <Failure message={t('auth.handle.badLink')} />;

  return (
    <ScreenPage>
      <Paper withBorder radius="md" p="lg">
        {content}
      </Paper>
    </ScreenPage>
  );
}

function Failure({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
        {message}
      </Alert>
      <Anchor component={Link} to="/handleauth?mode=resetPassword" size="sm">
        {t('auth.handle.requestAgain')}
      </Anchor>
      <Anchor component={Link} to="/login" size="sm">
        {t('auth.handle.toLogin')}
      </Anchor>
    </Stack>
  );
}

function Success({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Alert color="teal" icon={<IconCircleCheck size={iconSize('xs')} />} role="status">
        {message}
      </Alert>
      <Anchor component={Link} to="/login" size="sm">
        {t('auth.handle.toLogin')}
      </Anchor>
    </Stack>
  );
}

function RequestResetForm() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!EMAIL_PATTERN.test(email.trim())) {
      setFieldError(t('auth.validation.email'));
      return;
    }
    setFieldError(undefined);
    setSubmitting(true);
    setError(null);
    try {
      await requestPasswordReset(email.trim());
      setSent(true);
    } catch (caught) {
      setError(authErrorMessage(t, caught));
    } finally {
      setSubmitting(false);
    }
  };

  // The same message whether the address has an account or not.
  if (sent) return <Success message={t('auth.handle.resetRequested')} />;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Title order={2} size="h4">
          {t('auth.handle.requestTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('auth.handle.requestHint')}
        </Text>
        {error ? (
          <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
            {error}
          </Alert>
        ) : null}
        <TextInput
          label={t('auth.email')}
          type="email"
          autoComplete="username"
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          error={fieldError}
          required
        />
        <Button type="submit" loading={submitting} fullWidth>
          {t('auth.handle.requestSubmit')}
        </Button>
        <Anchor component={Link} to="/login" size="sm">
          {t('auth.handle.toLogin')}
        </Anchor>
      </Stack>
    </form>
  );
}

function NewPasswordForm({ token }: { token: string }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ password?: string; confirm?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const errors = {
      password: password.length >= MIN_PASSWORD_LENGTH ? undefined : t('auth.validation.passwordLength', { count: MIN_PASSWORD_LENGTH }),
      confirm: confirm === password ? undefined : t('auth.validation.confirm'),
    };
    setFieldErrors(errors);
    if (errors.password || errors.confirm) return;
    setSubmitting(true);
    setError(null);
    try {
      await resetPassword(token, password);
      setDone(true);
    } catch (caught) {
      setError(authErrorMessage(t, caught));
    } finally {
      setSubmitting(false);
    }
  };

  if (done) return <Success message={t('auth.handle.resetDone')} />;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Title order={2} size="h4">
          {t('auth.handle.resetTitle')}
        </Title>
        {error ? (
          <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
            {error}{' '}
            <Anchor component={Link} to="/handleauth?mode=resetPassword" size="sm">
              {t('auth.handle.requestAgain')}
            </Anchor>
          </Alert>
        ) : null}
        <PasswordInput
          label={t('auth.handle.newPassword')}
          description={t('auth.passwordRule', { count: MIN_PASSWORD_LENGTH })}
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          error={fieldErrors.password}
          required
        />
        <PasswordInput
          label={t('auth.passwordConfirm')}
          autoComplete="new-password"
          value={confirm}
          onChange={(event) => setConfirm(event.currentTarget.value)}
          error={fieldErrors.confirm}
          required
        />
        <Button type="submit" loading={submitting} fullWidth>
          {t('auth.handle.resetSubmit')}
        </Button>
      </Stack>
    </form>
  );
}

type VerifyState = { state: 'working' } | { state: 'done' } | { state: 'failed'; message: string };

/** A link that completes an action on its own (verify, change or recover the address): progress, then the outcome. */
function VerifyEmail({
  token,
  action = verifyEmail,
  working = 'auth.handle.verifying',
  done = 'auth.handle.verified',
  failed = 'auth.handle.verifyFailed',
}: {
  token: string;
  action?: (token: string) => Promise<void>;
  working?: string;
  done?: string;
  failed?: string;
}) {
  const { t } = useTranslation();
  const [result, setResult] = useState<VerifyState>({ state: 'working' });
  const started = useRef<string | null>(null);

  useEffect(() => {
    if (started.current === token) return;
    started.current = token;
    action(token).then(
      () => setResult({ state: 'done' }),
      (caught: unknown) => setResult({ state: 'failed', message: authErrorMessage(t, caught) }),
    );
  }, [token, t, action]);

  if (result.state === 'working') {
    return (
      <Stack gap="md" align="center">
        <Loader size="sm" />
        <Text size="sm">{t(working)}</Text>
      </Stack>
    );
  }
  if (result.state === 'failed') {
    return (
      <Stack gap="md">
        <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
          {t(failed)} {result.message}
        </Alert>
        <Anchor component={Link} to="/" size="sm">
          {t('auth.handle.toHome')}
        </Anchor>
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <Alert color="teal" icon={<IconCircleCheck size={iconSize('xs')} />} role="status">
        {t(done)}
      </Alert>
      <Anchor component={Link} to="/" size="sm">
        {t('auth.handle.toHome')}
      </Anchor>
    </Stack>
  );
}
