import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import { IconHeartbeat, IconLungs } from '@tabler/icons-react';
import type { LiveRoomState, RoomStateName } from '@nemuri/shared/monitoring';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { RecordOf } from '../../lib/documents/records.ts';
import { iconSize } from '../../lib/icons.ts';
import { durationMinutes, STATE_LOOKS } from './roomStateLook.ts';

/** Room cards and their parts, shared by the home lists and the monitoring grid. */

export type Room = RecordOf<'rooms'>;

export interface RoomRow {
  room: Room;
  live: LiveRoomState | undefined;
  state: RoomStateName | 'noDevice';
}

export function StateBadge({ state }: { state: RoomRow['state'] }) {
  const { t } = useTranslation();
  const look = STATE_LOOKS[state];
  const Icon = look.icon;
  return (
    <Badge color={look.color} variant="light" leftSection={<Icon size={iconSize('xs')} aria-hidden />} data-state={state}>
      {t(`rooms.states.${state}`)}
    </Badge>
  );
}

export function Rates({ live }: { live: LiveRoomState | undefined }) {
  const { t } = useTranslation();
  const value = (number: number | null | undefined) => (number === null || number === undefined ? '—' : Math.round(number).toString());
  return (
    <Group gap="md" wrap="nowrap">
      <Group gap={4} wrap="nowrap" aria-label={t('rooms.respiration')}>
        <IconLungs size={iconSize('xs')} aria-hidden />
        <Text size="sm">{t('rooms.perMinute', { value: value(live?.respirationRate) })}</Text>
      </Group>
      <Group gap={4} wrap="nowrap" aria-label={t('rooms.heartRate')}>
        <IconHeartbeat size={iconSize('xs')} aria-hidden />
        <Text size="sm">{t('rooms.perMinute', { value: value(live?.heartRate) })}</Text>
      </Group>
    </Group>
  );
}

export function Since({ live, now }: { live: LiveRoomState | undefined; now: number }) {
  const { t } = useTranslation();
  if (live === undefined) return null;
  const minutes = durationMinutes(live.since, now);
  return (
    <Text size="xs" c="dimmed">
      {minutes >= 60 ? t('rooms.sinceHours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 }) : t('rooms.sinceMinutes', { minutes })}
    </Text>
  );
}

/** A room's live tile; it opens the room's sleep page, or `to` (the monitoring grid opens the live waveforms). */
export function RoomCard({ row, now, extra, to }: { row: RoomRow; now: number; extra?: ReactNode; to?: string }) {
  const { room, live, state } = row;
  const look = STATE_LOOKS[state];
  return (
    <Card
      withBorder
      radius="md"
      padding="sm"
      component={Link}
      to={to ?? `/room/${encodeURIComponent(room.documentReferenceId)}/sleep`}
      data-testid="room-card"
      data-room={room.documentReferenceId}
      style={{ borderLeft: `4px solid var(--mantine-color-${look.color}-6)` }}
    >
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600}>{room.name}</Text>
          <StateBadge state={state} />
        </Group>
        <Text size="sm" c="dimmed" truncate>
          {room.residentName ?? '—'}
        </Text>
        <Group justify="space-between" wrap="nowrap">
          <Rates live={live} />
          <Since live={live} now={now} />
        </Group>
        {extra}
      </Stack>
    </Card>
  );
}
