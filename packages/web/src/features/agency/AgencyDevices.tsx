import { Badge, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/dates.ts';
import { iconSize } from '../../lib/icons.ts';
import type { DeviceRow, PartnerRow } from './agencyApi.ts';
import { DeviceStatusBadge } from '../devices/DeviceStatusBadge.tsx';
import { DEVICE_STATUSES, filterDevices } from './agencyRows.ts';

export function OnlineBadge({ online }: { online: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge color={online ? 'green' : 'gray'} variant="dot" data-testid="device-online">
      {online ? t('agency.devices.online') : t('agency.devices.offline')}
    </Badge>
  );
}

interface AgencyDevicesProps {
  devices: readonly DeviceRow[];
  /** For the partner filter; absent inside a partner's page (its devices only). */
  partners?: readonly PartnerRow[];
}

/** The agency's devices (its own and those at its partners) with search and filters. */
export function AgencyDevices({ devices, partners }: AgencyDevicesProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const [partnerId, setPartnerId] = useState<string | null>(null);
  const [online, setOnline] = useState<'online' | 'offline' | null>(null);
  const rows = useMemo(() => filterDevices(devices, { search, status, partnerId, online }), [devices, search, status, partnerId, online]);

  return (
    <>
      <Group gap="sm" align="flex-end">
        <TextInput
          label={t('agency.devices.search')}
          placeholder={t('agency.devices.searchPlaceholder')}
          leftSection={<IconSearch size={iconSize('xs')} />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={280}
        />
        <Select label={t('agency.devices.status')} placeholder={t('agency.devices.all')} clearable data={DEVICE_STATUSES.map((value) => ({ value, label: t(`deviceConfig.status.${value}`) }))} value={status} onChange={setStatus} w={160} />
        {partners !== undefined ? (
          <Select label={t('agency.devices.partner')} placeholder={t('agency.devices.all')} clearable data={partners.map((partner) => ({ value: partner.id, label: partner.name }))} value={partnerId} onChange={setPartnerId} w={220} />
        ) : null}
        <Select
          label={t('agency.devices.connection')}
          placeholder={t('agency.devices.all')}
          clearable
          data={[
            { value: 'online', label: t('agency.devices.online') },
            { value: 'offline', label: t('agency.devices.offline') },
          ]}
          value={online}
          onChange={(value) => setOnline(value === 'online' || value === 'offline' ? value : null)}
          w={160}
        />
      </Group>
      <Text size="sm" c="dimmed">
        {t('agency.devices.count', { count: rows.length, total: devices.length })}
      </Text>
      {devices.length === 0 ? (
        <Text c="dimmed">{t('agency.devices.empty')}</Text>
      ) : rows.length === 0 ? (
        <Text c="dimmed">{t('agency.devices.noMatch')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={860}>
          <Table striped highlightOnHover data-testid="agency-devices">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('agency.devices.columns.serial')}</Table.Th>
                <Table.Th>{t('agency.devices.columns.type')}</Table.Th>
                <Table.Th>{t('agency.devices.columns.status')}</Table.Th>
                <Table.Th>{t('agency.devices.columns.holder')}</Table.Th>
                <Table.Th>{t('agency.devices.columns.room')}</Table.Th>
                <Table.Th>{t('agency.devices.columns.lastSeen')}</Table.Th>
                <Table.Th>{t('agency.devices.columns.online')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.serial} data-testid="agency-device-row" data-serial={row.serial}>
                  <Table.Td>
                    <Text ff="monospace" size="sm">
                      {row.serial}
                    </Text>
                  </Table.Td>
                  <Table.Td>{row.typeName}</Table.Td>
                  <Table.Td>
                    <DeviceStatusBadge status={row.status} />
                  </Table.Td>
                  <Table.Td>
                    {row.holderName ?? (
                      <Text span c="dimmed" size="sm">
                        {t('agency.devices.inStock')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{row.roomName ?? '—'}</Table.Td>
                  <Table.Td>{row.lastSeenAt === null ? '—' : formatDateTime(row.lastSeenAt)}</Table.Td>
                  <Table.Td>
                    <OnlineBadge online={row.online} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
