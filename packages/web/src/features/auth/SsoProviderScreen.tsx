import { Alert, Anchor, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { safeRedirectTarget } from '@nemuri/shared/routeAccess';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { AuthError, startSingleSignOn } from '../../lib/authClient.ts';
import { iconSize } from '../../lib/icons.ts';
import { ORGANISATION_ID } from './SsoScreen.tsx';

type Failure = 'unknown' | 'failed' | 'network';

/** What the screen says when the start failed: an id the server does not know, no network, or anything else. */
function failureOf(error: unknown): Failure {
  if (error instanceof AuthError && error.code === 'invalidProvider') return 'unknown';
  if (error instanceof AuthError && error.code === 'network') return 'network';
  return 'failed';
}

/** /sso/:samlid: starts single sign-on with the organisation's provider and leaves for it. */
export default function SsoProviderScreen() {
  const { t } = useTranslation();
  const { samlid = '' } = useParams();
  const [searchParams] = useSearchParams();
  const returned = searchParams.get('error');
  const [failure, setFailure] = useState<Failure | null>(() => (returned !== null ? 'failed' : ORGANISATION_ID.test(samlid) ? null : 'unknown'));

  useEffect(() => {
    if (failure !== null) return;
    let cancelled = false;
    // The provider's refusal comes back to this page with ?error=…, which stops a new attempt.
    startSingleSignOn(samlid, safeRedirectTarget(searchParams.get('redirect')), `/sso/${encodeURIComponent(samlid)}`)
      .then((url) => {
        if (!cancelled) window.location.assign(url);
      })
      .catch((error: unknown) => {
        if (!cancelled) setFailure(failureOf(error));
      });
    return () => {
      cancelled = true;
    };
    // Started once per id: a failure stays on screen until the user goes back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [samlid]);

  return (
    <ScreenPage title={t('sso.title')}>
      <Paper withBorder radius="md" p="lg">
        {failure === null ? (
          <Group gap="sm" role="status">
            <Loader size="sm" />
            <Text>{t('sso.starting')}</Text>
          </Group>
        ) : (
          <Stack gap="md">
            <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
              {t(`sso.errors.${failure}`, { id: samlid })}
            </Alert>
            <Anchor component={Link} to={`/sso?id=${encodeURIComponent(samlid)}`}>
              {t('sso.tryAgain')}
            </Anchor>
          </Stack>
        )}
      </Paper>
    </ScreenPage>
  );
}
