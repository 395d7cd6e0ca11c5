import { Alert, Anchor, Button, Group, Paper, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconMailCheck } from '@tabler/icons-react';
import type { InvitationPreview } from '@nemuri/shared/registration';
import { roleOfLevel } from '@nemuri/shared/roles';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { ScreenFailure, ScreenLoading } from '../../components/ScreenStatus.tsx';
import { acceptInvitation, previewInvitation } from '../../lib/authClient.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { iconSize } from '../../lib/icons.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { authErrorMessage } from '../../lib/authErrorMessage.ts';
import { MIN_PASSWORD_LENGTH } from '../../lib/credentialRules.ts';
import { useAuthAction } from '../../lib/useAuthAction.ts';

type Loaded = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; invitation: InvitationPreview };

/**
 * /registerUser/:domainId?invitation=…: the page an invitation mail links to. A new person sets a
 * name and password; someone signed in with the invited address joins with one button.
 */
export default function RegisterUserScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { domainId = '' } = useParams();
  const [search] = useSearchParams();
  const invitationId = search.get('invitation') ?? '';
  const user = useCurrentUser();
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [form, setForm] = useState({ name: '', password: '', confirm: '' });
  const [fieldErrors, setFieldErrors] = useState<{ name?: string; password?: string; confirm?: string }>({});
  const { pending, error, run } = useAuthAction();

  useEffect(() => {
    let current = true;
    if (invitationId === '') return;
    previewInvitation(invitationId).then(
      (invitation) => {
        if (!current) return;
        if (invitation.domainId !== domainId) setLoaded({ kind: 'failed', message: t('auth.errors.invitationNotFound') });
        else setLoaded({ kind: 'ready', invitation });
      },
      (caught: unknown) => current && setLoaded({ kind: 'failed', message: authErrorMessage(t, caught) }),
    );
    return () => {
      current = false;
    };
  }, [invitationId, domainId, t]);

  if (invitationId === '') return <ScreenFailure message={t('auth.errors.invitationNotFound')} />;
  if (loaded.kind === 'loading') return <ScreenLoading label={t('registerUser.loading')} />;
  if (loaded.kind === 'failed') return <ScreenFailure message={loaded.message} />;

  const { invitation } = loaded;
  const signedInAsInvitee = user !== null && user.email?.toLowerCase() === invitation.email.toLowerCase();
  const signedInAsOther = user !== null && !user.isAnonymous && !signedInAsInvitee;
  const blocked = invitation.status !== 'valid';

  const join = () =>
    run(async () => {
      await acceptInvitation({ invitationId, domainId });
      navigate('/', { replace: true });
    });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const errors = {
      name: form.name.trim() ? undefined : t('auth.validation.name'),
      password: form.password.length >= MIN_PASSWORD_LENGTH ? undefined : t('auth.validation.passwordLength', { count: MIN_PASSWORD_LENGTH }),
      confirm: form.confirm === form.password ? undefined : t('auth.validation.confirm'),
    };
    setFieldErrors(errors);
    if (Object.values(errors).some(Boolean)) return;
    await run(async () => {
      await acceptInvitation({ invitationId, domainId, name: form.name.trim(), password: form.password });
      navigate('/', { replace: true });
    });
  };

  return (
    <ScreenPage>
      <Paper withBorder radius="md" p="lg" component={signedInAsInvitee || signedInAsOther || blocked ? 'div' : 'form'} onSubmit={submit} noValidate>
        <Stack gap="md">
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <IconMailCheck size={iconSize('md')} aria-hidden />
            <Text>{t('registerUser.invited', { domain: invitation.domainName, role: t(`roles.${roleOfLevel(invitation.accessLevel)}`) })}</Text>
          </Group>
          <Text size="sm" c="dimmed">
            {t('registerUser.expires', { at: formatDateTime(invitation.expiresAt) })}
          </Text>
          {blocked ? (
            <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
              {t(invitation.status === 'used' ? 'auth.errors.invitationUsed' : 'auth.errors.invitationExpired')}
            </Alert>
          ) : null}
          {error ? (
            <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
              {error}
            </Alert>
          ) : null}
          {blocked ? null : signedInAsInvitee ? (
            <Button onClick={() => void join()} loading={pending} fullWidth>
              {t('registerUser.join')}
            </Button>
          ) : signedInAsOther ? (
            <Alert color="yellow" role="status">
              {t('registerUser.otherAccount', { email: invitation.email })}
            </Alert>
          ) : (
            <>
              <TextInput label={t('auth.email')} value={invitation.email} readOnly />
              <TextInput
                label={t('auth.name')}
                autoComplete="name"
                value={form.name}
                onChange={(event) => setForm({ ...form, name: event.currentTarget.value })}
                error={fieldErrors.name}
                required
              />
              <PasswordInput
                label={t('auth.password')}
                description={t('auth.passwordRule', { count: MIN_PASSWORD_LENGTH })}
                autoComplete="new-password"
                value={form.password}
                onChange={(event) => setForm({ ...form, password: event.currentTarget.value })}
                error={fieldErrors.password}
                required
              />
              <PasswordInput
                label={t('auth.passwordConfirm')}
                autoComplete="new-password"
                value={form.confirm}
                onChange={(event) => setForm({ ...form, confirm: event.currentTarget.value })}
                error={fieldErrors.confirm}
                required
              />
              <Button type="submit" loading={pending} fullWidth>
                {t('registerUser.createAndJoin')}
              </Button>
              <Text size="sm">
                {t('registerUser.haveAccount')}{' '}
                <Anchor component={Link} to={`/login?redirect=${encodeURIComponent(`/registerUser/${domainId}?invitation=${invitationId}`)}`} size="sm">
                  {t('auth.signIn')}
                </Anchor>
              </Text>
            </>
          )}
        </Stack>
      </Paper>
    </ScreenPage>
  );
}
