import { Anchor, Badge, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { IconCash, IconFileInvoice, IconSend, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDay } from '../../lib/dates.ts';
import { iconSize } from '../../lib/icons.ts';
import { notify } from '../../lib/notify.ts';
import { agencyApi, agencyErrorMessage, formatYen, invoicePdfUrl, type Bill, type BillStatus } from './api/agencyApi.ts';
import { forecastThrough, ratesOf, sortBills } from './agencyRows.ts';

const STATUS_COLOR: Record<BillStatus, string> = { draft: 'gray', issued: 'blue', paid: 'teal' };

type Action = 'issue' | 'paid' | 'delete';

interface BillsTableProps {
  agencyId: string;
  bills: readonly Bill[];
  canEdit: boolean;
  /** Partner names by id, for bills generated before names were kept on them. */
  partnerNames: ReadonlyMap<string, string>;
  reload: () => void;
}

function BillLines({ bill }: { bill: Bill }) {
  const { t } = useTranslation();
  const lines = bill.lines ?? [];
  return (
    <Stack gap="xs">
      <Table data-testid="bill-lines">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('agency.bills.lines.serial')}</Table.Th>
            <Table.Th ta="right">{t('agency.bills.lines.days')}</Table.Th>
            <Table.Th ta="right">{t('agency.bills.lines.unitPrice')}</Table.Th>
            <Table.Th ta="right">{t('agency.bills.lines.amount')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((line) => (
            <Table.Tr key={line.deviceSerial}>
              <Table.Td ff="monospace">{line.deviceSerial}</Table.Td>
              <Table.Td ta="right">{t('agency.bills.lines.dayCount', { count: line.daysUsed })}</Table.Td>
              <Table.Td ta="right">{formatYen(line.unitPrice)}</Table.Td>
              <Table.Td ta="right">{formatYen(line.amount)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {ratesOf(bill).map((part) => (
        <Text key={part.rate} size="sm" ta="right" data-testid="bill-rate">
          {t('agency.bills.rateLine', { rate: part.rate, base: formatYen(part.base), tax: formatYen(part.tax) })}
        </Text>
      ))}
      <Text size="sm" ta="right" fw={600}>
        {t('agency.bills.totalLine', { subtotal: formatYen(bill.subtotal), tax: formatYen(bill.consumptionTax), total: formatYen(bill.total) })}
      </Text>
      {forecastThrough(bill) !== null ? (
        <Text size="xs" c="orange">
          {t('agency.bills.forecastHelp', { date: formatDay(forecastThrough(bill) ?? '') })}
        </Text>
      ) : null}
      <Text size="xs" c="dimmed">
        {t('agency.bills.arithmetic')}
      </Text>
    </Stack>
  );
}

/** Bills with their actions: issue a draft, mark an issued bill paid, delete a draft, download the PDF invoice. */
export function BillsTable({ agencyId, bills, canEdit, partnerNames, reload }: BillsTableProps) {
  const { t } = useTranslation();
  const [shown, setShown] = useState<Bill | null>(null);
  const [confirming, setConfirming] = useState<{ bill: Bill; action: Action } | null>(null);
  const [busy, setBusy] = useState(false);
  const nameOf = (bill: Bill) => bill.partnerName ?? partnerNames.get(bill.partnerDomainId) ?? bill.partnerDomainId;

  const run = async (bill: Bill, action: Action) => {
    setBusy(true);
    try {
      if (action === 'issue') await agencyApi.issue(agencyId, bill.documentReferenceId);
      else if (action === 'paid') await agencyApi.markPaid(agencyId, bill.documentReferenceId);
      else await agencyApi.deleteDraft(agencyId, bill.documentReferenceId);
      notify({ color: 'green', message: t(`agency.bills.done.${action}`, { partner: nameOf(bill), month: bill.month }) });
      setConfirming(null);
      reload();
    } catch (error) {
      notify({ color: 'red', message: agencyErrorMessage(t, error) });
    } finally {
      setBusy(false);
    }
  };

  if (bills.length === 0) return <Text c="dimmed">{t('agency.bills.empty')}</Text>;
  return (
    <>
      <Table.ScrollContainer minWidth={1080}>
        {/* Amounts, months and badges stay on one line; the container scrolls instead. */}
        <Table striped highlightOnHover data-testid="agency-bills" style={{ whiteSpace: 'nowrap' }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('agency.bills.columns.month')}</Table.Th>
              <Table.Th>{t('agency.bills.columns.partner')}</Table.Th>
              <Table.Th ta="right">{t('agency.bills.columns.subtotal')}</Table.Th>
              <Table.Th ta="right">{t('agency.bills.columns.tax')}</Table.Th>
              <Table.Th ta="right">{t('agency.bills.columns.total')}</Table.Th>
              <Table.Th>{t('agency.bills.columns.status')}</Table.Th>
              <Table.Th>{t('agency.bills.columns.dates')}</Table.Th>
              <Table.Th>{t('agency.bills.columns.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sortBills(bills).map((bill) => (
              <Table.Tr key={bill.documentReferenceId} data-testid="agency-bill-row" data-bill={bill.documentReferenceId} data-status={bill.status}>
                <Table.Td>{bill.month}</Table.Td>
                <Table.Td>{nameOf(bill)}</Table.Td>
                <Table.Td ta="right">{formatYen(bill.subtotal)}</Table.Td>
                <Table.Td ta="right">{formatYen(bill.consumptionTax)}</Table.Td>
                <Table.Td ta="right" fw={600}>
                  {formatYen(bill.total)}
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Badge color={STATUS_COLOR[bill.status]} variant="light" data-testid="bill-status">
                      {t(`agency.billStatuses.${bill.status}`)}
                    </Badge>
                    {forecastThrough(bill) !== null ? (
                      <Badge
                        color="orange"
                        variant="outline"
                        data-testid="bill-forecast"
                        title={t('agency.bills.forecastHelp', { date: formatDay(forecastThrough(bill) ?? '') })}
                      >
                        {t('agency.bills.forecast', { date: formatDay(forecastThrough(bill) ?? '') })}
                      </Badge>
                    ) : null}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Stack gap={0}>
                    {bill.invoiceNumber ? (
                      <Text size="xs" ff="monospace" data-testid="bill-number">
                        {t('agency.bills.invoiceNumber', { number: bill.invoiceNumber })}
                      </Text>
                    ) : null}
                    {bill.issuedAt ? <Text size="xs">{t('agency.bills.issuedOn', { date: formatDate(bill.issuedAt) })}</Text> : null}
                    {bill.dueDate ? <Text size="xs">{t('agency.bills.dueOn', { date: formatDay(bill.dueDate) })}</Text> : null}
                    {bill.paidAt ? <Text size="xs">{t('agency.bills.paidOn', { date: formatDate(bill.paidAt) })}</Text> : null}
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Button
                      size="compact-sm"
                      variant="default"
                      onClick={() => setShown(bill)}
                      aria-label={t('agency.bills.showLinesOf', { partner: nameOf(bill), month: bill.month })}
                    >
                      {t('agency.bills.showLines')}
                    </Button>
                    {canEdit && bill.status === 'draft' ? (
                      <>
                        <Button
                          size="compact-sm"
                          leftSection={<IconSend size={iconSize('xs')} />}
                          onClick={() => setConfirming({ bill, action: 'issue' })}
                          aria-label={t('agency.bills.issueOf', { partner: nameOf(bill), month: bill.month })}
                        >
                          {t('agency.bills.issue')}
                        </Button>
                        <Button
                          size="compact-sm"
                          color="red"
                          variant="subtle"
                          leftSection={<IconTrash size={iconSize('xs')} />}
                          onClick={() => setConfirming({ bill, action: 'delete' })}
                          aria-label={t('agency.bills.deleteOf', { partner: nameOf(bill), month: bill.month })}
                        >
                          {t('agency.bills.delete')}
                        </Button>
                      </>
                    ) : null}
                    {canEdit && bill.status === 'issued' ? (
                      <Button
                        size="compact-sm"
                        color="teal"
                        variant="light"
                        leftSection={<IconCash size={iconSize('xs')} />}
                        onClick={() => setConfirming({ bill, action: 'paid' })}
                        aria-label={t('agency.bills.paidOf', { partner: nameOf(bill), month: bill.month })}
                      >
                        {t('agency.bills.markPaid')}
                      </Button>
                    ) : null}
                    {bill.status !== 'draft' ? (
                      <Anchor
                        href={invoicePdfUrl(agencyId, bill.documentReferenceId)}
                        download={`invoice-${bill.documentReferenceId}.pdf`}
                        size="sm"
                        aria-label={t('agency.bills.pdfOf', { partner: nameOf(bill), month: bill.month })}
                      >
                        <Group gap={2} wrap="nowrap">
                          <IconFileInvoice size={iconSize('xs')} />
                          {t('agency.bills.pdf')}
                        </Group>
                      </Anchor>
                    ) : null}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Modal
        opened={shown !== null}
        onClose={() => setShown(null)}
        title={shown === null ? '' : t('agency.bills.linesTitle', { partner: nameOf(shown), month: shown.month })}
        size="lg"
      >
        {shown !== null ? <BillLines bill={shown} /> : null}
      </Modal>
      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={confirming === null ? '' : t(`agency.bills.confirm.${confirming.action}Title`)}
      >
        {confirming !== null ? (
          <Stack>
            <Text>
              {t(`agency.bills.confirm.${confirming.action}`, {
                partner: nameOf(confirming.bill),
                month: confirming.bill.month,
                total: formatYen(confirming.bill.total),
              })}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(null)}>
                {t('agency.cancel')}
              </Button>
              <Button color={confirming.action === 'delete' ? 'red' : undefined} loading={busy} onClick={() => void run(confirming.bill, confirming.action)}>
                {t(`agency.bills.confirm.${confirming.action}Button`)}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </>
  );
}
