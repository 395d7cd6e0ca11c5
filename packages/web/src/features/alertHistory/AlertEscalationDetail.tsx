import { Button, Group, Loader, Popover, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DELIVERY_STATUSES, type AlertEscalationView, type DeliveryStatus } from '@nemuri/shared/notifications';
import { formatTimeWithSeconds } from '../../lib/dates.ts';
import { fetchAlertEscalation } from './api/alertHistoryApi.ts';

type Load = { state: 'idle' | 'loading' | 'failed' } | { state: 'loaded'; view: AlertEscalationView };

/** How many deliveries ended in each status: a night's escalation is read at a glance, not row by row. */
function statusCounts(view: AlertEscalationView): [DeliveryStatus, number][] {
  const counts = new Map<DeliveryStatus, number>();
  for (const delivery of view.deliveries) counts.set(delivery.status, (counts.get(delivery.status) ?? 0) + 1);
  return DELIVERY_STATUSES.flatMap((status) => (counts.has(status) ? [[status, counts.get(status) ?? 0] as [DeliveryStatus, number]] : []));
}

function EscalationView({ view }: { view: AlertEscalationView }) {
  const { t } = useTranslation();
  if (view.steps.length === 0) return <Text size="sm">{t('alertHistory.escalation.none')}</Text>;
  return (
    <Stack gap={4} data-testid="alert-escalation">
      {view.steps.map((step) => (
        <Text key={step.step} size="sm">
          {t('alertHistory.escalation.step', {
            step: step.step + 1,
            time: formatTimeWithSeconds(step.at),
            target: t(`notifications.targets.${step.target}`),
            count: step.recipients,
          })}
        </Text>
      ))}
      <Group gap="xs">
        {statusCounts(view).map(([status, count]) => (
          <Text key={status} size="xs" c="dimmed">
            {t(`notifications.log.statuses.${status}`)} {count}
          </Text>
        ))}
      </Group>
      {view.closedReason !== null && (
        <Text size="xs" c="dimmed">
          {t(`alertHistory.escalation.closed.${view.closedReason}`, { defaultValue: view.closedReason })}
        </Text>
      )}
    </Stack>
  );
}

/** The alert's notification steps (who was told, when), loaded when the row's button is opened. */
export function AlertEscalationDetail({ alertId }: { alertId: string }) {
  const { t } = useTranslation();
  const [load, setLoad] = useState<Load>({ state: 'idle' });
  const open = () => {
    if (load.state === 'loading' || load.state === 'loaded') return;
    setLoad({ state: 'loading' });
    fetchAlertEscalation(alertId).then(
      (view) => setLoad({ state: 'loaded', view }),
      () => setLoad({ state: 'failed' }),
    );
  };
  return (
    <Popover width={300} position="bottom-end" withArrow shadow="md" onOpen={open}>
      <Popover.Target>
        <Button variant="subtle" size="compact-sm">
          {t('alertHistory.escalation.button')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        {load.state === 'loaded' ? (
          <EscalationView view={load.view} />
        ) : load.state === 'failed' ? (
          <Text size="sm" c="red">
            {t('alertHistory.escalation.failed')}
          </Text>
        ) : (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm">{t('alertHistory.escalation.loading')}</Text>
          </Group>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
