import { Button, Group, MultiSelect, Select, TextInput } from '@mantine/core';
import { IconFileTypeCsv } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ALERT_STATUSES } from '@nemuri/shared/alertHistory';
import { ALERT_TYPE_NAMES, type AlertStatus, type AlertTypeName } from '@nemuri/shared/monitoring';
import { iconSize } from '../../lib/icons.ts';
import { CsvEncodingSelect, useCsvEncoding, withCsvEncoding } from '../../components/CsvEncodingSelect.tsx';
import type { ScreenFilter } from './alertHistoryFilter.ts';

interface AlertHistoryFiltersProps {
  filter: ScreenFilter;
  rooms: readonly { id: string; name: string }[];
  /** Null while the days are too many for one CSV. */
  csvUrl: string | null;
  onChange: (filter: ScreenFilter) => void;
}

/** Room, types, state and days of the history, and the CSV of what they select. */
export function AlertHistoryFilters({ filter, rooms, csvUrl, onChange }: AlertHistoryFiltersProps) {
  const { t } = useTranslation();
  const [encoding, setEncoding] = useCsvEncoding();
  const setDay = (key: 'fromDay' | 'toDay', value: string) => {
    if (!/^\d{4}-\d\d-\d\d$/.test(value)) return;
    const next = { ...filter, [key]: value };
    // Days out of order: the other end follows.
    if (next.fromDay > next.toDay) {
      if (key === 'fromDay') next.toDay = value;
      else next.fromDay = value;
    }
    onChange(next);
  };
  return (
    <Group gap="sm" align="flex-end" wrap="wrap" component="form" aria-label={t('alertHistory.filters')} onSubmit={(event) => event.preventDefault()}>
      <Select
        label={t('alertHistory.room')}
        placeholder={t('alertHistory.allRooms')}
        data={rooms.map((room) => ({ value: room.id, label: room.name }))}
        value={filter.roomId}
        onChange={(value) => onChange({ ...filter, roomId: value })}
        searchable
        clearable
        w={{ base: '100%', xs: 200 }}
      />
      <MultiSelect
        label={t('alertHistory.types')}
        placeholder={filter.types.length === 0 ? t('alertHistory.allTypes') : undefined}
        data={ALERT_TYPE_NAMES.map((type) => ({ value: type, label: t(`monitoring.alertTypes.${type}`) }))}
        value={filter.types}
        onChange={(value) => onChange({ ...filter, types: value as AlertTypeName[] })}
        clearable
        w={{ base: '100%', xs: 260 }}
      />
      <Select
        label={t('alertHistory.state')}
        placeholder={t('alertHistory.allStates')}
        data={ALERT_STATUSES.map((state) => ({ value: state, label: t(`alertHistory.states.${state}`) }))}
        value={filter.state}
        onChange={(value) => onChange({ ...filter, state: value as AlertStatus | null })}
        clearable
        w={{ base: '100%', xs: 180 }}
      />
      <TextInput
        type="date"
        label={t('alertHistory.from')}
        value={filter.fromDay}
        onChange={(event) => setDay('fromDay', event.currentTarget.value)}
        w={{ base: 'calc(50% - 6px)', xs: 160 }}
      />
      <TextInput
        type="date"
        label={t('alertHistory.to')}
        value={filter.toDay}
        onChange={(event) => setDay('toDay', event.currentTarget.value)}
        w={{ base: 'calc(50% - 6px)', xs: 160 }}
      />
      <CsvEncodingSelect value={encoding} onChange={setEncoding} w={{ base: '100%', xs: 180 }} />
      <Button
        component="a"
        href={csvUrl === null ? undefined : withCsvEncoding(csvUrl, encoding)}
        download
        disabled={csvUrl === null}
        variant="light"
        leftSection={<IconFileTypeCsv size={iconSize('xs')} />}
        data-testid="alert-history-csv"
      >
        {t('alertHistory.csv')}
      </Button>
    </Group>
  );
}
