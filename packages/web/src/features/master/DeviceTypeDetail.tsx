/**
 * /master/device-lists/:deviceid: one device type: its description, channels and raw views, the
 * parameters that apply to it only, and the devices of the type (each linking to its detail page).
 */
import { Anchor, Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { formatDateTime } from '../../lib/dates.ts';
import { CursorPager } from '../../components/CursorPager.tsx';
import { useCount, useDocument } from '../../lib/documents/hooks.ts';
import { useLivePages } from '../../lib/documents/pagedHooks.ts';
import type { RecordOf } from '../../lib/documents/records.ts';
import { iconSize } from '../../lib/icons.ts';
import { DeviceTypeForm, type DeviceType } from './DeviceTypeForm.tsx';
import { Loaded, MasterPage, useCanEditMaster } from './MasterFrame.tsx';
import { deviceTypeDevicesQuery, MASTER_PAGE, useDeviceTypeParameters } from './api/masterQueries.ts';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={3}>{title}</Title>
      {children}
    </Stack>
  );
}

export default function DeviceTypeDetail() {
  const { t } = useTranslation();
  const id = useParams().deviceid ?? '';
  const canEdit = useCanEditMaster();
  const type = useDocument(`deviceTypes/${id}`);
  const parameters = useDeviceTypeParameters(id);
  // A type can have any number of devices: a page at a time (by serial), counted on the server.
  const devices = useLivePages<RecordOf<'devices'>>(deviceTypeDevicesQuery(id), MASTER_PAGE);
  const deviceCount = useCount(deviceTypeDevicesQuery(id));
  const deviceRows = devices.page?.records ?? [];
  const [editing, setEditing] = useState<DeviceType | null>(null);

  if (type.loading || type.error || type.data === null) {
    return (
      <MasterPage>
        <Loaded loading={type.loading} error={type.error} empty emptyText={t('master.deviceTypes.notFound', { id })}>
          {null}
        </Loaded>
      </MasterPage>
    );
  }
  const record = type.data;
  return (
    <MasterPage title={t('master.deviceTypes.detailTitle', { name: record.name })} editable>
      <Card withBorder data-testid="device-type-info">
        <Group justify="space-between" align="flex-start">
          <Stack gap={4}>
            <Text ff="monospace" size="sm" c="dimmed">
              {record.documentReferenceId}
            </Text>
            <Text fw={700}>
              {record.name}（{record.model}）
            </Text>
            {record.description ? <Text size="sm">{record.description}</Text> : null}
          </Stack>
          {canEdit ? (
            <Button variant="light" leftSection={<IconPencil size={iconSize('xs')} />} onClick={() => setEditing(record)}>
              {t('master.edit')}
            </Button>
          ) : null}
        </Group>
      </Card>
      <Section title={t('master.fieldNames.channels')}>
        {(record.channels ?? []).length === 0 ? (
          <Text c="dimmed">{t('master.deviceTypes.noChannels')}</Text>
        ) : (
          <Table striped data-testid="channel-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('master.deviceTypes.channelKey')}</Table.Th>
                <Table.Th>{t('master.deviceTypes.sampleRate')}</Table.Th>
                <Table.Th>{t('master.fieldNames.unit')}</Table.Th>
                <Table.Th>{t('master.deviceTypes.scale')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(record.channels ?? []).map((channel) => (
                <Table.Tr key={channel.key}>
                  <Table.Td ff="monospace">{channel.key}</Table.Td>
                  <Table.Td>{channel.sampleRateHz} Hz</Table.Td>
                  <Table.Td>{channel.unit ?? '—'}</Table.Td>
                  <Table.Td>{channel.scale ?? '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Section>
      <Section title={t('master.fieldNames.rawViews')}>
        {(record.rawViews ?? []).length === 0 ? (
          <Text c="dimmed">{t('master.deviceTypes.noRawViews')}</Text>
        ) : (
          <Group gap="xs">
            {(record.rawViews ?? []).map((view) => (
              <Badge key={view} variant="light">
                {view}
              </Badge>
            ))}
          </Group>
        )}
      </Section>
      <Section title={t('master.deviceTypes.parameters')}>
        <Loaded loading={parameters.loading} error={parameters.error} empty={parameters.data.length === 0} emptyText={t('master.deviceTypes.noParameters')}>
          <Table striped data-testid="type-parameter-table">
            <Table.Tbody>
              {parameters.data.map((parameter) => (
                <Table.Tr key={parameter.documentReferenceId}>
                  <Table.Td ff="monospace">{parameter.key}</Table.Td>
                  <Table.Td>
                    {String(parameter.value)}
                    {parameter.unit ? ` ${parameter.unit}` : ''}
                  </Table.Td>
                  <Table.Td>{parameter.description ?? ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Loaded>
      </Section>
      <Section title={t('master.deviceTypes.devices')}>
        {deviceCount.loading || deviceCount.error !== null ? null : (
          <Text size="sm" c="dimmed" data-testid="type-device-count">
            {t('master.deviceTypes.deviceCount', { count: deviceCount.count })}
          </Text>
        )}
        <Loaded
          loading={devices.page === null && devices.error === null}
          error={devices.error}
          empty={deviceRows.length === 0}
          emptyText={t('master.deviceTypes.noDevices')}
        >
          <Table.ScrollContainer minWidth={600}>
            <Table striped data-testid="type-device-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('master.device.serial')}</Table.Th>
                  <Table.Th>{t('master.device.status')}</Table.Th>
                  <Table.Th>{t('master.device.firmware')}</Table.Th>
                  <Table.Th>{t('master.device.lastSeen')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {deviceRows.map((device) => (
                  <Table.Tr key={device.documentReferenceId} data-testid="type-device-row">
                    <Table.Td>
                      <Anchor component={Link} to={`/master/device/${encodeURIComponent(device.documentReferenceId)}`} ff="monospace" size="sm">
                        {device.documentReferenceId}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{t(`master.counts.statuses.${device.status}`)}</Table.Td>
                    <Table.Td>{device.firmwareVersion ?? '—'}</Table.Td>
                    <Table.Td>{device.lastSeenAt ? formatDateTime(device.lastSeenAt) : '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <CursorPager pages={devices} previousLabel={t('master.data.previousPage')} nextLabel={t('master.data.nextPage')} testId="type-device-pager" />
        </Loaded>
      </Section>
      <DeviceTypeForm editing={editing} onClose={() => setEditing(null)} />
    </MasterPage>
  );
}
