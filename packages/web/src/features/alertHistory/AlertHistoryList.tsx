import { Anchor, Badge, Card, Group, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AlertHistoryRow } from '@nemuri/shared/alertHistory';
import type { AlertStatus } from '@nemuri/shared/monitoring';
import { SEVERITY_COLORS } from '../../components/alertSeverityLook.ts';
import { formatDateTime, formatTimeWithSeconds } from '../../lib/dates.ts';
import { AlertEscalationDetail } from './AlertEscalationDetail.tsx';
import { durationParts } from './alertHistoryFilter.ts';

const STATUS_COLORS: Record<AlertStatus, string> = {
  activeUnacknowledged: 'red',
  activeAcknowledged: 'orange',
  endedUnacknowledged: 'grape',
  endedAcknowledged: 'gray',
};

function RoomCell({ row }: { row: AlertHistoryRow }) {
  const { t } = useTranslation();
  const name = row.roomName ?? t('alertHistory.unknownRoom');
  return (
    <Stack gap={0}>
      {row.roomId !== null && row.roomName !== null ? (
        <Anchor component={Link} to={`/room/${encodeURIComponent(row.roomId)}/sleep`} fw={600}>
          {name}
        </Anchor>
      ) : (
        <Text fw={600}>{name}</Text>
      )}
      <Text size="sm" c="dimmed">
        {row.residentName ?? t('alertHistory.noResident')}
      </Text>
    </Stack>
  );
}

function TypeCell({ row }: { row: AlertHistoryRow }) {
  const { t } = useTranslation();
  return (
    <Group gap={6} wrap="nowrap">
      <Badge color={SEVERITY_COLORS[row.severity]} variant="filled" style={{ flexShrink: 0 }}>
        {t(`monitoring.severities.${row.severity}`)}
      </Badge>
      <Text fw={500} style={{ whiteSpace: 'nowrap' }}>
        {t(`monitoring.alertTypes.${row.type}`)}
      </Text>
    </Group>
  );
}

function Duration({ row }: { row: AlertHistoryRow }) {
  const { t } = useTranslation();
  const { key, values } = durationParts(row.durationSec);
  const text = t(`alertHistory.duration.${key}`, values);
  return <span style={{ whiteSpace: 'nowrap' }}>{row.endedAt === null ? t('alertHistory.ongoingFor', { duration: text }) : text}</span>;
}

function Acknowledged({ row }: { row: AlertHistoryRow }) {
  const { t } = useTranslation();
  if (row.acknowledgedAt === null) return <Text c="dimmed">{t('alertHistory.notAcknowledged')}</Text>;
  return (
    <Stack gap={0}>
      <Text>{row.acknowledgedByName ?? t('alertHistory.someStaff')}</Text>
      <Text size="sm" c="dimmed">
        {formatDateTime(row.acknowledgedAt)}
      </Text>
    </Stack>
  );
}

function StatusBadge({ status }: { status: AlertStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" style={{ whiteSpace: 'nowrap' }}>
      {t(`alertHistory.states.${status}`)}
    </Badge>
  );
}

/** Alerts as a table on wide screens and as cards on a phone; each row keeps its alert id (`data-alert-id`). */
export function AlertHistoryList({ rows }: { rows: readonly AlertHistoryRow[] }) {
  const { t } = useTranslation();
  const narrow = useMediaQuery('(max-width: 48em)') ?? false;
  if (narrow) {
    return (
      <Stack gap="sm" data-testid="alert-history">
        {rows.map((row) => (
          <Card key={row.id} withBorder radius="md" padding="sm" data-alert-id={row.id} data-status={row.status}>
            <Stack gap={6}>
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <RoomCell row={row} />
                <StatusBadge status={row.status} />
              </Group>
              <TypeCell row={row} />
              <Text size="sm">
                {formatDateTime(row.startedAt)}
                {row.endedAt !== null ? ` 〜 ${formatTimeWithSeconds(row.endedAt)}` : ''} · <Duration row={row} />
              </Text>
              <Group justify="space-between" align="flex-end">
                <Acknowledged row={row} />
                <AlertEscalationDetail alertId={row.id} />
              </Group>
            </Stack>
          </Card>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={960}>
      <Table verticalSpacing="xs" striped highlightOnHover data-testid="alert-history">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('alertHistory.columns.room')}</Table.Th>
            <Table.Th>{t('alertHistory.columns.type')}</Table.Th>
            <Table.Th>{t('alertHistory.columns.start')}</Table.Th>
            <Table.Th>{t('alertHistory.columns.end')}</Table.Th>
            <Table.Th>{t('alertHistory.columns.duration')}</Table.Th>
            <Table.Th>{t('alertHistory.columns.state')}</Table.Th>
            <Table.Th>{t('alertHistory.columns.acknowledged')}</Table.Th>
            <Table.Th>{t('alertHistory.columns.notifications')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id} data-alert-id={row.id} data-status={row.status}>
              <Table.Td>
                <RoomCell row={row} />
              </Table.Td>
              <Table.Td>
                <TypeCell row={row} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(row.startedAt)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{row.endedAt === null ? '—' : formatTimeWithSeconds(row.endedAt)}</Table.Td>
              <Table.Td>
                <Duration row={row} />
              </Table.Td>
              <Table.Td>
                <StatusBadge status={row.status} />
              </Table.Td>
              <Table.Td>
                <Acknowledged row={row} />
              </Table.Td>
              <Table.Td>
                <AlertEscalationDetail alertId={row.id} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
