import { Alert, Button, Code, Group, Image, List, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import QRCode from 'qrcode';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmTotp, enableTotp, reloadUser, type TotpEnrolment as Enrolment } from '../lib/authClient.ts';
import { iconSize } from '../lib/icons.ts';
import { authErrorMessage } from '../lib/authErrorMessage.ts';

type Step = { step: 'password' } | { step: 'scan'; enrolment: Enrolment; qr: string; secret: string } | { step: 'backupCodes'; codes: string[] };

/**
 * TOTP enrolment: the password again, then the otpauth URI as a QR code (drawn here, no network)
 * with its secret in text, a first code to confirm, and the backup codes, shown this once. The
 * signed-in user is reloaded only when the user has seen them (`onDone`), since a user held at
 * level 0 leaves the enrolment screen as soon as the new level arrives.
 */
export function TotpEnrolment({ onDone, onCancel }: { onDone?: () => void; onCancel?: () => void }) {
  const { t } = useTranslation();
  const [state, setState] = useState<Step>({ step: 'password' });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const start = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const enrolment = await enableTotp(password);
      const qr = await QRCode.toDataURL(enrolment.totpURI, { margin: 1, width: 200 });
      const secret = new URL(enrolment.totpURI).searchParams.get('secret') ?? '';
      setState({ step: 'scan', enrolment, qr, secret });
      setPassword('');
    } catch (caught) {
      setError(authErrorMessage(t, caught));
    } finally {
      setBusy(false);
    }
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (state.step !== 'scan') return;
    const value = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(value)) {
      setError(t('mfa.validation.code'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await confirmTotp(value);
      setState({ step: 'backupCodes', codes: state.enrolment.backupCodes });
    } catch (caught) {
      setError(authErrorMessage(t, caught));
    } finally {
      setBusy(false);
    }
  };

  const finish = async () => {
    setBusy(true);
    await reloadUser().catch(() => undefined);
    setBusy(false);
    onDone?.();
  };

  const alert = error ? (
    <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
      {error}
    </Alert>
  ) : null;

  if (state.step === 'password') {
    return (
      <form onSubmit={start} noValidate>
        <Stack gap="md">
          <Text size="sm">{t('mfa.enrolPasswordHint')}</Text>
          {alert}
          <PasswordInput
            label={t('mfa.currentPassword')}
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            required
          />
          <Group>
            <Button type="submit" loading={busy}>
              {t('mfa.enrolStart')}
            </Button>
            {onCancel ? (
              <Button variant="subtle" onClick={onCancel}>
                {t('mfa.cancel')}
              </Button>
            ) : null}
          </Group>
        </Stack>
      </form>
    );
  }

  if (state.step === 'scan') {
    return (
      <form onSubmit={confirm} noValidate>
        <Stack gap="md">
          <Text size="sm">{t('mfa.scanHint')}</Text>
          <Image src={state.qr} alt={t('mfa.qrAlt')} w={200} h={200} />
          <Text size="sm">{t('mfa.secretHint')}</Text>
          <Code block data-testid="totp-secret">
            {state.secret}
          </Code>
          {alert}
          <TextInput
            label={t('mfa.code')}
            autoComplete="one-time-code"
            inputMode="numeric"
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            required
          />
          <Group>
            <Button type="submit" loading={busy}>
              {t('mfa.enrolConfirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    );
  }

  return (
    <Stack gap="md">
      <Alert color="teal" role="status">
        {t('mfa.enrolled')}
      </Alert>
      <Text size="sm">{t('mfa.backupCodesHint')}</Text>
      <SimpleGrid cols={2} data-testid="backup-codes">
        {state.codes.map((backupCode) => (
          <Code key={backupCode}>{backupCode}</Code>
        ))}
      </SimpleGrid>
      <List size="xs" c="dimmed">
        <List.Item>{t('mfa.backupCodesOnce')}</List.Item>
      </List>
      <Group>
        <Button onClick={() => void finish()} loading={busy}>
          {t('mfa.done')}
        </Button>
      </Group>
    </Stack>
  );
}
