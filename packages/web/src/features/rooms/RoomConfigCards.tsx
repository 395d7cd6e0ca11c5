import { ActionIcon, Badge, Card, Group, Menu, SimpleGrid, Stack, Text, Title, Tooltip, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconCpu, IconDots, IconPencil, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { iconSize } from '../../lib/icons.ts';
import type { Room, RoomGroup } from './roomConfigRows.ts';

/** What a room's controls do; the screen decides who may use which. */
export interface RoomHandlers {
  edit(room: Room): void;
  remove(room: Room): void;
  move(group: readonly Room[], room: Room, step: -1 | 1): void;
  canEdit: boolean;
  canDelete: boolean;
  /** Moving is offered while the list is in sort order. */
  canMove: boolean;
  moving: boolean;
  /** Shown on each room when the user sees more than one domain. */
  domainName(room: Room): string | null;
}

const STATUS_COLORS: Record<string, string> = { active: 'green', vacant: 'gray', inactive: 'dark' };

export function StatusBadge({ status }: { status: Room['status'] }) {
  const { t } = useTranslation();
  const value = status ?? 'active';
  return (
    <Badge color={STATUS_COLORS[value] ?? 'gray'} variant="light" data-status={value}>
      {t(`roomConfig.statuses.${value}`)}
    </Badge>
  );
}

export function DeviceBadge({ serial }: { serial: string | null | undefined }) {
  const { t } = useTranslation();
  return serial ? (
    <Badge color="blue" variant="outline" leftSection={<IconCpu size={12} aria-hidden />} data-testid="room-device">
      {serial}
    </Badge>
  ) : (
    <Badge color="gray" variant="outline" data-testid="room-device">
      {t('roomConfig.noDevice')}
    </Badge>
  );
}

/** "1F / 東ユニット", "1F", or what is missing. */
export function groupTitle(group: RoomGroup, t: TFunction): string {
  if (group.floor === null && group.unit === null) return t('roomConfig.groups.none');
  if (group.unit === null) return group.floor ?? '';
  return `${group.floor ?? t('roomConfig.groups.noFloor')} / ${group.unit}`;
}

/** Edit and delete of one room, as far as the user may. */
export function EditDeleteButtons({ room, handlers }: { room: Room; handlers: RoomHandlers }) {
  const { t } = useTranslation();
  return (
    <>
      {handlers.canEdit ? (
        <Tooltip label={t('roomConfig.actions.edit')}>
          <ActionIcon variant="subtle" aria-label={t('roomConfig.actions.editNamed', { name: room.name })} onClick={() => handlers.edit(room)}>
            <IconPencil size={iconSize('xs')} />
          </ActionIcon>
        </Tooltip>
      ) : null}
      {handlers.canDelete ? (
        <Tooltip label={t('roomConfig.actions.delete')}>
          <ActionIcon variant="subtle" color="red" aria-label={t('roomConfig.actions.deleteNamed', { name: room.name })} onClick={() => handlers.remove(room)}>
            <IconTrash size={iconSize('xs')} />
          </ActionIcon>
        </Tooltip>
      ) : null}
    </>
  );
}

function MoveButtons({ group, room, handlers }: { group: readonly Room[]; room: Room; handlers: RoomHandlers }) {
  const { t } = useTranslation();
  const index = group.indexOf(room);
  return (
    <>
      <Tooltip label={t('roomConfig.actions.moveUp')}>
        <ActionIcon
          variant="subtle"
          aria-label={t('roomConfig.actions.moveUpNamed', { name: room.name })}
          disabled={index <= 0 || handlers.moving}
          onClick={() => handlers.move(group, room, -1)}
        >
          <IconArrowUp size={iconSize('xs')} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('roomConfig.actions.moveDown')}>
        <ActionIcon
          variant="subtle"
          aria-label={t('roomConfig.actions.moveDownNamed', { name: room.name })}
          disabled={index < 0 || index >= group.length - 1 || handlers.moving}
          onClick={() => handlers.move(group, room, 1)}
        >
          <IconArrowDown size={iconSize('xs')} />
        </ActionIcon>
      </Tooltip>
    </>
  );
}

function RoomCard({ group, room, handlers }: { group: readonly Room[]; room: Room; handlers: RoomHandlers }) {
  const { t } = useTranslation();
  const domain = handlers.domainName(room);
  return (
    <Card withBorder radius="md" padding="sm" data-testid="room-config-card" data-room={room.documentReferenceId}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} truncate>
            {room.name}
          </Text>
          <StatusBadge status={room.status} />
        </Group>
        {domain !== null ? (
          <Text size="xs" c="dimmed" truncate>
            {domain}
          </Text>
        ) : null}
        <Text size="sm" truncate>
          {room.residentName ?? t('roomConfig.noResident')}
        </Text>
        <Group justify="space-between" wrap="nowrap">
          <DeviceBadge serial={room.deviceSerial} />
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {t('roomConfig.sortOrderShort', { value: room.sortOrder ?? '—' })}
          </Text>
        </Group>
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {handlers.canMove ? <MoveButtons group={group} room={room} handlers={handlers} /> : null}
          <EditDeleteButtons room={room} handlers={handlers} />
        </Group>
      </Stack>
    </Card>
  );
}

function SmallRoomCard({ group, room, handlers }: { group: readonly Room[]; room: Room; handlers: RoomHandlers }) {
  const { t } = useTranslation();
  const index = group.indexOf(room);
  return (
    <Card withBorder radius="md" padding="xs" data-testid="room-config-card" data-room={room.documentReferenceId}>
      <Group gap={4} wrap="nowrap" justify="space-between">
        <UnstyledButton
          onClick={() => handlers.edit(room)}
          disabled={!handlers.canEdit}
          style={{ minWidth: 0 }}
          aria-label={t('roomConfig.actions.editNamed', { name: room.name })}
        >
          <Text size="sm" fw={600} truncate>
            {room.name}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {room.deviceSerial ?? t('roomConfig.noDevice')}
          </Text>
        </UnstyledButton>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" size="sm" aria-label={t('roomConfig.actions.menuNamed', { name: room.name })}>
              <IconDots size={iconSize('xs')} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {handlers.canEdit ? (
              <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => handlers.edit(room)}>
                {t('roomConfig.actions.edit')}
              </Menu.Item>
            ) : null}
            {handlers.canMove ? (
              <>
                <Menu.Item leftSection={<IconArrowUp size={14} />} disabled={index <= 0 || handlers.moving} onClick={() => handlers.move(group, room, -1)}>
                  {t('roomConfig.actions.moveUp')}
                </Menu.Item>
                <Menu.Item
                  leftSection={<IconArrowDown size={14} />}
                  disabled={index >= group.length - 1 || handlers.moving}
                  onClick={() => handlers.move(group, room, 1)}
                >
                  {t('roomConfig.actions.moveDown')}
                </Menu.Item>
              </>
            ) : null}
            {handlers.canDelete ? (
              <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => handlers.remove(room)}>
                {t('roomConfig.actions.delete')}
              </Menu.Item>
            ) : null}
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Card>
  );
}

/** The card and small-card layouts: one titled grid per floor/unit group. */
export function RoomConfigCards({ groups, small, handlers }: { groups: readonly RoomGroup[]; small: boolean; handlers: RoomHandlers }) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" data-testid="room-config-grid">
      {groups.map((group) => (
        <Stack key={group.key} gap="xs" data-testid="room-config-group">
          <Title order={4}>{groupTitle(group, t)}</Title>
          <SimpleGrid cols={small ? { base: 2, sm: 4, md: 6, lg: 8 } : { base: 1, sm: 2, md: 3, lg: 4 }} spacing="sm">
            {group.rooms.map((room) =>
              small ? (
                <SmallRoomCard key={room.documentReferenceId} group={group.rooms} room={room} handlers={handlers} />
              ) : (
                <RoomCard key={room.documentReferenceId} group={group.rooms} room={room} handlers={handlers} />
              ),
            )}
          </SimpleGrid>
        </Stack>
      ))}
    </Stack>
  );
}
