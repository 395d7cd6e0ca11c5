import { Alert, Anchor, Button, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { safeRedirectTarget } from '@nemuri/shared/routeAccess';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { completeSecondFactor } from '../../lib/authClient.ts';
import { iconSize } from '../../lib/icons.ts';
import { useAuthAction } from '../../lib/useAuthAction.ts';

/**
 * /mfaauth: the second step of a sign-in with TOTP enabled. The password step left a short-lived
 * challenge cookie; a 6-digit code from the authenticator app (or a backup code) completes it.
 */
export default function MfaAuthScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [kind, setKind] = useState<'totp' | 'backupCode'>('totp');
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const { pending: submitting, error, run } = useAuthAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = kind === 'totp' ? code.replace(/\s/g, '') : code.trim();
    if (kind === 'totp' ? !/^\d{6}$/.test(value) : value === '') {
      setFieldError(t(kind === 'totp' ? 'mfa.validation.code' : 'mfa.validation.backupCode'));
      return;
    }
    setFieldError(undefined);
    await run(async () => {
      await completeSecondFactor(value, kind);
      navigate(safeRedirectTarget(searchParams.get('redirect')), { replace: true });
    });
  };

  return (
    <ScreenPage>
      <Paper withBorder radius="md" p="lg">
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              {t(kind === 'totp' ? 'mfa.challengeHint' : 'mfa.backupHint')}
            </Text>
            {error ? (
              <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
                {error}
              </Alert>
            ) : null}
            <TextInput
              label={t(kind === 'totp' ? 'mfa.code' : 'mfa.backupCode')}
              autoComplete="one-time-code"
              inputMode={kind === 'totp' ? 'numeric' : 'text'}
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              error={fieldError}
              required
              autoFocus
            />
            <Button type="submit" loading={submitting} fullWidth>
              {t('mfa.verify')}
            </Button>
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => {
                setKind(kind === 'totp' ? 'backupCode' : 'totp');
                setCode('');
                setFieldError(undefined);
              }}
            >
              {t(kind === 'totp' ? 'mfa.useBackupCode' : 'mfa.useTotp')}
            </Anchor>
            <Anchor component={Link} to="/login" size="sm">
              {t('mfa.backToLogin')}
            </Anchor>
          </Stack>
        </form>
      </Paper>
    </ScreenPage>
  );
}
