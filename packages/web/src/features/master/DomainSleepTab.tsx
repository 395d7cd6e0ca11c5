/**
 * A domain's sleep days: pick one of its rooms, see its nights (newest first) with the key metrics,
 * each linking to the room's own sleep page for that day.
 */
import { Anchor, Select, Stack, Table, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatTime } from '../../lib/dates.ts';
import { Loaded } from './MasterFrame.tsx';
import { useDomainRooms, useRoomNights } from './api/masterQueries.ts';

/** About a year of nights; the engine's page limit. */
const NIGHTS = 400;

function minutesText(minutes: number | undefined): string {
  if (typeof minutes !== 'number') return '—';
  const total = Math.round(minutes);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

function RoomNights({ roomId }: { roomId: string }) {
  const { t } = useTranslation();
  const sleeps = useRoomNights(roomId, NIGHTS);
  // Days without a bed time are not in an ordering by it; the id is the day, so sort by it instead.
  const nights = useMemo(() => [...sleeps.data].sort((a, b) => b.documentReferenceId.localeCompare(a.documentReferenceId)), [sleeps.data]);
  return (
    <Loaded loading={sleeps.loading} error={sleeps.error} empty={nights.length === 0} emptyText={t('master.sleep.none')}>
      <Table.ScrollContainer minWidth={760}>
        <Table striped highlightOnHover data-testid="sleep-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('master.sleep.day')}</Table.Th>
              <Table.Th>{t('master.sleep.bedTime')}</Table.Th>
              <Table.Th>{t('master.sleep.totalSleep')}</Table.Th>
              <Table.Th>{t('master.sleep.efficiency')}</Table.Th>
              <Table.Th>{t('master.sleep.awakenings')}</Table.Th>
              <Table.Th>{t('master.sleep.respiration')}</Table.Th>
              <Table.Th>{t('master.sleep.heartRate')}</Table.Th>
              <Table.Th>{t('master.sleep.apneaIndex')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {nights.map((night) => (
              <Table.Tr key={night.documentReferenceId} data-testid="sleep-row" data-day={night.documentReferenceId}>
                <Table.Td>
                  <Anchor component={Link} to={`/room/${encodeURIComponent(roomId)}/sleep?day=${night.documentReferenceId}`}>
                    {night.documentReferenceId}
                  </Anchor>
                </Table.Td>
                <Table.Td>{night.bedTime ? formatTime(night.bedTime) : '—'}</Table.Td>
                <Table.Td>{minutesText(night.totalSleepMin)}</Table.Td>
                <Table.Td>{typeof night.sleepEfficiency === 'number' ? `${Math.round(night.sleepEfficiency)}%` : '—'}</Table.Td>
                <Table.Td>{night.awakenings ?? '—'}</Table.Td>
                <Table.Td>{typeof night.respirationRate?.avg === 'number' ? night.respirationRate.avg.toFixed(1) : '—'}</Table.Td>
                <Table.Td>{typeof night.heartRate?.avg === 'number' ? night.heartRate.avg.toFixed(0) : '—'}</Table.Td>
                <Table.Td>{typeof night.apneaIndex === 'number' ? night.apneaIndex.toFixed(1) : '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Loaded>
  );
}

export function DomainSleepTab({ domainId }: { domainId: string }) {
  const { t } = useTranslation();
  const rooms = useDomainRooms(domainId);
  const [chosen, setChosen] = useState<string | null>(null);
  // In the facility's own order (as its room list shows them), then by name.
  const choices = useMemo(
    () =>
      [...rooms.data]
        .sort((a, b) => (a.sortOrder ?? Number.MAX_SAFE_INTEGER) - (b.sortOrder ?? Number.MAX_SAFE_INTEGER) || a.name.localeCompare(b.name, 'ja'))
        .map((room) => ({ value: room.documentReferenceId, label: room.residentName ? `${room.name}（${room.residentName}）` : room.name })),
    [rooms.data],
  );
  const roomId = chosen ?? choices[0]?.value ?? null;
  return (
    <Loaded loading={rooms.loading} error={rooms.error} empty={choices.length === 0} emptyText={t('master.sleep.noRooms')}>
      <Stack gap="sm" data-testid="domain-sleep">
        <Select label={t('master.sleep.room')} data={choices} value={roomId} onChange={setChosen} searchable allowDeselect={false} w={320} />
        {roomId === null ? <Text c="dimmed">{t('master.sleep.pickRoom')}</Text> : <RoomNights key={roomId} roomId={roomId} />}
      </Stack>
    </Loaded>
  );
}
