import { Alert, Button, Flex, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatDate, formatTime } from '../../lib/dates.ts';
import { useDocument } from '../../lib/documents/hooks.ts';
import { iconSize } from '../../lib/icons.ts';
import { RoomSleepCalendar } from './RoomSleepCalendar.tsx';
import { RoomSleepRawPanel } from './RoomSleepRawPanel.tsx';
import { RoomSleepTimeline } from './RoomSleepTimeline.tsx';
import { hoursMinutes, roomSleepMetrics, type MetricText } from './roomSleepMetrics.ts';
import { useSleepDayRule } from './roomSleepRule.ts';
import {
  addDays,
  epochAt,
  epochOriginMs,
  isDay,
  pauseMarks,
  sleepDayOf,
  sleepDayRange,
  timeAxis,
  type SleepDayRecord,
  type SleepDayRule,
} from './roomSleepData.ts';
import { RoomPage, type Room } from './RoomTabs.tsx';
import { useLatestSleepDay } from './api/roomQueries.ts';

/** `/room/:roomid/sleep?day=YYYY-MM-DD`: one sleep day of the room (the latest with a record by default). */
/** The night summary of one room and sleep day, from the alert history feature (composed in app/pages). */
export type NightSummarySlot = (night: { roomId: string; day: string; timeZone: string }) => ReactNode;

export function RoomSleepScreen({ roomId, nightSummary }: { roomId: string; nightSummary: NightSummarySlot }) {
  return (
    <RoomPage roomId={roomId} tab="sleep">
      {(room) => <SleepDayView room={room} nightSummary={nightSummary} />}
    </RoomPage>
  );
}

function SleepDayView({ room, nightSummary }: { room: Room; nightSummary: NightSummarySlot }) {
  const { t } = useTranslation();
  const roomId = room.documentReferenceId;
  const rule = useSleepDayRule(room.domainId);
  const [params, setParams] = useSearchParams();
  const asked = params.get('day');
  const [openedAt] = useState(() => Date.now());
  const latest = useLatestSleepDay(roomId, !isDay(asked));
  if (!isDay(asked) && latest.loading) return <Loader aria-label={t('roomSleep.loading')} />;
  const noRecordsAtAll = !isDay(asked) && latest.data.length === 0;
  const day = isDay(asked) ? asked : (latest.data[0]?.documentReferenceId ?? addDays(sleepDayOf(openedAt, rule), -1));
  const go = (next: string) => setParams({ day: next });
  // The open minute is in the address too, so a link can point at one minute of one night.
  const minuteParam = Number(params.get('minute'));
  const selected = Number.isInteger(minuteParam) && minuteParam > 0 ? minuteParam : null;
  const select = (minuteMs: number | null) => setParams(minuteMs === null ? { day } : { day, minute: String(minuteMs) });

  return (
    <Flex gap="lg" wrap="wrap" align="flex-start">
      <Stack gap="md" style={{ flex: '1 1 560px', minWidth: 0 }}>
        <Group justify="space-between" wrap="wrap">
          <Button variant="default" leftSection={<IconChevronLeft size={iconSize('sm')} />} onClick={() => go(addDays(day, -1))}>
            {t('roomSleep.previousDay')}
          </Button>
          <Title order={3} data-testid="sleep-day" data-day={day}>
            {t('roomSleep.dayTitle', { date: formatDate(`${day}T12:00:00Z`, 'UTC') })}
          </Title>
          <Button variant="default" rightSection={<IconChevronRight size={iconSize('sm')} />} onClick={() => go(addDays(day, 1))}>
            {t('roomSleep.nextDay')}
          </Button>
        </Group>
        {noRecordsAtAll ? <Alert color="gray">{t('roomSleep.noRecords')}</Alert> : null}
        <SleepDayRecordView key={day} room={room} day={day} rule={rule} selected={selected} onSelect={select} />
        {nightSummary({ roomId, day, timeZone: rule.timeZone })}
      </Stack>
      <RoomSleepCalendar roomId={roomId} day={day} onPick={go} />
    </Flex>
  );
}

interface SleepDayRecordViewProps {
  room: Room;
  day: string;
  rule: SleepDayRule;
  selected: number | null;
  onSelect: (minuteMs: number | null) => void;
}

function SleepDayRecordView({ room, day, rule, selected, onSelect }: SleepDayRecordViewProps) {
  const { t } = useTranslation();
  const roomId = room.documentReferenceId;
  const record = useDocument<SleepDayRecord>(`rooms/${roomId}/sleeps/${day}`);
  const range = useMemo(() => sleepDayRange(day, rule), [day, rule]);
  if (record.loading) return <Loader aria-label={t('roomSleep.loading')} />;
  if (record.error) {
    return (
      <Alert color="red" role="alert">
        {t('roomSleep.loadFailed')}
      </Alert>
    );
  }
  if (record.data === null) {
    return (
      <Paper withBorder p="xl" radius="md" ta="center" data-testid="sleep-empty">
        <Text c="dimmed">{t('roomSleep.empty')}</Text>
      </Paper>
    );
  }
  const data = record.data;
  const epochs = data.epochs ?? [];
  const origin = epochOriginMs(data);
  const axis = timeAxis(origin, epochs.length, range);
  // The lane and the count in the metrics read the same per-minute pause counts of the record.
  const pauses = origin === null ? [] : pauseMarks(epochs, origin);
  const metrics = roomSleepMetrics(data);

  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="md">
        <Title order={4} mb="sm">
          {t('roomSleep.metricsTitle')}
        </Title>
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="sm" verticalSpacing="xs">
          {metrics.map((metric) => (
            <div key={metric.key} data-metric={metric.key}>
              <Text size="xs" c="dimmed">
                {t(`roomSleep.metrics.${metric.key}`)}
              </Text>
              <Text fw={600} data-value="">
                <MetricValue text={metric.text} timeZone={rule.timeZone} />
              </Text>
            </div>
          ))}
        </SimpleGrid>
      </Paper>
      <Paper withBorder p="md" radius="md">
        {origin === null || epochs.length === 0 ? (
          <Text c="dimmed">{t('roomSleep.timeline.noEpochs')}</Text>
        ) : (
          <Stack gap="xs">
            <RoomSleepTimeline
              epochs={epochs}
              originMs={origin}
              axis={axis}
              pauses={pauses}
              timeZone={rule.timeZone}
              selectedMinute={selected}
              onSelectMinute={onSelect}
              scored={data.hypnogram}
            />
            <Text size="xs" c="dimmed">
              {t('roomSleep.timeline.hint')}
            </Text>
          </Stack>
        )}
      </Paper>
      {selected !== null ? (
        <RoomSleepRawPanel
          serial={room.deviceSerial ?? null}
          minuteMs={selected}
          epoch={epochAt(epochs, origin, selected)}
          timeZone={rule.timeZone}
          onClose={() => onSelect(null)}
        />
      ) : null}
    </Stack>
  );
}

function MetricValue({ text, timeZone }: { text: MetricText; timeZone: string }) {
  const { t } = useTranslation();
  switch (text.kind) {
    case 'none':
      return t('roomSleep.noValue');
    case 'time':
      return formatTime(text.iso, timeZone);
    case 'duration':
      return Math.round(text.minutes) >= 60
        ? t('roomSleep.units.hoursMinutes', hoursMinutes(text.minutes))
        : t('roomSleep.units.minutes', { value: text.minutes });
    case 'unit':
      return t(`roomSleep.units.${text.unit}`, { value: text.value });
    case 'rate':
      return text.min === null || text.max === null
        ? t(`roomSleep.units.${text.unit}`, { value: text.avg })
        : t('roomSleep.units.rateRange', { avg: t(`roomSleep.units.${text.unit}`, { value: text.avg }), min: text.min, max: text.max });
    case 'apnea':
      return text.index === null ? t('roomSleep.units.count', { value: text.count }) : t('roomSleep.units.apnea', { count: text.count, index: text.index });
  }
}
