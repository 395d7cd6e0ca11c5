import { Group, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SLEEP_REFERENCE_RANGES, type SleepReferenceKey } from '@nemuri/shared/sleepReference';
import { extent, linePath } from './roomSleepData.ts';

const W = 300;
const H = 110;
const LEFT = 34;
const RIGHT = 6;
const TOP = 6;
const BOTTOM = 20;

interface RoomResultChartProps {
  metric: SleepReferenceKey;
  title: string;
  days: readonly string[];
  values: readonly (number | null)[];
  average: string;
  reference: string;
}

/** One small multiple: a metric per day (gaps for days without data) over its shaded reference range. */
export function RoomResultChart({ metric, title, days, values, average, reference }: RoomResultChartProps) {
  const { t } = useTranslation();
  const range = SLEEP_REFERENCE_RANGES[metric];
  const found = extent(values);
  const bounds = [...(found ?? []), ...(range.min !== undefined ? [range.min] : []), ...(range.max !== undefined ? [range.max] : [])];
  let low = Math.min(...bounds);
  let high = Math.max(...bounds);
  // Counts and durations start at zero; rates keep a window around their values.
  if (metric !== 'respirationRate' && metric !== 'heartRate') low = Math.min(0, low);
  if (high === low) high = low + 1;
  const pad = (high - low) * 0.08;
  high += pad;
  if (low !== 0) low -= pad;
  const plotW = W - LEFT - RIGHT;
  const plotH = H - TOP - BOTTOM;
  const step = days.length > 1 ? plotW / (days.length - 1) : 0;
  const x = (index: number) => LEFT + (days.length > 1 ? index * step : plotW / 2);
  const y = (value: number) => TOP + plotH - ((value - low) / (high - low)) * plotH;
  const bandTop = y(Math.min(high, range.max ?? high));
  const bandBottom = y(Math.max(low, range.min ?? low));
  const dayLabel = (day: string | undefined) => (day ? `${Number(day.slice(5, 7))}/${Number(day.slice(8))}` : '');

  return (
    <Paper withBorder p="xs" radius="md" data-testid="result-chart" data-metric={metric}>
      <Group justify="space-between" gap={4}>
        <Text size="sm" fw={600}>
          {title}
        </Text>
        <Text size="sm">{average}</Text>
      </Group>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width="100%"
        role="img"
        aria-label={`${title} (${t('roomSleep.result.referenceBand')}: ${reference})`}
        style={{ display: 'block' }}
      >
        <rect x={LEFT} y={bandTop} width={plotW} height={Math.max(0, bandBottom - bandTop)} fill="var(--mantine-color-green-light)" />
        <line x1={LEFT} x2={LEFT} y1={TOP} y2={TOP + plotH} stroke="var(--mantine-color-gray-4)" />
        <line x1={LEFT} x2={W - RIGHT} y1={TOP + plotH} y2={TOP + plotH} stroke="var(--mantine-color-gray-4)" />
        <text x={LEFT - 3} y={TOP + 8} textAnchor="end" fontSize={11} fill="var(--mantine-color-dimmed)">
          {Math.round(high)}
        </text>
        <text x={LEFT - 3} y={TOP + plotH} textAnchor="end" fontSize={11} fill="var(--mantine-color-dimmed)">
          {Math.round(low)}
        </text>
        <path d={linePath(values, x, y)} fill="none" stroke="var(--mantine-color-indigo-6)" strokeWidth={1.5} />
        {values.map((value, index) =>
          value === null ? null : (
            <circle
              key={days[index]}
              cx={x(index)}
              cy={y(value)}
              r={days.length > 30 ? 1.4 : 2.5}
              fill="var(--mantine-color-indigo-6)"
              data-day={days[index]}
            />
          ),
        )}
        <text x={LEFT} y={H - 4} fontSize={11} fill="var(--mantine-color-dimmed)">
          {dayLabel(days[0])}
        </text>
        <text x={W - RIGHT} y={H - 4} textAnchor="end" fontSize={11} fill="var(--mantine-color-dimmed)">
          {dayLabel(days[days.length - 1])}
        </text>
      </svg>
      <Text size="xs" c="dimmed">
        {t('roomSleep.result.referenceBand')}: {reference}
      </Text>
    </Paper>
  );
}
