import { Paper, SimpleGrid, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatYen, agencyErrorMessage } from './api/agencyApi.ts';
import { BarChart } from './BarChart.tsx';
import { Failure, Loading } from './AgencyStatus.tsx';
import { useAgencyStatistics } from './api/useAgencyData.ts';

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Paper withBorder p="sm" radius="md" data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700}>
        {value}
      </Text>
    </Paper>
  );
}

/** `2026-09` → `9月` (the charts' month labels). */
const monthLabel = (month: string) => `${Number(month.slice(5))}月`;

/** The agency's business at a glance: devices out and in use, rooms monitored, revenue by month. */
export function AgencyStatisticsView({ agencyId }: { agencyId: string }) {
  const { t } = useTranslation();
  const statistics = useAgencyStatistics(agencyId);
  if (statistics.error !== null) return <Failure message={agencyErrorMessage(t, statistics.error)} />;
  if (statistics.data === null) return <Loading label={t('agency.loading')} />;
  const s = statistics.data;
  const count = (value: number) => t('agency.statistics.units', { count: value });
  return (
    <>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
        <Figure testId="stat-devices" label={t('agency.statistics.devicesTotal')} value={count(s.devices.total)} />
        <Figure testId="stat-at-partners" label={t('agency.statistics.atPartners')} value={count(s.devices.atPartners)} />
        <Figure testId="stat-in-use" label={t('agency.statistics.inUse')} value={count(s.devices.inUse)} />
        <Figure testId="stat-online" label={t('agency.statistics.online')} value={count(s.devices.online)} />
        <Figure
          testId="stat-rooms"
          label={t('agency.statistics.roomsMonitored')}
          value={t('agency.statistics.rooms', { count: s.roomsMonitored, total: s.rooms })}
        />
        <Figure testId="stat-unpaid" label={t('agency.statistics.unpaid')} value={formatYen(s.bills.unpaidTotal)} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <BarChart
          testId="chart-revenue"
          title={t('agency.statistics.revenueChart')}
          bars={s.months.map((month) => ({ label: monthLabel(month.month), value: month.total, inner: month.paid }))}
          format={(value) => (value >= 10_000 ? t('agency.statistics.tenThousandYen', { value: Math.round(value / 1000) / 10 }) : formatYen(value))}
          legend={{ value: t('agency.statistics.billed'), inner: t('agency.statistics.paid') }}
        />
        <BarChart
          testId="chart-devices"
          title={t('agency.statistics.devicesChart')}
          bars={s.months.map((month) => ({ label: monthLabel(month.month), value: month.devicesOut }))}
          format={(value) => String(Math.round(value))}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder p="sm" radius="md">
          <Text size="sm" fw={600} mb="xs">
            {t('agency.statistics.byStatus')}
          </Text>
          <Table>
            <Table.Tbody>
              {(['stock', 'lent', 'in_use', 'repair', 'retired'] as const).map((status) => (
                <Table.Tr key={status}>
                  <Table.Td>{t(`deviceConfig.status.${status}`)}</Table.Td>
                  <Table.Td ta="right">{count(status === 'in_use' ? s.devices.inUse : s.devices[status])}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
        <Paper withBorder p="sm" radius="md">
          <Text size="sm" fw={600} mb="xs">
            {t('agency.statistics.byPartner')}
          </Text>
          {s.byPartner.length === 0 ? (
            <Text c="dimmed">{t('agency.partners.empty')}</Text>
          ) : (
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('agency.partners.columns.name')}</Table.Th>
                  <Table.Th ta="right">{t('agency.partners.columns.devices')}</Table.Th>
                  <Table.Th ta="right">{t('agency.partners.columns.rooms')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {s.byPartner.map((partner) => (
                  <Table.Tr key={partner.partnerId}>
                    <Table.Td>{partner.name}</Table.Td>
                    <Table.Td ta="right">{partner.devices}</Table.Td>
                    <Table.Td ta="right">{partner.rooms}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Paper>
      </SimpleGrid>
    </>
  );
}
