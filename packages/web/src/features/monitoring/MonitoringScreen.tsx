import { Alert, Badge, Button, Group, Loader, Paper, SimpleGrid, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconBellRinging, IconCheck, IconVolume } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ALERT_SEVERITY, alertStatus, onStation, severityRank, type AlertSeverity, type AlertTypeName } from '@nemuri/shared/monitoring';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { formatTime } from '../../lib/dates.ts';
import { documents } from '../../lib/documents/documents.ts';
import { useQuery } from '../../lib/documents/hooks.ts';
import type { RecordOf } from '../../lib/documents/records.ts';
import { iconSize } from '../../lib/icons.ts';
import { useRoomStates } from '../../lib/roomStates.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { RoomCard, type RoomRow } from '../home/RoomCards.tsx';
import { RoomFilterBar, useRoomFilter } from '../home/RoomFilterBar.tsx';
import { viewPath } from './raw/rawViews.ts';
import { enableSound, playAlertChime, soundBlocked } from './alertSound.ts';

type AlertRecord = RecordOf<'alerts'>;

const MUTE_KEY = 'nemuri.monitoring.muted';

const SEVERITY_COLORS: Record<AlertSeverity, string> = { critical: 'red', major: 'orange', minor: 'yellow', warning: 'gray' };

/** What needs someone first: unacknowledged before acknowledged, then by severity, then the newest. */
function stationOrder(a: AlertRecord, b: AlertRecord): number {
  return Number(Boolean(a.acknowledgedAt)) - Number(Boolean(b.acknowledgedAt)) || severityRank(a.type) - severityRank(b.type) || b.startedAt.localeCompare(a.startedAt);
}

/**
 * /monitoring: the nurse station's view. On top every alert still active or not yet acknowledged
 * (an ended one nobody confirmed reads 終了・未確認 until someone does), the most urgent first, with
 * 「確認」; every monitored room's live state below, updated every second; a chime for each new
 * unacknowledged alert and each time the server sounds one again, with a mute switch and a prompt
 * where the browser holds sound back.
 */
export default function MonitoringScreen() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const rooms = useQuery({ collection: 'rooms', orderBy: [['name']], limit: 500 });
  // Two queries: the active ones (acknowledged or not) and the unacknowledged ones (ended or not).
  const active = useQuery({ collection: 'alerts', where: [['endedAt', '==', null]], orderBy: [['startedAt', 'desc']], limit: 200 });
  const waiting = useQuery({ collection: 'alerts', where: [['acknowledgedAt', '==', null]], orderBy: [['startedAt', 'desc']], limit: 200 });
  const alerts = useMemo(() => {
    const byId = new Map<string, AlertRecord>();
    for (const alert of [...active.data, ...waiting.data]) if (onStation(alert)) byId.set(alert.documentReferenceId, alert);
    return { data: [...byId.values()].sort(stationOrder), loading: active.loading || waiting.loading, error: active.error ?? waiting.error };
  }, [active.data, active.loading, active.error, waiting.data, waiting.loading, waiting.error]);
  const live = useRoomStates();
  const [muted, setMuted] = useState(() => window.localStorage.getItem(MUTE_KEY) === '1');
  const [blocked, setBlocked] = useState(() => soundBlocked());
  const [acknowledging, setAcknowledging] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const sounded = useRef<Set<string> | null>(null);

  const roomsById = useMemo(() => new Map(rooms.data.map((room) => [room.documentReferenceId, room])), [rooms.data]);
  const unacknowledged = alerts.data.filter((alert) => !alert.acknowledgedAt);

  // A chime for each active unacknowledged alert not sounded yet and each time the server sounds one
  // again (`soundedAt` moves: unacknowledged for the domain's interval, or an acknowledgement that no
  // longer holds); the alerts present when the page opens only set the baseline.
  useEffect(() => {
    if (alerts.loading) return;
    const keys = unacknowledged.filter((alert) => !alert.endedAt).map((alert) => `${alert.documentReferenceId} ${alert.soundedAt ?? alert.startedAt}`);
    if (sounded.current === null) {
      sounded.current = new Set(keys);
      return;
    }
    const fresh = keys.filter((key) => !sounded.current?.has(key));
    for (const key of fresh) sounded.current.add(key);
    if (fresh.length > 0 && !muted) playAlertChime();
  }, [alerts.loading, unacknowledged, muted]);

  const monitored = useMemo(() => rooms.data.filter((room) => Boolean(room.deviceSerial)), [rooms.data]);
  const filter = useRoomFilter(monitored);
  const { apply } = filter;
  const rows: RoomRow[] = useMemo(
    () =>
      apply(
        monitored.map((room) => {
          const state = live.rooms.get(room.documentReferenceId);
          return { room, live: state, state: state?.state ?? 'offline' };
        }),
      ),
    [monitored, live.rooms, apply],
  );
  const alertsByRoom = useMemo(() => {
    const counts = new Map<string, number>();
    for (const alert of alerts.data) if (alert.roomId) counts.set(alert.roomId, (counts.get(alert.roomId) ?? 0) + 1);
    return counts;
  }, [alerts.data]);

  const acknowledge = async (alert: AlertRecord) => {
    if (user === null) return;
    setAcknowledging(alert.documentReferenceId);
    setError(null);
    try {
      await documents.update(`alerts/${alert.documentReferenceId}`, { acknowledgedBy: user.uid, acknowledgedAt: new Date().toISOString() });
    } catch {
      setError(t('monitoring.acknowledgeFailed'));
    } finally {
      setAcknowledging(null);
    }
  };

  const toggleMute = (next: boolean) => {
    setMuted(next);
    window.localStorage.setItem(MUTE_KEY, next ? '1' : '0');
  };

  return (
    <ScreenPage>
      <Group justify="space-between">
        <Group gap="xs">
          <Badge color={live.connected ? 'teal' : 'gray'} variant="dot">
            {live.connected ? t('monitoring.live') : t('monitoring.connecting')}
          </Badge>
        </Group>
        <Group gap="sm">
          {blocked && !muted ? (
            <Button size="xs" variant="light" leftSection={<IconVolume size={iconSize('xs')} />} onClick={() => void enableSound().then((running) => setBlocked(!running))}>
              {t('monitoring.enableSound')}
            </Button>
          ) : null}
          <Switch label={t('monitoring.mute')} checked={muted} onChange={(event) => toggleMute(event.currentTarget.checked)} />
        </Group>
      </Group>

      <Paper withBorder radius="md" p="md" component="section" aria-label={t('monitoring.activeAlerts')}>
        <Stack gap="sm">
          <Group gap="xs">
            <IconBellRinging size={iconSize('sm')} aria-hidden />
            <Title order={3} size="h5">
              {t('monitoring.activeAlerts')}
            </Title>
            <Badge color={unacknowledged.length > 0 ? 'red' : 'gray'} variant="light">
              {alerts.data.length}
            </Badge>
          </Group>
          {error ? (
            <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
              {error}
            </Alert>
          ) : null}
          {alerts.loading ? (
            <Loader size="sm" aria-label={t('monitoring.loading')} />
          ) : alerts.error ? (
            <Alert color="red" role="alert">
              {t('monitoring.alertsFailed')}
            </Alert>
          ) : alerts.data.length === 0 ? (
            <Text c="dimmed" size="sm">
              {t('monitoring.noAlerts')}
            </Text>
          ) : (
            <Table verticalSpacing={4} data-testid="active-alerts">
              <Table.Tbody>
                {alerts.data.map((alert) => {
                  const status = alertStatus(alert);
                  const severity = ALERT_SEVERITY[alert.type as AlertTypeName];
                  return (
                  <Table.Tr key={alert.documentReferenceId} data-alert={alert.documentReferenceId} data-acknowledged={alert.acknowledgedAt ? 'true' : 'false'} data-status={status} data-severity={severity}>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Badge color={alert.acknowledgedAt ? 'gray' : SEVERITY_COLORS[severity]} variant={alert.acknowledgedAt ? 'light' : 'filled'} title={t(`monitoring.severities.${severity}`)}>
                          {t(`monitoring.alertTypes.${alert.type}`)}
                        </Badge>
                        {status === 'endedUnacknowledged' ? (
                          <Badge color="gray" variant="outline" data-testid="alert-ended-unacknowledged">
                            {t('monitoring.endedUnacknowledged')}
                          </Badge>
                        ) : null}
                      </Group>
                    </Table.Td>
                    <Table.Td>{(alert.roomId ? roomsById.get(alert.roomId)?.name : null) ?? alert.deviceSerial ?? '—'}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{t('monitoring.since', { time: formatTime(alert.startedAt) })}</Text>
                    </Table.Td>
                    <Table.Td ta="right">
                      {alert.acknowledgedAt ? (
                        <Text size="sm" c="dimmed">
                          {t('monitoring.acknowledgedAt', { time: formatTime(alert.acknowledgedAt) })}
                        </Text>
                      ) : (
                        <Button size="xs" leftSection={<IconCheck size={iconSize('xs')} />} loading={acknowledging === alert.documentReferenceId} onClick={() => void acknowledge(alert)}>
                          {t('monitoring.acknowledge')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      </Paper>

      {monitored.length > 0 ? <RoomFilterBar filter={filter} /> : null}
      {rooms.loading ? (
        <Group justify="center" p="xl">
          <Loader aria-label={t('monitoring.loading')} />
        </Group>
      ) : rows.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg">
          {monitored.length === 0 ? t('monitoring.noRooms') : t('rooms.noMatch')}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 2, sm: 3, md: 4, lg: 5, xl: 6 }} spacing="sm" data-testid="monitoring-grid">
          {rows.map((row) => {
            const count = alertsByRoom.get(row.room.documentReferenceId) ?? 0;
            return (
              <RoomCard
                key={row.room.documentReferenceId}
                row={row}
                now={live.at ?? 0}
                to={viewPath('raw-multi', { roomId: row.room.documentReferenceId })}
                extra={
                  count > 0 ? (
                    <Badge color="red" variant="filled" size="sm" leftSection={<IconBellRinging size={iconSize('xs')} aria-hidden />}>
                      {t('monitoring.alertCount', { count })}
                    </Badge>
                  ) : null
                }
              />
            );
          })}
        </SimpleGrid>
      )}
    </ScreenPage>
  );
}
