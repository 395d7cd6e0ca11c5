import { Box, Group, Text } from '@mantine/core';
import { useMemo, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../lib/dates.ts';
import {
  epochSeries,
  extent,
  hasStages,
  linePath,
  MINUTE_MS,
  minuteAt,
  stageBands,
  STAGE_ROWS,
  stateBands,
  type BandKind,
  type SleepEpoch,
  type TimeAxis,
  scoredBands,
  type ScoredStage,
} from './roomSleepData.ts';

/** Drawing units of the SVG (it scales to the page width); the left margin holds the scales, each row's name sits above it. */
const VIEW_W = 1000;
const LEFT = 64;
const RIGHT = 24;
const PLOT_W = VIEW_W - LEFT - RIGHT;

export const BAND_COLORS: Record<BandKind, string> = {
  outOfBed: 'var(--mantine-color-yellow-5)',
  inBedAwake: 'var(--mantine-color-teal-5)',
  asleep: 'var(--mantine-color-indigo-6)',
  unknown: 'var(--mantine-color-gray-3)',
};
const PAUSE_COLOR = 'var(--mantine-color-red-6)';
const GRID_COLOR = 'var(--mantine-color-gray-4)';
const TEXT_COLOR = 'var(--mantine-color-dimmed)';

interface Row {
  key: string;
  label: string;
  top: number;
  height: number;
}

interface RoomSleepTimelineProps {
  epochs: readonly SleepEpoch[];
  originMs: number;
  axis: TimeAxis;
  pauses: readonly { startMs: number; endMs: number }[];
  timeZone: string;
  selectedMinute: number | null;
  onSelectMinute: (minuteMs: number) => void;
  /** Stages scored by a person (imported hypnogram): drawn as scored instead of the estimated stages. */
  scored?: readonly ScoredStage[] | undefined;
}

/**
 * The night on one time axis: state bands with breathing pauses above them, the hypnogram when the
 * record has stages, then respiration, heart rate and movement. A click picks the minute under it.
 */
export function RoomSleepTimeline({ epochs, originMs, axis, pauses, timeZone, selectedMinute, onSelectMinute, scored }: RoomSleepTimelineProps) {
  const { t } = useTranslation();
  const span = axis.endMs - axis.startMs;
  const x = (ms: number) => LEFT + ((ms - axis.startMs) / span) * PLOT_W;
  const xOfEpoch = (index: number) => x(originMs + (index + 0.5) * MINUTE_MS);
  const scoredView = useMemo(() => (scored !== undefined && scored.length > 0 ? scoredBands(scored) : null), [scored]);
  const staged = scoredView === null && hasStages(epochs);

  const rows: Row[] = [];
  let top = 20;
  const addRow = (key: string, label: string, height: number) => {
    rows.push({ key, label, top, height });
    top += height + 24;
  };
  addRow('pauses', t('roomSleep.timeline.pauses'), 12);
  addRow('states', t('roomSleep.timeline.title'), 34);
  if (staged) addRow('stages', t('roomSleep.timeline.hypnogram'), 80);
  if (scoredView !== null) addRow('scored', t('roomSleep.timeline.scoredHypnogram'), 16 * scoredView.rows.length);
  addRow('respiration', t('roomSleep.timeline.respiration'), 80);
  addRow('heart', t('roomSleep.timeline.heart'), 80);
  addRow('movement', t('roomSleep.timeline.movement'), 50);
  const axisTop = top - 18;
  const height = axisTop + 22;
  const row = (key: string) => rows.find((candidate) => candidate.key === key) as Row;

  const series = useMemo(() => ({ respiration: epochSeries(epochs, 'respirationRate'), heart: epochSeries(epochs, 'heartRate'), movement: epochSeries(epochs, 'activity') }), [epochs]);
  const bands = useMemo(() => stateBands(epochs, originMs), [epochs, originMs]);
  const stages = useMemo(() => (staged ? stageBands(epochs, originMs) : []), [epochs, originMs, staged]);
  // Label every hour, or every other one on a long window, so the labels never collide.
  const labelEvery = axis.ticks.length > 14 ? 2 : 1;

  const line = (key: 'respiration' | 'heart' | 'movement') => {
    const values = series[key];
    const r = row(key);
    const found = extent(values);
    if (found === null) return null;
    const [low, high] = found[0] === found[1] ? [found[0] - 1, found[1] + 1] : found;
    const floor = key === 'movement' ? 0 : low;
    const y = (value: number) => r.top + r.height - ((value - floor) / (high - floor)) * r.height;
    return (
      <g key={key}>
        <text x={LEFT - 6} y={r.top + 10} textAnchor="end" fontSize={12} fill={TEXT_COLOR}>
          {Math.round(high)}
        </text>
        <text x={LEFT - 6} y={r.top + r.height} textAnchor="end" fontSize={12} fill={TEXT_COLOR}>
          {Math.round(floor)}
        </text>
        <path d={linePath(values, xOfEpoch, y)} fill="none" stroke={key === 'heart' ? 'var(--mantine-color-red-5)' : key === 'respiration' ? 'var(--mantine-color-blue-6)' : 'var(--mantine-color-gray-6)'} strokeWidth={1.2} data-series={key} />
      </g>
    );
  };

  const onClick = (event: MouseEvent<SVGSVGElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    const viewX = ((event.clientX - rect.left) / rect.width) * VIEW_W;
    if (viewX < LEFT || viewX > LEFT + PLOT_W) return;
    onSelectMinute(minuteAt(axis, (viewX - LEFT) / PLOT_W));
  };

  return (
    <Box>
      <svg viewBox={`0 0 ${VIEW_W} ${height}`} width="100%" role="img" aria-label={t('roomSleep.timeline.chartLabel', { name: t('roomSleep.timeline.title') })} data-testid="sleep-timeline" onClick={onClick} style={{ cursor: 'crosshair', display: 'block' }}>
        {axis.ticks.map((tick) => (
          <line key={tick} x1={x(tick)} x2={x(tick)} y1={0} y2={axisTop} stroke={GRID_COLOR} strokeWidth={0.5} />
        ))}
        {rows.map((r) => (
          <text key={r.key} x={LEFT + 2} y={r.top - 5} fontSize={14} fill={TEXT_COLOR}>
            {r.label}
          </text>
        ))}
        {pauses.map((pause) => (
          <rect key={pause.startMs} x={x(pause.startMs) - 1} y={row('pauses').top} width={Math.max(2, x(pause.endMs) - x(pause.startMs))} height={row('pauses').height} fill={PAUSE_COLOR} data-pause="" />
        ))}
        {bands.map((band) => (
          <rect key={band.startMs} x={x(band.startMs)} y={row('states').top} width={Math.max(0.5, x(band.endMs) - x(band.startMs))} height={row('states').height} fill={BAND_COLORS[band.kind]} data-band={band.kind} />
        ))}
        {staged
          ? stages
              .filter((band) => band.kind !== 'none')
              .map((band) => {
                const r = row('stages');
                const level = STAGE_ROWS.indexOf(band.kind as (typeof STAGE_ROWS)[number]);
                const rowHeight = r.height / STAGE_ROWS.length;
                return <rect key={band.startMs} x={x(band.startMs)} y={r.top + level * rowHeight} width={Math.max(0.5, x(band.endMs) - x(band.startMs))} height={rowHeight} fill={band.kind === 'awake' ? BAND_COLORS.inBedAwake : BAND_COLORS.asleep} opacity={band.kind === 'deep' ? 1 : band.kind === 'light' ? 0.6 : 0.85} />;
              })
          : null}
        {staged
          ? STAGE_ROWS.map((stage, index) => (
              <text key={stage} x={LEFT - 6} y={row('stages').top + (index + 0.7) * (row('stages').height / STAGE_ROWS.length)} textAnchor="end" fontSize={11} fill={TEXT_COLOR}>
                {t(`roomSleep.timeline.stages.${stage}`)}
              </text>
            ))
          : null}
        {scoredView !== null
          ? scoredView.bands.map((band) => {
              const r = row('scored');
              const rowHeight = r.height / scoredView.rows.length;
              const level = scoredView.rows.indexOf(band.kind);
              return <rect key={band.startMs} x={x(band.startMs)} y={r.top + level * rowHeight} width={Math.max(0.5, x(band.endMs) - x(band.startMs))} height={rowHeight} fill={band.kind === 'W' ? BAND_COLORS.inBedAwake : BAND_COLORS.asleep} opacity={band.kind === 'N3' || band.kind === 'N4' ? 1 : band.kind === 'R' ? 0.85 : 0.6} data-stage={band.kind} />;
            })
          : null}
        {scoredView !== null
          ? scoredView.rows.map((stage, index) => (
              <text key={stage} x={LEFT - 6} y={row('scored').top + (index + 0.75) * (row('scored').height / scoredView.rows.length)} textAnchor="end" fontSize={11} fill={TEXT_COLOR}>
                {t(`roomSleep.timeline.scoredStages.${stage}`)}
              </text>
            ))
          : null}
        {line('respiration')}
        {line('heart')}
        {line('movement')}
        {axis.ticks.map((tick, index) =>
          index % labelEvery === 0 ? (
            <text key={tick} x={x(tick)} y={axisTop + 17} textAnchor="middle" fontSize={14} fill={TEXT_COLOR}>
              {formatTime(tick, timeZone)}
            </text>
          ) : null,
        )}
        {selectedMinute !== null ? <rect x={x(selectedMinute)} y={0} width={Math.max(1.5, x(selectedMinute + MINUTE_MS) - x(selectedMinute))} height={axisTop} fill="var(--mantine-color-orange-5)" opacity={0.6} data-testid="selected-minute" /> : null}
      </svg>
      <Group gap="md" mt={4} wrap="wrap">
        {(['asleep', 'inBedAwake', 'outOfBed'] as const).map((kind) => (
          <Group key={kind} gap={4}>
            <Box w={12} h={12} style={{ background: BAND_COLORS[kind], borderRadius: 2 }} />
            <Text size="xs">{t(`roomSleep.timeline.states.${kind}`)}</Text>
          </Group>
        ))}
        <Group gap={4}>
          <Box w={12} h={12} style={{ background: PAUSE_COLOR, borderRadius: 2 }} />
          <Text size="xs">{t('roomSleep.timeline.pauses')}</Text>
        </Group>
      </Group>
    </Box>
  );
}
