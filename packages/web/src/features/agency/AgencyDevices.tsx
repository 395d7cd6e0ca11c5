import { Alert, Badge, Button, Group, Loader, Pagination, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertCircle, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { DevicesPage } from '@nemuri/shared/billing/agencyAnswers';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/dates.ts';
import { iconSize } from '../../lib/icons.ts';
import { agencyApi, type PartnerRow } from './api/agencyApi.ts';
import { DeviceStatusBadge } from '../../components/DeviceStatusBadge.tsx';
import { DEVICE_STATUSES } from './agencyRows.ts';

/** Devices a page: the server answers a page at a time (GET /api/agency/:agencyId/devices). */
export const DEVICES_PAGE = 50;

export function OnlineBadge({ online }: { online: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge color={online ? 'green' : 'gray'} variant="dot" data-testid="device-online">
      {online ? t('agency.devices.online') : t('agency.devices.offline')}
    </Badge>
  );
}

interface AgencyDevicesProps {
  agencyId: string;
  /** For the partner filter; absent inside a partner's page (its devices only). */
  partners?: readonly PartnerRow[];
  /** Inside a partner's page: that partner's devices only. */
  partnerId?: string;
}

/** The agency's devices (its own and those at its partners) with search and filters. */
export function AgencyDevices({ agencyId, partners, partnerId: fixedPartner }: AgencyDevicesProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const [partnerId, setPartnerId] = useState<string | null>(null);
  const [online, setOnline] = useState<'online' | 'offline' | null>(null);
  // Typing asks the server once a pause is made, not per key.
  const [searched] = useDebouncedValue(search, 300);
  const filter = { search: searched, status, partnerId: fixedPartner ?? partnerId, online };
  const filterKey = JSON.stringify(filter);
  const key = `${agencyId} ${filterKey}`;
  const [paging, setPaging] = useState({ key, page: 1 });
  // A new filter starts at the first page.
  const page = paging.key === key ? paging.page : 1;
  const [attempt, setAttempt] = useState(0);
  const request = `${key} ${page} ${attempt}`;
  const [result, setResult] = useState<{ request: string; answer: DevicesPage | null; error: boolean } | null>(null);
  const [shown, setShown] = useState<DevicesPage | null>(null);
  useEffect(() => {
    let current = true;
    agencyApi.devices(agencyId, JSON.parse(filterKey) as typeof filter, DEVICES_PAGE, (page - 1) * DEVICES_PAGE).then(
      (answer) => {
        if (!current) return;
        setResult({ request, answer, error: false });
        setShown(answer);
      },
      () => {
        if (current) setResult({ request, answer: null, error: true });
      },
    );
    return () => {
      current = false;
    };
  }, [agencyId, filterKey, page, request]);
  const loading = result?.request !== request;
  const failed = !loading && result?.error === true;
  const rows = shown?.devices ?? [];
  const pages = Math.max(1, Math.ceil((shown?.matched ?? 0) / DEVICES_PAGE));

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
        <Select
          label={t('agency.devices.status')}
          placeholder={t('agency.devices.all')}
          clearable
          data={DEVICE_STATUSES.map((value) => ({ value, label: t(`deviceConfig.status.${value}`) }))}
          value={status}
          onChange={setStatus}
          w={160}
        />
        {partners !== undefined ? (
          <Select
            label={t('agency.devices.partner')}
            placeholder={t('agency.devices.all')}
            clearable
            data={partners.map((partner) => ({ value: partner.id, label: partner.name }))}
            value={partnerId}
            onChange={setPartnerId}
            w={220}
          />
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
      {failed ? (
        <Alert color="red" icon={<IconAlertCircle size={iconSize('sm')} />} title={t('agency.devices.loadFailed')}>
          <Button size="xs" variant="light" onClick={() => setAttempt((count) => count + 1)}>
            {t('agency.bills.retry')}
          </Button>
        </Alert>
      ) : null}
      {shown === null ? (
        failed ? null : (
          <Loader size="sm" aria-label={t('agency.devices.loading')} />
        )
      ) : (
        <Stack gap="xs" aria-busy={loading} style={{ opacity: loading ? 0.6 : 1 }}>
          <Text size="sm" c="dimmed">
            {t('agency.devices.count', { count: shown.matched, total: shown.total })}
          </Text>
          {shown.total === 0 ? (
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
          {pages > 1 ? (
            <Pagination
              total={pages}
              value={page}
              onChange={(next) => setPaging({ key, page: next })}
              size="sm"
              data-testid="devices-pager"
              getControlProps={(control) => ({ 'aria-label': t(`agency.devices.pager.${control}`) })}
              getItemProps={(item) => ({ 'aria-label': t('auditLog.pageOf', { page: item }) })}
            />
          ) : null}
        </Stack>
      )}
    </>
  );
}
