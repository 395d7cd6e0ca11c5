import { Alert, Button, Group, Loader, Paper, SegmentedControl, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconFileDollar } from '@tabler/icons-react';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CursorPager } from '../../components/CursorPager.tsx';
import { useCursorPages, type CursorPagesState } from '../../lib/cursorPages.ts';
import { iconSize } from '../../lib/icons.ts';
import { notify } from '../../lib/notify.ts';
import { agencyApi, agencyErrorMessage, fetchBillsPage, type AgencyOverview, type Bill, type BillsFilter, type BillsPage } from './api/agencyApi.ts';
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
          <TextInput
            label={t('agency.settings.registrationNumber')}
            description={t('agency.settings.registrationHelp')}
            placeholder="T1234567890123"
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            error={invalid ? t('agency.settings.invalid') : null}
            w={300}
          />
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
export function GenerateBills({
  agencyId,
  partnerId,
  partnerNames,
  reload,
}: {
  agencyId: string;
  partnerId?: string;
  partnerNames: ReadonlyMap<string, string>;
  reload: () => void;
}) {
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
        notify({
          color: 'yellow',
          message: t(`agency.bills.skipped.${skipped.reason}`, {
            partner: partnerNames.get(skipped.partnerDomainId) ?? skipped.partnerDomainId,
            defaultValue: skipped.reason,
          }),
        });
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
  const pages = useCursorPages<BillsFilter, BillsPage>(status === 'all' ? { agencyId } : { agencyId, status }, BILLS_PAGE, fetchBillsPage);
  const reloadPages = pages.reload;
  const reloadAll = useCallback(() => {
    reload();
    reloadPages();
  }, [reload, reloadPages]);
  return (
    <Stack>
      <InvoiceSettings key={`${agencyId}-${overview.agency.invoiceRegistrationNumber ?? ''}`} agencyId={agencyId} overview={overview} reload={reload} />
      {overview.canEdit ? <GenerateBills agencyId={agencyId} partnerNames={partnerNames} reload={reloadAll} /> : null}
      <SegmentedControl
        value={status}
        onChange={(value) => setStatus(value as StatusFilter)}
        data={(['all', 'draft', 'issued', 'paid'] as const).map((value) => ({
          value,
          label: value === 'all' ? t('agency.bills.allStatuses') : t(`agency.billStatuses.${value}`),
        }))}
        w="fit-content"
      />
      <PagedBills agencyId={agencyId} pages={pages} canEdit={overview.canEdit} partnerNames={partnerNames} reload={reloadAll} />
    </Stack>
  );
}

/** Bills read a page at a time from the server (GET /api/agency/:agencyId/bills). */
export const BILLS_PAGE = 50;

/** A page of bills with loading, failure and the pager (the table shows the empty state). */
export function PagedBills({
  agencyId,
  pages,
  canEdit,
  partnerNames,
  reload,
}: {
  agencyId: string;
  pages: CursorPagesState<BillsPage>;
  canEdit: boolean;
  partnerNames: ReadonlyMap<string, string>;
  reload: () => void;
}) {
  const { t } = useTranslation();
  if (pages.error !== null) {
    return (
      <Alert color="red" icon={<IconAlertCircle size={iconSize('sm')} />} title={t('agency.bills.loadFailed')}>
        <Button size="xs" variant="light" onClick={pages.reload}>
          {t('agency.bills.retry')}
        </Button>
      </Alert>
    );
  }
  if (pages.page === null) return <Loader size="sm" aria-label={t('agency.bills.loading')} />;
  return (
    <Stack gap="xs" aria-busy={pages.loading} style={{ opacity: pages.loading ? 0.6 : 1 }} data-testid="bills-pages">
      <BillsTable agencyId={agencyId} bills={pages.page.bills} canEdit={canEdit} partnerNames={partnerNames} reload={reload} />
      <CursorPager pages={pages} previousLabel={t('agency.bills.newer')} nextLabel={t('agency.bills.older')} testId="bills-pager" />
    </Stack>
  );
}
