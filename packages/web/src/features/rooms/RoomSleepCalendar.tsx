import { ActionIcon, Box, Group, Loader, Paper, Text, UnstyledButton } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '../../lib/documents/hooks.ts';
import { iconSize } from '../../lib/icons.ts';
import { addDays, addMonths, calendarWeeks, daysBetween, monthOf, sleepDaysQuery, type SleepDayRecord } from './roomSleepData.ts';

interface RoomSleepCalendarProps {
  roomId: string;
  day: string;
  onPick: (day: string) => void;
}

/** A month of the room's sleep days: days with a record are marked and open that day. */
export function RoomSleepCalendar({ roomId, day, onPick }: RoomSleepCalendarProps) {
  const { t } = useTranslation();
  // Follows the shown day until the user pages to another month.
  const [paged, setPaged] = useState<{ from: string; month: string } | null>(null);
  const month = paged !== null && paged.from === day ? paged.month : monthOf(day);
  const first = `${month}-01`;
  const last = addDays(`${addMonths(month, 1)}-01`, -1);
  const records = useQuery<SleepDayRecord>(sleepDaysQuery(roomId, first, last));
  const withData = useMemo(() => new Set(daysBetween(records.data, first, last).keys()), [records.data, first, last]);
  const weeks = calendarWeeks(month, withData);
  const weekdays = t('roomSleep.calendar.weekdays').split(',');
  const [year, monthNumber] = month.split('-').map(Number);

  return (
    <Paper withBorder p="sm" radius="md" w={280} aria-label={t('roomSleep.calendar.label')} data-testid="sleep-calendar" data-month={month}>
      <Group justify="space-between" mb="xs">
        <ActionIcon variant="subtle" aria-label={t('roomSleep.calendar.previousMonth')} onClick={() => setPaged({ from: day, month: addMonths(month, -1) })}>
          <IconChevronLeft size={iconSize('sm')} />
        </ActionIcon>
        <Group gap={6}>
          <Text fw={600}>{t('roomSleep.calendar.month', { year, month: monthNumber })}</Text>
          {records.loading ? <Loader size="xs" aria-label={t('roomSleep.loading')} /> : null}
        </Group>
        <ActionIcon variant="subtle" aria-label={t('roomSleep.calendar.nextMonth')} onClick={() => setPaged({ from: day, month: addMonths(month, 1) })}>
          <IconChevronRight size={iconSize('sm')} />
        </ActionIcon>
      </Group>
      <Box component="table" w="100%" style={{ borderCollapse: 'collapse', textAlign: 'center' }}>
        <thead>
          <tr>
            {weekdays.map((name) => (
              <Text component="th" key={name} size="xs" c="dimmed" fw={400}>
                {name}
              </Text>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week.find((cell) => cell !== null)?.day}>
              {week.map((cell, index) =>
                cell === null ? (
                  <td key={`pad-${index}`} />
                ) : (
                  <td key={cell.day} style={{ padding: 1 }}>
                    <UnstyledButton
                      onClick={() => onPick(cell.day)}
                      data-day={cell.day}
                      data-has-data={cell.hasData ? 'true' : 'false'}
                      aria-current={cell.day === day ? 'date' : undefined}
                      aria-label={cell.hasData ? t('roomSleep.calendar.dayWithData', { date: cell.date }) : String(cell.date)}
                      w="100%"
                      py={3}
                      style={{
                        borderRadius: 6,
                        fontSize: 13,
                        fontWeight: cell.hasData ? 700 : 400,
                        color: cell.day === day ? 'white' : cell.hasData ? undefined : 'var(--mantine-color-dimmed)',
                        background: cell.day === day ? 'var(--mantine-color-indigo-6)' : cell.hasData ? 'var(--mantine-color-indigo-light)' : undefined,
                      }}
                    >
                      {cell.date}
                    </UnstyledButton>
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </Box>
    </Paper>
  );
}
