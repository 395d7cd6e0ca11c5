import { Button, Group, Paper, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import { alertStatus } from '@nemuri/shared/monitoring';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { iconSize } from '../../lib/icons.ts';
import { SEVERITY_COLORS, severityOf } from '../../components/alertSeverityLook.ts';
import type { Room } from '../../components/rooms/RoomCards.tsx';
import classes from './station.module.css';
import type { AlertRecord } from './api/stationAlerts.ts';
import { Elapsed } from './useNow.tsx';

interface AlertBannerProps {
  alert: AlertRecord;
  /** Unacknowledged alerts besides this one. */
  others: number;
  room: Room | undefined;
  acknowledging: boolean;
  onAcknowledge(alert: AlertRecord): void;
}

/**
 * The alarm that cannot be missed: across the whole width, kept in view while scrolling, naming the
 * most urgent alert that waits for a person (room, resident, type, time since it began).
 */
export function AlertBanner({ alert, others, room, acknowledging, onAcknowledge }: AlertBannerProps) {
  const { t } = useTranslation();
  const severity = severityOf(alert.type);
  const ended = alertStatus(alert) === 'endedUnacknowledged';
  const roomName = room?.name ?? alert.deviceSerial ?? '—';
  return (
    <Paper
      className={classes.banner}
      role="alert"
      aria-live="assertive"
      data-testid="alert-banner"
      data-banner-alert={alert.documentReferenceId}
      data-severity={ended ? 'ended' : severity}
      bg={`${SEVERITY_COLORS[severity]}.${ended ? 4 : 7}`}
      c={severity === 'minor' || ended ? 'black' : 'white'}
      p="sm"
      radius="md"
      shadow="md"
    >
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="md" wrap="wrap" align="baseline" className={classes.bannerText}>
          <IconAlertTriangle size={iconSize('md')} aria-hidden style={{ alignSelf: 'center' }} />
          <Text fz={{ base: 18, sm: 26 }} fw={800} style={{ whiteSpace: 'nowrap' }}>
            {t(`monitoring.alertTypes.${alert.type}`, { defaultValue: alert.type })}
            {ended ? ` (${t('monitoring.endedUnacknowledged')})` : ''}
          </Text>
          {room ? (
            <Text
              fz={{ base: 18, sm: 26 }}
              fw={800}
              style={{ whiteSpace: 'nowrap' }}
              component={Link}
              to={`/room/${encodeURIComponent(room.documentReferenceId)}/sleep`}
              c="inherit"
            >
              {roomName}
            </Text>
          ) : (
            <Text fz={{ base: 18, sm: 26 }} fw={800} style={{ whiteSpace: 'nowrap' }}>
              {roomName}
            </Text>
          )}
          <Text fz={{ base: 16, sm: 22 }} fw={600} className={classes.bannerResident}>
            {room?.residentName ?? ''}
          </Text>
          <Text fz={{ base: 16, sm: 22 }} fw={700} style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }} data-testid="banner-elapsed">
            <Elapsed startedAt={alert.startedAt} />
          </Text>
          {others > 0 ? (
            <Text fw={600} style={{ whiteSpace: 'nowrap' }}>
              {t('monitoring.moreAlerts', { count: others })}
            </Text>
          ) : null}
        </Group>
        <Button
          size="md"
          color="dark"
          variant="white"
          leftSection={<IconCheck size={iconSize('sm')} />}
          loading={acknowledging}
          onClick={() => onAcknowledge(alert)}
        >
          {t('monitoring.acknowledgeRoom', { room: roomName })}
        </Button>
      </Group>
    </Paper>
  );
}
