import { Paper, Text } from '@mantine/core';

const W = 560;
const H = 180;
const LEFT = 56;
const RIGHT = 8;
const TOP = 10;
const BOTTOM = 24;

export interface Bar {
  label: string;
  value: number;
  /** A second, overlaid value (e.g. the paid part of the revenue). */
  inner?: number;
}

interface BarChartProps {
  title: string;
  bars: readonly Bar[];
  format: (value: number) => string;
  testId: string;
  /** Names of the bar and of its inner part, shown under the chart. */
  legend?: { value: string; inner?: string };
}

/** Simple SVG bars (months along the bottom): enough for a dozen values, readable without a library. */
export function BarChart({ title, bars, format, testId, legend }: BarChartProps) {
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const plotW = W - LEFT - RIGHT;
  const plotH = H - TOP - BOTTOM;
  const slot = bars.length === 0 ? plotW : plotW / bars.length;
  const barW = Math.max(4, slot * 0.6);
  const y = (value: number) => TOP + plotH - (value / max) * plotH;
  return (
    <Paper withBorder p="sm" radius="md" data-testid={testId}>
      <Text size="sm" fw={600} mb={4}>
        {title}
      </Text>
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label={title} style={{ display: 'block' }}>
        <line x1={LEFT} x2={LEFT} y1={TOP} y2={TOP + plotH} stroke="var(--mantine-color-gray-4)" />
        <line x1={LEFT} x2={W - RIGHT} y1={TOP + plotH} y2={TOP + plotH} stroke="var(--mantine-color-gray-4)" />
        <text x={LEFT - 4} y={TOP + 8} textAnchor="end" fontSize={10} fill="var(--mantine-color-dimmed)">
          {format(max)}
        </text>
        <text x={LEFT - 4} y={TOP + plotH} textAnchor="end" fontSize={10} fill="var(--mantine-color-dimmed)">
          {format(0)}
        </text>
        {bars.map((bar, index) => {
          const x = LEFT + index * slot + (slot - barW) / 2;
          return (
            <g key={bar.label} data-label={bar.label} data-value={bar.value}>
              <title>{`${bar.label}: ${format(bar.value)}`}</title>
              <rect x={x} y={y(bar.value)} width={barW} height={TOP + plotH - y(bar.value)} fill="var(--mantine-color-indigo-3)" />
              {bar.inner !== undefined ? (
                <rect x={x} y={y(bar.inner)} width={barW} height={TOP + plotH - y(bar.inner)} fill="var(--mantine-color-indigo-7)" />
              ) : null}
              <text x={x + barW / 2} y={H - 8} textAnchor="middle" fontSize={10} fill="var(--mantine-color-dimmed)">
                {bar.label}
              </text>
            </g>
          );
        })}
      </svg>
      {legend !== undefined ? (
        <Text size="xs" c="dimmed">
          <span style={{ color: 'var(--mantine-color-indigo-3)' }}>■</span> {legend.value}
          {legend.inner !== undefined ? (
            <>
              {'　'}
              <span style={{ color: 'var(--mantine-color-indigo-7)' }}>■</span> {legend.inner}
            </>
          ) : null}
        </Text>
      ) : null}
    </Paper>
  );
}
