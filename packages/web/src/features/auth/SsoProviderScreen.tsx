import { Alert, Anchor, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { safeRedirectTarget } from '@nemuri/shared/routeAccess';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { iconSize } from '../../lib/icons.ts';
import { ORGANISATION_ID } from './SsoScreen.tsx';

type Failure = 'unknown' | 'failed' | 'network';

/**
 * Asks the server for the identity provider's sign-in URL (POST /api/auth/sign-in/sso). The
 * server answers 400/404 `INVALID_PROVIDER` for an id it does not know.
 */
async function startSingleSignOn(providerId: string, callbackURL: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch('/api/auth/sign-in/sso', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      // The provider's refusal comes back to this page with ?error=…, which stops a new attempt.
      body: JSON.stringify({ providerId, callbackURL, errorCallbackURL: `/sso/${encodeURIComponent(providerId)}` }),
    });
  } catch {
    throw new Error('network' satisfies Failure);
  }
  const answer = (await response.json().catch(() => ({}))) as { url?: unknown; code?: unknown };
  if (response.ok && typeof answer.url === 'string') return answer.url;
  throw new Error((answer.code === 'INVALID_PROVIDER' ? 'unknown' : 'failed') satisfies Failure);
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
    startSingleSignOn(samlid, safeRedirectTarget(searchParams.get('redirect')))
      .then((url) => {
        if (!cancelled) window.location.assign(url);
      })
      .catch((error: unknown) => {
        if (!cancelled) setFailure(error instanceof Error && (error.message === 'unknown' || error.message === 'network') ? error.message : 'failed');
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
