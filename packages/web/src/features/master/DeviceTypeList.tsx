/** /master/device-types: every device type with its model, channels and devices; senior developers add and edit them. */
import { Anchor, Badge, Group, Table, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CreateBar } from './MasterListControls.tsx';
import { DeviceTypeForm, type DeviceType } from './DeviceTypeForm.tsx';
import { Loaded, MasterPage, useCanEditMaster } from './MasterFrame.tsx';
import { useCount } from '../../lib/documents/hooks.ts';
import { deviceTypeDevicesQuery, useDeviceTypes } from './api/masterQueries.ts';

/** How many devices of the type there are: the server counts them all (a live count query). */
function DeviceCount({ typeId }: { typeId: string }) {
  const { count, loading, error } = useCount(deviceTypeDevicesQuery(typeId));
  return <Text size="sm">{loading ? '…' : error !== null ? '—' : count}</Text>;
}

export default function DeviceTypeList() {
  const { t } = useTranslation();
  const canEdit = useCanEditMaster();
  const types = useDeviceTypes();
  const [editing, setEditing] = useState<DeviceType | 'new' | null>(null);
  const rows = useMemo(
    () => types.data.filter((type) => typeof type.name === 'string').sort((a, b) => a.documentReferenceId.localeCompare(b.documentReferenceId)),
    [types.data],
  );
  return (
    <MasterPage editable>
      {canEdit ? <CreateBar label={t('master.deviceTypes.create')} onCreate={() => setEditing('new')} /> : null}
      <Loaded loading={types.loading} error={types.error} empty={rows.length === 0} emptyText={t('master.deviceTypes.none')}>
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover data-testid="device-type-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('master.fieldNames.id')}</Table.Th>
                <Table.Th>{t('master.fieldNames.name')}</Table.Th>
                <Table.Th>{t('master.fieldNames.model')}</Table.Th>
                <Table.Th>{t('master.fieldNames.channels')}</Table.Th>
                <Table.Th>{t('master.deviceTypes.devices')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((type) => (
                <Table.Tr key={type.documentReferenceId} data-testid="device-type-row" data-id={type.documentReferenceId}>
                  <Table.Td>
                    <Anchor component={Link} to={`/master/device-lists/${encodeURIComponent(type.documentReferenceId)}`} ff="monospace" size="sm">
                      {type.documentReferenceId}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{type.name}</Table.Td>
                  <Table.Td>{type.model}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {(type.channels ?? []).map((channel) => (
                        <Badge key={channel.key} variant="light" size="sm">
                          {channel.key}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <DeviceCount typeId={type.documentReferenceId} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Loaded>
      <DeviceTypeForm editing={editing} takenIds={types.data.map((type) => type.documentReferenceId)} onClose={() => setEditing(null)} />
    </MasterPage>
  );
}
