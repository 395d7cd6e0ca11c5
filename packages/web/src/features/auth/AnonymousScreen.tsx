import { Alert, Anchor, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconReportMedical } from '@tabler/icons-react';
import type { ReportLinkPreview } from '@nemuri/shared/registration';
import { safeRedirectTarget } from '@nemuri/shared/routeAccess';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useCurrentRoute } from '../../lib/routeHandle.ts';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { ScreenFailure, ScreenLoading } from '../../components/ScreenStatus.tsx';
import { previewReportLink, redeemReportLink, signInAnonymously } from '../../lib/authClient.ts';
import { formatDate } from '../../lib/dates.ts';
import { iconSize } from '../../lib/icons.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { authErrorMessage } from '../../lib/authErrorMessage.ts';
import { useAuthAction } from '../../lib/useAuthAction.ts';

type Preview = { kind: 'none' } | { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; link: ReportLinkPreview };

/**
 * /anonymous: signs in without an account (a level-1 user without a domain). The same screen
 * serves /register-report-access-user?token=…: a family member or doctor given a report link signs
 * in anonymously (unless signed in already) and becomes a viewer of that room's reports.
 */
export default function AnonymousScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const route = useCurrentRoute();
  const [searchParams] = useSearchParams();
  const user = useCurrentUser();
  const { pending: busy, error, run } = useAuthAction();
  const reportToken = route?.name === 'RegisterReportAccessUser' ? (searchParams.get('token') ?? '') : null;
  const [preview, setPreview] = useState<Preview>({ kind: reportToken ? 'loading' : 'none' });

  useEffect(() => {
    if (!reportToken) return;
    let current = true;
    previewReportLink(reportToken).then(
      (link) => current && setPreview({ kind: 'ready', link }),
      (caught: unknown) => current && setPreview({ kind: 'failed', message: authErrorMessage(t, caught) }),
    );
    return () => {
      current = false;
    };
  }, [reportToken, t]);

  const start = () =>
    run(async () => {
      if (reportToken) {
        if (user === null) await signInAnonymously();
        const { roomId } = await redeemReportLink(reportToken);
        navigate(`/room/${encodeURIComponent(roomId)}/sleep`, { replace: true });
        return;
      }
      await signInAnonymously();
      navigate(safeRedirectTarget(searchParams.get('redirect')), { replace: true });
    });

  if (reportToken === '') return <ScreenFailure message={t('auth.errors.reportLinkNotFound')} />;
  if (preview.kind === 'failed') return <ScreenFailure message={preview.message} />;
  if (preview.kind === 'loading') return <ScreenLoading label={t('auth.reportLink.loading')} />;
  const link = preview.kind === 'ready' ? preview.link : null;
  const blocked = link !== null && link.status !== 'valid';

  return (
    <ScreenPage>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="md">
          {link ? (
            <>
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <IconReportMedical size={iconSize('md')} aria-hidden />
                <Text>{t('auth.reportLink.intro', { room: link.roomName })}</Text>
              </Group>
              <Text size="sm" c="dimmed">
                {t('auth.reportLink.expires', { date: formatDate(link.expiresAt) })}
              </Text>
              {blocked ? (
                <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
                  {t(link.status === 'used' ? 'auth.errors.reportLinkUsed' : 'auth.errors.reportLinkExpired')}
                </Alert>
              ) : null}
            </>
          ) : (
            <Text size="sm">{t('auth.anonymousPage.hint')}</Text>
          )}
          {error ? (
            <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
              {error}
            </Alert>
          ) : null}
          {blocked ? null : (
            <Button onClick={() => void start()} loading={busy} fullWidth>
              {link ? t('auth.reportLink.start') : t('auth.anonymousPage.start')}
            </Button>
          )}
          {user === null ? (
            <Anchor component={Link} to="/login" size="sm">
              {t('auth.anonymousPage.toLogin')}
            </Anchor>
          ) : null}
        </Stack>
      </Paper>
    </ScreenPage>
  );
}
