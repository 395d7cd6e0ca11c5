import { Badge, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconDeviceDesktop } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/dates.ts';
import { iconSize } from '../../lib/icons.ts';
import { notify } from '../../lib/notify.ts';
import { listSessions, revokeOtherSessions, revokeSession, type AccountSession } from './api/accountApi.ts';
import { accountErrorMessage } from './accountErrorMessage.ts';
import { FeedbackAlert, Section, type Feedback } from './Section.tsx';
import { sessionDeviceOf } from './sessionDevice.ts';

type Loaded = { kind: 'loading' } | { kind: 'ready'; sessions: AccountSession[]; currentId: string | null };

/** Where the user is signed in, with sign-out of one session or of every other one (a lost tablet, a shared PC). */
export function SessionsSection() {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [busy, setBusy] = useState<string | null>(null);
  const [feedback, setFeedback] = useState<Feedback>(null);

  const load = useCallback(() => {
    listSessions().then(
      (found) => setLoaded({ kind: 'ready', ...found }),
      (caught: unknown) => {
        setLoaded({ kind: 'ready', sessions: [], currentId: null });
        setFeedback({ ok: false, message: accountErrorMessage(t, caught) });
      },
    );
  }, [t]);
  useEffect(load, [load]);

  const act = async (key: string, action: () => Promise<void>, done: string) => {
    setBusy(key);
    setFeedback(null);
    try {
      await action();
      setFeedback({ ok: true, message: done });
      notify({ color: 'teal', message: done });
      load();
    } catch (caught) {
      setFeedback({ ok: false, message: accountErrorMessage(t, caught) });
    } finally {
      setBusy(null);
    }
  };

  const others = loaded.kind === 'ready' ? loaded.sessions.filter((session) => session.id !== loaded.currentId) : [];
  return (
    <Section title={t('accountInfo.sessions.title')}>
      <Text size="sm" c="dimmed">
        {t('accountInfo.sessions.hint')}
      </Text>
      <FeedbackAlert feedback={feedback} />
      {loaded.kind === 'loading' ? (
        <Loader size="sm" aria-label={t('accountInfo.sessions.loading')} />
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {loaded.sessions.map((session) => {
            const current = session.id === loaded.currentId;
            const device = sessionDeviceOf(session.userAgent);
            const label = [device.browser, device.system].filter((part) => part !== null).join(' / ') || t('accountInfo.sessions.unknownDevice');
            return (
              <Group
                key={session.id}
                component="li"
                justify="space-between"
                wrap="nowrap"
                data-testid="account-session"
                data-current={current ? 'true' : 'false'}
                aria-label={label}
              >
                <Group gap="sm" wrap="nowrap">
                  <IconDeviceDesktop size={iconSize('md')} aria-hidden />
                  <Stack gap={0}>
                    <Group gap="xs">
                      <Text fw={500}>{label}</Text>
                      {current ? (
                        <Badge size="sm" color="teal" variant="light">
                          {t('accountInfo.sessions.current')}
                        </Badge>
                      ) : null}
                    </Group>
                    <Text size="xs" c="dimmed">
                      {t('accountInfo.sessions.details', {
                        ip: session.ipAddress ?? '—',
                        active: formatDateTime(session.updatedAt),
                        since: formatDateTime(session.createdAt),
                      })}
                    </Text>
                  </Stack>
                </Group>
                {current ? null : (
                  <Button
                    size="xs"
                    variant="default"
                    loading={busy === session.id}
                    onClick={() => void act(session.id, () => revokeSession(session.token), t('accountInfo.sessions.revoked'))}
                  >
                    {t('accountInfo.sessions.revoke')}
                  </Button>
                )}
              </Group>
            );
          })}
        </Stack>
      )}
      <Group>
        <Button
          variant="light"
          color="red"
          disabled={others.length === 0}
          loading={busy === 'others'}
          onClick={() => void act('others', revokeOtherSessions, t('accountInfo.sessions.othersRevoked'))}
        >
          {t('accountInfo.sessions.revokeOthers')}
        </Button>
      </Group>
    </Section>
  );
}
