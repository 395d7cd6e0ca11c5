import { Button, FileButton, Group, Paper, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { IMPORT_EXTENSIONS } from '@nemuri/shared/imports';
import { iconSize } from '../../lib/icons.ts';

/** Where files are dropped or chosen; several at once when `multiple`. */
export function ImportDropZone({ onFiles, multiple, disabled }: { onFiles: (files: File[]) => void; multiple: boolean; disabled?: boolean }) {
  const { t } = useTranslation();
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (disabled) return;
    const files = [...event.dataTransfer.files];
    if (files.length > 0) onFiles(multiple ? files : files.slice(0, 1));
  };
  return (
    <Paper
      withBorder
      p="lg"
      radius="md"
      data-testid="import-drop-zone"
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      style={{ borderStyle: 'dashed', borderWidth: 2, background: over ? 'var(--mantine-color-blue-light)' : undefined }}
    >
      <Stack align="center" gap="xs">
        <IconUpload size={iconSize('xl')} aria-hidden />
        <Text>{t(multiple ? 'imports.dropMany' : 'imports.dropOne')}</Text>
        <Group gap="xs">
          <FileButton
            onChange={(chosen) => onFiles(chosen === null ? [] : Array.isArray(chosen) ? chosen : [chosen])}
            accept={IMPORT_EXTENSIONS.join(',')}
            multiple={multiple}
            disabled={disabled ?? false}
          >
            {(props) => (
              <Button {...props} variant="light" leftSection={<IconUpload size={iconSize('sm')} />}>
                {t('imports.chooseFiles')}
              </Button>
            )}
          </FileButton>
        </Group>
        <Text size="xs" c="dimmed">
          {t('imports.formats')}
        </Text>
      </Stack>
    </Paper>
  );
}
