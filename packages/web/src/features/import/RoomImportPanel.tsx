import { Anchor, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ImportActions } from './ImportActions.tsx';
import { ImportDropZone } from './ImportDropZone.tsx';
import { ImportFileTable } from './ImportFileTable.tsx';
import { useImportFiles } from './useImportFiles.ts';

/** `/room/:roomid/import`: recordings of this room, previewed, uploaded with progress and followed until processed. */
export function RoomImportPanel({ roomId }: { roomId: string }) {
  const { t } = useTranslation();
  const imports = useImportFiles({ roomId });
  return (
    <Stack gap="md">
      <Text c="dimmed">{t('imports.roomIntro')}</Text>
      <ImportDropZone onFiles={imports.add} multiple disabled={imports.busy} />
      {imports.files.length > 0 ? (
        <>
          <ImportFileTable files={imports.files} onRemove={imports.remove} onChooseSkip={imports.chooseSkip} />
          <ImportActions
            readyCount={imports.readyCount}
            busy={imports.busy}
            finished={imports.files.some((item) => item.upload.state === 'answered')}
            onUpload={() => void imports.uploadAll()}
            onCancel={imports.cancel}
            onClear={imports.clearFinished}
          />
        </>
      ) : null}
      <Anchor component={Link} to={`/room/${encodeURIComponent(roomId)}/history`} size="sm">
        {t('imports.toHistory')}
      </Anchor>
    </Stack>
  );
}
