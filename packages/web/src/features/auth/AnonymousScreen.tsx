import { Alert, Anchor, Button, Paper, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { safeRedirectTarget } from '@nemuri/shared/routeAccess';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { signInAnonymously } from '../../lib/authClient.ts';
import { iconSize } from '../../lib/icons.ts';
import { useAuthAction } from './useAuthAction.ts';

/** /anonymous: signs in without an account (a level-1 user without a domain). */
export default function AnonymousScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { pending: busy, error, run } = useAuthAction();

  const start = async () => {
    await run(async () => {
      await signInAnonymously();
      navigate(safeRedirectTarget(searchParams.get('redirect')), { replace: true });
    });
  };

  return (
    <ScreenPage>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="md">
          <Text size="sm">{t('auth.anonymousPage.hint')}</Text>
          {error ? (
            <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
              {error}
            </Alert>
          ) : null}
          <Button onClick={() => void start()} loading={busy} fullWidth>
            {t('auth.anonymousPage.start')}
          </Button>
          <Anchor component={Link} to="/login" size="sm">
            {t('auth.anonymousPage.toLogin')}
          </Anchor>
        </Stack>
      </Paper>
    </ScreenPage>
  );
}
