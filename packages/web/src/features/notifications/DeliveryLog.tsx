/**
 * The delivery log of /domain-config 「通知」: every queued notification of the domain, newest first,
 * a page at a time — who it was for, by which channel and step, how it ended, and each attempt
 * (time, outcome, HTTP status, error, duration), so an administrator can see why a phone stayed quiet.
 */
import { Alert, Badge, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeliveryAttemptView, DeliveryPageView, DeliveryView } from '@nemuri/shared/notifications';
import { notificationErrorMessage } from './notificationErrorMessage.ts';
import { notificationsApi, useLoaded } from './api/notificationsApi.ts';

const STATUS_COLOR: Record<DeliveryView['status'], string> = {
  queued: 'gray',
  sending: 'blue',
  sent: 'teal',
  failed: 'red',
  held: 'yellow',
  summarized: 'grape',
  skipped: 'gray',
};

const COLUMNS = 6;
const dateTime = (iso: string) => new Date(iso).toLocaleString('ja-JP');

function AttemptList({ attempts }: { attempts: DeliveryAttemptView[] }) {
  const { t } = useTranslation();
  if (attempts.length === 0)
    return (
      <Text size="xs" c="dimmed">
        {t('notifications.log.noAttempts')}
      </Text>
    );
  return (
    <Stack gap={2} component="ol" m={0} pl="md" data-testid="delivery-attempts">
      {attempts.map((attempt) => (
        <Text key={attempt.id} size="xs" component="li">
          {t('notifications.log.attempt', {
            number: attempt.attempt,
            at: dateTime(attempt.at),
            outcome: attempt.ok ? t('notifications.log.succeeded') : t('notifications.log.failed'),
            ms: attempt.durationMs,
          })}
          {attempt.statusCode === null ? '' : ` HTTP ${attempt.statusCode}`}
          {attempt.error === null ? '' : ` ${t('notifications.log.attemptError', { error: attempt.error })}`}
        </Text>
      ))}
    </Stack>
  );
}

function DeliveryRows({ page }: { page: DeliveryPageView }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) => setOpen((previous) => new Set(previous.has(id) ? [...previous].filter((other) => other !== id) : [...previous, id]));
  const recipientOf = (delivery: DeliveryView) =>
    delivery.recipient === 'domain' ? t('notifications.log.domainRecipient') : (page.recipientNames[delivery.recipient] ?? delivery.recipient);
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped data-testid="delivery-log">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('notifications.log.at')}</Table.Th>
            <Table.Th>{t('notifications.log.recipient')}</Table.Th>
            <Table.Th>{t('notifications.log.channel')}</Table.Th>
            <Table.Th>{t('notifications.log.step')}</Table.Th>
            <Table.Th>{t('notifications.log.status')}</Table.Th>
            <Table.Th>{t('notifications.log.attempts')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {page.deliveries.map((delivery) => {
            const expanded = open.has(delivery.id);
            return (
              <Fragment key={delivery.id}>
                <Table.Tr data-delivery-id={delivery.id}>
                  <Table.Td>{dateTime(delivery.sentAt ?? delivery.createdAt)}</Table.Td>
                  <Table.Td>{recipientOf(delivery)}</Table.Td>
                  <Table.Td>{t(`notifications.log.channels.${delivery.channel}`)}</Table.Td>
                  <Table.Td>{t('notifications.log.stepNumber', { number: delivery.step + 1 })}</Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLOR[delivery.status]} variant="light">
                      {t(`notifications.log.statuses.${delivery.status}`)}
                    </Badge>
                    {delivery.lastError === null ? null : (
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        {delivery.lastError}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Button variant="subtle" size="compact-xs" aria-expanded={expanded} onClick={() => toggle(delivery.id)}>
                      {t('notifications.log.attemptCount', { count: delivery.attempts })}
                    </Button>
                  </Table.Td>
                </Table.Tr>
                {expanded ? (
                  <Table.Tr>
                    <Table.Td colSpan={COLUMNS}>
                      <AttemptList attempts={page.attempts.filter((attempt) => attempt.queueId === delivery.id)} />
                    </Table.Td>
                  </Table.Tr>
                ) : null}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function DeliveryLog({ domainId }: { domainId: string }) {
  const { t } = useTranslation();
  const [before, setBefore] = useState<number | null>(null);
  const [history, setHistory] = useState<(number | null)[]>([]);
  const page = useLoaded(`${domainId}/${before ?? 'first'}`, () => notificationsApi.deliveries(domainId, before));
  return (
    <Stack gap="sm" component="section" aria-label={t('notifications.log.title')}>
      <Group justify="space-between">
        <Title order={3} size="h5">
          {t('notifications.log.title')}
        </Title>
        <Button variant="subtle" size="compact-sm" onClick={page.reload} loading={page.loading && page.data !== null}>
          {t('notifications.log.refresh')}
        </Button>
      </Group>
      {page.loading && page.data === null && page.error === null ? (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm">{t('notifications.log.loading')}</Text>
        </Group>
      ) : null}
      {page.error !== null ? (
        <Alert color="red" role="alert" title={t('notifications.log.loadFailed')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{notificationErrorMessage(t, page.error)}</Text>
            <Button variant="default" size="compact-sm" onClick={page.reload}>
              {t('notifications.log.retry')}
            </Button>
          </Stack>
        </Alert>
      ) : null}
      {page.data !== null && page.data.deliveries.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="delivery-log-empty">
          {t('notifications.log.empty')}
        </Text>
      ) : null}
      {page.data !== null && page.data.deliveries.length > 0 ? <DeliveryRows key={`${domainId}/${before ?? 'first'}`} page={page.data} /> : null}
      <Group gap="sm">
        <Button
          variant="default"
          size="compact-sm"
          disabled={history.length === 0}
          onClick={() => {
            setBefore(history[history.length - 1] ?? null);
            setHistory(history.slice(0, -1));
          }}
        >
          {t('notifications.log.newer')}
        </Button>
        <Text size="sm" c="dimmed">
          {t('notifications.log.page', { number: history.length + 1 })}
        </Text>
        <Button
          variant="default"
          size="compact-sm"
          disabled={page.data === null || page.data.nextBefore === null}
          onClick={() => {
            setHistory([...history, before]);
            setBefore(page.data?.nextBefore ?? null);
          }}
        >
          {t('notifications.log.older')}
        </Button>
      </Group>
    </Stack>
  );
}
