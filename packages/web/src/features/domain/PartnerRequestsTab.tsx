import { Alert, Badge, Button, Card, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CursorPager } from '../../components/CursorPager.tsx';
import { useCursorPages } from '../../lib/cursorPages.ts';
import { notify } from '../../lib/notify.ts';
import {
  fetchCustomerRequestsPage,
  partnerRequestErrorMessage,
  partnerRequestsApi,
  type CustomerPartnerRequestRow,
  type CustomerRequestsPage,
} from './api/partnerRequestsApi.ts';

/** Requests on a page: enough for a phone screen of cards, with the pager for the rest. */
const PAGE_SIZE = 20;

const COLORS: Record<string, string> = { requested: 'yellow', accepted: 'teal', declined: 'gray', cancelled: 'gray', ended: 'gray' };

const day = (iso: string | null) => (iso === null || iso === '' ? null : new Date(iso).toLocaleDateString('ja-JP', { dateStyle: 'medium' }));

/** One agency's request or partnership, as a card (readable on a phone), with the actions it allows. */
function RequestCard({
  row,
  busy,
  onAnswer,
  onEnd,
}: {
  row: CustomerPartnerRequestRow;
  busy: boolean;
  onAnswer: (accept: boolean) => void;
  onEnd: () => void;
}) {
  const { t } = useTranslation();
  const status = row.partner ? 'accepted' : row.status;
  const requested = day(row.requestedAt);
  const answered = day(row.answeredAt);
  return (
    <Card withBorder padding="sm" data-testid="partner-request" data-agency={row.agencyId} data-status={status}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600}>{row.agencyName}</Text>
          <Badge color={COLORS[status] ?? 'gray'} variant="light" style={{ flexShrink: 0 }}>
            {t(`domainConfig.partnerRequests.statuses.${status}`)}
          </Badge>
        </Group>
        {row.monthlyUnitPrice !== null ? (
          <Text size="sm">{t('domainConfig.partnerRequests.price', { price: `${row.monthlyUnitPrice.toLocaleString('ja-JP')}円` })}</Text>
        ) : null}
        {row.contractStart !== null ? <Text size="sm">{t('domainConfig.partnerRequests.contractFrom', { date: row.contractStart })}</Text> : null}
        {row.message !== null ? (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {row.message}
          </Text>
        ) : null}
        <Text size="xs" c="dimmed">
          {[
            requested === null ? null : t('domainConfig.partnerRequests.requestedAt', { date: requested }),
            answered === null ? null : t('domainConfig.partnerRequests.answeredAt', { date: answered }),
          ]
            .filter((part) => part !== null)
            .join('・')}
        </Text>
        {row.status === 'requested' && !row.partner ? (
          <Group gap="xs" grow>
            <Button
              color="teal"
              loading={busy}
              onClick={() => onAnswer(true)}
              aria-label={t('domainConfig.partnerRequests.acceptOf', { name: row.agencyName })}
            >
              {t('domainConfig.partnerRequests.accept')}
            </Button>
            <Button
              variant="default"
              disabled={busy}
              onClick={() => onAnswer(false)}
              aria-label={t('domainConfig.partnerRequests.declineOf', { name: row.agencyName })}
            >
              {t('domainConfig.partnerRequests.decline')}
            </Button>
          </Group>
        ) : null}
        {row.partner ? (
          <Group justify="flex-end">
            <Button variant="default" color="red" loading={busy} onClick={onEnd} aria-label={t('domainConfig.partnerRequests.endOf', { name: row.agencyName })}>
              {t('domainConfig.partnerRequests.end')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}

/**
 * Domain configuration, 代理店 tab (levels 4-5, their root domain): agencies' requests to make this
 * corporation or household their partner, answered here, and the partnerships in force, ended here.
 * Accepting is what lets an agency see the customer's devices and rooms. A page at a time, newest
 * first (the server pages them), so no request is left out however many agencies have asked.
 */
export function PartnerRequestsTab({ domainId }: { domainId: string }) {
  const { t } = useTranslation();
  const requests = useCursorPages<{ domainId: string }, CustomerRequestsPage>({ domainId }, PAGE_SIZE, fetchCustomerRequestsPage);
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [ending, setEnding] = useState<CustomerPartnerRequestRow | null>(null);

  const act = async (row: CustomerPartnerRequestRow, action: () => Promise<void>, done: string) => {
    setBusy(row.agencyId);
    setFailure(null);
    try {
      await action();
      requests.reload();
      notify({ color: 'green', message: t(done, { name: row.agencyName }) });
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(null);
    }
  };
  const answer = (row: CustomerPartnerRequestRow, accept: boolean) =>
    void act(
      row,
      () => partnerRequestsApi.answer(domainId, row.agencyId, accept),
      accept ? 'domainConfig.partnerRequests.accepted' : 'domainConfig.partnerRequests.declined',
    );
  const end = (row: CustomerPartnerRequestRow) => {
    setEnding(null);
    void act(row, () => partnerRequestsApi.end(domainId, row.agencyId), 'domainConfig.partnerRequests.ended');
  };

  if (requests.error !== null)
    return <Alert color="red" role="alert">{`${t('domainConfig.partnerRequests.loadFailed')} ${partnerRequestErrorMessage(t, requests.error)}`}</Alert>;
  if (requests.page === null)
    return (
      <Group gap="xs">
        <Loader size="sm" />
        <Text size="sm">{t('domainConfig.partnerRequests.loading')}</Text>
      </Group>
    );
  const rows = requests.page.requests;
  const groups = [
    { key: 'pending', rows: rows.filter((row) => row.status === 'requested' && !row.partner) },
    { key: 'partners', rows: rows.filter((row) => row.partner) },
    { key: 'history', rows: rows.filter((row) => row.status !== 'requested' && !row.partner) },
  ].filter((group) => group.rows.length > 0);

  return (
    <Stack data-testid="partner-requests" aria-busy={requests.loading} style={{ opacity: requests.loading ? 0.6 : 1 }}>
      <Text size="sm" c="dimmed">
        {t('domainConfig.partnerRequests.intro')}
      </Text>
      {failure !== null ? (
        <Alert color="red" role="alert" withCloseButton onClose={() => setFailure(null)}>
          {partnerRequestErrorMessage(t, failure)}
        </Alert>
      ) : null}
      {rows.length === 0 && requests.pageIndex === 0 ? <Text c="dimmed">{t('domainConfig.partnerRequests.empty')}</Text> : null}
      {groups.map((group) => (
        <Stack key={group.key} gap="xs">
          <Title order={3} size="h5">
            {t(`domainConfig.partnerRequests.${group.key}`)}
          </Title>
          {group.rows.map((row) => (
            <RequestCard key={row.agencyId} row={row} busy={busy === row.agencyId} onAnswer={(accept) => answer(row, accept)} onEnd={() => setEnding(row)} />
          ))}
        </Stack>
      ))}
      <CursorPager
        pages={requests}
        previousLabel={t('domainConfig.partnerRequests.newer')}
        nextLabel={t('domainConfig.partnerRequests.older')}
        testId="partner-requests-pager"
      />
      <Modal opened={ending !== null} onClose={() => setEnding(null)} title={t('domainConfig.partnerRequests.confirmEndTitle')}>
        <Stack>
          <Text size="sm">{t('domainConfig.partnerRequests.confirmEnd', { name: ending?.agencyName ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setEnding(null)}>
              {t('domainConfig.partnerRequests.back')}
            </Button>
            <Button color="red" onClick={() => ending !== null && end(ending)}>
              {t('domainConfig.partnerRequests.confirmEndButton')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
