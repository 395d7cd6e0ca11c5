import { Badge, Button, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { alertStatus } from '@nemuri/shared/monitoring';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTimeWithSeconds } from '../../lib/dates.ts';
import { useDocument } from '../../lib/documents/hooks.ts';
import { iconSize } from '../../lib/icons.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { SEVERITY_COLORS, severityOf } from '../../components/alertSeverityLook.ts';
import type { Room } from '../../components/rooms/RoomCards.tsx';
import type { AlertRecord } from './api/stationAlerts.ts';
import { Elapsed } from './useNow.tsx';

interface AlertListProps {
  alerts: readonly AlertRecord[];
  rooms: ReadonlyMap<string, Room>;
  acknowledging: string | null;
  onAcknowledge(alert: AlertRecord): void;
}

/**
 * The station's alerts, one row each: type, room, resident, start, time since (ticking), and who
 * acknowledged it when, or 「確認」. Rows wrap on a phone instead of cutting anything.
 */
export const AlertList = memo(function AlertList({ alerts, rooms, acknowledging, onAcknowledge }: AlertListProps) {
  return (
    <div data-testid="active-alerts" role="list">
      {alerts.map((alert) => (
        <AlertRow
          key={alert.documentReferenceId}
          alert={alert}
          room={alert.roomId ? rooms.get(alert.roomId) : undefined}
          acknowledging={acknowledging === alert.documentReferenceId}
          onAcknowledge={onAcknowledge}
        />
      ))}
    </div>
  );
});

/** Drawn again only when its alert, room or acknowledging changes (not for another alert's update). */
const AlertRow = memo(function AlertRow({
  alert,
  room,
  acknowledging,
  onAcknowledge,
}: {
  alert: AlertRecord;
  room: Room | undefined;
  acknowledging: boolean;
  onAcknowledge(alert: AlertRecord): void;
}) {
  const { t } = useTranslation();
  const status = alertStatus(alert);
  const severity = severityOf(alert.type);
  const acknowledged = Boolean(alert.acknowledgedAt);
  return (
    <div
      role="listitem"
      data-alert={alert.documentReferenceId}
      data-acknowledged={acknowledged ? 'true' : 'false'}
      data-status={status}
      data-severity={severity}
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        columnGap: 16,
        rowGap: 4,
        padding: '6px 0',
        borderTop: '1px solid var(--mantine-color-default-border)',
      }}
    >
      <div style={{ display: 'flex', gap: 4, flex: '0 0 auto', minWidth: 170 }}>
        <Badge
          color={acknowledged ? 'gray' : SEVERITY_COLORS[severity]}
          variant={acknowledged ? 'light' : 'filled'}
          title={t(`monitoring.severities.${severity}`)}
          styles={{ label: { overflow: 'visible' } }}
        >
          {t(`monitoring.alertTypes.${alert.type}`, { defaultValue: alert.type })}
        </Badge>
        {status === 'endedUnacknowledged' ? (
          <Badge color="gray" variant="outline" data-testid="alert-ended-unacknowledged" styles={{ label: { overflow: 'visible' } }}>
            {t('monitoring.endedUnacknowledged')}
          </Badge>
        ) : null}
      </div>
      <Text fw={700} style={{ flex: '0 0 auto', minWidth: 80, whiteSpace: 'nowrap' }}>
        {room?.name ?? alert.deviceSerial ?? '—'}
      </Text>
      <Text style={{ flex: '1 1 120px', minWidth: 0 }} data-testid="alert-resident">
        {room?.residentName ?? '—'}
      </Text>
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {t('monitoring.startedAt', { time: formatTimeWithSeconds(alert.startedAt) })}
      </Text>
      <Text size="sm" fw={700} style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums', minWidth: 90 }} data-testid="alert-elapsed">
        <Elapsed startedAt={alert.startedAt} />
      </Text>
      <div style={{ marginLeft: 'auto', whiteSpace: 'nowrap' }}>
        {alert.acknowledgedAt ? (
          <Text size="sm" c="dimmed" data-testid="alert-acknowledged">
            <Acknowledger domainId={alert.domainId} uid={alert.acknowledgedBy ?? null} />{' '}
            {t('monitoring.acknowledgedAt', { time: formatTimeWithSeconds(alert.acknowledgedAt) })}
          </Text>
        ) : (
          <Button size="xs" leftSection={<IconCheck size={iconSize('xs')} />} loading={acknowledging} onClick={() => onAcknowledge(alert)}>
            {t('monitoring.acknowledge')}
          </Button>
        )}
      </div>
    </div>
  );
});

/**
 * Who acknowledged: the facility's staff record names them; the signed-in user knows their own name;
 * anyone else (the maker's support, a removed member) reads as a person without a name.
 */
export function Acknowledger({ domainId, uid }: { domainId: string; uid: string | null }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const own = uid !== null && user?.uid === uid;
  const staff = useDocument<{ displayName: string }>(uid === null || own ? null : `domains/${domainId}/staff/${uid}`);
  const name = own ? (user.displayName ?? user.email) : staff.data?.displayName;
  return <>{t('monitoring.acknowledgedBy', { name: name ?? t('monitoring.someone') })}</>;
}
