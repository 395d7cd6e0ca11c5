import { Alert, Anchor, Badge, Group, Loader, Table, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconSearch } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/dates.ts';
import { iconSize } from '../../../lib/icons.ts';
import { RAW_VIEW_KEYS, viewPath, type RawViewKey } from './rawViews.ts';
import { useDevices, useDeviceTypes, useRooms } from '../api/monitoringQueries.ts';

const collator = new Intl.Collator('ja', { numeric: true });
/** A device that has sent nothing for this long is shown as offline. */
const ONLINE_WITHIN_MS = 60_000;

interface DevicePickerProps {
  /** Open this view for the chosen device; null lists every view the device offers. */
  view: RawViewKey | null;
}

/** `/monitoring-device/`: the devices in scope, each with the live views its type offers. */
export function DevicePicker({ view }: DevicePickerProps) {
  const { t } = useTranslation();
  const devices = useDevices();
  const types = useDeviceTypes();
  const rooms = useRooms();
  const [search, setSearch] = useState('');
  // Online means "sent something within the last minute": re-judged every 15 s.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);

  const typeById = useMemo(() => new Map(types.data.map((type) => [type.documentReferenceId, type])), [types.data]);
  const roomById = useMemo(() => new Map(rooms.data.map((room) => [room.documentReferenceId, room])), [rooms.data]);
  const rows = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return devices.data
      .filter((device) => device.status !== 'retired')
      .map((device) => ({ device, type: typeById.get(device.deviceTypeId), room: device.roomId ? roomById.get(device.roomId) : undefined }))
      .filter(
        ({ device, type, room }) =>
          needle === '' || [device.documentReferenceId, type?.name, room?.name].some((text) => typeof text === 'string' && text.toLowerCase().includes(needle)),
      )
      .sort((a, b) => collator.compare(a.device.documentReferenceId, b.device.documentReferenceId));
  }, [devices.data, typeById, roomById, search]);

  if (devices.error) {
    return (
      <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
        {t('rawView.devicesFailed')}
      </Alert>
    );
  }
  return (
    <>
      <Text c="dimmed">{view === null ? t('rawView.pickHint') : t('rawView.pickForView', { view: t(`rawView.views.${view}`) })}</Text>
      <TextInput
        leftSection={<IconSearch size={iconSize('xs')} />}
        placeholder={t('rawView.searchDevices')}
        aria-label={t('rawView.searchDevices')}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maw={360}
      />
      {devices.loading ? (
        <Group justify="center" p="xl">
          <Loader aria-label={t('rawView.loadingDevices')} />
        </Group>
      ) : rows.length === 0 ? (
        <Text c="dimmed">{devices.data.length === 0 ? t('rawView.noDevices') : t('rawView.noMatch')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('rawView.columns.serial')}</Table.Th>
                <Table.Th>{t('rawView.columns.type')}</Table.Th>
                <Table.Th>{t('rawView.columns.room')}</Table.Th>
                <Table.Th>{t('rawView.columns.status')}</Table.Th>
                <Table.Th>{t('rawView.columns.views')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map(({ device, type, room }) => {
                const serial = device.documentReferenceId;
                const lastSeen = device.lastSeenAt ? Date.parse(device.lastSeenAt) : null;
                const online = lastSeen !== null && now - lastSeen < ONLINE_WITHIN_MS;
                const offered = (type?.rawViews ?? RAW_VIEW_KEYS).filter((key): key is RawViewKey => (RAW_VIEW_KEYS as readonly string[]).includes(key));
                const links = view === null ? offered : offered.filter((key) => key === view);
                return (
                  <Table.Tr key={serial} data-testid="device-row" data-serial={serial}>
                    <Table.Td ff="monospace">{serial}</Table.Td>
                    <Table.Td>{type?.name ?? device.deviceTypeId}</Table.Td>
                    <Table.Td>{room?.name ?? '—'}</Table.Td>
                    <Table.Td>
                      <Badge color={online ? 'teal' : 'gray'} variant="light">
                        {online ? t('rawView.online') : t('rawView.offline')}
                      </Badge>
                      {lastSeen !== null && !online ? (
                        <Text size="xs" c="dimmed">
                          {formatDateTime(lastSeen)}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6}>
                        {links.length === 0 ? (
                          <Text size="sm" c="dimmed">
                            {t('rawView.viewNotOffered')}
                          </Text>
                        ) : (
                          links.map((key) => (
                            <Anchor key={key} component={Link} to={viewPath(key, { serial })} size="sm">
                              {t(`rawView.views.${key}`)}
                            </Anchor>
                          ))
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
