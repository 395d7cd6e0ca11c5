import { ActionIcon, Checkbox, Group, Table, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DeviceBadge, EditDeleteButtons, groupTitle, StatusBadge, type RoomHandlers } from './RoomConfigCards.tsx';
import type { RoomGroup } from './roomConfigRows.ts';

interface RoomTableProps {
  groups: readonly RoomGroup[];
  handlers: RoomHandlers;
  selected: ReadonlySet<string>;
  onSelect(roomIds: readonly string[], selected: boolean): void;
  /** Whether rows can be selected for the bulk operations. */
  selectable: boolean;
}

const COLUMNS = 8;

/** The table layout: a header row per floor/unit group, row selection for the bulk operations. */
export function RoomConfigTable({ groups, handlers, selected, onSelect, selectable }: RoomTableProps) {
  const { t } = useTranslation();
  const visible = groups.flatMap((group) => group.rooms.map((room) => room.documentReferenceId));
  const chosen = visible.filter((id) => selected.has(id)).length;
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table verticalSpacing="xs" highlightOnHover data-testid="room-config-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              {selectable ? (
                <Checkbox
                  aria-label={t('roomConfig.table.selectAll')}
                  checked={visible.length > 0 && chosen === visible.length}
                  indeterminate={chosen > 0 && chosen < visible.length}
                  onChange={(event) => onSelect(visible, event.currentTarget.checked)}
                />
              ) : null}
            </Table.Th>
            <Table.Th>{t('roomConfig.fields.sortOrder')}</Table.Th>
            <Table.Th>{t('roomConfig.fields.name')}</Table.Th>
            <Table.Th>{t('roomConfig.fields.residentName')}</Table.Th>
            <Table.Th>{t('roomConfig.table.floorUnit')}</Table.Th>
            <Table.Th>{t('roomConfig.fields.status')}</Table.Th>
            <Table.Th>{t('roomConfig.fields.deviceSerial')}</Table.Th>
            <Table.Th>{t('roomConfig.table.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groups.map((group) => [
            <Table.Tr key={group.key} data-testid="room-config-group">
              <Table.Td colSpan={COLUMNS} bg="var(--mantine-color-default-hover)">
                <Text fw={600} size="sm">
                  {groupTitle(group, t)}
                </Text>
              </Table.Td>
            </Table.Tr>,
            ...group.rooms.map((room, index) => {
              const domain = handlers.domainName(room);
              return (
                <Table.Tr key={room.documentReferenceId} data-room={room.documentReferenceId} data-testid="room-config-row">
                  <Table.Td>
                    {selectable ? (
                      <Checkbox
                        aria-label={t('roomConfig.table.select', { name: room.name })}
                        checked={selected.has(room.documentReferenceId)}
                        onChange={(event) => onSelect([room.documentReferenceId], event.currentTarget.checked)}
                      />
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={2} wrap="nowrap">
                      <Text size="sm" w={32}>
                        {room.sortOrder ?? '—'}
                      </Text>
                      {handlers.canMove ? (
                        <>
                          <ActionIcon
                            variant="subtle"
                            size="sm"
                            aria-label={t('roomConfig.actions.moveUpNamed', { name: room.name })}
                            disabled={index === 0 || handlers.moving}
                            onClick={() => handlers.move(group.rooms, room, -1)}
                          >
                            <IconArrowUp size={14} />
                          </ActionIcon>
                          <ActionIcon
                            variant="subtle"
                            size="sm"
                            aria-label={t('roomConfig.actions.moveDownNamed', { name: room.name })}
                            disabled={index === group.rooms.length - 1 || handlers.moving}
                            onClick={() => handlers.move(group.rooms, room, 1)}
                          >
                            <IconArrowDown size={14} />
                          </ActionIcon>
                        </>
                      ) : null}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {room.name}
                    </Text>
                    {domain !== null ? (
                      <Text size="xs" c="dimmed">
                        {domain}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{room.residentName ?? '—'}</Table.Td>
                  <Table.Td data-testid="room-floor-unit">{[room.floor, room.unit].filter(Boolean).join(' / ') || '—'}</Table.Td>
                  <Table.Td>
                    <StatusBadge status={room.status} />
                  </Table.Td>
                  <Table.Td>
                    <DeviceBadge serial={room.deviceSerial} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <EditDeleteButtons room={room} handlers={handlers} />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            }),
          ])}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
