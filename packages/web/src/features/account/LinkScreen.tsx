import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconMail, IconShieldLock } from '@tabler/icons-react';
import type { SocialProviderId } from '@nemuri/shared/appInfo';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { ScreenFailure, ScreenLoading } from '../../components/ScreenStatus.tsx';
import { AuthError, linkProvider, listLinkedAccounts, unlinkAccount, type LinkedAccount } from '../../lib/authClient.ts';
import { Reauthenticate } from './Reauthenticate.tsx';
import { useAppInfo } from '../../lib/appInfo.ts';
import { formatDate } from '../../lib/dates.ts';
import { iconSize } from '../../lib/icons.ts';
import { authErrorMessage } from '../../lib/authErrorMessage.ts';
import { PROVIDER_ICONS } from '../../components/SocialSignIn.tsx';

type Loaded = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; accounts: LinkedAccount[] };

interface Row {
  key: string;
  label: string;
  icon: typeof IconMail;
  account: LinkedAccount | undefined;
  /** Offered for linking (Google, LINE when configured); e-mail and SSO are linked elsewhere. */
  linkable: SocialProviderId | null;
}

/** /link: the ways the signed-in user can sign in, linking Google or LINE and unlinking any but the last. */
export default function LinkScreen() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const offered = useAppInfo()?.socialProviders ?? [];
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(search.get('error') === null ? null : t('auth.errors.providerFailed'));
  /** A change refused for want of a recent sign-in: retried once the user has proved who they are. */
  const [pendingChange, setPendingChange] = useState<{ key: string; action: () => Promise<unknown> } | null>(null);

  const load = useCallback(() => {
    listLinkedAccounts().then(
      (accounts) => setLoaded({ kind: 'ready', accounts }),
      (caught: unknown) => setLoaded({ kind: 'failed', message: authErrorMessage(t, caught) }),
    );
  }, [t]);
  useEffect(load, [load]);

  if (loaded.kind === 'loading') return <ScreenLoading label={t('link.loading')} />;
  if (loaded.kind === 'failed') return <ScreenFailure message={loaded.message} />;

  const { accounts } = loaded;
  const rows: Row[] = [
    { key: 'credential', label: t('link.providers.email'), icon: IconMail, account: accounts.find((a) => a.providerId === 'credential'), linkable: null },
    ...(['google', 'line'] as const)
      .filter((id) => offered.includes(id) || accounts.some((a) => a.providerId === id))
      .map((id) => ({
        key: id,
        label: t(`link.providers.${id}`),
        icon: PROVIDER_ICONS[id],
        account: accounts.find((a) => a.providerId === id),
        linkable: offered.includes(id) ? id : null,
      })),
    ...accounts
      .filter((a) => a.providerId.startsWith('saml.') || a.providerId.startsWith('oidc.'))
      .map((a) => ({ key: a.id, label: t('link.providers.sso', { id: a.providerId }), icon: IconShieldLock, account: a, linkable: null })),
  ];

  const act = async (key: string, action: () => Promise<unknown>) => {
    setBusy(key);
    setError(null);
    try {
      await action();
      setPendingChange(null);
      load();
    } catch (caught) {
      if (caught instanceof AuthError && caught.code === 'sessionNotFresh') setPendingChange({ key, action });
      else setError(authErrorMessage(t, caught));
    } finally {
      setBusy(null);
    }
  };

  return (
    <ScreenPage>
      <Paper withBorder radius="md" p="lg" component="section" aria-label={t('link.title')}>
        <Stack gap="md">
          <Title order={3} size="h5">
            {t('link.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('link.hint')}
          </Text>
          {error ? (
            <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
              {error}
            </Alert>
          ) : null}
          {pendingChange ? (
            <Reauthenticate
              hasPassword={accounts.some((account) => account.providerId === 'credential')}
              providers={accounts.map((account) => account.providerId).filter((id): id is SocialProviderId => id === 'google' || id === 'line')}
              onDone={() => void act(pendingChange.key, pendingChange.action)}
              onCancel={() => setPendingChange(null)}
            />
          ) : null}
          {rows.map((row) => {
            const Icon = row.icon;
            return (
              <Group key={row.key} justify="space-between" wrap="nowrap" data-testid={`link-${row.key}`}>
                <Group gap="sm" wrap="nowrap">
                  <Icon size={iconSize('md')} aria-hidden />
                  <Stack gap={0}>
                    <Text fw={500}>{row.label}</Text>
                    {row.account ? (
                      <Text size="xs" c="dimmed">
                        {t('link.linkedSince', { date: formatDate(row.account.createdAt) })}
                      </Text>
                    ) : null}
                  </Stack>
                  {row.account ? (
                    <Badge color="teal" variant="light">
                      {t('link.linked')}
                    </Badge>
                  ) : (
                    <Badge color="gray" variant="light">
                      {t('link.notLinked')}
                    </Badge>
                  )}
                </Group>
                {row.account ? (
                  <Button variant="default" size="xs" loading={busy === row.key} onClick={() => void act(row.key, () => unlinkAccount(row.account?.id ?? ''))}>
                    {t('link.unlink', { provider: row.label })}
                  </Button>
                ) : row.linkable !== null ? (
                  <Button size="xs" loading={busy === row.key} onClick={() => void act(row.key, () => linkProvider(row.linkable as SocialProviderId))}>
                    {t('link.link', { provider: row.label })}
                  </Button>
                ) : null}
              </Group>
            );
          })}
        </Stack>
      </Paper>
    </ScreenPage>
  );
}
