import { Button, Group, Text } from '@mantine/core';
import { IconCloudUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { iconSize } from '../../lib/icons.ts';

/** Upload the ready files, stop the one being sent, clear the finished ones. */
export function ImportActions({
  readyCount,
  busy,
  finished,
  onUpload,
  onCancel,
  onClear,
}: {
  readyCount: number;
  busy: boolean;
  finished: boolean;
  onUpload: () => void;
  onCancel: () => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" wrap="wrap">
      <Text size="sm" c="dimmed">
        {t('imports.readyCount', { count: readyCount })}
      </Text>
      <Group gap="xs">
        {finished && !busy ? (
          <Button variant="subtle" onClick={onClear}>
            {t('imports.clearFinished')}
          </Button>
        ) : null}
        {busy ? (
          <Button variant="default" onClick={onCancel}>
            {t('imports.cancel')}
          </Button>
        ) : null}
        <Button leftSection={<IconCloudUpload size={iconSize('sm')} />} onClick={onUpload} disabled={readyCount === 0 || busy} loading={busy}>
          {t('imports.upload', { count: readyCount })}
        </Button>
      </Group>
    </Group>
  );
}
