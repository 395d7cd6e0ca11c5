import { Alert, Badge, Group, Loader, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconBellRinging, IconPlugConnectedX } from '@tabler/icons-react';
import { memo, useCallback, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { formatTimeWithSeconds } from '../../lib/dates.ts';
import { documents } from '../../lib/documents/documents.ts';
import { iconSize } from '../../lib/icons.ts';
import { useRoomStates, useRoomStatesSelector } from '../../lib/live/roomStates.ts';
import type { Room, RoomRow } from '../../components/rooms/RoomCards.tsx';
import { durationMinutes } from '../../components/rooms/roomStateLook.ts';
import { RoomFilterBar, useRoomFilter } from '../../components/rooms/RoomFilterBar.tsx';
import { AlertBanner } from './AlertBanner.tsx';
import { AlertList } from './AlertList.tsx';
import { enableSound, playAlertChime, useAlertSound } from './alertSound.ts';
import { MuteSwitch, SoundWarning } from './SoundControl.tsx';
import classes from './station.module.css';
import { alarmsByRoom, bannerAlert, useStationAlerts, type AlertRecord } from './api/stationAlerts.ts';
import { DENSITIES, useDensity, type Density } from './stationDensity.ts';
import { useStationMode } from './stationMode.ts';
import { StationModeButton, StationModeNotice } from './StationModeButton.tsx';
import { shownRate, StationTile } from './StationTile.tsx';
import { useAcknowledge } from './api/useAcknowledge.ts';
import { useRoomsByName } from './api/monitoringQueries.ts';

/**
 * /monitoring: the nurse station's view. A banner across the top names the most urgent alert that
 * waits for a person, and its room's tile pulses; below, every alert still active or not yet
 * acknowledged (an ended one nobody confirmed reads 終了・未確認), then every monitored room's live
 * state, updated every second. A chime sounds for each new unacknowledged alert and each time the
 * server sounds one again; a red warning stays while the browser keeps the sound back. When the live
 * connection is lost the badge says 再接続中 and the tiles grey out with the time of their last update,
 * until it is back. Tiles come in two densities (remembered), and station mode keeps the screen on.
 */
/** `nightSummary`: the alert history feature's panel of last night (composed in app/pages). */
export function MonitoringScreen({ nightSummary }: { nightSummary: ReactNode }) {
  const { t } = useTranslation();
  const rooms = useRoomsByName();
  const alerts = useStationAlerts();
  // Only the connection here: the live states themselves are the grid's, so that their message each
  // second renders the grid (and in it only the tiles that changed), not the whole station.
  const connected = useRoomStatesSelector((snapshot) => snapshot.connected);
  const wasConnected = useRoomStatesSelector((snapshot) => snapshot.wasConnected);
  const staleSince = useRoomStatesSelector((snapshot) => (snapshot.connected ? null : snapshot.at));
  const sound = useAlertSound();
  const [density, setDensity] = useDensity();
  const mode = useStationMode();
  const { acknowledging, error, acknowledge } = useAcknowledge();
  const onAcknowledge = useCallback((alert: AlertRecord) => void acknowledge(alert), [acknowledge]);
  const sounded = useRef<Set<string> | null>(null);

  const roomsById = useMemo(() => new Map(rooms.data.map((room) => [room.documentReferenceId, room])), [rooms.data]);
  const unacknowledged = useMemo(() => alerts.data.filter((alert) => !alert.acknowledgedAt), [alerts.data]);
  const banner = useMemo(() => bannerAlert(alerts.data), [alerts.data]);

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
    if (fresh.length > 0 && !sound.muted) playAlertChime();
  }, [alerts.loading, unacknowledged, sound.muted]);

  const monitored = useMemo(() => rooms.data.filter((room) => Boolean(room.deviceSerial)), [rooms.data]);
  const filter = useRoomFilter(monitored);
  const { apply } = filter;
  const alarms = useMemo(() => alarmsByRoom(alerts.data), [alerts.data]);
  const stale = !connected;

  // Back after a lost connection: the alerts' socket may have missed changes in the same outage
  // without noticing (a network that went silent keeps a socket open), so it opens again and the
  // server sends every subscription's current records: the list catches up without a reload.
  const lost = useRef(false);
  useEffect(() => {
    if (!connected && wasConnected) lost.current = true;
    else if (connected && lost.current) {
      lost.current = false;
      documents.live.reconnect();
    }
  }, [connected, wasConnected]);

  return (
    <div
      className={mode.active ? classes.kiosk : undefined}
      data-testid="station"
      data-station-mode={mode.active ? 'on' : 'off'}
      data-wake-lock={mode.wakeLock}
      data-density={density}
    >
      <ScreenPage>
        {/* A slot that is always there: on a wide screen the banner lies over the page's title instead
            of pushing the rooms down (see station.module.css). */}
        <div className={classes.bannerSlot} data-testid="banner-slot">
          {banner !== null ? (
            <AlertBanner
              alert={banner}
              others={unacknowledged.length - 1}
              room={banner.roomId ? roomsById.get(banner.roomId) : undefined}
              acknowledging={acknowledging === banner.documentReferenceId}
              onAcknowledge={onAcknowledge}
            />
          ) : null}
        </div>

        <Group justify="space-between" align="flex-end" gap="sm">
          {monitored.length > 0 ? <RoomFilterBar filter={filter} /> : <span />}
          <Group gap="sm" wrap="wrap">
            <ConnectionBadge connected={connected} wasConnected={wasConnected} />
            <SegmentedControl
              size="xs"
              aria-label={t('monitoring.density.label')}
              value={density}
              onChange={(value) => setDensity(value as Density)}
              data={DENSITIES.map((value) => ({ value, label: t(`monitoring.density.${value}`) }))}
              data-testid="density"
            />
            <MuteSwitch sound={sound} />
            <StationModeButton
              mode={mode}
              onEnter={() => {
                // The click that starts station mode also lets the browser play the alert sound.
                if (!sound.muted) void enableSound();
                void mode.enter();
              }}
            />
          </Group>
        </Group>

        {/* Alerts first in reading order; on a wide screen they stand in a column beside the rooms, so
            that however many there are, the whole grid stays on one screen. */}
        <div className={classes.layout}>
          <div className={classes.side} data-testid="station-side">
            <SoundWarning sound={sound} />
            <StationModeNotice mode={mode} />
            {stale && wasConnected ? (
              <Alert color="orange" variant="light" icon={<IconPlugConnectedX size={iconSize('xs')} />} p="xs" data-testid="stale-notice">
                {staleSince !== null ? t('monitoring.staleNotice', { time: formatTimeWithSeconds(staleSince) }) : t('monitoring.reconnecting')}
              </Alert>
            ) : null}

            <Paper withBorder radius="md" p={density === 'compact' ? 'xs' : 'md'} component="section" aria-label={t('monitoring.activeAlerts')}>
              <Stack gap={density === 'compact' ? 4 : 'sm'}>
                <Group gap="xs">
                  <IconBellRinging size={iconSize('sm')} aria-hidden />
                  <Title order={3} size="h5">
                    {t('monitoring.activeAlerts')}
                  </Title>
                  <Badge color={unacknowledged.length > 0 ? 'red' : 'gray'} variant="light">
                    {alerts.data.length}
                  </Badge>
                  {!alerts.loading && !alerts.failed && alerts.data.length === 0 ? (
                    <Text c="dimmed" size="sm">
                      {t('monitoring.noAlerts')}
                    </Text>
                  ) : null}
                </Group>
                {error ? (
                  <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
                    {error}
                  </Alert>
                ) : null}
                {alerts.loading ? (
                  <Loader size="sm" aria-label={t('monitoring.loading')} />
                ) : alerts.failed ? (
                  <Alert color="red" role="alert">
                    {t('monitoring.alertsFailed')}
                  </Alert>
                ) : alerts.data.length > 0 ? (
                  <AlertList alerts={alerts.data} rooms={roomsById} acknowledging={acknowledging} onAcknowledge={onAcknowledge} />
                ) : null}
              </Stack>
            </Paper>
          </div>

          <div className={classes.main}>
            {rooms.loading ? (
              <Group justify="center" p="xl">
                <Loader aria-label={t('monitoring.loading')} />
              </Group>
            ) : rooms.error !== null ? (
              <Alert color="red" role="alert">
                {t('rooms.loadFailed')}
              </Alert>
            ) : (
              <StationGrid rooms={monitored} apply={apply} alarms={alarms} density={density} noRooms={monitored.length === 0} />
            )}
          </div>
        </div>
        {/* One element from the page: the station's own updates do not draw it again. */}
        {nightSummary}
      </ScreenPage>
    </div>
  );
}

interface StationGridProps {
  rooms: readonly Room[];
  apply: (rows: readonly RoomRow[]) => RoomRow[];
  alarms: ReadonlyMap<string, { count: number; alarm: 'active' | 'ended' | null }>;
  density: Density;
  noRooms: boolean;
}

/**
 * The rooms' tiles with their live states. It alone listens to the states' message each second, and
 * gives each tile plain values (whole rates, whole minutes), so that a tile whose numbers did not
 * change is not drawn again.
 */
const StationGrid = memo(function StationGrid({ rooms, apply, alarms, density, noRooms }: StationGridProps) {
  const { t } = useTranslation();
  const live = useRoomStates();
  const rows: RoomRow[] = useMemo(
    () =>
      apply(
        rooms.map((room) => {
          const state = live.rooms.get(room.documentReferenceId);
          return { room, live: state, state: state?.state ?? 'offline' };
        }),
      ),
    [rooms, live.rooms, apply],
  );
  const stale = !live.connected;
  const lastUpdate = stale && live.at !== null ? formatTimeWithSeconds(live.at) : null;
  const compact = density === 'compact';
  if (rows.length === 0) {
    return (
      <Text c="dimmed" ta="center" py="lg">
        {noRooms ? t('monitoring.noRooms') : t('rooms.noMatch')}
      </Text>
    );
  }
  return (
    <div className={classes.grid} data-density={density} data-testid="monitoring-grid" data-stale={stale ? 'true' : 'false'}>
      {rows.map(({ room, live: state, state: name }) => {
        const alarm = alarms.get(room.documentReferenceId);
        return (
          <StationTile
            key={room.documentReferenceId}
            room={room}
            state={name}
            respiration={shownRate(state?.respirationRate)}
            heart={shownRate(state?.heartRate)}
            minutes={!compact && state !== undefined && live.at !== null ? durationMinutes(state.since, live.at) : null}
            density={density}
            stale={stale}
            lastUpdate={lastUpdate}
            alerts={alarm?.count ?? 0}
            alarm={alarm?.alarm ?? null}
          />
        );
      })}
    </div>
  );
});

/** リアルタイム更新中 while messages arrive, 再接続中 once they stopped, 接続しています… before the first. */
function ConnectionBadge({ connected, wasConnected }: { connected: boolean; wasConnected: boolean }) {
  const { t } = useTranslation();
  const [color, label] = connected
    ? ['teal', t('monitoring.live')]
    : wasConnected
      ? ['orange', t('monitoring.reconnecting')]
      : ['gray', t('monitoring.connecting')];
  return (
    <Badge
      color={color}
      variant={connected ? 'dot' : 'filled'}
      size="lg"
      data-testid="connection"
      data-connection={connected ? 'live' : wasConnected ? 'reconnecting' : 'connecting'}
    >
      {label}
    </Badge>
  );
}
