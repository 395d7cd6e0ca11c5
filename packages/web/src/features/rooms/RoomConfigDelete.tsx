import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { documents } from '../../lib/documents/documents.ts';
import { iconSize } from '../../lib/icons.ts';
import { notify } from '../../lib/notify.ts';
import { deleteRoom, errorKeyOf, setRoomDevice } from './api/roomConfigActions.ts';
import type { Room } from './roomConfigRows.ts';

interface RoomDeleteProps {
  /** The room as it is now (live): releasing its device here updates the dialog. */
  room: Room;
  canAssign: boolean;
  onClose(): void;
}

/**
 * Deleting one room, after a confirmation that names it. A room with a device is not deleted: the
 * dialog says which device and offers to release it first (the device then shows as free).
 */
export function RoomConfigDelete({ room, canAssign, onClose }: RoomDeleteProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<'release' | 'delete' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const serial = room.deviceSerial ?? null;

  const run = async (what: 'release' | 'delete') => {
    setBusy(what);
    setFailure(null);
    try {
      if (what === 'release') {
        await setRoomDevice(documents, room.documentReferenceId, null);
        notify({ color: 'green', message: t('roomConfig.notices.released', { name: room.name, serial }) });
      } else {
        await deleteRoom(documents, room.documentReferenceId, { releaseDevice: false });
        notify({ color: 'green', message: t('roomConfig.notices.deleted', { name: room.name }) });
        onClose();
      }
    } catch (error) {
      const message = t(errorKeyOf(error));
      setFailure(message);
      notify({ color: 'red', title: t(what === 'release' ? 'roomConfig.notices.releaseFailed' : 'roomConfig.notices.deleteFailed'), message });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Modal opened onClose={onClose} title={t('roomConfig.delete.title')} closeOnClickOutside={busy === null}>
      <Stack gap="sm" data-testid="room-config-delete">
        <Text>{t('roomConfig.delete.confirm', { name: room.name })}</Text>
        {serial !== null ? (
          <Alert color="yellow" icon={<IconAlertTriangle size={iconSize('xs')} />} role="alert" data-testid="room-config-delete-device">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{t(canAssign ? 'roomConfig.delete.deviceAssigned' : 'roomConfig.delete.deviceAssignedAskAdmin', { serial })}</Text>
              {canAssign ? (
                <Button size="xs" variant="light" color="yellow" loading={busy === 'release'} disabled={busy === 'delete'} onClick={() => void run('release')}>
                  {t('roomConfig.actions.release')}
                </Button>
              ) : null}
            </Stack>
          </Alert>
        ) : null}
        {failure !== null ? (
          <Text c="red" size="sm" role="status">
            {failure}
          </Text>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy !== null}>
            {t('roomConfig.actions.cancel')}
          </Button>
          <Button color="red" onClick={() => void run('delete')} loading={busy === 'delete'} disabled={serial !== null || busy === 'release'}>
            {t('roomConfig.actions.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
