import { Alert, Card, Group, Loader, SegmentedControl, SimpleGrid, Table, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useCurrentRoute } from '../../lib/routeHandle.ts';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { iconSize } from '../../lib/icons.ts';
import { useRoomStates } from '../../lib/live/roomStates.ts';
import { RoomCard, Rates, Since, StateBadge, type Room, type RoomRow } from '../../components/rooms/RoomCards.tsx';
import { RoomFilterBar, useRoomFilter } from '../../components/rooms/RoomFilterBar.tsx';
import { STATE_LOOKS } from '../../components/rooms/roomStateLook.ts';
import { useRoomsByName } from './api/homeRooms.ts';

type Layout = 'card' | 'table' | 'smallcard';

const LAYOUT_OF_ROUTE: Record<string, Layout> = { homeCard: 'card', homeTable: 'table', homeSmallCard: 'smallcard' };
const PATH_OF_LAYOUT: Record<Layout, string> = { card: '/card', table: '/table', smallcard: '/smallcard' };
/** More rooms than any facility of ours holds; the list says so when it is cut. */

type Row = RoomRow;

/**
 * Home room lists (/card, /table, /smallcard): every room in the user's scope with its live state,
 * how long it has lasted, and the rates, updated every second; filter by floor and unit, search, sort.
 */
export default function RoomListScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const route = useCurrentRoute();
  const layout = LAYOUT_OF_ROUTE[route?.name ?? ''] ?? 'card';
  const rooms = useRoomsByName();
  const live = useRoomStates();
  const filter = useRoomFilter(rooms.data);
  const { apply } = filter;

  const rows: Row[] = useMemo(
    () =>
      apply(
        rooms.data.map((room): Row => {
          const state = live.rooms.get(room.documentReferenceId);
          return { room, live: state, state: room.deviceSerial ? (state?.state ?? 'offline') : 'noDevice' };
        }),
      ),
    [rooms.data, live.rooms, apply],
  );

  // Durations count to the server's latest evaluation (no states before the first one anyway).
  const now = live.at ?? 0;
  const open = (room: Room) => navigate(`/room/${encodeURIComponent(room.documentReferenceId)}/sleep`);

  return (
    <ScreenPage>
      <Group justify="space-between" align="flex-end" gap="sm">
        <RoomFilterBar filter={filter} />
        <SegmentedControl
          aria-label={t('rooms.layout')}
          value={layout}
          onChange={(value) => navigate(PATH_OF_LAYOUT[value as Layout])}
          data={[
            { value: 'card', label: t('rooms.layouts.card') },
            { value: 'table', label: t('rooms.layouts.table') },
            { value: 'smallcard', label: t('rooms.layouts.smallcard') },
          ]}
        />
      </Group>
      {!live.connected && !rooms.loading && rows.some((row) => row.state !== 'noDevice') ? (
        <Alert color="gray" variant="light" role="status">
          {t('rooms.liveConnecting')}
        </Alert>
      ) : null}
      {rooms.error ? (
        <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
          {t('rooms.loadFailed')}
        </Alert>
      ) : rooms.loading ? (
        <Group justify="center" p="xl">
          <Loader aria-label={t('rooms.loading')} />
        </Group>
      ) : rows.length === 0 ? (
        <Text c="dimmed" py="lg" ta="center">
          {rooms.data.length === 0 ? t('rooms.none') : t('rooms.noMatch')}
        </Text>
      ) : layout === 'table' ? (
        <RoomTable rows={rows} now={now} onOpen={open} />
      ) : (
        <SimpleGrid cols={layout === 'card' ? { base: 1, sm: 2, md: 3, lg: 4 } : { base: 2, sm: 4, md: 6, lg: 8 }} spacing="sm" data-testid="room-grid">
          {rows.map((row) =>
            layout === 'card' ? (
              <RoomCard key={row.room.documentReferenceId} row={row} now={now} />
            ) : (
              <SmallRoomCard key={row.room.documentReferenceId} row={row} />
            ),
          )}
        </SimpleGrid>
      )}
    </ScreenPage>
  );
}

function SmallRoomCard({ row }: { row: Row }) {
  const { t } = useTranslation();
  const { room, state } = row;
  const look = STATE_LOOKS[state];
  const Icon = look.icon;
  return (
    <UnstyledButton
      component={Link}
      to={`/room/${encodeURIComponent(room.documentReferenceId)}/sleep`}
      data-testid="room-card"
      data-room={room.documentReferenceId}
      aria-label={`${room.name} ${t(`rooms.states.${state}`)}`}
    >
      <Card withBorder radius="md" padding="xs">
        <Group gap={6} wrap="nowrap">
          <ThemeIcon color={look.color} variant="light" size="sm" data-state={state}>
            <Icon size={iconSize('xs')} aria-hidden />
          </ThemeIcon>
          <Text size="sm" fw={600} truncate>
            {room.name}
          </Text>
        </Group>
      </Card>
    </UnstyledButton>
  );
}

function RoomTable({ rows, now, onOpen }: { rows: Row[]; now: number; onOpen: (room: Room) => void }) {
  const { t } = useTranslation();
  return (
    <Table highlightOnHover striped verticalSpacing="xs" data-testid="room-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('rooms.columns.room')}</Table.Th>
          <Table.Th>{t('rooms.columns.resident')}</Table.Th>
          <Table.Th>{t('rooms.columns.state')}</Table.Th>
          <Table.Th>{t('rooms.columns.since')}</Table.Th>
          <Table.Th>{t('rooms.columns.rates')}</Table.Th>
          <Table.Th>{t('rooms.columns.floorUnit')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.room.documentReferenceId} onClick={() => onOpen(row.room)} style={{ cursor: 'pointer' }} data-room={row.room.documentReferenceId}>
            <Table.Td>
              <Link to={`/room/${encodeURIComponent(row.room.documentReferenceId)}/sleep`}>{row.room.name}</Link>
            </Table.Td>
            <Table.Td>{row.room.residentName ?? '—'}</Table.Td>
            <Table.Td>
              <StateBadge state={row.state} />
            </Table.Td>
            <Table.Td>
              <Since live={row.live} now={now} />
            </Table.Td>
            <Table.Td>
              <Rates live={row.live} />
            </Table.Td>
            <Table.Td>{[row.room.floor, row.room.unit].filter(Boolean).join(' / ') || '—'}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
