import { Alert, Button, Code, CopyButton, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconCamera, IconCheck, IconCopy } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { RecordOf } from '../../lib/documents/records.ts';
import { iconSize } from '../../lib/icons.ts';
import { ApiError } from '../../lib/http/apiError.ts';
import { assignDeviceRoom, registerDevice, rotateDeviceSecret, unassignDeviceRoom, type Registered } from './api/deviceConfigApi.ts';
import { SERIAL_PATTERN, type DeviceRow } from './deviceConfigRows.ts';
import { canScanQr, QrScanner } from './QrScanner.tsx';
import { FormFooter } from '../../components/FormFooter.tsx';

type Room = RecordOf<'rooms'>;

/** The server's refusal in Japanese (its codes, docs/api.md "Devices"). */
export function deviceErrorMessage(t: TFunction, error: unknown): string {
  if (error instanceof ApiError) {
    const known = ['not-found', 'permission-denied', 'already-exists', 'invalid-argument', 'failed-precondition', 'unauthenticated'];
    if (known.includes(error.code)) return t(`deviceConfig.errors.${error.code}`);
  }
  return t('deviceConfig.errors.unexpected');
}

/** Rooms a device may go to: free ones, and the one it is in. */
function roomChoices(rooms: readonly Room[], serial: string): { value: string; label: string }[] {
  return rooms
    .filter((room) => typeof room.deviceSerial !== 'string' || room.deviceSerial === '' || room.deviceSerial === serial)
    .map((room) => ({ value: room.documentReferenceId, label: [room.name, room.residentName].filter(Boolean).join(' — ') }));
}

interface RegisterProps {
  initialSerial: string;
  rooms: readonly Room[];
  onClose: () => void;
  onRegistered: (registered: Registered) => void;
}

/** Register a device by typing its serial or scanning its QR code, optionally into a room. */
export function RegisterDialog({ opened, ...props }: RegisterProps & { opened: boolean }) {
  const { t } = useTranslation();
  // The form is mounted afresh on every opening, so nothing typed before is left in it.
  return (
    <Modal opened={opened} onClose={props.onClose} title={t('deviceConfig.register.title')}>
      {opened ? <RegisterForm key={props.initialSerial} {...props} /> : null}
    </Modal>
  );
}

function RegisterForm({ initialSerial, rooms, onClose, onRegistered }: RegisterProps) {
  const { t } = useTranslation();
  const [serial, setSerial] = useState(initialSerial);
  const [roomId, setRoomId] = useState<string | null>(null);
  const [scanning, setScanning] = useState(false);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const scannable = canScanQr();

  const trimmed = serial.trim();
  const invalid = trimmed === '' ? t('deviceConfig.register.serialRequired') : SERIAL_PATTERN.test(trimmed) ? null : t('deviceConfig.register.serialInvalid');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (invalid !== null) return;
    setBusy(true);
    setError(null);
    try {
      onRegistered(await registerDevice(trimmed, roomId));
    } catch (caught) {
      setError(deviceErrorMessage(t, caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('deviceConfig.register.serial')}
          placeholder="NM-0001"
          value={serial}
          onChange={(event) => setSerial(event.currentTarget.value)}
          onBlur={() => setTouched(true)}
          error={touched ? invalid : null}
          autoComplete="off"
          data-autofocus
          required
        />
        {scannable ? (
          scanning ? (
            <QrScanner
              onSerial={(found) => {
                setSerial(found);
                setScanning(false);
              }}
            />
          ) : (
            <Button variant="light" leftSection={<IconCamera size={iconSize('xs')} />} onClick={() => setScanning(true)}>
              {t('deviceConfig.register.scan')}
            </Button>
          )
        ) : (
          <Text size="xs" c="dimmed" data-testid="qr-scan-unavailable">
            {t('deviceConfig.register.scanUnavailable')}
          </Text>
        )}
        <Select
          label={t('deviceConfig.register.room')}
          placeholder={t('deviceConfig.register.noRoom')}
          data={roomChoices(rooms, trimmed)}
          value={roomId}
          onChange={setRoomId}
          clearable
          searchable
        />
        {error === null ? null : (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <FormFooter cancelLabel={t('deviceConfig.cancel')} submitLabel={t('deviceConfig.register.submit')} busy={busy} onCancel={onClose} />
      </Stack>
    </form>
  );
}

/** The new secret, shown this once: copy it into the device before closing. */
export function SecretDialog({ registered, rotated, onClose }: { registered: Registered | null; rotated: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={registered !== null}
      onClose={onClose}
      title={rotated ? t('deviceConfig.secret.rotatedTitle') : t('deviceConfig.secret.title')}
      closeOnClickOutside={false}
      closeOnEscape={false}
      withCloseButton={false}
    >
      {registered === null ? null : (
        <Stack gap="sm">
          <Text size="sm">{t('deviceConfig.secret.serial', { serial: registered.serial })}</Text>
          <Code block data-testid="device-secret" fz="md" style={{ userSelect: 'all', wordBreak: 'break-all' }}>
            {registered.secret}
          </Code>
          <Group gap="xs">
            <CopyButton value={registered.secret}>
              {({ copied, copy }) => (
                <Button
                  size="xs"
                  variant="light"
                  color={copied ? 'teal' : 'blue'}
                  leftSection={copied ? <IconCheck size={iconSize('xs')} /> : <IconCopy size={iconSize('xs')} />}
                  onClick={copy}
                >
                  {copied ? t('deviceConfig.secret.copied') : t('deviceConfig.secret.copy')}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Alert color="orange" icon={<IconAlertTriangle size={iconSize('xs')} />} role="alert">
            {t('deviceConfig.secret.warning')}
          </Alert>
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('deviceConfig.secret.done')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** Confirms a rotation: the device stops sending until it has the new secret. */
export function RotateDialog({ row, onClose, onRotated }: { row: DeviceRow | null; onClose: () => void; onRotated: (registered: Registered) => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={row !== null} onClose={onClose} title={t('deviceConfig.rotate.title')}>
      {row === null ? null : <RotateBody key={row.serial} row={row} onClose={onClose} onRotated={onRotated} />}
    </Modal>
  );
}

function RotateBody({ row, onClose, onRotated }: { row: DeviceRow; onClose: () => void; onRotated: (registered: Registered) => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const rotate = async () => {
    setBusy(true);
    setError(null);
    try {
      onRotated(await rotateDeviceSecret(row.serial));
    } catch (caught) {
      setError(deviceErrorMessage(t, caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="sm">
      <Text size="sm">{t('deviceConfig.rotate.body', { serial: row.serial })}</Text>
      {error === null ? null : (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('deviceConfig.cancel')}
        </Button>
        <Button color="orange" loading={busy} onClick={() => void rotate()}>
          {t('deviceConfig.rotate.confirm')}
        </Button>
      </Group>
    </Stack>
  );
}

/** Puts the device in a room, or takes it out of its room. */
export function RoomDialog({ row, rooms, onClose }: { row: DeviceRow | null; rooms: readonly Room[]; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={row !== null} onClose={onClose} title={t('deviceConfig.room.title', { serial: row?.serial ?? '' })}>
      {row === null ? null : <RoomForm key={row.serial} row={row} rooms={rooms} onClose={onClose} />}
    </Modal>
  );
}

function RoomForm({ row, rooms, onClose }: { row: DeviceRow; rooms: readonly Room[]; onClose: () => void }) {
  const { t } = useTranslation();
  const [roomId, setRoomId] = useState<string | null>(row.room?.documentReferenceId ?? null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      onClose();
    } catch (caught) {
      setError(deviceErrorMessage(t, caught));
    } finally {
      setBusy(false);
    }
  };
  const current = row.room;
  return (
    <Stack gap="sm">
      <Text size="sm">{current === null ? t('deviceConfig.room.none') : t('deviceConfig.room.current', { room: current.name })}</Text>
      <Select label={t('deviceConfig.room.select')} data={roomChoices(rooms, row.serial)} value={roomId} onChange={setRoomId} searchable />
      {error === null ? null : (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="space-between">
        {current === null ? (
          <span />
        ) : (
          <Button color="red" variant="light" loading={busy} onClick={() => void run(() => unassignDeviceRoom(row.serial))}>
            {t('deviceConfig.room.unassign')}
          </Button>
        )}
        <Group gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('deviceConfig.cancel')}
          </Button>
          <Button
            loading={busy}
            disabled={roomId === null || roomId === current?.documentReferenceId}
            onClick={() => roomId !== null && void run(() => assignDeviceRoom(row.serial, roomId))}
          >
            {t('deviceConfig.room.assign')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
