import { Alert, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { ScreenLoading } from '../../components/ScreenStatus.tsx';
import { ImportActions } from './ImportActions.tsx';
import { ImportDropZone } from './ImportDropZone.tsx';
import { ImportFileTable } from './ImportFileTable.tsx';
import { useImportFiles, type RoomChoice } from './useImportFiles.ts';
import { useRoomsByName } from './api/uploads.ts';

/** `/data-import`: many recordings at once, each matched to its room by device serial or by hand. */
export default function DataImportScreen() {
  const { t } = useTranslation();
  const roomsQuery = useRoomsByName();
  const rooms = useMemo<RoomChoice[]>(
    () =>
      (roomsQuery.data ?? []).map((room) => ({
        id: room.documentReferenceId,
        name: room.floor ? `${room.name}（${room.floor}）` : room.name,
        deviceSerial: room.deviceSerial,
      })),
    [roomsQuery.data],
  );
  const imports = useImportFiles({ rooms });
  return (
    <ScreenPage>
      <Stack gap="md">
        <Text c="dimmed">{t('imports.bulkIntro')}</Text>
        {roomsQuery.loading ? <ScreenLoading label={t('imports.loadingRooms')} /> : null}
        {roomsQuery.error ? <Alert color="red">{t('imports.roomsFailed')}</Alert> : null}
        {!roomsQuery.loading && !roomsQuery.error && rooms.length === 0 ? <Alert color="gray">{t('imports.noRooms')}</Alert> : null}
        <ImportDropZone onFiles={imports.add} multiple disabled={imports.busy || rooms.length === 0} />
        {imports.files.length > 0 ? (
          <>
            <ImportFileTable
              files={imports.files}
              rooms={rooms}
              onRemove={imports.remove}
              onChooseRoom={imports.chooseRoom}
              onChooseSkip={imports.chooseSkip}
            />
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
      </Stack>
    </ScreenPage>
  );
}
