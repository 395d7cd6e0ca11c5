import { Alert, Button, Group, Loader, SegmentedControl, Select, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconPlus, IconQrcode, IconSearch } from '@tabler/icons-react';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useCurrentRoute } from '../../lib/routeHandle.ts';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { iconSize } from '../../lib/icons.ts';
import { useCurrentUser } from '../../lib/session.ts';
import type { Registered } from './api/deviceConfigApi.ts';
import { RegisterDialog, RoomDialog, RotateDialog, SecretDialog } from './DeviceConfigDialogs.tsx';
import { buildRows, DEVICE_STATUSES, filterRows, type Connection, type DeviceRow, type DeviceStatus, type SortKey } from './deviceConfigRows.ts';
import { DeviceList, type DeviceActions, type Layout } from './DeviceConfigViews.tsx';
import { QrLabelsDialog } from './QrLabels.tsx';
import { useDevices, useDeviceTypes, useRoomsByName } from './api/deviceQueries.ts';

const LAYOUT_OF_ROUTE: Record<string, Layout> = { deviceConfigCard: 'card', deviceConfigTable: 'table', deviceConfigSmallCard: 'smallcard' };
/** Online turns offline with time alone: the list looks again this often. */
const CLOCK_MS = 5000;

function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), CLOCK_MS);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/**
 * Device configuration (/device-config/card, /table, /smallcard): every device in the user's scope,
 * live (online, battery, last seen, firmware, type, room), with filters; administrators register
 * devices (typed or scanned serial; `?register=<serial>` from /sn/ opens the dialog filled in),
 * see the secret once, rotate it and move devices between rooms; anyone prints QR labels.
 */
export default function DeviceConfigScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const route = useCurrentRoute();
  const layout = LAYOUT_OF_ROUTE[route?.name ?? ''] ?? 'card';
  const user = useCurrentUser();
  const isAdministrator = (user?.accessLevel ?? 0) >= ROLE_LEVELS.administrator;
  const [params, setParams] = useSearchParams();
  const registerParam = params.get('register');

  const devices = useDevices();
  const types = useDeviceTypes();
  const rooms = useRoomsByName();
  const now = useNow();

  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<DeviceStatus | null>(null);
  const [connection, setConnection] = useState<Connection | null>(null);
  const [sort, setSort] = useState<SortKey>('serial');
  const [registering, setRegistering] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ registered: Registered; rotated: boolean } | null>(null);
  const [rotating, setRotating] = useState<DeviceRow | null>(null);
  const [placing, setPlacing] = useState<DeviceRow | null>(null);
  const [labels, setLabels] = useState(false);

  // A serial from /sn/<serial> (a scanned label of a device not yet in a room here) opens the dialog.
  const registerSerial = registering ?? (isAdministrator ? registerParam : null);

  const allRows = useMemo(() => buildRows(devices.data, types.data, rooms.data, now), [devices.data, types.data, rooms.data, now]);
  const rows = useMemo(() => filterRows(allRows, { search, status, connection, sort }), [allRows, search, status, connection, sort]);

  const closeRegister = () => {
    setRegistering(null);
    if (registerParam !== null) {
      const next = new URLSearchParams(params);
      next.delete('register');
      setParams(next, { replace: true });
    }
  };

  const actions: DeviceActions | null = isAdministrator ? { register: (row) => setRegistering(row.serial), rotate: setRotating, room: setPlacing } : null;

  return (
    <ScreenPage>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Group gap="sm" align="flex-end">
          <TextInput
            aria-label={t('deviceConfig.search')}
            placeholder={t('deviceConfig.search')}
            leftSection={<IconSearch size={iconSize('xs')} />}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            w={280}
          />
          <Select
            aria-label={t('deviceConfig.filterStatus')}
            placeholder={t('deviceConfig.allStatuses')}
            data={DEVICE_STATUSES.map((value) => ({ value, label: t(`deviceConfig.status.${value}`) }))}
            value={status}
            onChange={(value) => setStatus(value as DeviceStatus | null)}
            clearable
            w={160}
          />
          <Select
            aria-label={t('deviceConfig.filterConnection')}
            placeholder={t('deviceConfig.allConnections')}
            data={(['online', 'offline'] as const).map((value) => ({ value, label: t(`deviceConfig.connection.${value}`) }))}
            value={connection}
            onChange={(value) => setConnection(value as Connection | null)}
            clearable
            w={170}
          />
          <Select
            aria-label={t('deviceConfig.sort')}
            data={(['serial', 'room', 'lastSeen', 'battery'] as const).map((value) => ({ value, label: t(`deviceConfig.sorts.${value}`) }))}
            value={sort}
            onChange={(value) => setSort((value as SortKey | null) ?? 'serial')}
            allowDeselect={false}
            w={170}
          />
        </Group>
        <Group gap="sm" align="flex-end">
          <Button variant="default" leftSection={<IconQrcode size={iconSize('xs')} />} onClick={() => setLabels(true)} disabled={rows.length === 0}>
            {t('deviceConfig.labels.open')}
          </Button>
          {isAdministrator ? (
            <Button leftSection={<IconPlus size={iconSize('xs')} />} onClick={() => setRegistering('')}>
              {t('deviceConfig.register.open')}
            </Button>
          ) : null}
          <SegmentedControl
            aria-label={t('deviceConfig.layout')}
            value={layout}
            onChange={(value) => navigate({ pathname: `/device-config/${value}`, search: params.toString() === '' ? '' : `?${params.toString()}` })}
            data={(['card', 'table', 'smallcard'] as const).map((value) => ({ value, label: t(`deviceConfig.layouts.${value}`) }))}
          />
        </Group>
      </Group>
      {!isAdministrator && registerParam !== null ? (
        <Alert color="yellow" role="status">
          {t('deviceConfig.register.adminOnly', { serial: registerParam })}
        </Alert>
      ) : null}
      {devices.error ? (
        <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
          {t('deviceConfig.loadFailed')}
        </Alert>
      ) : devices.loading ? (
        <Group justify="center" p="xl">
          <Loader aria-label={t('deviceConfig.loading')} />
        </Group>
      ) : rows.length === 0 ? (
        <Text c="dimmed" py="lg" ta="center">
          {allRows.length === 0 ? t('deviceConfig.none') : t('deviceConfig.noMatch')}
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" data-testid="device-count">
            {t('deviceConfig.count', { count: rows.length, online: rows.filter((row) => row.connection === 'online').length })}
          </Text>
          <DeviceList layout={layout} rows={rows} actions={actions} />
        </>
      )}
      {isAdministrator ? (
        <>
          <RegisterDialog
            opened={registerSerial !== null}
            initialSerial={registerSerial ?? ''}
            rooms={rooms.data}
            onClose={closeRegister}
            onRegistered={(registered) => {
              closeRegister();
              setSecret({ registered, rotated: false });
            }}
          />
          <RotateDialog
            row={rotating}
            onClose={() => setRotating(null)}
            onRotated={(registered) => {
              setRotating(null);
              setSecret({ registered, rotated: true });
            }}
          />
          <RoomDialog row={placing} rooms={rooms.data} onClose={() => setPlacing(null)} />
          <SecretDialog registered={secret?.registered ?? null} rotated={secret?.rotated ?? false} onClose={() => setSecret(null)} />
        </>
      ) : null}
      <QrLabelsDialog opened={labels} rows={rows} onClose={() => setLabels(false)} />
    </ScreenPage>
  );
}
