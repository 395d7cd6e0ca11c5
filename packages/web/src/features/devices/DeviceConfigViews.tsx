import { ActionIcon, Badge, Card, Group, Menu, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconBattery2, IconDots, IconHome, IconKey, IconLink, IconLinkOff, IconPlugConnected, IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/dates.ts';
import { iconSize } from '../../lib/icons.ts';
import type { DeviceRow } from './deviceConfigRows.ts';
import { DeviceStatusBadge } from '../../components/DeviceStatusBadge.tsx';

export type Layout = 'card' | 'table' | 'smallcard';

/** What an administrator can do to a listed device. */
export interface DeviceActions {
  register(row: DeviceRow): void;
  rotate(row: DeviceRow): void;
  room(row: DeviceRow): void;
}

function ConnectionBadge({ row }: { row: DeviceRow }) {
  const { t } = useTranslation();
  const online = row.connection === 'online';
  const Icon = online ? IconPlugConnected : IconPlugConnectedX;
  return (
    <Badge color={online ? 'teal' : 'gray'} variant="light" leftSection={<Icon size={iconSize('xs')} aria-hidden />} data-connection={row.connection}>
      {t(`deviceConfig.connection.${row.connection}`)}
    </Badge>
  );
}

function battery(row: DeviceRow): string {
  return typeof row.device.battery === 'number' ? `${Math.round(row.device.battery)}%` : '—';
}

function lastSeen(row: DeviceRow, never: string): string {
  return row.lastSeenMs === null ? never : formatDateTime(row.lastSeenMs);
}

function ActionsMenu({ row, actions }: { row: DeviceRow; actions: DeviceActions | null }) {
  const { t } = useTranslation();
  if (actions === null || row.device.status === 'retired') return null;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" aria-label={t('deviceConfig.actions.menu', { serial: row.serial })} onClick={(event) => event.stopPropagation()}>
          <IconDots size={iconSize('sm')} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {row.device.status === 'in_use' ? null : (
          <Menu.Item leftSection={<IconLink size={iconSize('xs')} />} onClick={() => actions.register(row)}>
            {t('deviceConfig.actions.register')}
          </Menu.Item>
        )}
        <Menu.Item leftSection={<IconKey size={iconSize('xs')} />} onClick={() => actions.rotate(row)}>
          {t('deviceConfig.actions.rotate')}
        </Menu.Item>
        <Menu.Item
          leftSection={row.room === null ? <IconHome size={iconSize('xs')} /> : <IconLinkOff size={iconSize('xs')} />}
          onClick={() => actions.room(row)}
        >
          {row.room === null ? t('deviceConfig.actions.assign') : t('deviceConfig.actions.changeRoom')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function DeviceCard({ row, actions }: { row: DeviceRow; actions: DeviceActions | null }) {
  const { t } = useTranslation();
  return (
    <Card
      withBorder
      radius="md"
      padding="sm"
      data-testid="device-card"
      data-serial={row.serial}
      style={{ borderLeft: `4px solid var(--mantine-color-${row.connection === 'online' ? 'teal' : 'gray'}-6)` }}
    >
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
            {row.serial}
          </Text>
          <ActionsMenu row={row} actions={actions} />
        </Group>
        <Group gap="xs">
          <ConnectionBadge row={row} />
          <DeviceStatusBadge status={row.device.status} variant="outline" />
        </Group>
        <Text size="sm">{row.typeName}</Text>
        <Text size="sm" c={row.room === null ? 'dimmed' : undefined} data-testid="device-room">
          {row.room === null ? t('deviceConfig.noRoom') : row.room.name}
        </Text>
        <Group gap="md" wrap="nowrap">
          <Group gap={4} wrap="nowrap" aria-label={t('deviceConfig.columns.battery')}>
            <IconBattery2 size={iconSize('xs')} aria-hidden />
            <Text size="sm">{battery(row)}</Text>
          </Group>
          <Text size="xs" c="dimmed">
            {t('deviceConfig.firmware', { version: row.device.firmwareVersion ?? '—' })}
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          {t('deviceConfig.lastSeen', { at: lastSeen(row, t('deviceConfig.never')) })}
        </Text>
      </Stack>
    </Card>
  );
}

function SmallDeviceCard({ row, actions }: { row: DeviceRow; actions: DeviceActions | null }) {
  const { t } = useTranslation();
  return (
    <Card
      withBorder
      radius="md"
      padding="xs"
      data-testid="device-card"
      data-serial={row.serial}
      aria-label={`${row.serial} ${t(`deviceConfig.connection.${row.connection}`)}`}
    >
      <Group gap={6} wrap="nowrap" justify="space-between">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text size="sm" fw={600} truncate>
            {row.serial}
          </Text>
          <Text size="xs" c="dimmed" truncate data-testid="device-room">
            {row.room?.name ?? t('deviceConfig.noRoom')}
          </Text>
        </Stack>
        <Group gap={2} wrap="nowrap">
          <span
            data-connection={row.connection}
            title={t(`deviceConfig.connection.${row.connection}`)}
            style={{ width: 10, height: 10, borderRadius: 5, background: `var(--mantine-color-${row.connection === 'online' ? 'teal' : 'gray'}-6)` }}
          />
          <ActionsMenu row={row} actions={actions} />
        </Group>
      </Group>
    </Card>
  );
}

function DeviceTable({ rows, actions }: { rows: readonly DeviceRow[]; actions: DeviceActions | null }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table highlightOnHover striped verticalSpacing="xs" data-testid="device-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('deviceConfig.columns.serial')}</Table.Th>
            <Table.Th>{t('deviceConfig.columns.type')}</Table.Th>
            <Table.Th>{t('deviceConfig.columns.status')}</Table.Th>
            <Table.Th>{t('deviceConfig.columns.connection')}</Table.Th>
            <Table.Th>{t('deviceConfig.columns.room')}</Table.Th>
            <Table.Th>{t('deviceConfig.columns.battery')}</Table.Th>
            <Table.Th>{t('deviceConfig.columns.lastSeen')}</Table.Th>
            <Table.Th>{t('deviceConfig.columns.firmware')}</Table.Th>
            {actions === null ? null : <Table.Th aria-label={t('deviceConfig.columns.actions')} />}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.serial} data-testid="device-row" data-serial={row.serial}>
              <Table.Td fw={600}>{row.serial}</Table.Td>
              <Table.Td>{row.typeName}</Table.Td>
              <Table.Td>
                <DeviceStatusBadge status={row.device.status} variant="outline" />
              </Table.Td>
              <Table.Td>
                <ConnectionBadge row={row} />
              </Table.Td>
              <Table.Td data-testid="device-room">{row.room?.name ?? '—'}</Table.Td>
              <Table.Td>{battery(row)}</Table.Td>
              <Table.Td>{lastSeen(row, t('deviceConfig.never'))}</Table.Td>
              <Table.Td>{row.device.firmwareVersion ?? '—'}</Table.Td>
              {actions === null ? null : (
                <Table.Td>
                  <ActionsMenu row={row} actions={actions} />
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The devices in the route's layout; `actions` null for users who may not change devices. */
export function DeviceList({ layout, rows, actions }: { layout: Layout; rows: readonly DeviceRow[]; actions: DeviceActions | null }) {
  if (layout === 'table') return <DeviceTable rows={rows} actions={actions} />;
  return (
    <SimpleGrid cols={layout === 'card' ? { base: 1, sm: 2, md: 3, lg: 4 } : { base: 2, sm: 3, md: 5, lg: 6 }} spacing="sm" data-testid="device-grid">
      {rows.map((row) =>
        layout === 'card' ? <DeviceCard key={row.serial} row={row} actions={actions} /> : <SmallDeviceCard key={row.serial} row={row} actions={actions} />,
      )}
    </SimpleGrid>
  );
}
