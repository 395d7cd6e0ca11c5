import { Group, SegmentedControl, Select, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { iconSize } from '../../lib/icons.ts';
import type { Room, RoomRow } from './RoomCards.tsx';
import { STATE_ORDER } from './roomStateLook.ts';

export type RoomSortKey = 'name' | 'state';

const collator = new Intl.Collator('ja', { numeric: true });

const distinct = (values: (string | null | undefined)[]): string[] =>
  [...new Set(values.filter((value): value is string => typeof value === 'string' && value !== ''))].sort(collator.compare);

/** Search, floor, unit and sort of a room list: the home lists and the monitoring grid share them. */
export function useRoomFilter(rooms: readonly Room[]) {
  const [search, setSearch] = useState('');
  const [floor, setFloor] = useState<string | null>(null);
  const [unit, setUnit] = useState<string | null>(null);
  const [sort, setSort] = useState<RoomSortKey>('name');
  const floors = useMemo(() => distinct(rooms.map((room) => room.floor)), [rooms]);
  const units = useMemo(() => distinct(rooms.map((room) => room.unit)), [rooms]);

  /** The rows that pass the filter, in the chosen order. */
  const apply = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const byName = (a: RoomRow, b: RoomRow) => collator.compare(a.room.name, b.room.name);
    return (rows: readonly RoomRow[]): RoomRow[] =>
      rows
        .filter(({ room }) => (floor === null || room.floor === floor) && (unit === null || room.unit === unit))
        .filter(
          ({ room }) =>
            needle === '' || [room.name, room.residentName, room.deviceSerial].some((text) => typeof text === 'string' && text.toLowerCase().includes(needle)),
        )
        .sort(sort === 'state' ? (a, b) => STATE_ORDER.indexOf(a.state) - STATE_ORDER.indexOf(b.state) || byName(a, b) : byName);
  }, [search, floor, unit, sort]);

  return { search, setSearch, floor, setFloor, unit, setUnit, sort, setSort, floors, units, apply };
}

export function RoomFilterBar({ filter }: { filter: ReturnType<typeof useRoomFilter> }) {
  const { t } = useTranslation();
  return (
    <Group gap="sm" align="flex-end">
      <TextInput
        aria-label={t('rooms.search')}
        placeholder={t('rooms.search')}
        leftSection={<IconSearch size={iconSize('xs')} />}
        value={filter.search}
        onChange={(event) => filter.setSearch(event.currentTarget.value)}
        w={220}
      />
      {filter.floors.length > 0 ? (
        <Select
          aria-label={t('rooms.floor')}
          placeholder={t('rooms.allFloors')}
          data={filter.floors}
          value={filter.floor}
          onChange={filter.setFloor}
          clearable
          w={170}
        />
      ) : null}
      {filter.units.length > 0 ? (
        <Select
          aria-label={t('rooms.unit')}
          placeholder={t('rooms.allUnits')}
          data={filter.units}
          value={filter.unit}
          onChange={filter.setUnit}
          clearable
          w={180}
        />
      ) : null}
      <SegmentedControl
        aria-label={t('rooms.sort')}
        value={filter.sort}
        onChange={(value) => filter.setSort(value as RoomSortKey)}
        data={[
          { value: 'name', label: t('rooms.sortName') },
          { value: 'state', label: t('rooms.sortState') },
        ]}
      />
    </Group>
  );
}
