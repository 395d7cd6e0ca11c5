/**
 * The data viewer of a domain: its own record, staff, rooms, devices and, for an agency, its
 * partners, bills and owned devices. Read-only: each record opens as JSON; devices link to their page.
 */
import { Accordion, Anchor, Badge, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { QueryInput, RecordOf } from '../../lib/documents/records.ts';
import { useQuery } from '../../lib/documents/hooks.ts';
import { JsonView, Loaded } from './MasterFrame.tsx';
import { domainDataQueries } from './api/masterQueries.ts';

type Domain = RecordOf<'domains'>;
type AnyRecord = { documentReferenceId: string; documentPath: string } & Record<string, unknown>;

const LIMIT = 1000;

/** A record's heading in the list: its id and the first human name it has. */
function labelOf(record: AnyRecord): string {
  const name = [record.name, record.displayName, record.month, record.email].find((value) => typeof value === 'string');
  return typeof name === 'string' ? `${record.documentReferenceId} — ${name}` : record.documentReferenceId;
}

function RecordSection({ id, title, query, linkOf }: { id: string; title: string; query: QueryInput; linkOf?: (record: AnyRecord) => string }) {
  const { t } = useTranslation();
  const result = useQuery<AnyRecord>(query);
  const records = [...result.data].sort((a, b) => a.documentReferenceId.localeCompare(b.documentReferenceId));
  return (
    <Stack gap="xs" component="section" aria-label={title} data-testid="data-section" data-section={id}>
      <Group gap="xs">
        <Title order={4}>{title}</Title>
        {result.loading ? null : <Badge variant="light">{records.length}</Badge>}
      </Group>
      <Loaded loading={result.loading} error={result.error} empty={records.length === 0} emptyText={t('master.data.none')}>
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
      </Loaded>
    </Stack>
  );
}

const deviceLink = (record: AnyRecord) => `/master/device/${encodeURIComponent(record.documentReferenceId)}`;

export function DomainDataTab({ domain }: { domain: Domain }) {
  const { t } = useTranslation();
  const id = domain.documentReferenceId;
  const isAgency = domain.kind === 'agency';
  const queries = domainDataQueries(id, LIMIT);
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
