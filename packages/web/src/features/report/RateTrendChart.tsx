import type { RateStat, TrendPoint } from '@nemuri/shared/report/roomReport';
import { SLEEP_REFERENCE_RANGES } from '@nemuri/shared/sleepReference';
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dayLabel } from './reportFormat.ts';

const WIDTH = 480;
const HEIGHT = 150;
const PLOT = { left: 30, top: 8, right: 8, bottom: 18 };

/**
 * One rate over the period: the nightly average as a line, the night's minimum to maximum as a
 * faint bar, the reference range shaded (as in the PDF).
 */
export function RateTrendChart({ points, rate }: { points: readonly TrendPoint[]; rate: 'respiration' | 'heartRate' }) {
  const { t, i18n } = useTranslation();
  const pick = (point: TrendPoint): RateStat | null => (rate === 'respiration' ? point.respiration : point.heartRate);
  const reference = rate === 'respiration' ? SLEEP_REFERENCE_RANGES.respirationRate : SLEEP_REFERENCE_RANGES.heartRate;
  const title = t(`report.trend.${rate}`);
  const values = points.flatMap((point) => {
    const stat = pick(point);
    return stat === null ? [] : [stat.avg, stat.min ?? stat.avg, stat.max ?? stat.avg];
  });
  if (values.length === 0) {
    return (
      <Stack gap={2}>
        <Text size="sm">{title}</Text>
        <Text size="sm" c="dimmed">
          {t('report.trend.none')}
        </Text>
      </Stack>
    );
  }
  const low = Math.floor(Math.min(...values, reference.min ?? Infinity) - 2);
  const high = Math.ceil(Math.max(...values, reference.max ?? -Infinity) + 2);
  const width = WIDTH - PLOT.left - PLOT.right;
  const height = HEIGHT - PLOT.top - PLOT.bottom;
  const y = (value: number) => PLOT.top + height - ((value - low) / (high - low)) * height;
  const x = (index: number) => PLOT.left + (points.length === 1 ? width / 2 : (index / (points.length - 1)) * width);
  // Gaps (nights without a value) break the line.
  const path = points
    .map((point, index) => ({ stat: pick(point), index }))
    .reduce<{ d: string; open: boolean }>(
      (acc, { stat, index }) =>
        stat === null ? { d: acc.d, open: false } : { d: `${acc.d}${acc.open ? 'L' : 'M'}${x(index).toFixed(1)},${y(stat.avg).toFixed(1)}`, open: true },
      { d: '', open: false },
    ).d;
  const first = points[0];
  const last = points[points.length - 1];
  return (
    <Stack gap={2}>
      <Text size="sm">{title}</Text>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" aria-label={title} data-testid={`report-trend-${rate}`}>
        {reference.min !== undefined && reference.max !== undefined ? (
          <rect x={PLOT.left} y={y(reference.max)} width={width} height={y(reference.min) - y(reference.max)} fill="#37b24d" opacity={0.12} />
        ) : null}
        <rect x={PLOT.left} y={PLOT.top} width={width} height={height} fill="none" stroke="#adb5bd" strokeWidth={0.6} />
        {[low, Math.round((low + high) / 2), high].map((tick) => (
          <text key={tick} x={PLOT.left - 4} y={y(tick) + 3} fontSize={9} textAnchor="end" fill="currentColor">
            {tick}
          </text>
        ))}
        {points.map((point, index) => {
          const stat = pick(point);
          return stat !== null && stat.min !== null && stat.max !== null ? (
            <line key={point.day} x1={x(index)} x2={x(index)} y1={y(stat.min)} y2={y(stat.max)} stroke="#1c7ed6" strokeWidth={2} opacity={0.3} />
          ) : null;
        })}
        <path d={path} fill="none" stroke="#1864ab" strokeWidth={1.5} />
        {points.map((point, index) => {
          const stat = pick(point);
          return stat === null ? null : <circle key={point.day} cx={x(index)} cy={y(stat.avg)} r={2} fill="#1864ab" />;
        })}
        {first ? (
          <text x={PLOT.left} y={HEIGHT - 4} fontSize={9} fill="currentColor">
            {dayLabel(first.day, i18n.language)}
          </text>
        ) : null}
        {last && points.length > 1 ? (
          <text x={WIDTH - PLOT.right} y={HEIGHT - 4} fontSize={9} textAnchor="end" fill="currentColor">
            {dayLabel(last.day, i18n.language)}
          </text>
        ) : null}
      </svg>
    </Stack>
  );
}
