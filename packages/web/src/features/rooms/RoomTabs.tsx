import { Badge, Button, Group, Text } from '@mantine/core';
import { IconActivityHeartbeat, IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { levelOpensRoute } from '@nemuri/shared/routeAccess';
import { MessagePanel } from '../../components/MessagePanel.tsx';
import { ScreenLoading } from '../../components/ScreenStatus.tsx';
import { useCurrentRoute } from '../../lib/routeHandle.ts';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { useDocument } from '../../lib/documents/hooks.ts';
import type { RecordOf } from '../../lib/documents/records.ts';
import { iconSize } from '../../lib/icons.ts';
import { useCurrentUser } from '../../lib/session.ts';

export type RoomTab = 'sleep' | 'result' | 'import' | 'history';
const TABS: readonly { tab: RoomTab; minLevel: number }[] = [
  { tab: 'sleep', minLevel: ROLE_LEVELS.individualUser },
  { tab: 'result', minLevel: ROLE_LEVELS.individualUser },
  { tab: 'import', minLevel: ROLE_LEVELS.generalStaff },
  { tab: 'history', minLevel: ROLE_LEVELS.generalStaff },
];

/** Links to the room's four pages; import and history only for the levels their routes allow. */
export function RoomTabs({ roomId, current }: { roomId: string; current: RoomTab }) {
  const { t } = useTranslation();
  const level = useCurrentUser()?.accessLevel ?? 0;
  return (
    <Group component="nav" aria-label={t('roomSleep.tabs.label')} gap="xs" wrap="wrap">
      {TABS.filter(({ minLevel }) => level >= minLevel).map(({ tab }) => (
        <Button
          key={tab}
          component={Link}
          to={`/room/${encodeURIComponent(roomId)}/${tab}`}
          size="compact-md"
          variant={tab === current ? 'filled' : 'subtle'}
          aria-current={tab === current ? 'page' : undefined}
        >
          {t(`roomSleep.tabs.${tab}`)}
        </Button>
      ))}
    </Group>
  );
}

export type Room = RecordOf<'rooms'>;

interface RoomPageProps {
  roomId: string;
  tab: RoomTab;
  children: (room: Room) => ReactNode;
}

/**
 * The frame of a room page: the room's name as the title, its resident, the tabs, and one message for
 * a room that is missing or out of the user's scope (the two read the same, so the page never tells
 * whether another facility has the room).
 */
export function RoomPage({ roomId, tab, children }: RoomPageProps) {
  const { t } = useTranslation();
  const room = useDocument(`rooms/${roomId}`);
  const route = useCurrentRoute();
  const level = useCurrentUser()?.accessLevel ?? 0;
  if (room.loading) return <ScreenLoading label={t('roomSleep.loading')} />;
  if (room.error || room.data === null) {
    return (
      <ScreenPage>
        <MessagePanel
          icon={<IconLock size={iconSize('xl')} />}
          color="gray"
          title={t('roomSleep.roomNotFoundTitle')}
          body={t('roomSleep.roomNotFound')}
          action={{ label: t('roomSleep.backHome'), to: '/' }}
        />
      </ScreenPage>
    );
  }
  // The route's title first, as on every screen, then the room.
  return (
    <ScreenPage title={`${t(`routes.${route?.name ?? 'roomSleep'}`)} — ${room.data.name}`}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="sm">
          <Text data-testid="room-resident">
            {room.data.residentName ? t('roomSleep.resident', { name: room.data.residentName }) : t('roomSleep.noResident')}
          </Text>
          {level < ROLE_LEVELS.generalStaff ? (
            <Badge variant="light" color="gray">
              {t('roomSleep.readOnly')}
            </Badge>
          ) : null}
        </Group>
        <Group gap="xs" wrap="wrap">
          <RoomTabs roomId={roomId} current={tab} />
          {/* The live waveforms: one click from the room, for the levels that may watch them. */}
          {room.data.deviceSerial && levelOpensRoute(level, 'monitoringRoomRawMulti') ? (
            <Button
              component={Link}
              to={`/monitoring-room/raw-multi?roomId=${encodeURIComponent(roomId)}`}
              size="compact-md"
              variant="light"
              leftSection={<IconActivityHeartbeat size={iconSize('xs')} />}
              data-testid="room-live-waveforms"
            >
              {t('roomSleep.liveWaveforms')}
            </Button>
          ) : null}
        </Group>
      </Group>
      {children(room.data)}
    </ScreenPage>
  );
}
