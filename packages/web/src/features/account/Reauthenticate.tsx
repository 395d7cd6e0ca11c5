import { Alert, Button, Group, Paper, PasswordInput, Stack, Text } from '@mantine/core';
import type { SocialProviderId } from '@nemuri/shared/appInfo';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reauthenticate, signInWithProvider } from '../../lib/authClient.ts';
import { authErrorMessage } from '../../lib/authErrorMessage.ts';

/** Proving again who the user is: the password when there is one, else a linked provider. */
export function Reauthenticate({
  hasPassword,
  providers,
  onDone,
  onCancel,
}: {
  hasPassword: boolean;
  providers: readonly SocialProviderId[];
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await reauthenticate(password);
      setPassword('');
      onDone();
    } catch (caught) {
      setError(authErrorMessage(t, caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder p="md" radius="md" aria-label={t('link.reauth.title')} role="group">
      <Stack gap="sm">
        <Text fw={500}>{t('auth.errors.sessionNotFresh')}</Text>
        {error ? (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        ) : null}
        {hasPassword ? (
          <Group align="flex-end" gap="sm">
            <PasswordInput
              label={t('auth.password')}
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              style={{ flex: 1 }}
            />
            <Button onClick={() => void submit()} loading={busy} disabled={password === ''}>
              {t('link.reauth.confirm')}
            </Button>
          </Group>
        ) : (
          providers.map((provider) => (
            <Button key={provider} variant="default" onClick={() => void signInWithProvider(provider, window.location.pathname)}>
              {t('link.reauth.withProvider', { provider: t(`link.providers.${provider}`) })}
            </Button>
          ))
        )}
        <Button variant="subtle" size="xs" w="fit-content" onClick={onCancel}>
          {t('link.reauth.cancel')}
        </Button>
      </Stack>
    </Paper>
  );
}
