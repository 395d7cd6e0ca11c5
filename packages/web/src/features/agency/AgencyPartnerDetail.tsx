import { Anchor, Badge, Button, Group, Pagination, Paper, SimpleGrid, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { AGENCY_ROOMS_PAGE, type RoomsPage } from '@nemuri/shared/billing/agencyAnswers';
import { IconArrowLeft, IconPencil } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ROLE_LEVELS, roleOfLevel } from '@nemuri/shared/roles';
import { formatDateTime } from '../../lib/dates.ts';
import { iconSize } from '../../lib/icons.ts';
import { useCursorPages } from '../../lib/cursorPages.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { AgencyDevices } from './AgencyDevices.tsx';
import { BILLS_PAGE, GenerateBills, PagedBills } from './AgencyBills.tsx';
import { contractPeriod, PartnerStatusBadge } from './AgencyPartners.tsx';
import { Failure, Loading } from './AgencyStatus.tsx';
import {
  agencyApi,
  agencyErrorMessage,
  fetchBillsPage,
  formatYen,
  type AgencyOverview,
  type BillsFilter,
  type BillsPage,
  type PartnerRow,
  type StaffRow,
} from './api/agencyApi.ts';
import { agencyPath, isPartnerTab, PARTNER_TABS, partnerPath, type PartnerTab } from './agencyPaths.ts';
import { PartnerDialog } from './PartnerDialog.tsx';

function Overview({ partner }: { partner: PartnerRow }) {
  const { t } = useTranslation();
  const items: [string, string][] = [
    [t('agency.partners.columns.contract'), contractPeriod(t, partner)],
    [t('agency.partners.columns.unitPrice'), formatYen(partner.monthlyUnitPrice)],
    [t('agency.partners.columns.devices'), String(partner.deviceCount)],
    [t('agency.partners.columns.rooms'), String(partner.roomCount)],
    [t('agency.partners.domains'), String(partner.domainIds.length)],
    [t('agency.statistics.unpaid'), formatYen(partner.unpaidTotal)],
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 3 }} data-testid="partner-overview">
      {items.map(([label, value]) => (
        <Paper key={label} withBorder p="sm" radius="md">
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text fw={600}>{value}</Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** The partner's rooms, a page at a time from the server (GET …/rooms). */
function Rooms({ agencyId, partner }: { agencyId: string; partner: PartnerRow }) {
  const { t } = useTranslation();
  const key = `${agencyId} ${partner.id}`;
  const [paging, setPaging] = useState({ key, page: 1 });
  const page = paging.key === key ? paging.page : 1;
  const [result, setResult] = useState<{ request: string; answer: RoomsPage | null } | null>(null);
  const request = `${key} ${page}`;
  useEffect(() => {
    let current = true;
    agencyApi.rooms(agencyId, partner.id, AGENCY_ROOMS_PAGE, (page - 1) * AGENCY_ROOMS_PAGE).then(
      (answer) => {
        if (current) setResult({ request, answer });
      },
      () => {
        if (current) setResult({ request, answer: null });
      },
    );
    return () => {
      current = false;
    };
  }, [agencyId, partner.id, page, request]);
  if (result === null) return <Loading label={t('agency.rooms.loading')} />;
  if (result.answer === null) return <Failure message={t('agency.rooms.loadFailed')} />;
  const { rooms, matched } = result.answer;
  if (matched === 0) return <Text c="dimmed">{t('agency.rooms.empty')}</Text>;
  const pages = Math.ceil(matched / AGENCY_ROOMS_PAGE);
  return (
    <Stack gap="xs" aria-busy={result.request !== request} style={{ opacity: result.request !== request ? 0.6 : 1 }}>
      <Table.ScrollContainer minWidth={640}>
        <Table striped data-testid="partner-rooms">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('agency.rooms.domain')}</Table.Th>
              <Table.Th>{t('agency.rooms.name')}</Table.Th>
              <Table.Th>{t('agency.rooms.device')}</Table.Th>
              <Table.Th>{t('agency.rooms.status')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rooms.map((room) => (
              <Table.Tr key={room.id}>
                <Table.Td>{room.domainName}</Table.Td>
                <Table.Td>{room.name}</Table.Td>
                <Table.Td ff="monospace">{room.deviceSerial ?? '—'}</Table.Td>
                <Table.Td>{room.status === null ? '—' : t(`agency.roomStatuses.${room.status}`, { defaultValue: room.status })}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 ? (
        <Pagination
          total={pages}
          value={page}
          onChange={(next) => setPaging({ key, page: next })}
          size="sm"
          data-testid="rooms-pager"
          getControlProps={(control) => ({ 'aria-label': t(`agency.devices.pager.${control}`) })}
          getItemProps={(item) => ({ 'aria-label': t('auditLog.pageOf', { page: item }) })}
        />
      ) : null}
    </Stack>
  );
}

/** The partner's staff, read-only: the agency sees who works there, the partner manages them. */
function Staff({ agencyId, partner, overview }: { agencyId: string; partner: PartnerRow; overview: AgencyOverview }) {
  const { t } = useTranslation();
  const [state, setState] = useState<{ rows: StaffRow[] | null; error: unknown }>({ rows: null, error: null });
  useEffect(() => {
    let current = true;
    agencyApi.staff(agencyId, partner.id).then(
      (reply) => current && setState({ rows: reply.staff, error: null }),
      (error: unknown) => current && setState({ rows: null, error }),
    );
    return () => {
      current = false;
    };
  }, [agencyId, partner.id]);
  const domainName = useMemo(() => new Map(overview.domains.map((domain) => [domain.id, domain.name])), [overview.domains]);
  if (state.error !== null) return <Failure message={agencyErrorMessage(t, state.error)} />;
  if (state.rows === null) return <Loading label={t('agency.loading')} />;
  if (state.rows.length === 0) return <Text c="dimmed">{t('agency.staff.empty')}</Text>;
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped data-testid="partner-staff">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('agency.staff.name')}</Table.Th>
            <Table.Th>{t('agency.staff.email')}</Table.Th>
            <Table.Th>{t('agency.staff.domain')}</Table.Th>
            <Table.Th>{t('agency.staff.role')}</Table.Th>
            <Table.Th>{t('agency.staff.lastSignIn')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {state.rows.map((row) => (
            <Table.Tr key={`${row.domainId}/${row.documentReferenceId}`}>
              <Table.Td>
                {row.displayName}
                {row.disabled === true ? (
                  <Badge ml="xs" color="gray" variant="light">
                    {t('agency.staff.disabled')}
                  </Badge>
                ) : null}
              </Table.Td>
              <Table.Td>{row.email}</Table.Td>
              <Table.Td>{domainName.get(row.domainId) ?? row.domainId}</Table.Td>
              <Table.Td>{t(`roles.${roleOfLevel(row.accessLevel)}`)}</Table.Td>
              <Table.Td>{row.lastSignInAt ? formatDateTime(row.lastSignInAt) : '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** /agency/partner/:partnerId: one partner with tabs overview, devices, rooms, bills and staff (`?tab=`). */
export function AgencyPartnerDetail({
  agencyId,
  overview,
  partnerId,
  reload,
}: {
  agencyId: string;
  overview: AgencyOverview;
  partnerId: string;
  reload: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const user = useCurrentUser();
  const withAgency = (user?.accessLevel ?? 0) >= ROLE_LEVELS.developer;
  const [editing, setEditing] = useState(false);
  const tabParam = params.get('tab');
  const tab: PartnerTab = isPartnerTab(tabParam) ? tabParam : 'overview';
  const partner = overview.partners.find((candidate) => candidate.id === partnerId);
  const partnerNames = useMemo(() => new Map(overview.partners.map((entry) => [entry.id, entry.name])), [overview.partners]);
  const back = (
    <Anchor component={Link} to={agencyPath('partners', agencyId, withAgency)} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={iconSize('xs')} />
        {t('agency.partners.back')}
      </Group>
    </Anchor>
  );
  if (partner === undefined) {
    return (
      <Stack>
        {back}
        <Failure message={t('agency.errors.partner-not-found')} />
      </Stack>
    );
  }
  return (
    <Stack>
      {back}
      <Group justify="space-between">
        <Group>
          <Title order={3} data-testid="partner-name">
            {partner.name}
          </Title>
          <PartnerStatusBadge status={partner.status} />
        </Group>
        {overview.canEdit ? (
          <Button variant="default" leftSection={<IconPencil size={iconSize('xs')} />} onClick={() => setEditing(true)}>
            {t('agency.partners.edit')}
          </Button>
        ) : null}
      </Group>
      <Tabs value={tab} onChange={(value) => isPartnerTab(value) && navigate(partnerPath(agencyId, partner.id, withAgency, value), { replace: true })}>
        <Tabs.List>
          {PARTNER_TABS.map((name) => (
            <Tabs.Tab key={name} value={name}>
              {t(`agency.partnerTabs.${name}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {tab === 'overview' ? <Overview partner={partner} /> : null}
      {tab === 'devices' ? <AgencyDevices agencyId={agencyId} partnerId={partner.id} /> : null}
      {tab === 'rooms' ? <Rooms agencyId={agencyId} partner={partner} /> : null}
      {tab === 'bills' ? (
        <Stack>
          <PartnerBills agencyId={agencyId} partnerId={partner.id} canEdit={overview.canEdit} partnerNames={partnerNames} reload={reload} />
        </Stack>
      ) : null}
      {tab === 'staff' ? <Staff agencyId={agencyId} partner={partner} overview={overview} /> : null}
      {editing ? <PartnerDialog agencyId={agencyId} partner={partner} opened onClose={() => setEditing(false)} onSaved={reload} /> : null}
    </Stack>
  );
}

/** The partner's bills, a page at a time from the server. */
function PartnerBills({
  agencyId,
  partnerId,
  canEdit,
  partnerNames,
  reload,
}: {
  agencyId: string;
  partnerId: string;
  canEdit: boolean;
  partnerNames: ReadonlyMap<string, string>;
  reload: () => void;
}) {
  const pages = useCursorPages<BillsFilter, BillsPage>({ agencyId, partnerId }, BILLS_PAGE, fetchBillsPage);
  const reloadPages = pages.reload;
  const reloadAll = useCallback(() => {
    reload();
    reloadPages();
  }, [reload, reloadPages]);
  return (
    <Stack>
      {canEdit ? <GenerateBills agencyId={agencyId} partnerId={partnerId} partnerNames={partnerNames} reload={reloadAll} /> : null}
      <PagedBills agencyId={agencyId} pages={pages} canEdit={canEdit} partnerNames={partnerNames} reload={reloadAll} />
    </Stack>
  );
}
