import { Stack, Text, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentRoute } from '../lib/routeHandle.ts';

interface ScreenPageProps {
  children?: ReactNode;
  /** Overrides the route's own title. */
  title?: string;
}

/** The frame of every screen: the route's Japanese title as the heading and the document title. */
export function ScreenPage({ children, title }: ScreenPageProps) {
  const { t } = useTranslation();
  const route = useCurrentRoute();
  const heading = title ?? (route ? t(`routes.${route.name}`) : t('app.name'));

  useEffect(() => {
    document.title = `${heading} | ${t('app.name')}`;
  }, [heading, t]);

  return (
    <Stack gap="md">
      <Title order={2}>{heading}</Title>
      {children ?? <Text c="dimmed">{t('screen.pending')}</Text>}
    </Stack>
  );
}
