import { Group, Paper, Stack, Text } from '@mantine/core';
import { useEffect, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { LiveTraceSet } from './liveTraceSet.ts';
import type { RowSpec } from './rawViews.ts';

/** How often the numbers change: four times a second reads calmly and costs one small render. */
const REFRESH_MS = 250;

interface CurrentValuesProps {
  rows: readonly RowSpec[];
  traces: LiveTraceSet;
  /** The cursor's device time (µs), written by the canvas on every frame. */
  cursorUs: RefObject<number | null>;
}

/** Each row's value at the cursor, in its unit. */
export function CurrentValues({ rows, traces, cursorUs }: CurrentValuesProps) {
  const { t } = useTranslation();
  // The time changes on every tick, so each tick renders the values anew (the traces are mutable).
  const [cursor, setCursor] = useState<number | null>(null);
  useEffect(() => {
    const timer = setInterval(() => setCursor(cursorUs.current), REFRESH_MS);
    return () => clearInterval(timer);
  }, [cursorUs]);
  return (
    <Group gap="sm" wrap="wrap" data-testid="current-values">
      {rows.map((row) => {
        const trace = traces.traces.get(row.channel);
        const value = trace === undefined || cursor === null || trace.empty ? Number.NaN : trace.at(Math.floor(trace.indexOf(cursor)), row.component);
        const shown = Number.isFinite(value)
          ? row.channel === 'button'
            ? t(value >= 0.5 ? 'rawView.pressed' : 'rawView.released')
            : value.toFixed(row.digits)
          : '—';
        return (
          <Paper key={`${row.channel}-${row.component}`} withBorder radius="md" px="sm" py={6} miw={120} data-testid={`value-${row.channel}-${row.component}`}>
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                <span style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 4, background: row.color, marginRight: 6 }} />
                {t(`rawView.rows.${row.labelKey}`)}
              </Text>
              <Text fw={700} size="lg" ff="monospace" data-value={Number.isFinite(value) ? value : ''}>
                {shown}
                {row.unit !== '' && Number.isFinite(value) && row.channel !== 'button' ? (
                  <Text span size="xs" c="dimmed" ml={4}>
                    {row.unit}
                  </Text>
                ) : null}
              </Text>
            </Stack>
          </Paper>
        );
      })}
    </Group>
  );
}
