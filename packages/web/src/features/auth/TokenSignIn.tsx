import { Alert, Group, Loader, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { signInWithSingleTimeToken } from '../../lib/authClient.ts';
import { iconSize } from '../../lib/icons.ts';
import { authErrorMessage } from '../../lib/authErrorMessage.ts';

/** /login?token=…: signs in with a one-time token from a QR code, then goes on to `redirectTo`. */
export function TokenSignIn({ token, redirectTo }: { token: string; redirectTo: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    signInWithSingleTimeToken(token).then(
      () => current && navigate(redirectTo, { replace: true }),
      (caught: unknown) => current && setError(authErrorMessage(t, caught)),
    );
    return () => {
      current = false;
    };
  }, [token, redirectTo, navigate, t]);

  if (error !== null) {
    return (
      <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
        {error}
      </Alert>
    );
  }
  return (
    <Group gap="sm" p="md">
      <Loader size="sm" />
      <Text>{t('auth.tokenSigningIn')}</Text>
    </Group>
  );
}
