import { Box, Center, Container, Group, Text } from '@mantine/core';
import { IconMoonStars } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { iconSize } from '../../lib/icons.ts';
import { RouteGuard } from '../guard/RouteGuard.tsx';
import { ColorSchemeToggle } from './ColorSchemeToggle.tsx';

/** The quiet frame of sign-in pages and the not-found page. */
export function PlainLayout() {
  const { t } = useTranslation();
  return (
    <Box mih="100dvh">
      <Group justify="space-between" px="md" py="sm">
        <Group gap={6} wrap="nowrap">
          <IconMoonStars size={iconSize('sm')} color="var(--mantine-color-yellow-4)" />
          <Text fw={700}>{t('app.name')}</Text>
        </Group>
        <ColorSchemeToggle />
      </Group>
      <Container size="sm" py="xl">
        <Center>
          <Box w="100%">
            <RouteGuard>
              <Outlet />
            </RouteGuard>
          </Box>
        </Center>
      </Container>
    </Box>
  );
}
