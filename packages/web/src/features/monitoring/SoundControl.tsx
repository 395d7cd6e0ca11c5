import { Alert, Button, Group, Switch, Text } from '@mantine/core';
import { IconVolume, IconVolumeOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { iconSize } from '../../lib/icons.ts';
import { enableSound, setMuted, type AlertSoundState } from './alertSound.ts';

/** The mute switch (remembered in this browser). */
export function MuteSwitch({ sound }: { sound: AlertSoundState }) {
  const { t } = useTranslation();
  return <Switch label={t('monitoring.mute')} checked={sound.muted} onChange={(event) => setMuted(event.currentTarget.checked)} data-testid="mute-switch" />;
}

/**
 * The warning while alerts would stay silent: the browser holds sound back (it needs a click on
 * every page load until the site is allowed), or has no audio at all. Muting on purpose is shown
 * calmly; a silence nobody chose is shown in red with the button that ends it.
 */
export function SoundWarning({ sound }: { sound: AlertSoundState }) {
  const { t } = useTranslation();
  if (sound.muted) {
    return (
      <Alert color="gray" variant="light" icon={<IconVolumeOff size={iconSize('xs')} />} data-testid="sound-muted" p="xs">
        {t('monitoring.soundMuted')}
      </Alert>
    );
  }
  if (sound.playback === 'running') return null;
  if (sound.playback === 'unavailable') {
    return (
      <Alert color="red" variant="filled" icon={<IconVolumeOff size={iconSize('xs')} />} role="alert" data-testid="sound-blocked" p="xs">
        {t('monitoring.soundUnavailable')}
      </Alert>
    );
  }
  return (
    <Alert color="red" variant="filled" icon={<IconVolumeOff size={iconSize('xs')} />} role="alert" data-testid="sound-blocked" p="xs">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" fw={600} c="white">
          {sound.enabledBefore ? t('monitoring.soundBlockedAgain') : t('monitoring.soundBlocked')}
        </Text>
        <Button size="xs" variant="white" color="red" leftSection={<IconVolume size={iconSize('xs')} />} onClick={() => void enableSound()}>
          {t('monitoring.enableSound')}
        </Button>
      </Group>
    </Alert>
  );
}
