import type { PeriodKind } from '@nemuri/shared/report/period';
import { Button, Group, MultiSelect, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconReportAnalytics } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { iconSize } from '../../lib/icons.ts';
import { formatDay } from '../../lib/dates.ts';
import { floorsOf, sortRooms, withFloor, type PeriodChoice, type RoomChoice } from './reportSelection.ts';

const KINDS: readonly PeriodKind[] = ['day', 'week', 'month', 'custom'];

interface ReportControlsProps {
  rooms: readonly RoomChoice[];
  chosen: string[];
  onChoose: (ids: string[]) => void;
  period: PeriodChoice;
  onPeriod: (period: PeriodChoice) => void;
  range: { from: string; to: string };
  problem: string | null;
  /** The problem is only that nothing is chosen yet: said calmly, not as an error. */
  problemIsEmptyChoice?: boolean;
  loading: boolean;
  onShow: () => void;
}

/** Which rooms (one, several, a floor, all) and which period (day, week, month, custom). */
export function ReportControls({
  rooms,
  chosen,
  onChoose,
  period,
  onPeriod,
  range,
  problem,
  problemIsEmptyChoice = false,
  loading,
  onShow,
}: ReportControlsProps) {
  const { t } = useTranslation();
  const floors = floorsOf(rooms);
  const ordered = sortRooms(rooms);
  return (
    <Stack gap="sm" className="nemuri-no-print" data-testid="report-controls">
      <MultiSelect
        label={t('report.controls.rooms')}
        placeholder={chosen.length === 0 ? t('report.controls.roomsPlaceholder') : undefined}
        data={ordered.map((room) => ({ value: room.id, label: room.floor ? `${room.name}（${room.floor}）` : room.name }))}
        value={chosen}
        onChange={onChoose}
        searchable
        clearable
        maxDropdownHeight={300}
      />
      <Group gap="xs">
        {floors.length > 0 ? (
          <Select
            aria-label={t('report.controls.addFloor')}
            placeholder={t('report.controls.addFloor')}
            data={floors}
            value={null}
            onChange={(floor) => floor && onChoose(withFloor(rooms, chosen, floor))}
            w={220}
            size="xs"
          />
        ) : null}
        <Button size="xs" variant="default" onClick={() => onChoose(ordered.map((room) => room.id))}>
          {t('report.controls.allRooms')}
        </Button>
        <Button size="xs" variant="subtle" onClick={() => onChoose([])} disabled={chosen.length === 0}>
          {t('report.controls.clearRooms')}
        </Button>
      </Group>
      <Group align="flex-end" gap="sm">
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('report.controls.period')}
          </Text>
          <SegmentedControl
            aria-label={t('report.controls.period')}
            data={KINDS.map((kind) => ({ value: kind, label: t(`report.controls.kinds.${kind}`) }))}
            value={period.kind}
            onChange={(kind) => onPeriod({ ...period, kind: kind as PeriodKind })}
          />
        </Stack>
        {period.kind === 'month' ? (
          <TextInput
            type="month"
            label={t('report.controls.month')}
            value={period.anchor.slice(0, 7)}
            onChange={(event) => event.currentTarget.value && onPeriod({ ...period, anchor: `${event.currentTarget.value}-01` })}
          />
        ) : null}
        {period.kind === 'day' || period.kind === 'week' ? (
          <TextInput
            type="date"
            label={t(period.kind === 'day' ? 'report.controls.day' : 'report.controls.weekOf')}
            value={period.anchor}
            onChange={(event) => event.currentTarget.value && onPeriod({ ...period, anchor: event.currentTarget.value })}
          />
        ) : null}
        {period.kind === 'custom' ? (
          <>
            <TextInput
              type="date"
              label={t('report.controls.from')}
              value={period.customFrom}
              onChange={(event) => onPeriod({ ...period, customFrom: event.currentTarget.value })}
            />
            <TextInput
              type="date"
              label={t('report.controls.to')}
              value={period.customTo}
              onChange={(event) => onPeriod({ ...period, customTo: event.currentTarget.value })}
            />
          </>
        ) : null}
        <Button leftSection={<IconReportAnalytics size={iconSize('xs')} />} onClick={onShow} loading={loading} disabled={problem !== null}>
          {t('report.controls.show')}
        </Button>
      </Group>
      <Text size="sm" c={problem === null || problemIsEmptyChoice ? 'dimmed' : 'red'} data-testid="report-range">
        {problem ?? t('report.controls.range', { from: formatDay(range.from), to: formatDay(range.to) })}
      </Text>
    </Stack>
  );
}
