import { Badge } from '@mantine/core';
import { IconBellRinging, IconHeartbeat, IconLungs } from '@tabler/icons-react';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { iconSize } from '../../lib/icons.ts';
import type { Room, RoomRow } from '../../components/rooms/RoomCards.tsx';
import { STATE_LOOKS } from '../../components/rooms/roomStateLook.ts';
import classes from './station.module.css';
import type { Density } from './stationDensity.ts';

/**
 * Everything a tile shows, as plain values: the grid gets new live states every second, and a tile
 * whose values did not change (most of them, most seconds) is not rendered again.
 */
export interface StationTileProps {
  room: Room;
  state: RoomRow['state'];
  /** Breaths and beats per minute as shown (whole numbers), null when unknown. */
  respiration: number | null;
  heart: number | null;
  /** Whole minutes the state has lasted (shown in the comfortable density), null when unknown or not shown. */
  minutes: number | null;
  density: Density;
  /** No live data now: the tile is greyed and says when it was last updated. */
  stale: boolean;
  /** hh:mm:ss of the latest live message while stale, null otherwise. */
  lastUpdate: string | null;
  alerts: number;
  alarm: 'active' | 'ended' | null;
}

/** A rate as a tile shows it: whole, or null when unknown. */
export const shownRate = (value: number | null | undefined): number | null => (value === null || value === undefined ? null : Math.round(value));
const rate = (value: number | null) => (value === null ? '—' : value.toString());

/**
 * One room on the station: its state, respiration and heart rate (both 回/分), and an alarm outline
 * that pulses while an alert waits for a person. It opens the room's page. Plain elements rather than
 * layout components: a hundred of them are drawn on one screen.
 */
export const StationTile = memo(function StationTile({
  room,
  state,
  respiration,
  heart,
  minutes,
  density,
  stale,
  lastUpdate,
  alerts,
  alarm,
}: StationTileProps) {
  const { t } = useTranslation();
  const look = STATE_LOOKS[state] ?? STATE_LOOKS.offline;
  const compact = density === 'compact';
  const lastUpdateText = lastUpdate !== null ? t('monitoring.lastUpdate', { time: lastUpdate }) : null;
  const resident = room.residentName ?? '';
  const rateIcon = iconSize('xs') - (compact ? 4 : 0);

  return (
    <Link
      to={`/room/${encodeURIComponent(room.documentReferenceId)}/sleep`}
      className={classes.tile}
      style={{ borderLeftColor: `var(--mantine-color-${look.color}-6)` }}
      data-testid="room-card"
      data-room={room.documentReferenceId}
      data-stale={stale ? 'true' : 'false'}
      data-alarm={alarm ?? undefined}
      title={resident === '' ? room.name : `${room.name} ${resident}`}
      aria-label={[
        room.name,
        resident,
        t(`rooms.states.${state}`, { defaultValue: state }),
        alerts > 0 ? t('monitoring.alertCount', { count: alerts }) : '',
        lastUpdateText ?? '',
      ]
        .filter(Boolean)
        .join(' ')}
    >
      <div className={classes.line}>
        <p className={`${classes.tileName} ${classes.name}`}>{room.name}</p>
        {alerts > 0 ? <AlertCount count={alerts} compact={compact} /> : null}
      </div>
      <div className={`${classes.line} ${classes.tileRow}`}>
        <span className={classes.keep} data-testid="tile-state">
          <StateLabel state={state} />
        </span>
        {minutes !== null && !compact ? (
          <p className={`${classes.since} ${classes.keep}`}>
            {minutes >= 60 ? t('rooms.sinceHours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 }) : t('rooms.sinceMinutes', { minutes })}
          </p>
        ) : null}
      </div>
      {compact ? null : <p className={`${classes.resident} ${classes.name}`}>{resident === '' ? '—' : resident}</p>}
      <div className={`${classes.line} ${classes.tileRow}`}>
        {lastUpdateText !== null ? (
          <p className={`${classes.lastUpdate} ${classes.keep}`} data-testid="tile-last-update">
            {lastUpdateText}
          </p>
        ) : (
          <div className={`${classes.rates} ${classes.keep}`} data-testid="tile-rates">
            <span className={classes.rate} aria-label={t('rooms.respiration')}>
              <IconLungs size={rateIcon} aria-hidden />
              <p className={classes.rateValue}>{compact ? rate(respiration) : t('rooms.perMinute', { value: rate(respiration) })}</p>
            </span>
            <span className={classes.rate} aria-label={t('rooms.heartRate')}>
              <IconHeartbeat size={rateIcon} aria-hidden />
              <p className={classes.rateValue}>{compact ? rate(heart) : t('rooms.perMinute', { value: rate(heart) })}</p>
            </span>
            {compact ? <p className={classes.rateUnit}>{t('rooms.rateUnit')}</p> : null}
          </div>
        )}
      </div>
    </Link>
  );
});

/** The state's name in full (never cut), in its colour and with its icon; not drawn again when only the rates moved. */
const StateLabel = memo(function StateLabel({ state }: { state: RoomRow['state'] }) {
  const { t } = useTranslation();
  const look = STATE_LOOKS[state] ?? STATE_LOOKS.offline;
  const Icon = look.icon;
  return (
    <Badge
      color={look.color}
      variant="light"
      size="md"
      leftSection={<Icon size={iconSize('xs') - 4} aria-hidden />}
      data-state={state}
      styles={{ label: { overflow: 'visible' } }}
    >
      {t(`rooms.states.${state}`, { defaultValue: state })}
    </Badge>
  );
});

const AlertCount = memo(function AlertCount({ count, compact = false }: { count: number; compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge
      className={classes.keep}
      color="red"
      variant="filled"
      size={compact ? 'xs' : 'sm'}
      leftSection={<IconBellRinging size={iconSize('xs') - 4} aria-hidden />}
      aria-label={t('monitoring.alertCount', { count })}
    >
      {compact ? count : t('monitoring.alertCount', { count })}
    </Badge>
  );
});
