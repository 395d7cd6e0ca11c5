import { Alert, Button, Image, Stack, Text } from '@mantine/core';
import QRCode from 'qrcode';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { issueSingleTimeToken } from '../../lib/authClient.ts';
import { authErrorMessage } from '../../lib/authErrorMessage.ts';

/** Minutes a sign-in QR code stays valid (the server's SINGLE_TIME_TOKEN_MINUTES). */
const VALID_MINUTES = 10;

/**
 * Sign in on another device (a tablet at the nurse station) by scanning a QR code: it carries a
 * one-time token (singleTimeToken) that signs this user in once, within a few minutes.
 */
export function OtherDeviceSection() {
  const { t } = useTranslation();
  const [qr, setQr] = useState<{ image: string; url: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const show = async () => {
    setBusy(true);
    setError(null);
    try {
      const token = await issueSingleTimeToken();
      const url = new URL('/login', window.location.origin);
      url.searchParams.set('token', token);
      setQr({ image: await QRCode.toDataURL(url.toString(), { margin: 1, width: 220 }), url: url.toString() });
    } catch (caught) {
      setError(authErrorMessage(t, caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('account.otherDevice.hint', { minutes: VALID_MINUTES })}
      </Text>
      {error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : null}
      {qr ? (
        <Stack gap="xs" align="flex-start">
          <Image src={qr.image} alt={t('account.otherDevice.qrAlt')} w={220} h={220} data-url={qr.url} data-testid="sign-in-qr" />
          <Text size="xs" c="dimmed">
            {t('account.otherDevice.once', { minutes: VALID_MINUTES })}
          </Text>
        </Stack>
      ) : null}
      <Button variant="default" onClick={() => void show()} loading={busy} w="fit-content">
        {qr ? t('account.otherDevice.again') : t('account.otherDevice.show')}
      </Button>
    </Stack>
  );
}
