import { ActionIcon, Box, Button, Group, Text } from '@mantine/core';
import { IconZoomIn, IconZoomOut, IconZoomReset } from '@tabler/icons-react';
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../lib/dates.ts';
import { iconSize } from '../../lib/icons.ts';
import {
  clampWindow,
  epochSeries,
  extent,
  hasStages,
  isWhole,
  linePath,
  MINUTE_MS,
  MIN_ZOOM_MS,
  minuteAt,
  stageBands,
  STAGE_ROWS,
  stateBands,
  type Band,
  type BandKind,
  type SleepEpoch,
  type PauseMark,
  type TimeAxis,
  type TimeWindow,
  scoredBands,
  type ScoredStage,
  windowTicks,
  zoomWindow,
} from './roomSleepData.ts';

/**
 * The SVG is drawn at the pixel width of its container (measured), one unit a CSS pixel, so its
 * 11–14 px text stays that size on a phone instead of shrinking with a fixed viewBox (issue 18: 4–5 px
 * at 390 px). Before the first measurement it assumes DEFAULT_W. The left margin holds the scales,
 * each row's name sits above it.
 */
const DEFAULT_W = 1000;
const MIN_W = 240;
const LEFT = 64;
const RIGHT = 24;
/** Room a time label needs (a 14 px 「22:00」 and a gap), so labels are thinned rather than overlap. */
const LABEL_PX = 48;

/** The width in pixels of the element `ref` points at, kept up to date as it resizes. */
function useMeasuredWidth(ref: { current: HTMLElement | null }): number {
  const [width, setWidth] = useState(DEFAULT_W);
  useLayoutEffect(() => {
    const element = ref.current;
    if (element === null) return;
    const measure = () => {
      const measured = Math.floor(element.getBoundingClientRect().width);
      if (measured > 0) setWidth(Math.max(MIN_W, measured));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

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

type StageRow = (typeof STAGE_ROWS)[number];

/** A hypnogram's bands, each in the row of its level within `area` (estimated or scored stages). */
function levelBands<K extends string>(
  bands: readonly Band<K>[],
  levels: readonly K[],
  area: Row,
  x: (ms: number) => number,
  look: (kind: K) => { fill: string; opacity: number },
  marked: boolean,
) {
  const rowHeight = area.height / levels.length;
  return bands.map((band) => (
    <rect
      key={band.startMs}
      x={x(band.startMs)}
      y={area.top + levels.indexOf(band.kind) * rowHeight}
      width={Math.max(0.5, x(band.endMs) - x(band.startMs))}
      height={rowHeight}
      {...look(band.kind)}
      data-stage={marked ? band.kind : undefined}
    />
  ));
}

interface RoomSleepTimelineProps {
  epochs: readonly SleepEpoch[];
  originMs: number;
  axis: TimeAxis;
  /** The record's breathing pauses (pauseMarks): the lane shows them, and their sum is the count the page shows. */
  pauses: readonly PauseMark[];
  timeZone: string;
  selectedMinute: number | null;
  onSelectMinute: (minuteMs: number) => void;
  /** Stages scored by a person (imported hypnogram): drawn as scored instead of the estimated stages. */
  scored?: readonly ScoredStage[] | undefined;
}

/** Client pixels a press may move and still count as a click (picking a minute), not a drag. */
const DRAG_PX = 5;
/** Zoom per wheel notch (a mouse wheel's 100 px step): in by this factor, out by its inverse. */
const WHEEL_ZOOM = 0.8;

type Gesture =
  | { kind: 'press'; pointerId: number; startX: number; atMs: number; moved: boolean }
  | { kind: 'pinch'; startDistance: number; startWindow: TimeWindow; centerMs: number };

/**
 * The night on one time axis: state bands with breathing pauses above them, the hypnogram when the
 * record has stages, then respiration, heart rate and movement. A click picks the minute under it;
 * the wheel zooms about the pointer, a drag across the charts zooms to the stretch dragged over,
 * two fingers pinch, and 「全体を表示」 goes back to the whole night.
 */
export function RoomSleepTimeline({ epochs, originMs, axis, pauses, timeZone, selectedMinute, onSelectMinute, scored }: RoomSleepTimelineProps) {
  const { t } = useTranslation();
  const clipId = useId();
  const svgRef = useRef<SVGSVGElement | null>(null);
  const boxRef = useRef<HTMLDivElement | null>(null);
  const viewW = useMeasuredWidth(boxRef);
  const plotW = viewW - LEFT - RIGHT;
  const [zoomed, setZoomed] = useState<TimeWindow | null>(null);
  const [dragged, setDragged] = useState<TimeWindow | null>(null);
  const pointers = useRef(new Map<number, number>());
  const gesture = useRef<Gesture | null>(null);
  const view: TimeWindow = zoomed ?? axis;
  const span = view.endMs - view.startMs;
  const x = (ms: number) => LEFT + ((ms - view.startMs) / span) * plotW;
  const xOfEpoch = (index: number) => x(originMs + (index + 0.5) * MINUTE_MS);
  const scoredView = useMemo(() => (scored !== undefined && scored.length > 0 ? scoredBands(scored) : null), [scored]);
  const staged = scoredView === null && hasStages(epochs);
  const ticks = useMemo(() => (zoomed === null ? axis.ticks : windowTicks(zoomed)), [axis.ticks, zoomed]);
  const pauseTotal = pauses.reduce((sum, pause) => sum + pause.count, 0);

  const setView = (next: TimeWindow) => setZoomed(isWhole(axis, next) ? null : next);

  /** The instant under a client x, kept on the plot. */
  const msAt = (clientX: number, window: TimeWindow = view): number => {
    const rect = svgRef.current?.getBoundingClientRect();
    if (rect === undefined || rect.width === 0) return window.startMs;
    const fraction = Math.min(1, Math.max(0, (((clientX - rect.left) / rect.width) * viewW - LEFT) / plotW));
    return window.startMs + fraction * (window.endMs - window.startMs);
  };
  const onPlot = (clientX: number): boolean => {
    const rect = svgRef.current?.getBoundingClientRect();
    if (rect === undefined || rect.width === 0) return false;
    const viewX = ((clientX - rect.left) / rect.width) * viewW;
    return viewX >= LEFT && viewX <= LEFT + plotW;
  };

  // The wheel listener is added by hand: React's is passive and could not keep the page from scrolling.
  const latest = useRef({ view, axis, msAt, setView });
  useLayoutEffect(() => {
    latest.current = { view, axis, msAt, setView };
  });
  useEffect(() => {
    const svg = svgRef.current;
    if (svg === null) return;
    const onWheel = (event: WheelEvent) => {
      const { view: current, axis: full, msAt: at, setView: apply } = latest.current;
      const horizontal = Math.abs(event.deltaX) > Math.abs(event.deltaY);
      const delta = horizontal ? event.deltaX : event.deltaY;
      if (delta === 0) return;
      if (horizontal) {
        // A sideways swipe (touchpad) or shift+wheel pans a zoomed view.
        if (isWhole(full, current)) return;
        const shift = (delta / 500) * (current.endMs - current.startMs);
        apply(clampWindow(full, current.startMs + shift, current.endMs + shift));
      } else {
        // Zoomed all the way out, scrolling down scrolls the page, as it would anywhere else.
        if (delta > 0 && isWhole(full, current)) return;
        const notches = Math.max(-3, Math.min(3, delta / (event.deltaMode === 0 ? 100 : 3)));
        apply(zoomWindow(full, current, at(event.clientX), Math.pow(WHEEL_ZOOM, -notches)));
      }
      event.preventDefault();
    };
    svg.addEventListener('wheel', onWheel, { passive: false });
    return () => svg.removeEventListener('wheel', onWheel);
  }, []);

  const onPointerDown = (event: ReactPointerEvent<SVGSVGElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    pointers.current.set(event.pointerId, event.clientX);
    event.currentTarget.setPointerCapture?.(event.pointerId);
    if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()] as [number, number];
      gesture.current = { kind: 'pinch', startDistance: Math.max(1, Math.abs(a - b)), startWindow: view, centerMs: msAt((a + b) / 2) };
      setDragged(null);
    } else if (pointers.current.size === 1) {
      gesture.current = { kind: 'press', pointerId: event.pointerId, startX: event.clientX, atMs: msAt(event.clientX), moved: false };
    }
  };
  const onPointerMove = (event: ReactPointerEvent<SVGSVGElement>) => {
    if (!pointers.current.has(event.pointerId)) return;
    pointers.current.set(event.pointerId, event.clientX);
    const current = gesture.current;
    if (current?.kind === 'pinch' && pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()] as [number, number];
      setView(zoomWindow(axis, current.startWindow, current.centerMs, current.startDistance / Math.max(1, Math.abs(a - b))));
    } else if (current?.kind === 'press' && current.pointerId === event.pointerId) {
      if (!current.moved && Math.abs(event.clientX - current.startX) < DRAG_PX) return;
      current.moved = true;
      const atMs = msAt(event.clientX);
      setDragged({ startMs: Math.min(current.atMs, atMs), endMs: Math.max(current.atMs, atMs) });
    }
  };
  const onPointerEnd = (event: ReactPointerEvent<SVGSVGElement>, cancelled: boolean) => {
    if (!pointers.current.delete(event.pointerId)) return;
    const current = gesture.current;
    if (current?.kind === 'press' && current.pointerId === event.pointerId) {
      gesture.current = null;
      setDragged(null);
      if (cancelled) return;
      if (current.moved) {
        const atMs = msAt(event.clientX);
        setView(clampWindow(axis, Math.min(current.atMs, atMs), Math.max(current.atMs, atMs)));
      } else if (onPlot(event.clientX)) {
        onSelectMinute(minuteAt(view, (current.atMs - view.startMs) / span));
      }
    } else if (current?.kind === 'pinch' && pointers.current.size < 2) {
      // The finger left on the screen after a pinch starts nothing: lift it to begin again.
      gesture.current = null;
    }
  };

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

  const series = useMemo(
    () => ({ respiration: epochSeries(epochs, 'respirationRate'), heart: epochSeries(epochs, 'heartRate'), movement: epochSeries(epochs, 'activity') }),
    [epochs],
  );
  const bands = useMemo(() => stateBands(epochs, originMs), [epochs, originMs]);
  const stages = useMemo(() => (staged ? stageBands(epochs, originMs) : []), [epochs, originMs, staged]);
  // Label every tick, or every other one (or fewer on a phone), so the labels never collide.
  const labelEvery = Math.max(ticks.length > 14 ? 2 : 1, Math.ceil(LABEL_PX / (plotW / Math.max(1, ticks.length))));

  /** A rate's line (drawn on the clipped plot) and its scale (drawn in the margin). */
  const line = (key: 'respiration' | 'heart' | 'movement') => {
    const values = series[key];
    const r = row(key);
    const found = extent(values);
    if (found === null) return null;
    const [low, high] = found[0] === found[1] ? [found[0] - 1, found[1] + 1] : found;
    const floor = key === 'movement' ? 0 : low;
    const y = (value: number) => r.top + r.height - ((value - floor) / (high - floor)) * r.height;
    return {
      scale: (
        <g key={key}>
          <text x={LEFT - 6} y={r.top + 10} textAnchor="end" fontSize={12} fill={TEXT_COLOR}>
            {Math.round(high)}
          </text>
          <text x={LEFT - 6} y={r.top + r.height} textAnchor="end" fontSize={12} fill={TEXT_COLOR}>
            {Math.round(floor)}
          </text>
        </g>
      ),
      path: (
        <path
          key={key}
          d={linePath(values, xOfEpoch, y)}
          fill="none"
          stroke={key === 'heart' ? 'var(--mantine-color-red-5)' : key === 'respiration' ? 'var(--mantine-color-blue-6)' : 'var(--mantine-color-gray-6)'}
          strokeWidth={1.2}
          data-series={key}
        />
      ),
    };
  };
  const lines = (['respiration', 'heart', 'movement'] as const).map(line);

  return (
    <Box ref={boxRef}>
      <Group justify="space-between" gap="xs" mb={4} wrap="wrap">
        <Text size="xs" c="dimmed" data-testid="sleep-view-range">
          {t('roomSleep.timeline.showing', { start: formatTime(view.startMs, timeZone), end: formatTime(view.endMs, timeZone) })}
        </Text>
        {/* Buttons as well as gestures, for keyboards and switch access. */}
        <Group gap={4} wrap="nowrap">
          <ActionIcon
            size="md"
            variant="default"
            onClick={() => setView(zoomWindow(axis, view, (view.startMs + view.endMs) / 2, 0.5))}
            disabled={span <= MIN_ZOOM_MS}
            aria-label={t('roomSleep.timeline.zoomIn')}
            data-testid="sleep-zoom-in"
          >
            <IconZoomIn size={iconSize('xs')} />
          </ActionIcon>
          <ActionIcon
            size="md"
            variant="default"
            onClick={() => setView(zoomWindow(axis, view, (view.startMs + view.endMs) / 2, 2))}
            disabled={zoomed === null}
            aria-label={t('roomSleep.timeline.zoomOut')}
          >
            <IconZoomOut size={iconSize('xs')} />
          </ActionIcon>
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<IconZoomReset size={iconSize('xs')} />}
            disabled={zoomed === null}
            onClick={() => setZoomed(null)}
            data-testid="sleep-zoom-reset"
          >
            {t('roomSleep.timeline.resetZoom')}
          </Button>
        </Group>
      </Group>
      <svg
        ref={svgRef}
        viewBox={`0 0 ${viewW} ${height}`}
        width={viewW}
        height={height}
        role="img"
        aria-label={t('roomSleep.timeline.chartLabel', { name: t('roomSleep.timeline.title') })}
        data-testid="sleep-timeline"
        data-view-start={view.startMs}
        data-view-end={view.endMs}
        data-zoomed={zoomed === null ? 'false' : 'true'}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={(event) => onPointerEnd(event, false)}
        onPointerCancel={(event) => onPointerEnd(event, true)}
        // Vertical swipes still scroll the page; sideways drags and pinches are the chart's.
        style={{ cursor: 'crosshair', display: 'block', maxWidth: '100%', touchAction: 'pan-y', userSelect: 'none' }}
      >
        <defs>
          <clipPath id={clipId}>
            <rect x={LEFT} y={0} width={plotW} height={axisTop} />
          </clipPath>
        </defs>
        {ticks.map((tick) => (
          <line key={tick} x1={x(tick)} x2={x(tick)} y1={0} y2={axisTop} stroke={GRID_COLOR} strokeWidth={0.5} />
        ))}
        {rows.map((r) => (
          <text key={r.key} x={LEFT + 2} y={r.top - 5} fontSize={14} fill={TEXT_COLOR}>
            {r.label}
          </text>
        ))}
        <text x={LEFT - 6} y={row('pauses').top + 10} textAnchor="end" fontSize={12} fill={TEXT_COLOR} data-testid="pause-lane-count" data-count={pauseTotal}>
          {t('roomSleep.timeline.pauseCount', { count: pauseTotal })}
        </text>
        <g clipPath={`url(#${clipId})`}>
          {pauses.map((pause) => (
            <rect
              key={pause.startMs}
              x={x(pause.startMs)}
              y={row('pauses').top}
              width={Math.max(2, x(pause.endMs) - x(pause.startMs))}
              height={row('pauses').height}
              fill={PAUSE_COLOR}
              data-pause=""
              data-count={pause.count}
            >
              <title>{t('roomSleep.timeline.pauseTitle', { time: formatTime(pause.startMs, timeZone), count: pause.count })}</title>
            </rect>
          ))}
          {bands.map((band) => (
            <rect
              key={band.startMs}
              x={x(band.startMs)}
              y={row('states').top}
              width={Math.max(0.5, x(band.endMs) - x(band.startMs))}
              height={row('states').height}
              fill={BAND_COLORS[band.kind]}
              data-band={band.kind}
            />
          ))}
          {staged
            ? levelBands(
                stages.filter((band): band is Band<StageRow> => band.kind !== 'none'),
                STAGE_ROWS,
                row('stages'),
                x,
                (kind) => ({
                  fill: kind === 'awake' ? BAND_COLORS.inBedAwake : BAND_COLORS.asleep,
                  opacity: kind === 'deep' ? 1 : kind === 'light' ? 0.6 : 0.85,
                }),
                false,
              )
            : null}
          {scoredView !== null
            ? levelBands(
                scoredView.bands,
                scoredView.rows,
                row('scored'),
                x,
                (kind) => ({
                  fill: kind === 'W' ? BAND_COLORS.inBedAwake : BAND_COLORS.asleep,
                  opacity: kind === 'N3' || kind === 'N4' ? 1 : kind === 'R' ? 0.85 : 0.6,
                }),
                true,
              )
            : null}
          {lines.map((drawn) => drawn?.path)}
          {selectedMinute !== null ? (
            <rect
              x={x(selectedMinute)}
              y={0}
              width={Math.max(1.5, x(selectedMinute + MINUTE_MS) - x(selectedMinute))}
              height={axisTop}
              fill="var(--mantine-color-orange-5)"
              opacity={0.6}
              data-testid="selected-minute"
            />
          ) : null}
          {dragged !== null ? (
            <rect
              x={x(dragged.startMs)}
              y={0}
              width={Math.max(1, x(dragged.endMs) - x(dragged.startMs))}
              height={axisTop}
              fill="var(--mantine-color-blue-5)"
              opacity={0.2}
              data-testid="zoom-selection"
            />
          ) : null}
        </g>
        {staged
          ? STAGE_ROWS.map((stage, index) => (
              <text
                key={stage}
                x={LEFT - 6}
                y={row('stages').top + (index + 0.7) * (row('stages').height / STAGE_ROWS.length)}
                textAnchor="end"
                fontSize={11}
                fill={TEXT_COLOR}
              >
                {t(`roomSleep.timeline.stages.${stage}`)}
              </text>
            ))
          : null}
        {scoredView !== null
          ? scoredView.rows.map((stage, index) => (
              <text
                key={stage}
                x={LEFT - 6}
                y={row('scored').top + (index + 0.75) * (row('scored').height / scoredView.rows.length)}
                textAnchor="end"
                fontSize={11}
                fill={TEXT_COLOR}
              >
                {t(`roomSleep.timeline.scoredStages.${stage}`)}
              </text>
            ))
          : null}
        {lines.map((drawn) => drawn?.scale)}
        {ticks.map((tick, index) =>
          index % labelEvery === 0 ? (
            <text key={tick} x={x(tick)} y={axisTop + 17} textAnchor="middle" fontSize={14} fill={TEXT_COLOR}>
              {formatTime(tick, timeZone)}
            </text>
          ) : null,
        )}
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
