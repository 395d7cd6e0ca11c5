import { Alert, Badge, Button, Group, Select, Stack, Text } from '@mantine/core';
import type { SmfSampleChannel } from '@nemuri/parser/smf';
import { IconAlertCircle, IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { lazy, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { OptionalPart } from '../../../components/OptionalPart.tsx';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatTime, formatTimeWithSeconds } from '../../../lib/dates.ts';
import { iconSize } from '../../../lib/icons.ts';
import { useDeviceSignals } from '../../../lib/live/liveSignals.ts';
import { CurrentValues } from './CurrentValues.tsx';
import type { TraceRow } from './drawSweep.ts';
import { LiveTraceSet } from './liveTraceSet.ts';
import { AMPLITUDE_CHOICES, CHANNEL_ROWS, DEFAULT_WINDOW_SECONDS, VIEW_CHANNELS, WINDOW_CHOICES, type AmplitudeChoice, type RawViewKey } from './rawViews.ts';
import { SweepCanvas } from './SweepCanvas.tsx';
import { useStoredSignals } from '../api/useStoredSignals.ts';

// The reconstruction matrix is only needed on the EIT page: its own chunk.
const EitImage = lazy(() => import('./EitImage.tsx'));

interface RawDeviceViewProps {
  serial: string;
  view: RawViewKey;
  /** Channels the device's type declares, or null when unknown (every channel the view can draw is tried). */
  deviceChannels: readonly string[] | null;
  /** The view's window from the maker's master data, when set. */
  windowFromMaster: number | null;
}

function rowHeightFor(view: RawViewKey, rows: number): number {
  if (view === 'raw-multi') return 72;
  if (rows === 1) return view === 'raw-button' ? 120 : 260;
  return rows === 2 ? 160 : 120;
}

/** One device's live view: controls, the sweeping traces, the values at the cursor, and per view extras. */
export function RawDeviceView({ serial, view, deviceChannels, windowFromMaster }: RawDeviceViewProps) {
  const { t } = useTranslation();
  const choices = WINDOW_CHOICES[view];
  const longest = Math.max(...choices);
  const channels = useMemo(
    () => VIEW_CHANNELS[view].filter((channel) => deviceChannels === null || view !== 'raw-multi' || deviceChannels.includes(channel)),
    [view, deviceChannels],
  );
  const [traces] = useState(() => new LiveTraceSet(VIEW_CHANNELS[view], longest));
  const [windowSeconds, setWindowSeconds] = useState(() => {
    const wanted = windowFromMaster ?? DEFAULT_WINDOW_SECONDS[view];
    return choices.includes(wanted) ? wanted : DEFAULT_WINDOW_SECONDS[view];
  });
  const [amplitude, setAmplitude] = useState<AmplitudeChoice>('1');
  const [frozenAtUs, setFrozenAtUs] = useState<number | null>(null);
  const cursorUs = useRef<number | null>(null);
  const onCursor = useCallback((at: number) => {
    cursorUs.current = at;
  }, []);

  const stored = useStoredSignals(serial, channels as SmfSampleChannel[], longest, traces);
  const link = useDeviceSignals(stored ? serial : null, traces);

  const specs = useMemo(() => channels.flatMap((channel) => CHANNEL_ROWS[channel]), [channels]);
  const rows: TraceRow[] = useMemo(
    () =>
      specs.map((spec) => ({
        trace: traces.traces.get(spec.channel) as NonNullable<ReturnType<typeof traces.traces.get>>,
        component: spec.component,
        color: spec.color,
        range: spec.range,
        kind: spec.kind,
      })),
    [specs, traces],
  );

  const togglePause = () => {
    if (frozenAtUs === null) {
      traces.setPaused(true);
      setFrozenAtUs(cursorUs.current ?? Date.now() * 1000);
    } else {
      traces.setPaused(false);
      setFrozenAtUs(null);
    }
  };

  const deviceState = link.online === null ? null : link.online ? 'online' : 'offline';
  const waiting = !stored || (!link.connected && link.error === null);
  const rowLabels = useMemo(() => specs.map((spec) => t(`rawView.rows.${spec.labelKey}`)), [specs, t]);

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="xs">
          <Badge color={deviceState === 'online' ? 'teal' : deviceState === 'offline' ? 'gray' : 'blue'} variant="light" data-testid="device-link">
            {deviceState === null ? t('rawView.connecting') : t(`rawView.${deviceState}`)}
          </Badge>
          {link.lastSeenAt ? (
            <Text size="sm" c="dimmed">
              {t('rawView.lastSeen', { time: formatTime(link.lastSeenAt) })}
            </Text>
          ) : null}
          {frozenAtUs !== null ? (
            <Badge color="yellow" variant="filled">
              {t('rawView.paused')}
            </Badge>
          ) : null}
          {link.dropped > 0 ? (
            <Text size="xs" c="orange">
              {t('rawView.dropped', { count: link.dropped })}
            </Text>
          ) : null}
        </Group>
        <Group gap="xs">
          <Select
            size="xs"
            w={120}
            aria-label={t('rawView.window')}
            data={choices.map((seconds) => ({
              value: String(seconds),
              label: seconds >= 60 ? t('rawView.minutes', { count: seconds / 60 }) : t('rawView.seconds', { count: seconds }),
            }))}
            value={String(windowSeconds)}
            onChange={(value) => value && setWindowSeconds(Number(value))}
            allowDeselect={false}
          />
          <Select
            size="xs"
            w={110}
            aria-label={t('rawView.amplitude')}
            data={AMPLITUDE_CHOICES.map((choice) => ({ value: choice, label: choice === 'auto' ? t('rawView.auto') : `×${choice}` }))}
            value={amplitude}
            onChange={(value) => value && setAmplitude(value as AmplitudeChoice)}
            allowDeselect={false}
          />
          <Button
            size="xs"
            variant={frozenAtUs === null ? 'default' : 'filled'}
            leftSection={frozenAtUs === null ? <IconPlayerPause size={iconSize('xs')} /> : <IconPlayerPlay size={iconSize('xs')} />}
            onClick={togglePause}
          >
            {frozenAtUs === null ? t('rawView.pause') : t('rawView.resume')}
          </Button>
        </Group>
      </Group>

      {link.error !== null ? (
        <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
          {t(`rawView.errors.${link.error}`, { defaultValue: t('rawView.errors.other') })}
        </Alert>
      ) : null}
      {link.online === false && link.error === null ? (
        <Alert color="yellow" variant="light" role="status" data-testid="device-offline">
          {link.lastSeenAt ? t('rawView.offlineNotice', { time: formatDateTime(link.lastSeenAt) }) : t('rawView.offlineNever')}
        </Alert>
      ) : null}
      {waiting && link.error === null ? (
        <Text size="sm" c="dimmed">
          {t('rawView.waiting')}
        </Text>
      ) : null}

      {view === 'raw-eit' ? (
        <OptionalPart fallback={<Text c="dimmed">{t('rawView.eit.preparing')}</Text>} failed={<Text c="red">{t('errors.chunkLoad')}</Text>}>
          <EitImage traces={traces} cursorUs={cursorUs} />
        </OptionalPart>
      ) : null}

      <SweepCanvas
        rows={rows}
        clock={traces.clock}
        windowSeconds={windowSeconds}
        amplitude={amplitude === 'auto' ? 'auto' : Number(amplitude)}
        frozenAtUs={frozenAtUs}
        rowHeight={rowHeightFor(view, rows.length)}
        label={rowLabels.join('・')}
        rowLabels={rowLabels.length > 1 ? rowLabels : null}
        onCursor={onCursor}
      />
      <CurrentValues rows={specs} traces={traces} cursorUs={cursorUs} />
      {view === 'raw-button' ? <ButtonPresses traces={traces} /> : null}
    </Stack>
  );
}

/** The nurse-call presses seen while the page is open (and in the stored window), newest first. */
function ButtonPresses({ traces }: { traces: LiveTraceSet }) {
  const { t } = useTranslation();
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((tick) => tick + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  const presses = [...traces.presses].reverse();
  return (
    <Stack gap={4} data-testid="button-presses">
      <Text fw={600} size="sm">
        {t('rawView.pressesTitle')}
      </Text>
      {presses.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('rawView.noPresses')}
        </Text>
      ) : (
        presses.slice(0, 10).map((at) => (
          <Text key={at} size="sm" ff="monospace">
            {formatTimeWithSeconds(at)}
          </Text>
        ))
      )}
    </Stack>
  );
}
