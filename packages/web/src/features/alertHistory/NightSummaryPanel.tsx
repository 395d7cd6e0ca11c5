import { Alert, Badge, Button, Group, Loader, Pagination, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconMoon } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { NightSummary } from '@nemuri/shared/alertHistory';
import { ALERT_SEVERITY, severityRank, type AlertTypeName } from '@nemuri/shared/monitoring';
import { dayjs, formatDate, formatTime } from '../../lib/dates.ts';
import { iconSize } from '../../lib/icons.ts';
import { SEVERITY_COLORS } from '../../components/alertSeverityLook.ts';
import { useNightSummary } from './api/useNightSummary.ts';

const ROOMS_PER_PAGE = 10;

function hoursMinutes(minutes: number | null): string | null {
  if (minutes === null) return null;
  return `${Math.floor(minutes / 60)}:${String(Math.round(minutes % 60)).padStart(2, '0')}`;
}

/** The alert types of a night, the most urgent first, each with its count. */
function AlertChips({ summary }: { summary: NightSummary }) {
  const { t } = useTranslation();
  const types = (Object.keys(summary.alertsByType) as AlertTypeName[]).sort((a, b) => severityRank(a) - severityRank(b));
  if (types.length === 0) return <Text c="dimmed">{t('alertHistory.nightSummary.noAlerts')}</Text>;
  return (
    <Group gap={4}>
      {types.map((type) => (
        <Badge key={type} color={SEVERITY_COLORS[ALERT_SEVERITY[type]]} variant="light" style={{ textTransform: 'none' }}>
          {t(`monitoring.alertTypes.${type}`)} {summary.alertsByType[type]}
        </Badge>
      ))}
    </Group>
  );
}

function OutOfBed({ summary }: { summary: NightSummary }) {
  const { t } = useTranslation();
  if (summary.outOfBedCount === null && summary.outOfBedMin === null) return <Text c="dimmed">—</Text>;
  return (
    <Text style={{ whiteSpace: 'nowrap' }}>
      {t('alertHistory.nightSummary.outOfBedValue', { count: summary.outOfBedCount ?? 0, minutes: Math.round(summary.outOfBedMin ?? 0) })}
    </Text>
  );
}

/** One room's night (the room's sleep page): alerts, time out of bed and sleep of the shift, on the facility's clock. */
export function RoomNightSummary({ roomId, day, timeZone }: { roomId: string; day: string; timeZone: string }) {
  const { t } = useTranslation();
  const { answer, loading, error } = useNightSummary(day, roomId);
  const summary = answer?.rooms[0];
  // Answered without the room: the user reads the room but not its alerts and sleep (an agency).
  if (answer !== null && summary === undefined) return null;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={t('alertHistory.nightSummary.title')} data-testid="room-night-summary">
      <Stack gap="xs">
        <Group gap="xs">
          <IconMoon size={iconSize('sm')} aria-hidden />
          <Title order={4} size="h5">
            {t('alertHistory.nightSummary.title')}
          </Title>
          {summary ? (
            <Text size="sm" c="dimmed">
              {t('alertHistory.nightSummary.shift', { start: formatTime(summary.start, timeZone), end: formatTime(summary.end, timeZone) })}
            </Text>
          ) : null}
        </Group>
        {loading ? (
          <Loader size="sm" aria-label={t('alertHistory.nightSummary.loading')} />
        ) : error !== null || summary === undefined ? (
          <Alert color="red">{t('alertHistory.nightSummary.failed')}</Alert>
        ) : (
          <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
            <Stack gap={2}>
              <Text size="sm" c="dimmed">
                {t('alertHistory.nightSummary.alerts', { count: summary.alertCount })}
              </Text>
              <AlertChips summary={summary} />
              {summary.alertCount > 0 ? (
                <Text
                  size="sm"
                  component={Link}
                  to={`/alert-history?room=${encodeURIComponent(roomId)}&from=${day}&to=${dayjs(day).add(1, 'day').format('YYYY-MM-DD')}`}
                  c="blue"
                >
                  {t('alertHistory.nightSummary.toHistory')}
                </Text>
              ) : null}
            </Stack>
            <Stack gap={2}>
              <Text size="sm" c="dimmed">
                {t('alertHistory.nightSummary.outOfBed')}
              </Text>
              <OutOfBed summary={summary} />
            </Stack>
            <Stack gap={2}>
              <Text size="sm" c="dimmed">
                {t('alertHistory.nightSummary.sleep')}
              </Text>
              <Text>{hoursMinutes(summary.sleepMin) ?? '—'}</Text>
            </Stack>
          </SimpleGrid>
        )}
      </Stack>
    </Paper>
  );
}

/** Every room's last night on the monitoring page: the rooms with most alerts first, paged. */
export function NightSummaryPanel() {
  const { t } = useTranslation();
  // Null until the user steps: the server answers the facility's latest night and says which.
  const [asked, setAsked] = useState<string | null>(null);
  const [latest, setLatest] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const { answer, loading, error } = useNightSummary(asked);
  if (asked === null && answer !== null && latest !== answer.day) setLatest(answer.day);
  const day = asked ?? answer?.day ?? null;
  const rooms = useMemo(
    () =>
      [...(answer?.rooms ?? [])].sort(
        (a, b) => b.alertCount - a.alertCount || (b.outOfBedMin ?? 0) - (a.outOfBedMin ?? 0) || a.roomName.localeCompare(b.roomName, 'ja'),
      ),
    [answer],
  );
  const pages = Math.max(1, Math.ceil(rooms.length / ROOMS_PER_PAGE));
  const shown = rooms.slice((page - 1) * ROOMS_PER_PAGE, page * ROOMS_PER_PAGE);
  const go = (days: number) => {
    if (day === null) return;
    setAsked(dayjs(day).add(days, 'day').format('YYYY-MM-DD'));
    setPage(1);
  };
  const total = rooms.reduce((sum, room) => sum + room.alertCount, 0);
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={t('alertHistory.nightSummary.panelTitle')} data-testid="night-summary">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs">
            <IconMoon size={iconSize('sm')} aria-hidden />
            <Title order={3} size="h5">
              {t('alertHistory.nightSummary.panelTitle')}
            </Title>
            <Badge variant="light" color={total > 0 ? 'orange' : 'gray'}>
              {t('alertHistory.nightSummary.alerts', { count: total })}
            </Badge>
          </Group>
          <Group gap={4} wrap="nowrap">
            <Button size="compact-sm" variant="subtle" onClick={() => go(-1)} disabled={day === null} aria-label={t('alertHistory.nightSummary.previous')}>
              <IconChevronLeft size={iconSize('xs')} />
            </Button>
            <Text size="sm" data-testid="night-summary-day" data-day={day ?? ''} style={{ whiteSpace: 'nowrap' }}>
              {day === null ? '—' : t('alertHistory.nightSummary.night', { date: formatDate(`${day}T12:00:00Z`, 'UTC') })}
            </Text>
            <Button
              size="compact-sm"
              variant="subtle"
              onClick={() => go(1)}
              disabled={day === null || latest === null || day >= latest}
              aria-label={t('alertHistory.nightSummary.next')}
            >
              <IconChevronRight size={iconSize('xs')} />
            </Button>
          </Group>
        </Group>
        {loading ? (
          <Loader size="sm" aria-label={t('alertHistory.nightSummary.loading')} />
        ) : error ? (
          <Alert color="red">{t('alertHistory.nightSummary.failed')}</Alert>
        ) : rooms.length === 0 ? (
          <Text c="dimmed">{t('alertHistory.nightSummary.noRooms')}</Text>
        ) : (
          <>
            <Table.ScrollContainer minWidth={520}>
              <Table verticalSpacing={4} fz="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('alertHistory.columns.room')}</Table.Th>
                    <Table.Th>{t('alertHistory.nightSummary.alertsColumn')}</Table.Th>
                    <Table.Th>{t('alertHistory.nightSummary.outOfBed')}</Table.Th>
                    <Table.Th>{t('alertHistory.nightSummary.sleep')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {shown.map((summary) => (
                    <Table.Tr key={summary.roomId} data-night-room={summary.roomId}>
                      <Table.Td>
                        <Text
                          size="sm"
                          fw={600}
                          component={Link}
                          to={`/room/${encodeURIComponent(summary.roomId)}/sleep?day=${day ?? ''}`}
                          style={{ whiteSpace: 'nowrap' }}
                        >
                          {summary.roomName}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <AlertChips summary={summary} />
                      </Table.Td>
                      <Table.Td>
                        <OutOfBed summary={summary} />
                      </Table.Td>
                      <Table.Td>{hoursMinutes(summary.sleepMin) ?? '—'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {pages > 1 ? <Pagination total={pages} value={page} onChange={setPage} size="sm" /> : null}
            {answer?.truncated ? (
              <Text size="xs" c="dimmed">
                {t('alertHistory.nightSummary.truncated', { count: rooms.length })}
              </Text>
            ) : null}
          </>
        )}
      </Stack>
    </Paper>
  );
}
