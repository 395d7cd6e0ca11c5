import { Alert, Button, Group, PasswordInput, SegmentedControl, Stack, Text, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LANGUAGES } from '@nemuri/shared/constants';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { SignedInUser } from '@nemuri/shared/user';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { disableTotp } from '../../lib/authClient.ts';
import { setDateLocale } from '../../lib/dates.ts';
import { changeLanguage, isLanguage } from '../../lib/i18n.ts';
import { notify } from '../../lib/notify.ts';
import { signOut, useCurrentUser } from '../../lib/session.ts';
import { useCurrentRoute } from '../../lib/routeHandle.ts';
import { authErrorMessage } from '../../lib/authErrorMessage.ts';
import { MIN_PASSWORD_LENGTH } from '../../lib/credentialRules.ts';
import { TotpEnrolment } from '../../components/TotpEnrolment.tsx';
import { changePasswordEverywhere } from './api/accountApi.ts';
import { accountErrorMessage } from './accountErrorMessage.ts';
import { EmailSection } from './EmailSection.tsx';
import { OtherDeviceSection } from './OtherDeviceSection.tsx';
import { ProfileSection } from './ProfileSection.tsx';
import { FeedbackAlert, Section, type Feedback } from './Section.tsx';
import { SessionsSection } from './SessionsSection.tsx';

/** The server's longest password (server auth.ts MAX_PASSWORD_LENGTH). */
const MAX_PASSWORD_LENGTH = 128;

/** /account-info: profile, e-mail, password, second factor, sign-in elsewhere, notifications (staff), display settings, sessions and sign-out. */
export function AccountScreen({ notificationSettings }: { notificationSettings: ReactNode }) {
  const { t } = useTranslation();
  const route = useCurrentRoute();
  const user = useCurrentUser();
  if (route?.name !== 'account_edit' || user === null) return <ScreenPage />;
  return (
    <ScreenPage>
      <ProfileSection user={user} />
      <Section title={t('account.emailChange.title')}>
        <EmailSection user={user} />
      </Section>
      {user.loginProviders.some((login) => login.provider === 'email') ? (
        <PasswordSection />
      ) : (
        <Section title={t('account.password')}>
          <Text size="sm" c="dimmed">
            {t('accountInfo.password.none')}
          </Text>
        </Section>
      )}
      <SecondFactorSection user={user} />
      <Section title={t('account.otherDevice.title')}>
        <OtherDeviceSection />
      </Section>
      {user.accessLevel >= ROLE_LEVELS.generalStaff && user.accessLevel <= ROLE_LEVELS.ownerAdministrator ? (
        <Section title={t('notifications.title')}>{notificationSettings}</Section>
      ) : null}
      <DisplaySection />
      <SessionsSection />
      <SignOutSection />
    </ScreenPage>
  );
}

function PasswordSection() {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const refuse = (message: string) => setFeedback({ ok: false, message });
    if (current === '') return refuse(t('accountInfo.password.currentRequired'));
    if (next.length < MIN_PASSWORD_LENGTH) return refuse(t('auth.validation.passwordLength', { count: MIN_PASSWORD_LENGTH }));
    if (next.length > MAX_PASSWORD_LENGTH) return refuse(t('auth.errors.passwordTooLong'));
    if (next !== confirm) return refuse(t('auth.validation.confirm'));
    if (next === current) return refuse(t('accountInfo.password.same'));
    setBusy(true);
    try {
      await changePasswordEverywhere(current, next);
      setCurrent('');
      setNext('');
      setConfirm('');
      setFeedback({ ok: true, message: t('account.passwordChanged') });
      notify({ color: 'teal', message: t('account.passwordChanged') });
    } catch (caught) {
      setFeedback({ ok: false, message: accountErrorMessage(t, caught) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section title={t('account.password')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <FeedbackAlert feedback={feedback} />
          <PasswordInput
            label={t('account.currentPassword')}
            autoComplete="current-password"
            value={current}
            onChange={(event) => setCurrent(event.currentTarget.value)}
          />
          <PasswordInput
            label={t('account.newPassword')}
            description={t('auth.passwordRule', { count: MIN_PASSWORD_LENGTH })}
            autoComplete="new-password"
            value={next}
            onChange={(event) => setNext(event.currentTarget.value)}
          />
          <PasswordInput
            label={t('accountInfo.password.confirm')}
            autoComplete="new-password"
            value={confirm}
            onChange={(event) => setConfirm(event.currentTarget.value)}
          />
          <Text size="xs" c="dimmed">
            {t('accountInfo.password.othersSignedOut')}
          </Text>
          <Group>
            <Button type="submit" loading={busy}>
              {t('account.changePassword')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function SecondFactorSection({ user }: { user: SignedInUser }) {
  const { t, i18n } = useTranslation();
  const [mode, setMode] = useState<'view' | 'enrol' | 'disable'>('view');
  const [password, setPassword] = useState('');
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [busy, setBusy] = useState(false);
  const totp = user.mfas.find((factor) => factor.kind === 'totp');
  const required = user.secondFactorRequired;

  const disable = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await disableTotp(password);
      setPassword('');
      setMode('view');
      setFeedback({ ok: true, message: t('account.disabled') });
      notify({ color: 'teal', message: t('account.disabled') });
    } catch (caught) {
      setFeedback({ ok: false, message: authErrorMessage(t, caught) });
    } finally {
      setBusy(false);
    }
  };

  let body: ReactNode;
  if (mode === 'enrol') {
    body = (
      <TotpEnrolment
        onDone={() => {
          setMode('view');
          setFeedback(null);
        }}
        onCancel={() => setMode('view')}
      />
    );
  } else if (mode === 'disable') {
    body = (
      <form onSubmit={disable} noValidate>
        <Stack gap="sm">
          <FeedbackAlert feedback={feedback} />
          <Text size="sm">{t('account.disableConfirm')}</Text>
          <PasswordInput
            label={t('account.currentPassword')}
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          <Group>
            <Button type="submit" color="red" loading={busy}>
              {t('account.disable')}
            </Button>
            <Button variant="subtle" onClick={() => setMode('view')}>
              {t('mfa.cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    );
  } else {
    body = (
      <Stack gap="sm">
        <FeedbackAlert feedback={feedback} />
        <Text size="sm">
          {totp ? t('account.secondFactorOn', { date: new Date(totp.enrolledAt).toLocaleDateString(i18n.language) }) : t('account.secondFactorOff')}
        </Text>
        {totp && required ? (
          <Text size="xs" c="dimmed">
            {t('account.secondFactorRequired')}
          </Text>
        ) : null}
        <Group>
          {totp ? (
            required ? null : (
              <Button
                variant="light"
                color="red"
                onClick={() => {
                  setFeedback(null);
                  setMode('disable');
                }}
              >
                {t('account.disable')}
              </Button>
            )
          ) : (
            <Button
              onClick={() => {
                setFeedback(null);
                setMode('enrol');
              }}
            >
              {t('account.enrol')}
            </Button>
          )}
        </Group>
      </Stack>
    );
  }
  return <Section title={t('account.secondFactor')}>{body}</Section>;
}

function DisplaySection() {
  const { t, i18n } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <Section title={t('account.display')}>
      <Stack gap="xs">
        <Text size="sm">{t('account.language')}</Text>
        <SegmentedControl
          aria-label={t('account.language')}
          value={i18n.language}
          data={LANGUAGES.map((language) => ({ value: language, label: t(`languages.${language}`) }))}
          onChange={(language) => {
            if (!isLanguage(language)) return;
            setDateLocale(language);
            void changeLanguage(language);
          }}
        />
        <Text size="sm">{t('account.theme')}</Text>
        <SegmentedControl
          value={colorScheme}
          data={[
            { value: 'light', label: t('account.themeLight') },
            { value: 'dark', label: t('account.themeDark') },
            { value: 'auto', label: t('account.themeAuto') },
          ]}
          onChange={(value) => setColorScheme(value as MantineColorScheme)}
          aria-label={t('account.theme')}
        />
      </Stack>
    </Section>
  );
}

function SignOutSection() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  return (
    <Section title={t('account.signOut')}>
      {error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : null}
      <Group>
        <Button
          variant="light"
          color="red"
          onClick={() => {
            signOut().then(
              () => navigate('/login', { replace: true }),
              () => setError(t('shell.signOutFailed')),
            );
          }}
        >
          {t('account.signOut')}
        </Button>
      </Group>
    </Section>
  );
}
