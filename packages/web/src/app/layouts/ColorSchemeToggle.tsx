import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { iconSize } from '../../lib/icons.ts';

/** Dark by default; the choice is remembered by Mantine's local-storage colour scheme manager. */
export function ColorSchemeToggle() {
  const { t } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('dark', { getInitialValueInEffect: false });
  const next = computed === 'dark' ? 'light' : 'dark';
  const label = next === 'light' ? t('shell.switchToLight') : t('shell.switchToDark');

  return (
    <ActionIcon variant="subtle" size="lg" onClick={() => setColorScheme(next)} aria-label={label} title={label}>
      {computed === 'dark' ? <IconSun size={iconSize('xs')} /> : <IconMoon size={iconSize('xs')} />}
    </ActionIcon>
  );
}
