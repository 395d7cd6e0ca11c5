import { Alert, Button } from '@mantine/core';
import { IconDeviceDesktop, IconDeviceDesktopOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { iconSize } from '../../lib/icons.ts';
import type { StationMode } from './stationMode.ts';

export function StationModeButton({ mode, onEnter }: { mode: StationMode; onEnter(): void }) {
  const { t } = useTranslation();
  return mode.active ? (
    <Button
      size="xs"
      variant="default"
      leftSection={<IconDeviceDesktopOff size={iconSize('xs')} />}
      onClick={() => void mode.exit()}
      data-testid="station-mode-exit"
    >
      {t('monitoring.stationMode.exit')}
    </Button>
  ) : (
    <Button size="xs" variant="light" leftSection={<IconDeviceDesktop size={iconSize('xs')} />} onClick={onEnter} data-testid="station-mode-enter">
      {t('monitoring.stationMode.enter')}
    </Button>
  );
}

/** What the device must do itself where the browser cannot keep the screen on or go full screen. */
export function StationModeNotice({ mode }: { mode: StationMode }) {
  const { t } = useTranslation();
  if (!mode.active) return null;
  const messages: string[] = [];
  if (mode.wakeLock === 'unsupported') messages.push(t('monitoring.stationMode.wakeLockUnsupported'));
  else if (mode.wakeLock === 'refused') messages.push(t('monitoring.stationMode.wakeLockRefused'));
  if (!mode.fullscreenSupported) messages.push(t('monitoring.stationMode.fullscreenUnsupported'));
  if (messages.length === 0) return null;
  return (
    <Alert color="yellow" variant="light" p="xs" data-testid="station-mode-notice">
      {messages.join(' ')}
    </Alert>
  );
}
