import { Alert, Badge, Button, Card, Group, Loader, Select, SimpleGrid, Stack, Table, Tabs, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconArrowBackUp, IconHistory, IconSearch, IconTransferOut } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { formatDate } from '../../lib/dates.ts';
import { iconSize } from '../../lib/icons.ts';
import { notify } from '../../lib/notify.ts';
import { DeviceStatusBadge } from '../../components/DeviceStatusBadge.tsx';
import { HistoryDialog, LendDialog, ReturnDialog, type DomainChoice } from './DeviceBorrowDialogs.tsx';
import { BORROW_STATUSES, buildBorrowRows, filterBorrowRows, groupByHolder, isLendable, type BorrowRow, type BorrowStatus } from './deviceBorrowRows.ts';
import { useAllBorrows, useDevices, useDeviceTypes, useDomains } from './api/deviceQueries.ts';

interface RowActions {
  lend: (row: BorrowRow) => void;
  giveBack: (row: BorrowRow) => void;
  history: (row: BorrowRow) => void;
}

function DeviceTable({ rows, actions }: { rows: readonly BorrowRow[]; actions: RowActions }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped highlightOnHover data-testid="borrow-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('deviceBorrow.columns.serial')}</Table.Th>
            <Table.Th>{t('deviceBorrow.columns.type')}</Table.Th>
            <Table.Th>{t('deviceBorrow.columns.status')}</Table.Th>
            <Table.Th>{t('deviceBorrow.columns.holder')}</Table.Th>
            <Table.Th>{t('deviceBorrow.columns.period')}</Table.Th>
            <Table.Th>{t('deviceBorrow.columns.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.serial} data-testid="borrow-row" data-serial={row.serial}>
              <Table.Td>
                <Text ff="monospace" size="sm">
                  {row.serial}
                </Text>
              </Table.Td>
              <Table.Td>{row.typeName}</Table.Td>
              <Table.Td>
                <DeviceStatusBadge status={row.status} testId="borrow-status" />
              </Table.Td>
              <Table.Td data-testid="borrow-holder">{row.holderName ?? <Text c="dimmed">{t('deviceBorrow.inStock')}</Text>}</Table.Td>
              <Table.Td>
                {row.open === null
                  ? '—'
                  : t('deviceBorrow.history.period', {
                      from: formatDate(row.open.from),
                      until: row.open.until === null ? t('deviceBorrow.history.noUntil') : formatDate(row.open.until),
                    })}
              </Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  {isLendable(row) ? (
                    <Button
                      size="xs"
                      leftSection={<IconTransferOut size={iconSize('xs')} />}
                      onClick={() => actions.lend(row)}
                      aria-label={t('deviceBorrow.lend.action', { serial: row.serial })}
                    >
                      {t('deviceBorrow.lend.button')}
                    </Button>
                  ) : null}
                  {row.open !== null ? (
                    <Button
                      size="xs"
                      color="orange"
                      variant="light"
                      leftSection={<IconArrowBackUp size={iconSize('xs')} />}
                      onClick={() => actions.giveBack(row)}
                      aria-label={t('deviceBorrow.return.action', { serial: row.serial })}
                    >
                      {t('deviceBorrow.return.button')}
                    </Button>
                  ) : null}
                  <Button
                    size="xs"
                    variant="default"
                    leftSection={<IconHistory size={iconSize('xs')} />}
                    onClick={() => actions.history(row)}
                    aria-label={t('deviceBorrow.history.action', { serial: row.serial })}
                  >
                    {t('deviceBorrow.history.button', { count: row.history.length })}
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Who holds what: a card per domain with its devices. */
function HolderOverview({ rows, onHistory }: { rows: readonly BorrowRow[]; onHistory: (row: BorrowRow) => void }) {
  const { t } = useTranslation();
  const groups = useMemo(() => groupByHolder(rows), [rows]);
  if (groups.length === 0) return <Text c="dimmed">{t('deviceBorrow.holders.none')}</Text>;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
      {groups.map((group) => (
        <Card key={group.domainId} withBorder data-testid="holder-group" data-domain={group.domainId}>
          <Group justify="space-between" mb="xs">
            <Title order={4}>{group.domainName}</Title>
            <Badge variant="light">{t('deviceBorrow.holders.count', { count: group.rows.length })}</Badge>
          </Group>
          <Stack gap={4}>
            {group.rows.map((row) => (
              <Group key={row.serial} justify="space-between" wrap="nowrap">
                <Button variant="subtle" size="compact-sm" ff="monospace" onClick={() => onHistory(row)}>
                  {row.serial}
                </Button>
                <Group gap="xs" wrap="nowrap">
                  <Text size="xs" c="dimmed">
                    {row.open === null ? '' : t('deviceBorrow.holders.since', { from: formatDate(row.open.from) })}
                  </Text>
                  <DeviceStatusBadge status={row.status} testId="borrow-status" />
                </Group>
              </Group>
            ))}
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/**
 * Device lending (/device-borrow, developers): every device with who holds it, live; lend a device
 * in stock to a domain for a period, take it back (after a confirmation), and each device's borrow
 * history; a second tab groups the devices out by the domain holding them. The server keeps the
 * rules (no device lent twice at once): the screen only offers what is likely to succeed and says
 * in Japanese why the server refused otherwise.
 */
export default function DeviceBorrowScreen() {
  const { t } = useTranslation();
  const devices = useDevices();
  const borrows = useAllBorrows();
  const domains = useDomains();
  const types = useDeviceTypes();

  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<BorrowStatus | null>(null);
  const [domainId, setDomainId] = useState<string | null>(null);
  const [typeId, setTypeId] = useState<string | null>(null);
  const [lending, setLending] = useState<BorrowRow | null>(null);
  const [returning, setReturning] = useState<BorrowRow | null>(null);
  const [historyOf, setHistoryOf] = useState<string | null>(null);

  const allRows = useMemo(() => buildBorrowRows(devices.data, borrows.data, domains.data, types.data), [devices.data, borrows.data, domains.data, types.data]);
  const rows = useMemo(() => filterBorrowRows(allRows, { search, status, domainId, typeId }), [allRows, search, status, domainId, typeId]);
  const domainChoices: DomainChoice[] = useMemo(
    () =>
      domains.data
        .filter((domain) => typeof domain.name === 'string')
        .map((domain) => ({ value: domain.documentReferenceId, label: domain.name }))
        .sort((a, b) => a.label.localeCompare(b.label, 'ja')),
    [domains.data],
  );
  const typeChoices = useMemo(
    () => types.data.filter((type) => typeof type.name === 'string').map((type) => ({ value: type.documentReferenceId, label: type.name })),
    [types.data],
  );
  // The dialog follows the live row, so its history grows while it is open.
  const historyRow = historyOf === null ? null : (allRows.find((row) => row.serial === historyOf) ?? null);

  const loading = devices.loading || borrows.loading || domains.loading || types.loading;
  const failed = devices.error ?? borrows.error ?? domains.error;
  const lentCount = allRows.filter((row) => row.holderId !== null).length;

  const actions: RowActions = { lend: setLending, giveBack: setReturning, history: (row) => setHistoryOf(row.serial) };

  let body;
  if (failed !== null) {
    body = (
      <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
        {t('deviceBorrow.loadFailed')}
      </Alert>
    );
  } else if (loading) {
    body = (
      <Group justify="center" p="xl">
        <Loader aria-label={t('deviceBorrow.loading')} />
      </Group>
    );
  } else if (allRows.length === 0) {
    body = <Text c="dimmed">{t('deviceBorrow.none')}</Text>;
  } else {
    body = (
      <Tabs defaultValue="devices" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="devices">{t('deviceBorrow.tabs.devices')}</Tabs.Tab>
          <Tabs.Tab value="holders">{t('deviceBorrow.tabs.holders')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="devices" pt="md">
          <Stack gap="sm">
            <Group gap="sm" align="flex-end">
              <TextInput
                leftSection={<IconSearch size={iconSize('xs')} />}
                placeholder={t('deviceBorrow.search')}
                aria-label={t('deviceBorrow.search')}
                value={search}
                onChange={(event) => setSearch(event.currentTarget.value)}
                w={320}
              />
              <Select
                aria-label={t('deviceBorrow.filterStatus')}
                placeholder={t('deviceBorrow.allStatuses')}
                data={BORROW_STATUSES.map((value) => ({ value, label: t(`deviceConfig.status.${value}`) }))}
                value={status}
                onChange={(value) => setStatus(BORROW_STATUSES.find((candidate) => candidate === value) ?? null)}
                clearable
                w={160}
              />
              <Select
                aria-label={t('deviceBorrow.filterDomain')}
                placeholder={t('deviceBorrow.allDomains')}
                data={domainChoices}
                value={domainId}
                onChange={setDomainId}
                clearable
                searchable
                w={220}
              />
              <Select
                aria-label={t('deviceBorrow.filterType')}
                placeholder={t('deviceBorrow.allTypes')}
                data={typeChoices}
                value={typeId}
                onChange={setTypeId}
                clearable
                w={260}
              />
            </Group>
            <Text size="sm" c="dimmed" data-testid="borrow-count">
              {t('deviceBorrow.count', { count: rows.length, lent: lentCount, total: allRows.length })}
            </Text>
            {rows.length === 0 ? <Text c="dimmed">{t('deviceBorrow.noMatch')}</Text> : <DeviceTable rows={rows} actions={actions} />}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="holders" pt="md">
          <HolderOverview rows={allRows} onHistory={(row) => setHistoryOf(row.serial)} />
        </Tabs.Panel>
      </Tabs>
    );
  }

  return (
    <ScreenPage>
      {body}
      <LendDialog
        row={lending}
        domains={domainChoices}
        onClose={() => setLending(null)}
        onLent={(row, domainLabel) => {
          setLending(null);
          notify({ color: 'green', message: t('deviceBorrow.lend.done', { serial: row.serial, domain: domainLabel }) });
        }}
      />
      <ReturnDialog
        row={returning}
        onClose={() => setReturning(null)}
        onReturned={(row) => {
          setReturning(null);
          notify({ color: 'green', message: t('deviceBorrow.return.done', { serial: row.serial }) });
        }}
      />
      <HistoryDialog row={historyRow} onClose={() => setHistoryOf(null)} />
    </ScreenPage>
  );
}
