/**
 * /master/domain-lists: every domain (kind, parent, root, agency, rooms, status), searched and
 * filtered, a page at a time. The domains are read whole (page after page) because the search
 * looks in parents' and agencies' names too; each shown row's room count is a server count.
 */
import { Anchor, Badge, Group, Pagination, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCount } from '../../lib/documents/hooks.ts';
import { iconSize } from '../../lib/icons.ts';
import { Loaded, MasterPage } from './MasterFrame.tsx';
import { buildDomainRows, filterDomainRows, pageOfRows, type DomainRow } from './domainRows.ts';
import { DOMAIN_KINDS } from './api/masterCounts.ts';
import { domainRoomsQuery, MASTER_PAGE, useAllDomains } from './api/masterQueries.ts';

const STATUSES: readonly DomainRow['status'][] = ['active', 'suspended', 'closed'];
const STATUS_COLOR: Record<DomainRow['status'], string> = { active: 'teal', suspended: 'orange', closed: 'gray' };

function RoomCount({ domainId }: { domainId: string }) {
  const { count, loading, error } = useCount(domainRoomsQuery(domainId));
  return <>{loading ? '…' : error !== null ? '—' : count}</>;
}

export default function DomainList() {
  const { t } = useTranslation();
  const domains = useAllDomains();
  const [search, setSearch] = useState('');
  const [kind, setKind] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  // The page belongs to the filter it was chosen under: a new search starts at page 1.
  const filterKey = JSON.stringify([search, kind, status]);
  const [paging, setPaging] = useState({ key: filterKey, page: 1 });
  const allRows = useMemo(() => buildDomainRows(domains.data.filter((domain) => typeof domain.name === 'string')), [domains.data]);
  const rows = useMemo(
    () =>
      filterDomainRows(allRows, {
        search,
        kind: DOMAIN_KINDS.find((candidate) => candidate === kind) ?? null,
        status: STATUSES.find((candidate) => candidate === status) ?? null,
      }),
    [allRows, search, kind, status],
  );
  const shown = pageOfRows(rows, paging.key === filterKey ? paging.page : 1, MASTER_PAGE);
  return (
    <MasterPage>
      <Group gap="sm" align="flex-end">
        <TextInput
          leftSection={<IconSearch size={iconSize('xs')} />}
          placeholder={t('master.domains.search')}
          aria-label={t('master.domains.search')}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={300}
        />
        <Select
          aria-label={t('master.domains.kind')}
          placeholder={t('master.domains.allKinds')}
          data={DOMAIN_KINDS.map((value) => ({ value, label: t(`master.counts.kinds.${value}`) }))}
          value={kind}
          onChange={setKind}
          clearable
          w={180}
        />
        <Select
          aria-label={t('master.domains.status')}
          placeholder={t('master.domains.allStatuses')}
          data={STATUSES.map((value) => ({ value, label: t(`master.domains.statuses.${value}`) }))}
          value={status}
          onChange={setStatus}
          clearable
          w={160}
        />
      </Group>
      <Loaded loading={domains.loading} error={domains.error} empty={allRows.length === 0} emptyText={t('master.domains.none')}>
        <Stack gap="xs">
          <Text size="sm" c="dimmed" data-testid="domain-count">
            {t('master.domains.count', { count: rows.length, total: allRows.length })}
          </Text>
          {rows.length === 0 ? (
            <Text c="dimmed">{t('master.noMatch')}</Text>
          ) : (
            <Table.ScrollContainer minWidth={860}>
              <Table striped highlightOnHover data-testid="domain-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('master.domains.name')}</Table.Th>
                    <Table.Th>{t('master.domains.kind')}</Table.Th>
                    <Table.Th>{t('master.domains.parent')}</Table.Th>
                    <Table.Th>{t('master.domains.root')}</Table.Th>
                    <Table.Th>{t('master.domains.agency')}</Table.Th>
                    <Table.Th>{t('master.domains.rooms')}</Table.Th>
                    <Table.Th>{t('master.domains.status')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {shown.rows.map((row) => (
                    <Table.Tr key={row.id} data-testid="domain-row" data-domain={row.id}>
                      <Table.Td>
                        <Anchor component={Link} to={`/master/domain/${encodeURIComponent(row.id)}`}>
                          {row.name}
                        </Anchor>
                        <Text size="xs" c="dimmed" ff="monospace">
                          {row.id}
                        </Text>
                      </Table.Td>
                      <Table.Td>{t(`master.counts.kinds.${row.kind}`)}</Table.Td>
                      <Table.Td>{row.parentName ?? '—'}</Table.Td>
                      <Table.Td>{row.rootName ?? '—'}</Table.Td>
                      <Table.Td>{row.agencyName ?? '—'}</Table.Td>
                      <Table.Td>
                        <RoomCount domainId={row.id} />
                      </Table.Td>
                      <Table.Td>
                        <Badge color={STATUS_COLOR[row.status]} variant="light">
                          {t(`master.domains.statuses.${row.status}`)}
                        </Badge>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {shown.pages > 1 ? (
            <Pagination
              total={shown.pages}
              value={paging.key === filterKey ? paging.page : 1}
              onChange={(page) => setPaging({ key: filterKey, page })}
              size="sm"
              data-testid="domain-pager"
              getControlProps={(control) => ({ 'aria-label': t(`master.domains.pager.${control}`) })}
              getItemProps={(item) => ({ 'aria-label': t('auditLog.pageOf', { page: item }) })}
            />
          ) : null}
        </Stack>
      </Loaded>
    </MasterPage>
  );
}
