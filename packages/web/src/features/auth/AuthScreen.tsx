import { Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { useCurrentRoute } from '../../lib/routeHandle.ts';
import AnonymousScreen from './AnonymousScreen.tsx';
import HandleAuthScreen from './HandleAuthScreen.tsx';
import MfaAuthScreen from './MfaAuthScreen.tsx';

/** Sign-in and registration pages without a screen of their own yet, by route name. */
export default function AuthScreen() {
  const { t } = useTranslation();
  const route = useCurrentRoute();
  if (route?.name === 'handleauth') return <HandleAuthScreen />;
  if (route?.name === 'mfaauth') return <MfaAuthScreen />;
  if (route?.name === 'anonymous' || route?.name === 'RegisterReportAccessUser') return <AnonymousScreen />;
  return (
    <ScreenPage>
      <Paper withBorder radius="md" p="lg">
        <Text c="dimmed">{t('auth.signInPending')}</Text>
      </Paper>
    </ScreenPage>
  );
}
