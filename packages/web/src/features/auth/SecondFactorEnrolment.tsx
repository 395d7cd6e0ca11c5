import { Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { iconSize } from '../../lib/icons.ts';
import { TotpEnrolment } from '../../components/TotpEnrolment.tsx';

/**
 * What a level-0 user sees on every page (the route guard): the domain requires a second factor,
 * so TOTP enrolment comes first. Once done, the reloaded user has the assigned level and the
 * guard shows the page asked for.
 */
export default function SecondFactorEnrolment() {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Paper withBorder radius="md" p="xl" maw={560} w="100%">
        <Stack gap="md">
          <Stack align="center" gap="sm" ta="center">
            <ThemeIcon size={iconSize('xl') + 14} radius="xl" variant="light" color="yellow">
              <IconShieldLock size={iconSize('lg')} />
            </ThemeIcon>
            <Title order={2}>{t('guard.enrollSecondFactor')}</Title>
            <Text c="dimmed">{t('guard.enrollSecondFactorHint')}</Text>
          </Stack>
          <TotpEnrolment />
        </Stack>
      </Paper>
    </Center>
  );
}
