import { Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../components/ScreenPage.tsx';

/** Sign-in and registration pages; the identity issue fills in the forms. */
export default function AuthScreen() {
  const { t } = useTranslation();
  return (
    <ScreenPage>
      <Paper withBorder radius="md" p="lg">
        <Text c="dimmed">{t('auth.signInPending')}</Text>
      </Paper>
    </ScreenPage>
  );
}
