import { Alert, Anchor, Group, Loader, SegmentedControl, Select, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useCurrentRoute } from '../../lib/routeHandle.ts';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { useDocument } from '../../lib/documents/hooks.ts';
import { iconSize } from '../../lib/icons.ts';
import { DevicePicker } from './raw/DevicePicker.tsx';
import { RawDeviceView } from './raw/RawDeviceView.tsx';
import { RAW_VIEW_KEYS, ROOM_VIEW_KEYS, VIEW_OF_ROUTE, viewPath, type RawViewKey } from './raw/rawViews.ts';
import { useDevices } from './api/monitoringQueries.ts';

const collator = new Intl.Collator('ja', { numeric: true });

/**
 * Live raw views: `/monitoring-device/<view>?serial=` for one device (with a device picker at
 * `/monitoring-device/` or when no serial is given) and `/monitoring-room/<view>?roomId=` for the
 * device assigned to a room.
 */
export default function RawViewScreen() {
  const { t } = useTranslation();
  const route = useCurrentRoute();
  const [params] = useSearchParams();
  const view = VIEW_OF_ROUTE[route?.name ?? ''] ?? null;
  const forRoom = route?.name.startsWith('monitoringRoom') ?? false;
  const roomId = forRoom ? params.get('roomId') : null;
  const room = useDocument(roomId ? `rooms/${roomId}` : null);
  const serial = forRoom ? (room.data?.deviceSerial ?? null) : params.get('serial');

  if (forRoom) {
    if (!roomId) return <Failure message={t('rawView.noRoomGiven')} />;
    if (room.loading) return <Waiting />;
    if (room.error || room.data === null) return <Failure message={t('rawView.roomNotFound')} />;
    if (!serial) return <Failure message={t('rawView.roomHasNoDevice', { room: room.data.name })} />;
  }
  if (view === null || !serial) {
    return (
      <ScreenPage>
        <DevicePicker view={view} />
      </ScreenPage>
    );
  }
  return <DeviceScreen key={`${serial} ${view}`} serial={serial} view={view} roomId={roomId} roomName={room.data?.name ?? null} />;
}

function Waiting() {
  const { t } = useTranslation();
  return (
    <ScreenPage>
      <Group justify="center" p="xl">
        <Loader aria-label={t('rawView.loading')} />
      </Group>
    </ScreenPage>
  );
}

function Failure({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <ScreenPage>
      <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
        {message}
      </Alert>
      <Anchor component={Link} to="/monitoring-device/">
        {t('rawView.backToPicker')}
      </Anchor>
    </ScreenPage>
  );
}

interface DeviceScreenProps {
  serial: string;
  view: RawViewKey;
  roomId: string | null;
  roomName: string | null;
}

/** The header (device, its room, the views it offers) and the live view of one device. */
function DeviceScreen({ serial, view, roomId, roomName }: DeviceScreenProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const device = useDocument(`devices/${serial}`);
  const type = useDocument(device.data ? `deviceTypes/${device.data.deviceTypeId}` : null);
  const viewRecord = useDocument(`views/${view}`);
  const deviceRoom = useDocument(!roomId && device.data?.roomId ? `rooms/${device.data.roomId}` : null);
  const devices = useDevices(!roomId);

  const offered: RawViewKey[] = useMemo(() => {
    if (roomId) return [...ROOM_VIEW_KEYS];
    const fromType = type.data?.rawViews?.filter((key): key is RawViewKey => (RAW_VIEW_KEYS as readonly string[]).includes(key));
    return fromType && fromType.length > 0 ? fromType : [...RAW_VIEW_KEYS];
  }, [roomId, type.data]);

  if (device.loading) return <Waiting />;
  if (device.error || device.data === null) {
    // Missing and out of scope read the same: the page does not tell whether another facility has the serial.
    return <Failure message={t('rawView.deviceNotFound', { serial })} />;
  }
  const title = `${t(`rawView.views.${view}`)} — ${roomName ?? deviceRoom.data?.name ?? serial}`;
  const secondsShown = viewRecord.data?.layout?.secondsShown;
  const serialChoices = devices.data.map((record) => record.documentReferenceId).sort(collator.compare);

  return (
    <ScreenPage title={title}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm">
          <Text size="sm" c="dimmed">
            {t('rawView.deviceLine', { serial, type: type.data?.name ?? device.data.deviceTypeId })}
          </Text>
          {roomId === null && serialChoices.length > 1 ? (
            <Select
              size="xs"
              w={160}
              searchable
              aria-label={t('rawView.switchDevice')}
              data={serialChoices}
              value={serial}
              onChange={(value) => value && navigate(viewPath(view, { serial: value }))}
              allowDeselect={false}
            />
          ) : null}
        </Group>
        {!offered.includes(view) ? (
          <Text size="sm" c="orange">
            {t('rawView.viewNotOfferedByType')}
          </Text>
        ) : null}
      </Group>
      <SegmentedControl
        aria-label={t('rawView.viewsLabel')}
        data={offered.map((key) => ({ value: key, label: t(`rawView.views.${key}`) }))}
        value={offered.includes(view) ? view : ''}
        onChange={(key) => navigate(viewPath(key as RawViewKey, roomId ? { roomId } : { serial }))}
        style={{ alignSelf: 'flex-start', maxWidth: '100%', overflowX: 'auto' }}
      />
      {type.loading ? (
        <Loader aria-label={t('rawView.loading')} />
      ) : (
        <RawDeviceView
          serial={serial}
          view={view}
          deviceChannels={type.data?.channels?.map((channel) => channel.key) ?? null}
          windowFromMaster={typeof secondsShown === 'number' ? secondsShown : null}
        />
      )}
    </ScreenPage>
  );
}
