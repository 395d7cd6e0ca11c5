/**
 * /audit-log: who changed what, for privilege administrators and owners (4-5) in their corporation,
 * agencies in their own agency, the maker's developers everywhere (the server decides the scope;
 * docs/api.md "Audit log"). Filters by domain, person, kind of data, operation and days live in the
 * address; the list is paged newest first; the CSV holds the filtered period.
 */
import { Anchor, Button, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconDownload, IconFilterOff } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AUDIT_CSV_MAX_DAYS, AUDIT_OPERATIONS, AUDITED_COLLECTIONS } from '@nemuri/shared/auditLog';
import { isAgencyLevel } from '@nemuri/shared/documents/access';
import { AuditLogTable } from '../../components/AuditLogTable.tsx';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { CsvEncodingSelect, useCsvEncoding, withCsvEncoding } from '../../components/CsvEncodingSelect.tsx';
import { auditCsvUrl, useAuditPages } from '../../lib/auditLogPages.ts';
import { iconSize } from '../../lib/icons.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { apiFilterOf, csvAllowed, filterFromParams, paramsOfFilter, periodIsValid, type AuditScreenFilter } from './auditLogFilter.ts';
import { useDomainChoices, useStaffChoices } from './api/auditChoices.ts';

const PAGE_SIZE = 50;
export default function AuditLogScreen() {
  const { t } = useTranslation();
  const [encoding, setEncoding] = useCsvEncoding();
  const user = useCurrentUser();
  const [params, setParams] = useSearchParams();
  const filter = useMemo(() => filterFromParams(params), [params]);
  const set = (change: Partial<AuditScreenFilter>) => setParams(paramsOfFilter({ ...filter, ...change }), { replace: true });
  const validPeriod = periodIsValid(filter);
  const apiFilter = useMemo(() => apiFilterOf(validPeriod ? filter : { ...filter, to: null }), [filter, validPeriod]);
  const pages = useAuditPages(apiFilter, PAGE_SIZE);

  const domains = useDomainChoices();
  const staff = useStaffChoices();
  // An agency's audit scope is its own agency (its customers' changes are theirs).
  const ownOnly = user !== null && isAgencyLevel(user);
  const domainChoices = domains.data
    .filter((domain) => !ownOnly || domain.documentReferenceId === user.domainId)
    .map((domain) => ({ value: domain.documentReferenceId, label: domain.name }))
    .sort((a, b) => a.label.localeCompare(b.label, 'ja'));
  const peopleChoices = [...new Map(staff.data.map((member) => [member.documentReferenceId, member.displayName])).entries()]
    .map(([value, label]) => ({ value, label }))
    .sort((a, b) => a.label.localeCompare(b.label, 'ja'));
  const collectionChoices = AUDITED_COLLECTIONS.map((name) => ({ value: name, label: t(`auditLog.collections.${name}`, { defaultValue: name }) }));
  const operationChoices = AUDIT_OPERATIONS.map((operation) => ({ value: operation, label: t(`auditLog.operations.${operation}`) }));
  const filtered = Object.keys(paramsOfFilter(filter)).length > 0;
  const choiceFilter = (field: 'domainId' | 'who' | 'collection', label: string, data: { value: string; label: string }[]) => (
    <Select
      label={label}
      placeholder={t('auditLog.all')}
      data={data}
      value={filter[field]}
      onChange={(value) => set({ [field]: value })}
      clearable
      searchable
    />
  );

  return (
    <ScreenPage>
      <Text c="dimmed" size="sm">
        {t('auditLog.intro')}
      </Text>
      <Paper withBorder p="sm" radius="md" component="section" aria-label={t('auditLog.filters')}>
        <Stack gap="xs">
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 6 }}>
            {choiceFilter('domainId', t('auditLog.domain'), domainChoices)}
            {choiceFilter('who', t('auditLog.who'), peopleChoices)}
            {choiceFilter('collection', t('auditLog.collection'), collectionChoices)}
            <Select
              label={t('auditLog.operation')}
              placeholder={t('auditLog.all')}
              data={operationChoices}
              value={filter.operation}
              onChange={(operation) => set({ operation: (operation as AuditScreenFilter['operation']) ?? null })}
              clearable
            />
            <TextInput
              type="date"
              label={t('auditLog.from')}
              value={filter.from ?? ''}
              onChange={(event) => set({ from: event.currentTarget.value || null })}
            />
            <TextInput
              type="date"
              label={t('auditLog.to')}
              value={filter.to ?? ''}
              onChange={(event) => set({ to: event.currentTarget.value || null })}
              error={validPeriod ? null : t('auditLog.badPeriod')}
            />
          </SimpleGrid>
          <Group justify="space-between" wrap="wrap">
            <Button
              variant="subtle"
              size="xs"
              leftSection={<IconFilterOff size={iconSize('xs')} />}
              onClick={() => setParams({}, { replace: true })}
              disabled={!filtered}
            >
              {t('auditLog.clear')}
            </Button>
            {csvAllowed(filter) ? (
              <Group gap="sm" align="flex-end" wrap="wrap">
                <CsvEncodingSelect value={encoding} onChange={setEncoding} />
                <Anchor href={withCsvEncoding(auditCsvUrl(apiFilter), encoding)} download size="sm" data-testid="audit-log-csv" pb={8}>
                  <Group gap={4} wrap="nowrap">
                    <IconDownload size={iconSize('xs')} />
                    {t('auditLog.csv')}
                  </Group>
                </Anchor>
              </Group>
            ) : (
              <Text size="xs" c="dimmed">
                {t('auditLog.csvHelp', { days: AUDIT_CSV_MAX_DAYS })}
              </Text>
            )}
          </Group>
        </Stack>
      </Paper>
      <AuditLogTable pages={pages} />
    </ScreenPage>
  );
}
