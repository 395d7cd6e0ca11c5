import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import type { SocialProviderId } from '@nemuri/shared/appInfo';
import type { SignedInUser } from '@nemuri/shared/user';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthError, requestEmailChange } from '../../lib/authClient.ts';
import { authErrorMessage } from '../../lib/authErrorMessage.ts';
import { EMAIL_PATTERN } from '../../lib/credentialRules.ts';
import { Reauthenticate } from './Reauthenticate.tsx';

/** Changing the sign-in address: a link goes to the new address; the old one can take the change back. */
export function EmailSection({ user }: { user: SignedInUser }) {
  const { t } = useTranslation();
  const [newEmail, setNewEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<{ ok: boolean; message: string } | null>(null);
  const [reauth, setReauth] = useState(false);

  const send = async () => {
    setBusy(true);
    setFeedback(null);
    try {
      await requestEmailChange(newEmail.trim());
      setReauth(false);
      setFeedback({ ok: true, message: t('account.emailChange.sent', { email: newEmail.trim() }) });
      setNewEmail('');
    } catch (caught) {
      if (caught instanceof AuthError && caught.code === 'sessionNotFresh') setReauth(true);
      else setFeedback({ ok: false, message: authErrorMessage(t, caught) });
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!EMAIL_PATTERN.test(newEmail.trim())) {
      setFeedback({ ok: false, message: t('auth.validation.email') });
      return;
    }
    void send();
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {feedback ? (
          <Alert color={feedback.ok ? 'teal' : 'red'} role={feedback.ok ? 'status' : 'alert'}>
            {feedback.message}
          </Alert>
        ) : null}
        {reauth ? (
          <Reauthenticate
            hasPassword={user.loginProviders.some((login) => login.provider === 'email')}
            providers={user.loginProviders.map((login) => login.provider).filter((id): id is SocialProviderId => id === 'google' || id === 'line')}
            onDone={() => void send()}
            onCancel={() => setReauth(false)}
          />
        ) : null}
        <TextInput
          label={t('account.emailChange.newEmail')}
          type="email"
          autoComplete="email"
          value={newEmail}
          onChange={(event) => setNewEmail(event.currentTarget.value)}
          description={t('account.emailChange.hint')}
        />
        <Group>
          <Button type="submit" variant="default" loading={busy}>
            {t('account.emailChange.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
