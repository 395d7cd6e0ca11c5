import { Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconPencil, IconSend } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { CursorPager } from '../../components/CursorPager.tsx';
import { useCursorPages, type CursorPagesState } from '../../lib/cursorPages.ts';
import { iconSize } from '../../lib/icons.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { notify } from '../../lib/notify.ts';
import { Failure, Loading } from './AgencyStatus.tsx';
import {
  agencyApi,
  agencyErrorMessage,
  fetchPartnersPage,
  fetchRequestsPage,
  formatYen,
  type AgencyOverview,
  type AgencyPartnerRequestRow,
  type PartnerRequestsPage,
  type PartnersPage,
  type PartnerRow,
} from './api/agencyApi.ts';
import { partnerPath } from './agencyPaths.ts';
import { PartnerDialog } from './PartnerDialog.tsx';
import { PartnerRequestDialog } from './PartnerRequestDialog.tsx';

/** Partners and requests read a page at a time (GET …/partners and …/partner-requests). */
export const PARTNERS_PAGE = 50;
export const REQUESTS_PAGE = 20;

export function PartnerStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={status === 'active' ? 'teal' : 'gray'} variant="light">
      {t(`agency.partnerStatuses.${status}`, { defaultValue: status })}
    </Badge>
  );
}

/** `2026-02-01 〜 契約中`: the contract's days as stored (calendar days, no time zone to convert). */
export function contractPeriod(t: TFunction, partner: PartnerRow): string {
  if (partner.contractStart === null && partner.contractEnd === null) return '—';
  return t('agency.partners.period', { from: partner.contractStart ?? '', until: partner.contractEnd ?? t('agency.partners.open') });
}

const REQUEST_COLORS: Record<string, string> = { requested: 'yellow', accepted: 'teal', declined: 'red', cancelled: 'gray', ended: 'gray' };

export function RequestStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={REQUEST_COLORS[status] ?? 'gray'} variant="light" data-testid="request-status">
      {t(`agency.requestStatuses.${status}`, { defaultValue: status })}
    </Badge>
  );
}

const when = (iso: string | null) => (iso === null || iso === '' ? '—' : new Date(iso).toLocaleString('ja-JP', { dateStyle: 'medium', timeStyle: 'short' }));

/** A page of the agency's requests to customers and their answers; agency admins withdraw a waiting one. */
function PartnerRequests({
  agencyId,
  canEdit,
  pages,
  onChanged,
}: {
  agencyId: string;
  canEdit: boolean;
  pages: CursorPagesState<PartnerRequestsPage>;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<string | null>(null);
  const cancel = async (request: AgencyPartnerRequestRow) => {
    setBusy(request.domainId);
    try {
      await agencyApi.cancelRequest(agencyId, request.domainId);
      notify({ color: 'green', message: t('agency.requests.cancelled', { name: request.customerName }) });
      onChanged();
    } catch (error) {
      notify({ color: 'red', message: agencyErrorMessage(t, error) });
    } finally {
      setBusy(null);
    }
  };
  if (pages.error !== null) return <Failure message={agencyErrorMessage(t, pages.error)} />;
  if (pages.page === null) return <Loading label={t('agency.loading')} />;
  const requests = pages.page.requests;
  if (requests.length === 0 && pages.pageIndex === 0) return <Text c="dimmed">{t('agency.requests.empty')}</Text>;
  return (
    <Stack gap="xs" aria-busy={pages.loading} style={{ opacity: pages.loading ? 0.6 : 1 }}>
      <Table.ScrollContainer minWidth={640}>
        <Table striped data-testid="agency-partner-requests">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('agency.requests.columns.name')}</Table.Th>
              <Table.Th>{t('agency.requests.columns.status')}</Table.Th>
              <Table.Th>{t('agency.requests.columns.requestedAt')}</Table.Th>
              <Table.Th>{t('agency.requests.columns.answeredAt')}</Table.Th>
              <Table.Th ta="right">{t('agency.partners.columns.unitPrice')}</Table.Th>
              {canEdit ? <Table.Th /> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {requests.map((request) => (
              <Table.Tr key={request.domainId} data-testid="agency-request-row" data-domain={request.domainId} data-status={request.status}>
                <Table.Td>{request.customerName}</Table.Td>
                <Table.Td>
                  <RequestStatusBadge status={request.status} />
                </Table.Td>
                <Table.Td>{when(request.requestedAt)}</Table.Td>
                <Table.Td>{when(request.answeredAt)}</Table.Td>
                <Table.Td ta="right">{formatYen(request.monthlyUnitPrice)}</Table.Td>
                {canEdit ? (
                  <Table.Td>
                    {request.status === 'requested' ? (
                      <Button
                        size="compact-sm"
                        variant="default"
                        color="red"
                        loading={busy === request.domainId}
                        onClick={() => void cancel(request)}
                        aria-label={t('agency.requests.cancelOf', { name: request.customerName })}
                      >
                        {t('agency.requests.cancel')}
                      </Button>
                    ) : null}
                  </Table.Td>
                ) : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <CursorPager pages={pages} previousLabel={t('agency.requests.newer')} nextLabel={t('agency.requests.older')} testId="agency-requests-pager" />
    </Stack>
  );
}

/** A page of the partners with their contracts and counts; agency admins edit a contract. */
function PartnerList({
  agencyId,
  canEdit,
  withAgency,
  pages,
  onEdit,
}: {
  agencyId: string;
  canEdit: boolean;
  withAgency: boolean;
  pages: CursorPagesState<PartnersPage>;
  onEdit: (partner: PartnerRow) => void;
}) {
  const { t } = useTranslation();
  if (pages.error !== null) return <Failure message={agencyErrorMessage(t, pages.error)} />;
  if (pages.page === null) return <Loading label={t('agency.loading')} />;
  const partners = pages.page.partners;
  if (partners.length === 0 && pages.pageIndex === 0) return <Text c="dimmed">{t('agency.partners.empty')}</Text>;
  return (
    <Stack gap="xs" aria-busy={pages.loading} style={{ opacity: pages.loading ? 0.6 : 1 }}>
      <Table.ScrollContainer minWidth={820}>
        <Table striped highlightOnHover data-testid="agency-partners">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('agency.partners.columns.name')}</Table.Th>
              <Table.Th>{t('agency.partners.columns.contract')}</Table.Th>
              <Table.Th ta="right">{t('agency.partners.columns.unitPrice')}</Table.Th>
              <Table.Th>{t('agency.partners.columns.status')}</Table.Th>
              <Table.Th ta="right">{t('agency.partners.columns.devices')}</Table.Th>
              <Table.Th ta="right">{t('agency.partners.columns.rooms')}</Table.Th>
              {canEdit ? <Table.Th /> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {partners.map((partner) => (
              <Table.Tr key={partner.id} data-testid="agency-partner-row" data-partner={partner.id}>
                <Table.Td>
                  <Anchor component={Link} to={partnerPath(agencyId, partner.id, withAgency)}>
                    {partner.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{contractPeriod(t, partner)}</Table.Td>
                <Table.Td ta="right">{formatYen(partner.monthlyUnitPrice)}</Table.Td>
                <Table.Td>
                  <PartnerStatusBadge status={partner.status} />
                </Table.Td>
                <Table.Td ta="right">{partner.deviceCount}</Table.Td>
                <Table.Td ta="right">{partner.roomCount}</Table.Td>
                {canEdit ? (
                  <Table.Td>
                    <Button
                      size="compact-sm"
                      variant="default"
                      leftSection={<IconPencil size={iconSize('xs')} />}
                      onClick={() => onEdit(partner)}
                      aria-label={t('agency.partners.editOf', { name: partner.name })}
                    >
                      {t('agency.partners.edit')}
                    </Button>
                  </Table.Td>
                ) : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <CursorPager pages={pages} previousLabel={t('agency.partners.previousPage')} nextLabel={t('agency.partners.nextPage')} testId="agency-partners-pager" />
    </Stack>
  );
}

/**
 * /agency/partners: the agency's partners with their contracts and what they hold, and its requests
 * to customers. A partner comes only from a request the customer's owner accepts; agency admins send
 * requests and edit the contracts of partners they have.
 */
export function AgencyPartners({ agencyId, overview, reload }: { agencyId: string; overview: AgencyOverview; reload: () => void }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const withAgency = (user?.accessLevel ?? 0) >= ROLE_LEVELS.developer;
  const [editing, setEditing] = useState<PartnerRow | null>(null);
  const [asking, setAsking] = useState(false);
  const partners = useCursorPages<{ agencyId: string }, PartnersPage>({ agencyId }, PARTNERS_PAGE, fetchPartnersPage);
  const requests = useCursorPages<{ agencyId: string }, PartnerRequestsPage>({ agencyId }, REQUESTS_PAGE, fetchRequestsPage);
  const reloadPartners = partners.reload;
  const reloadRequests = requests.reload;
  const changed = useCallback(() => {
    reload();
    reloadPartners();
    reloadRequests();
  }, [reload, reloadPartners, reloadRequests]);

  return (
    <>
      {overview.canEdit ? (
        <Group>
          <Button leftSection={<IconSend size={iconSize('xs')} />} onClick={() => setAsking(true)}>
            {t('agency.partners.create')}
          </Button>
        </Group>
      ) : null}
      <PartnerList agencyId={agencyId} canEdit={overview.canEdit} withAgency={withAgency} pages={partners} onEdit={setEditing} />
      <Title order={3} size="h4" mt="md">
        {t('agency.requests.title')}
      </Title>
      <PartnerRequests agencyId={agencyId} canEdit={overview.canEdit} pages={requests} onChanged={changed} />
      {editing !== null ? (
        <PartnerDialog key={editing.id} agencyId={agencyId} partner={editing} opened onClose={() => setEditing(null)} onSaved={changed} />
      ) : null}
      {asking ? <PartnerRequestDialog agencyId={agencyId} opened onClose={() => setAsking(false)} onSent={changed} /> : null}
    </>
  );
}
