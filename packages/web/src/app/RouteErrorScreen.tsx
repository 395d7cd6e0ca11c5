import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { NotFoundScreen } from './NotFoundScreen.tsx';

/** Shown when a screen throws or its code cannot be loaded (for example after a deploy, offline). */
export function RouteErrorScreen() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundScreen />;
  console.error('[route] screen failed', error);
  const chunkFailed = error instanceof Error && /dynamically imported module|Importing a module script failed/i.test(error.message);

  return (
    <Center py="xl" px="md">
      <Paper withBorder radius="md" p="xl" maw={520} w="100%">
        <Stack align="center" ta="center">
          <Title order={2}>{t('errors.unexpected')}</Title>
          <Text c="dimmed">{chunkFailed ? t('errors.chunkLoad') : t('errors.unexpectedHint')}</Text>
          <Button onClick={() => window.location.reload()}>{t('errors.reload')}</Button>
        </Stack>
      </Paper>
    </Center>
  );
}
