import { Alert, Group, Loader, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SLEEP_REFERENCE_RANGES, type SleepReferenceKey } from '@nemuri/shared/sleepReference';
import { formatDate } from '../../lib/dates.ts';
import { useQuery } from '../../lib/documents/hooks.ts';
import { RoomResultChart } from './RoomResultChart.tsx';
import { metricSeries, parseRange, periodDays, RESULT_METRICS, RESULT_RANGES, summarize } from './roomResultData.ts';
import { hoursMinutes } from './roomSleepMetrics.ts';
import { useSleepDayRule } from './roomSleepRule.ts';
import { daysBetween, sleepDayOf, sleepDaysQuery, type SleepDayRecord } from './roomSleepData.ts';
import { RoomPage, type Room } from './RoomTabs.tsx';

/** `/room/:roomid/result?range=7|30|90`: the room's sleep over the last 7, 30 or 90 sleep days. */
/** The report downloads of a period, provided by the report feature (composed in app/pages). */
export type PeriodDownloads = (selection: { roomIds: string[]; from: string; to: string }) => ReactNode;

export function RoomResultScreen({ roomId, downloads }: { roomId: string; downloads: PeriodDownloads }) {
  return (
    <RoomPage roomId={roomId} tab="result">
      {(room) => <ResultView room={room} downloads={downloads} />}
    </RoomPage>
  );
}

/** A metric's value in its unit, e.g. "7時間5分", "86.2%", "14.1 回/分". */
export function formatMetric(t: TFunction, key: SleepReferenceKey, value: number | null): string {
  if (value === null) return t('roomSleep.noValue');
  switch (key) {
    case 'totalSleepMin':
    case 'sleepLatencyMin':
    case 'wasoMin':
      return Math.round(value) >= 60 ? t('roomSleep.units.hoursMinutes', hoursMinutes(value)) : t('roomSleep.units.minutes', { value });
    case 'sleepEfficiency':
      return t('roomSleep.units.percent', { value });
    case 'outOfBedCount':
      return t('roomSleep.units.count', { value });
    case 'respirationRate':
      return t('roomSleep.units.perMinute', { value });
    case 'heartRate':
      return t('roomSleep.units.bpm', { value });
    case 'apneaIndex':
      return t('roomSleep.units.perHour', { value });
  }
}

export function referenceText(t: TFunction, key: SleepReferenceKey): string {
  const range = SLEEP_REFERENCE_RANGES[key];
  const unit = t(`roomSleep.result.unitNames.${range.unit}`);
  if (range.min !== undefined && range.max !== undefined) return t('roomSleep.result.between', { min: range.min, max: range.max, unit });
  if (range.min !== undefined) return t('roomSleep.result.atLeast', { value: range.min, unit });
  return t('roomSleep.result.atMost', { value: range.max, unit });
}

function ResultView({ room, downloads }: { room: Room; downloads: PeriodDownloads }) {
  const { t } = useTranslation();
  const roomId = room.documentReferenceId;
  const rule = useSleepDayRule(room.domainId);
  const [params, setParams] = useSearchParams();
  const range = parseRange(params.get('range'));
  const [openedAt] = useState(() => Date.now());
  // The current sleep day closes the period: tonight shows as soon as it is analysed, a gap until then.
  const lastDay = sleepDayOf(openedAt, rule);
  const days = useMemo(() => periodDays(lastDay, range), [lastDay, range]);
  const firstDay = days[0] as string;
  const records = useQuery<SleepDayRecord>(sleepDaysQuery(roomId, firstDay, lastDay));
  const byDay = useMemo(() => daysBetween(records.data, firstDay, lastDay), [records.data, firstDay, lastDay]);
  const series = useMemo(() => RESULT_METRICS.map((key) => ({ key, values: metricSeries(byDay, days, key) })), [byDay, days]);
  const dayLabel = (day: string) => formatDate(`${day}T12:00:00Z`, 'UTC');

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <SegmentedControl
          aria-label={t('roomSleep.result.rangeLabel')}
          data={RESULT_RANGES.map((n) => ({ value: String(n), label: t('roomSleep.result.range', { days: n }) }))}
          value={String(range)}
          onChange={(value) => setParams({ range: value })}
        />
        <Text c="dimmed" data-testid="result-period" data-days={range}>
          {t('roomSleep.result.period', { from: dayLabel(firstDay), to: dayLabel(lastDay) })}
        </Text>
      </Group>
      {byDay.size > 0 ? downloads({ roomIds: [roomId], from: firstDay, to: lastDay }) : null}
      {records.loading ? (
        <Loader aria-label={t('roomSleep.loading')} />
      ) : records.error ? (
        <Alert color="red" role="alert">
          {t('roomSleep.loadFailed')}
        </Alert>
      ) : byDay.size === 0 ? (
        <Paper withBorder p="xl" radius="md" ta="center">
          <Text c="dimmed">{t('roomSleep.result.noData')}</Text>
        </Paper>
      ) : (
        <>
          <Title order={4}>{t('roomSleep.result.chartsTitle')}</Title>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
            {series.map(({ key, values }) => (
              <RoomResultChart
                key={key}
                metric={key}
                title={t(`roomSleep.result.metrics.${key}`)}
                days={days}
                values={values}
                average={formatMetric(t, key, summarize(key, values).average)}
                reference={referenceText(t, key)}
              />
            ))}
          </SimpleGrid>
          <Title order={4}>{t('roomSleep.result.summaryTitle')}</Title>
          <Table striped withTableBorder data-testid="result-summary">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('roomSleep.result.metric')}</Table.Th>
                <Table.Th>{t('roomSleep.result.average')}</Table.Th>
                <Table.Th>{t('roomSleep.result.reference')}</Table.Th>
                <Table.Th>{t('roomSleep.result.daysWithin')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {series.map(({ key, values }) => {
                const summary = summarize(key, values);
                return (
                  <Table.Tr key={key} data-metric={key}>
                    <Table.Td>{t(`roomSleep.result.metrics.${key}`)}</Table.Td>
                    <Table.Td data-average={summary.average ?? ''}>{formatMetric(t, key, summary.average)}</Table.Td>
                    <Table.Td>{referenceText(t, key)}</Table.Td>
                    <Table.Td>{t('roomSleep.result.daysWithinValue', { within: summary.daysWithin, days: summary.days })}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
          <Text size="xs" c="dimmed">
            {t('roomSleep.result.source')}
          </Text>
        </>
      )}
    </Stack>
  );
}
