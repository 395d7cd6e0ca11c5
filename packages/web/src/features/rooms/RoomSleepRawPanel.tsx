import { Alert, CloseButton, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/dates.ts';
import { MINUTE_MS, type SleepEpoch } from './roomSleepData.ts';
import { envelope, envelopePath, RAW_CHANNELS, readStoredSignals, type ChannelSignals, type RawChannel } from './roomSleepRaw.ts';

const COLUMNS = 600;
const TRACE_W = 1000;
const TRACE_H = 90;
const COMPONENT_COLORS = ['var(--mantine-color-blue-6)', 'var(--mantine-color-teal-6)', 'var(--mantine-color-grape-6)'];

type Loaded = Partial<Record<RawChannel, ChannelSignals>>;

interface RoomSleepRawPanelProps {
  serial: string | null;
  minuteMs: number;
  epoch: SleepEpoch | null;
  timeZone: string;
  onClose: () => void;
}

/** The raw stored signals (respiration/acceleration and ECG) of one minute of the night. */
export function RoomSleepRawPanel({ serial, minuteMs, epoch, timeZone, onClose }: RoomSleepRawPanelProps) {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState<{ key: string; channels: Loaded } | null>(null);
  const key = `${serial ?? ''} ${minuteMs}`;

  useEffect(() => {
    if (serial === null) return undefined;
    const abort = new AbortController();
    const channels: Loaded = {};
    for (const channel of RAW_CHANNELS) {
      readStoredSignals(serial, channel, minuteMs, minuteMs + MINUTE_MS, abort.signal)
        .catch((): ChannelSignals => ({ status: 'failed' }))
        .then((result) => {
          if (abort.signal.aborted) return;
          channels[channel] = result;
          setLoaded({ key, channels: { ...channels } });
        });
    }
    return () => abort.abort();
  }, [serial, minuteMs, key]);

  const current = loaded?.key === key ? loaded.channels : {};
  const results = RAW_CHANNELS.map((channel) => current[channel]);
  const done = results.every((result) => result !== undefined);
  const hasFrames = results.some((result) => result?.status === 'frames');
  const forbidden = results.some((result) => result?.status === 'forbidden');
  const failed = results.some((result) => result?.status === 'failed');
  const value = (v: number | null | undefined) => (typeof v === 'number' ? String(v) : t('roomSleep.noValue'));

  return (
    <Paper withBorder p="md" radius="md" data-testid="raw-minute-panel">
      <Group justify="space-between" mb="xs">
        <Text fw={600}>{t('roomSleep.raw.title', { time: formatDateTime(minuteMs, timeZone) })}</Text>
        <CloseButton aria-label={t('roomSleep.raw.close')} onClick={onClose} />
      </Group>
      {epoch ? (
        <Text size="sm" c="dimmed" mb="xs">
          {t('roomSleep.raw.epoch', {
            state: t(
              `roomSleep.timeline.${epoch.state === 'light' || epoch.state === 'deep' || epoch.state === 'rem' || epoch.state === 'awake' ? `stages.${epoch.state}` : epoch.state === 'outOfBed' ? 'states.outOfBed' : 'states.unknown'}`,
            ),
            rr: value(epoch.respirationRate),
            hr: value(epoch.heartRate),
            activity: value(epoch.activity),
          })}
        </Text>
      ) : null}
      {serial === null ? (
        <Alert color="gray">{t('roomSleep.raw.noDevice')}</Alert>
      ) : !done && !hasFrames ? (
        <Group gap="xs">
          <Loader size="sm" aria-label={t('roomSleep.raw.loading')} />
          <Text size="sm">{t('roomSleep.raw.loading')}</Text>
        </Group>
      ) : hasFrames ? (
        <Stack gap="sm">
          {RAW_CHANNELS.map((channel) => {
            const result = current[channel];
            return result?.status === 'frames' ? (
              <Trace key={channel} channel={channel} signals={result} fromMs={minuteMs} label={t(`roomSleep.raw.channels.${channel}`)} />
            ) : null;
          })}
        </Stack>
      ) : (
        <Alert color={forbidden ? 'orange' : failed ? 'red' : 'gray'} role="status">
          {forbidden ? t('roomSleep.raw.forbidden') : failed ? t('roomSleep.raw.failed') : t('roomSleep.raw.none')}
        </Alert>
      )}
    </Paper>
  );
}

function Trace({
  channel,
  signals,
  fromMs,
  label,
}: {
  channel: RawChannel;
  signals: Extract<ChannelSignals, { status: 'frames' }>;
  fromMs: number;
  label: string;
}) {
  const width = signals.frames[0]?.width ?? 1;
  const components = Array.from({ length: Math.min(3, width) }, (_, component) => envelope(signals.frames, component, fromMs, fromMs + MINUTE_MS, COLUMNS));
  return (
    <div data-channel={channel}>
      <Text size="sm">{label}</Text>
      <svg viewBox={`0 0 ${TRACE_W} ${TRACE_H}`} width="100%" role="img" aria-label={label} style={{ display: 'block' }}>
        {components.map((env, component) =>
          env.range ? (
            <path key={component} d={envelopePath(env, TRACE_W, TRACE_H, env.range)} fill="none" stroke={COMPONENT_COLORS[component]} strokeWidth={1} />
          ) : null,
        )}
      </svg>
    </div>
  );
}
