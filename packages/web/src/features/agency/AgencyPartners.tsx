import { Anchor, Badge, Button, Group, Table, Text } from '@mantine/core';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { iconSize } from '../../lib/icons.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { formatYen, type AgencyOverview, type PartnerRow } from './agencyApi.ts';
import { partnerPath } from './agencyPaths.ts';
import { PartnerDialog } from './PartnerDialog.tsx';

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

/** /agency/partners: the agency's partners with their contracts and what they hold; agency admins add and edit. */
export function AgencyPartners({ agencyId, overview, reload }: { agencyId: string; overview: AgencyOverview; reload: () => void }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const withAgency = (user?.accessLevel ?? 0) >= ROLE_LEVELS.developer;
  const [editing, setEditing] = useState<PartnerRow | null | 'new'>(null);

  return (
    <>
      {overview.canEdit ? (
        <Group>
          <Button leftSection={<IconPlus size={iconSize('xs')} />} onClick={() => setEditing('new')}>
            {t('agency.partners.create')}
          </Button>
        </Group>
      ) : null}
      {overview.partners.length === 0 ? (
        <Text c="dimmed">{t('agency.partners.empty')}</Text>
      ) : (
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
                {overview.canEdit ? <Table.Th /> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {overview.partners.map((partner) => (
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
                  {overview.canEdit ? (
                    <Table.Td>
                      <Button size="compact-sm" variant="default" leftSection={<IconPencil size={iconSize('xs')} />} onClick={() => setEditing(partner)} aria-label={t('agency.partners.editOf', { name: partner.name })}>
                        {t('agency.partners.edit')}
                      </Button>
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {editing !== null ? <PartnerDialog key={editing === 'new' ? 'new' : editing.id} agencyId={agencyId} partner={editing === 'new' ? null : editing} opened onClose={() => setEditing(null)} onSaved={reload} /> : null}
    </>
  );
}
