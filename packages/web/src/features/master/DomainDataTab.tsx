/**
 * The data viewer of a domain: its own record, staff, rooms, devices and, for an agency, its
 * partners, bills and owned devices. Read-only: each record opens as JSON; devices link to their page.
 */
import { Accordion, Anchor, Badge, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CursorPager } from '../../components/CursorPager.tsx';
import type { RecordOf } from '../../lib/documents/records.ts';
import { useCount } from '../../lib/documents/hooks.ts';
import { useLivePages, type ListQuery } from '../../lib/documents/pagedHooks.ts';
import { JsonView, Loaded } from './MasterFrame.tsx';
import { domainDataQueries, MASTER_PAGE } from './api/masterQueries.ts';

type Domain = RecordOf<'domains'>;
type AnyRecord = { documentReferenceId: string; documentPath: string } & Record<string, unknown>;

/** A record's heading in the list: its id and the first human name it has. */
function labelOf(record: AnyRecord): string {
  const name = [record.name, record.displayName, record.month, record.email].find((value) => typeof value === 'string');
  return typeof name === 'string' ? `${record.documentReferenceId} — ${name}` : record.documentReferenceId;
}

/** A section a page at a time (by path, so by id), live; the badge is the server's count of them all. */
function RecordSection({ id, title, query, linkOf }: { id: string; title: string; query: ListQuery; linkOf?: (record: AnyRecord) => string }) {
  const { t } = useTranslation();
  const pages = useLivePages<AnyRecord>(query, MASTER_PAGE);
  const total = useCount(query);
  const records = pages.page?.records ?? [];
  return (
    <Stack gap="xs" component="section" aria-label={title} data-testid="data-section" data-section={id}>
      <Group gap="xs">
        <Title order={4}>{title}</Title>
        {total.loading || total.error !== null ? null : (
          <Badge variant="light" data-testid="data-section-count">
            {total.count}
          </Badge>
        )}
      </Group>
      <Loaded loading={pages.page === null && pages.error === null} error={pages.error} empty={records.length === 0} emptyText={t('master.data.none')}>
        <Accordion variant="contained" chevronPosition="left">
          {records.map((record) => (
            <Accordion.Item key={record.documentPath} value={record.documentPath}>
              <Accordion.Control>
                <Text size="sm" ff="monospace">
                  {labelOf(record)}
                </Text>
              </Accordion.Control>
              <Accordion.Panel>
                {linkOf ? (
                  <Anchor component={Link} to={linkOf(record)} size="sm">
                    {t('master.data.open')}
                  </Anchor>
                ) : null}
                <JsonView value={record} label={record.documentPath} />
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
        <CursorPager pages={pages} previousLabel={t('master.data.previousPage')} nextLabel={t('master.data.nextPage')} testId={`data-section-pager-${id}`} />
      </Loaded>
    </Stack>
  );
}

const deviceLink = (record: AnyRecord) => `/master/device/${encodeURIComponent(record.documentReferenceId)}`;

export function DomainDataTab({ domain }: { domain: Domain }) {
  const { t } = useTranslation();
  const id = domain.documentReferenceId;
  const isAgency = domain.kind === 'agency';
  const queries = domainDataQueries(id);
  return (
    <Stack gap="lg" data-testid="domain-data">
      <Stack gap="xs" component="section" aria-label={t('master.data.domain')}>
        <Title order={4}>{t('master.data.domain')}</Title>
        <JsonView value={domain} label={domain.documentPath} />
      </Stack>
      <RecordSection id="staff" title={t('master.data.staff')} query={queries.staff} />
      <RecordSection id="rooms" title={t('master.data.rooms')} query={queries.rooms} />
      <RecordSection id="devices" title={t('master.data.devices')} query={queries.devices} linkOf={deviceLink} />
      {isAgency ? (
        <>
          <RecordSection id="ownedDevices" title={t('master.data.ownedDevices')} query={queries.ownedDevices} linkOf={deviceLink} />
          <RecordSection id="partners" title={t('master.data.partners')} query={queries.partners} />
          <RecordSection id="bills" title={t('master.data.bills')} query={queries.bills} />
        </>
      ) : null}
    </Stack>
  );
}
