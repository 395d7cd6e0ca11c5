import { Alert, Autocomplete, Button, Checkbox, Group, List, Modal, Paper, Select, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { documents } from '../../lib/documents/documents.ts';
import { iconSize } from '../../lib/icons.ts';
import { notify } from '../../lib/notify.ts';
import { deleteRoom, errorKeyOf, runEach, updateRoom } from './api/roomConfigActions.ts';
import { ROOM_STATUSES, type RoomStatus } from './roomConfigForm.ts';
import type { Room } from './roomConfigRows.ts';

/** One room a bulk operation could not change, and why (already in the user's language). */
export interface BulkFailure {
  roomId: string;
  name: string;
  message: string;
}

type Dialog = 'place' | 'status' | 'delete' | null;

interface RoomBulkProps {
  rooms: readonly Room[];
  floors: readonly string[];
  units: readonly string[];
  canDelete: boolean;
  canAssign: boolean;
  /** After an operation: the rooms that failed (the others are done and leave the selection). */
  onDone(operation: string, failures: readonly BulkFailure[]): void;
}

/**
 * The table's bulk operations on the selected rooms: set floor and unit, set status, delete. Each
 * room is written on its own, so one refusal (permission, a device still assigned, a room deleted
 * meanwhile) does not stop the rest; the failures are reported room by room.
 */
export function RoomConfigBulk({ rooms, floors, units, canDelete, canAssign, onDone }: RoomBulkProps) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [floor, setFloor] = useState('');
  const [unit, setUnit] = useState('');
  const [status, setStatus] = useState<RoomStatus | null>(null);
  const [releaseDevices, setReleaseDevices] = useState(false);
  const [running, setRunning] = useState(false);
  const withDevice = rooms.filter((room) => Boolean(room.deviceSerial));

  const run = async (operation: string, write: (room: Room) => Promise<unknown>) => {
    setRunning(true);
    const failed = await runEach(rooms, write);
    setRunning(false);
    setDialog(null);
    const failures = failed.map(({ item, error }) => ({ roomId: item.documentReferenceId, name: item.name, message: t(errorKeyOf(error)) }));
    const done = rooms.length - failures.length;
    if (failures.length === 0)
      notify({ color: 'green', message: t('roomConfig.bulk.done', { operation: t(`roomConfig.bulk.operations.${operation}`), count: done }) });
    else
      notify({
        color: 'red',
        title: t('roomConfig.bulk.partial', { operation: t(`roomConfig.bulk.operations.${operation}`), done, failed: failures.length }),
        message: failures.map((failure) => `${failure.name}: ${failure.message}`).join('\n'),
      });
    onDone(operation, failures);
  };

  const submitPlace = (event: FormEvent) => {
    event.preventDefault();
    const fields: Record<string, string> = {};
    if (floor.trim() !== '') fields.floor = floor.trim();
    if (unit.trim() !== '') fields.unit = unit.trim();
    void run('place', (room) => updateRoom(documents, room.documentReferenceId, fields));
  };

  return (
    <Paper withBorder p="xs" radius="md" data-testid="room-config-bulk">
      <Group justify="space-between" gap="sm">
        <Text size="sm" fw={600}>
          {t('roomConfig.bulk.selected', { count: rooms.length })}
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={() => setDialog('place')}>
            {t('roomConfig.bulk.setPlace')}
          </Button>
          <Button size="xs" variant="light" onClick={() => setDialog('status')}>
            {t('roomConfig.bulk.setStatus')}
          </Button>
          {canDelete ? (
            <Button size="xs" variant="light" color="red" onClick={() => setDialog('delete')}>
              {t('roomConfig.bulk.delete')}
            </Button>
          ) : null}
        </Group>
      </Group>

      <Modal opened={dialog === 'place'} onClose={() => setDialog(null)} title={t('roomConfig.bulk.setPlaceTitle', { count: rooms.length })}>
        <form onSubmit={submitPlace}>
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t('roomConfig.bulk.setPlaceHint')}
            </Text>
            <Autocomplete label={t('roomConfig.fields.floor')} data={[...floors]} value={floor} onChange={setFloor} />
            <Autocomplete label={t('roomConfig.fields.unit')} data={[...units]} value={unit} onChange={setUnit} />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setDialog(null)} disabled={running}>
                {t('roomConfig.actions.cancel')}
              </Button>
              <Button type="submit" loading={running} disabled={floor.trim() === '' && unit.trim() === ''}>
                {t('roomConfig.bulk.apply')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>

      <Modal opened={dialog === 'status'} onClose={() => setDialog(null)} title={t('roomConfig.bulk.setStatusTitle', { count: rooms.length })}>
        <Stack gap="sm">
          <Select
            label={t('roomConfig.fields.status')}
            data={ROOM_STATUSES.map((value) => ({ value, label: t(`roomConfig.statuses.${value}`) }))}
            value={status}
            onChange={(value) => setStatus(value as RoomStatus | null)}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setDialog(null)} disabled={running}>
              {t('roomConfig.actions.cancel')}
            </Button>
            <Button
              loading={running}
              disabled={status === null}
              onClick={() => void run('status', (room) => updateRoom(documents, room.documentReferenceId, { status }))}
            >
              {t('roomConfig.bulk.apply')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={dialog === 'delete'} onClose={() => setDialog(null)} title={t('roomConfig.bulk.deleteTitle')}>
        <Stack gap="sm" data-testid="room-config-bulk-delete">
          <Text>{t('roomConfig.bulk.deleteConfirm', { count: rooms.length })}</Text>
          <List size="sm" spacing={2}>
            {rooms.map((room) => (
              <List.Item key={room.documentReferenceId}>
                {room.deviceSerial ? t('roomConfig.bulk.roomWithDevice', { name: room.name, serial: room.deviceSerial }) : room.name}
              </List.Item>
            ))}
          </List>
          {withDevice.length > 0 ? (
            <Alert color="yellow" icon={<IconAlertCircle size={iconSize('xs')} />}>
              <Stack gap="xs">
                <Text size="sm">{t('roomConfig.bulk.devicesAssigned', { count: withDevice.length })}</Text>
                {canAssign ? (
                  <Checkbox
                    label={t('roomConfig.bulk.releaseDevices')}
                    checked={releaseDevices}
                    onChange={(event) => setReleaseDevices(event.currentTarget.checked)}
                  />
                ) : null}
              </Stack>
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setDialog(null)} disabled={running}>
              {t('roomConfig.actions.cancel')}
            </Button>
            <Button
              color="red"
              loading={running}
              onClick={() => void run('delete', (room) => deleteRoom(documents, room.documentReferenceId, { releaseDevice: canAssign && releaseDevices }))}
            >
              {t('roomConfig.actions.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}

/** The rooms the last bulk operation could not change, until the user closes the report. */
export function BulkFailures({ operation, failures, onClose }: { operation: string; failures: readonly BulkFailure[]; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Alert
      color="red"
      icon={<IconAlertCircle size={iconSize('xs')} />}
      title={t('roomConfig.bulk.failuresTitle', { operation: t(`roomConfig.bulk.operations.${operation}`), count: failures.length })}
      withCloseButton
      closeButtonLabel={t('roomConfig.actions.close')}
      onClose={onClose}
      role="alert"
      data-testid="room-config-bulk-failures"
    >
      <List size="sm" spacing={2}>
        {failures.map((failure) => (
          <List.Item key={failure.roomId}>{t('roomConfig.bulk.failure', { name: failure.name, message: failure.message })}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
