import { Alert, Button, Group, Paper, SegmentedControl, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconFileDollar } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { iconSize } from '../../lib/icons.ts';
import { notify } from '../../lib/notify.ts';
import { agencyApi, agencyErrorMessage, type AgencyOverview, type Bill } from './agencyApi.ts';
import { previousMonth } from './agencyRows.ts';
import { BillsTable } from './BillsTable.tsx';

const REGISTRATION_PATTERN = /^T\d{13}$/;
const MONTHS_OFFERED = 13;

/** This month and the twelve before it, newest first (a bill is for a month that has begun). */
function monthChoices(now: Date): string[] {
  const jst = new Date(now.getTime() + 9 * 3_600_000);
  const current = jst.getUTCFullYear() * 12 + jst.getUTCMonth();
  return Array.from({ length: MONTHS_OFFERED }, (_, back) => {
    const index = current - back;
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  });
}

/** The agency's invoice registration number (適格請求書発行事業者登録番号), printed on every invoice it issues. */
export function InvoiceSettings({ agencyId, overview, reload }: { agencyId: string; overview: AgencyOverview; reload: () => void }) {
  const { t } = useTranslation();
  const current = overview.agency.invoiceRegistrationNumber;
  const [value, setValue] = useState(current ?? '');
  const [saving, setSaving] = useState(false);
  const trimmed = value.trim();
  const invalid = trimmed !== '' && !REGISTRATION_PATTERN.test(trimmed);

  const save = async () => {
    setSaving(true);
    try {
      await agencyApi.saveSettings(agencyId, trimmed === '' ? null : trimmed);
      notify({ color: 'green', message: t('agency.settings.saved') });
      reload();
    } catch (error) {
      notify({ color: 'red', message: agencyErrorMessage(t, error) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper withBorder p="sm" radius="md" data-testid="invoice-settings">
      <Title order={4}>{t('agency.settings.title')}</Title>
      {overview.canEdit ? (
        <Group align="flex-end" mt="xs">
          <TextInput label={t('agency.settings.registrationNumber')} description={t('agency.settings.registrationHelp')} placeholder="T1234567890123" value={value} onChange={(event) => setValue(event.currentTarget.value)} error={invalid ? t('agency.settings.invalid') : null} w={300} />
          <Button onClick={() => void save()} loading={saving} disabled={invalid || trimmed === (current ?? '')}>
            {t('agency.save')}
          </Button>
        </Group>
      ) : (
        <Text mt="xs">
          {t('agency.settings.registrationNumber')}: {current ?? t('agency.settings.notSet')}
        </Text>
      )}
      {current === null ? (
        <Alert color="yellow" mt="xs">
          {t('agency.settings.missing')}
        </Alert>
      ) : null}
    </Paper>
  );
}

/** Drafts a month's bills (for every partner, or for one), replacing drafts and leaving issued bills as they are. */
export function GenerateBills({ agencyId, partnerId, partnerNames, reload }: { agencyId: string; partnerId?: string; partnerNames: ReadonlyMap<string, string>; reload: () => void }) {
  const { t } = useTranslation();
  const months = useMemo(() => monthChoices(new Date()), []);
  const [month, setMonth] = useState<string | null>(() => previousMonth(new Date()));
  const [busy, setBusy] = useState(false);

  const generate = async () => {
    if (month === null) return;
    setBusy(true);
    try {
      const result = await agencyApi.generate(agencyId, month, partnerId);
      notify({ color: 'green', message: t('agency.bills.generated', { count: result.bills.length, month }) });
      for (const skipped of result.skipped) {
        notify({ color: 'yellow', message: t(`agency.bills.skipped.${skipped.reason}`, { partner: partnerNames.get(skipped.partnerDomainId) ?? skipped.partnerDomainId, defaultValue: skipped.reason }) });
      }
      reload();
    } catch (error) {
      notify({ color: 'red', message: agencyErrorMessage(t, error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Group align="flex-end" data-testid="generate-bills">
      <Select label={t('agency.bills.month')} data={months} value={month} onChange={setMonth} allowDeselect={false} w={160} />
      <Button leftSection={<IconFileDollar size={iconSize('xs')} />} onClick={() => void generate()} loading={busy} disabled={month === null}>
        {partnerId === undefined ? t('agency.bills.generateAll') : t('agency.bills.generateOne')}
      </Button>
    </Group>
  );
}

type StatusFilter = 'all' | Bill['status'];

/** /agency/bills: invoice settings, generating a month's bills, and every bill with its actions. */
export function AgencyBills({ agencyId, overview, reload }: { agencyId: string; overview: AgencyOverview; reload: () => void }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<StatusFilter>('all');
  const partnerNames = useMemo(() => new Map(overview.partners.map((partner) => [partner.id, partner.name])), [overview.partners]);
  const bills = status === 'all' ? overview.bills : overview.bills.filter((bill) => bill.status === status);
  return (
    <Stack>
      <InvoiceSettings key={`${agencyId}-${overview.agency.invoiceRegistrationNumber ?? ''}`} agencyId={agencyId} overview={overview} reload={reload} />
      {overview.canEdit ? <GenerateBills agencyId={agencyId} partnerNames={partnerNames} reload={reload} /> : null}
      <SegmentedControl
        value={status}
        onChange={(value) => setStatus(value as StatusFilter)}
        data={(['all', 'draft', 'issued', 'paid'] as const).map((value) => ({ value, label: value === 'all' ? t('agency.bills.allStatuses') : t(`agency.billStatuses.${value}`) }))}
        w="fit-content"
      />
      <BillsTable agencyId={agencyId} bills={bills} canEdit={overview.canEdit} partnerNames={partnerNames} reload={reload} />
    </Stack>
  );
}
