import { DIARY_COLORS } from '@nemuri/shared/report/columns';
import { DIARY_MINUTES, type DiaryDay, type DiaryKind } from '@nemuri/shared/report/roomReport';
import { clockOfOffset, type ReportDayRule } from '@nemuri/shared/report/sleepDayClock';
import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dayLabel } from './reportFormat.ts';

const WIDTH = 1000;
const LABEL = 84;
const ROW = 16;
const AXIS = 16;
const KINDS: readonly DiaryKind[] = ['outOfBed', 'inBedAwake', 'asleep'];

/**
 * The sleep diary (睡眠日誌): a bar per day across the 24 hours of the sleep day from its boundary
 * hour, coloured by state, with breathing pauses as red ticks. Vector (SVG) so it prints sharply.
 */
export function SleepDiaryChart({ days, rule, roomName }: { days: readonly DiaryDay[]; rule: ReportDayRule; roomName: string }) {
  const { t, i18n } = useTranslation();
  const height = AXIS + days.length * ROW + 2;
  const x = (minute: number) => LABEL + (minute / DIARY_MINUTES) * (WIDTH - LABEL - 4);
  return (
    <div>
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        width="100%"
        role="img"
        aria-label={t('report.diary.label', { room: roomName })}
        data-testid="report-diary"
        style={{ display: 'block' }}
      >
        {Array.from({ length: 9 }, (_, index) => index * 180).map((minute) => (
          <g key={minute}>
            <line x1={x(minute)} x2={x(minute)} y1={AXIS - 2} y2={height} stroke="#adb5bd" strokeWidth={minute % 720 === 0 ? 1 : 0.5} />
            <text x={x(minute)} y={11} fontSize={10} textAnchor={minute === DIARY_MINUTES ? 'end' : 'middle'} fill="currentColor">
              {clockOfOffset(minute, rule)}
            </text>
          </g>
        ))}
        {days.map((day, index) => {
          const top = AXIS + index * ROW;
          return (
            <g key={day.day} data-testid="diary-day" data-day={day.day} data-segments={day.segments.length}>
              <text x={0} y={top + ROW - 4} fontSize={10} fill="currentColor">
                {dayLabel(day.day, i18n.language)}
              </text>
              <line x1={LABEL} x2={WIDTH - 4} y1={top + ROW} y2={top + ROW} stroke="#dee2e6" strokeWidth={0.5} />
              {day.segments.map((segment) => (
                <rect
                  key={segment.startMin}
                  x={x(segment.startMin)}
                  y={top + 2}
                  width={Math.max(0.5, x(segment.endMin) - x(segment.startMin))}
                  height={ROW - 4}
                  fill={DIARY_COLORS[segment.kind]}
                  data-kind={segment.kind}
                />
              ))}
              {day.pauses.map((pause) => (
                <line
                  key={pause.minute}
                  x1={x(pause.minute + 0.5)}
                  x2={x(pause.minute + 0.5)}
                  y1={top}
                  y2={top + ROW}
                  stroke={DIARY_COLORS.pause}
                  strokeWidth={1.2}
                  data-testid="diary-pause"
                />
              ))}
            </g>
          );
        })}
      </svg>
      <Group gap="md" mt={4}>
        {KINDS.map((kind) => (
          <Group key={kind} gap={4}>
            <span style={{ display: 'inline-block', width: 16, height: 8, background: DIARY_COLORS[kind] }} />
            <Text size="xs">{t(`report.diary.kinds.${kind}`)}</Text>
          </Group>
        ))}
        <Group gap={4}>
          <span style={{ display: 'inline-block', width: 2, height: 12, background: DIARY_COLORS.pause }} />
          <Text size="xs">{t('report.diary.pause')}</Text>
        </Group>
      </Group>
    </div>
  );
}
