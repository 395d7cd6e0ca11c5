import { Alert, Button, Group, Loader, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconPlus, IconSearch } from '@tabler/icons-react';
import { levelAllows } from '@nemuri/shared/documents/access';
import { collectionByName, type CollectionSpec } from '@nemuri/shared/documents/collections';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCurrentRoute } from '../../lib/routeHandle.ts';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { documents } from '../../lib/documents/documents.ts';
import { iconSize } from '../../lib/icons.ts';
import { notify } from '../../lib/notify.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { BulkFailures, RoomConfigBulk, type BulkFailure } from './RoomConfigBulk.tsx';
import { RoomConfigCards, type RoomHandlers } from './RoomConfigCards.tsx';
import { RoomConfigDelete } from './RoomConfigDelete.tsx';
import { RoomConfigForm, type DomainChoice } from './RoomConfigForm.tsx';
import { RoomConfigTable } from './RoomConfigTable.tsx';
import { errorKeyOf, saveSortOrders } from './api/roomConfigActions.ts';
import { distinctValues, groupRooms, moveWrites, nextSortOrder, type Room, type SortKey } from './roomConfigRows.ts';
import { useDevices, useDomains, useRoomsByName } from './api/roomQueries.ts';

type Layout = 'card' | 'table' | 'smallcard';

const LAYOUT_OF_ROUTE: Record<string, Layout> = { roomConfigCard: 'card', roomConfigTable: 'table', roomConfigSmallCard: 'smallcard' };
const PATH_OF_LAYOUT: Record<Layout, string> = { card: '/room-config/card', table: '/room-config/table', smallcard: '/room-config/smallcard' };
/** Domains that hold rooms (an agency's or the maker's own domain does not). */
const ROOM_DOMAIN_KINDS = new Set(['corporation', 'facility', 'individual']);

function spec(name: string): CollectionSpec {
  const found = collectionByName(name);
  if (found === undefined) throw new Error(`collection ${name} is not in the registry`);
  return found;
}
const ROOMS = spec('rooms');
const DEVICES = spec('devices');

type Editing = { room: Room | null } | null;

/**
 * Room configuration (/room-config/card, /table, /smallcard): every room in the user's scope, live,
 * grouped by floor and unit, to create, edit, reorder, assign devices to and delete. What each
 * level may do comes from the registry's access table, the same one the server enforces; the
 * buttons only follow it.
 */
export default function RoomConfigScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const route = useCurrentRoute();
  const user = useCurrentUser();
  const layout = LAYOUT_OF_ROUTE[route?.name ?? ''] ?? 'card';
  const level = user?.accessLevel ?? 0;
  const canCreate = levelAllows(ROOMS, 'create', level);
  const canEdit = levelAllows(ROOMS, 'update', level);
  const canDelete = levelAllows(ROOMS, 'delete', level);
  const canAssign = levelAllows(DEVICES, 'update', level);

  const rooms = useRoomsByName();
  const devices = useDevices();
  const domains = useDomains();

  const [search, setSearch] = useState('');
  const [floor, setFloor] = useState<string | null>(null);
  const [unit, setUnit] = useState<string | null>(null);
  const [domainFilter, setDomainFilter] = useState<string | null>(null);
  const [sort, setSort] = useState<SortKey>('sortOrder');
  const [editing, setEditing] = useState<Editing>(null);
  const [deletingId, setDeletingId] = useState<string | null>(null);
  const [moving, setMoving] = useState(false);
  const [selection, setSelection] = useState<ReadonlySet<string>>(new Set());
  const [report, setReport] = useState<{ operation: string; failures: readonly BulkFailure[] } | null>(null);

  const floors = useMemo(() => distinctValues(rooms.data, 'floor'), [rooms.data]);
  const units = useMemo(() => distinctValues(rooms.data, 'unit'), [rooms.data]);
  const inDomain = useMemo(
    () => (domainFilter === null ? rooms.data : rooms.data.filter((room) => room.domainId === domainFilter)),
    [rooms.data, domainFilter],
  );
  const groups = useMemo(() => groupRooms(inDomain, { search, floor, unit }, sort), [inDomain, search, floor, unit, sort]);

  const domainChoices: DomainChoice[] = useMemo(
    () =>
      domains.data
        .filter((domain) => ROOM_DOMAIN_KINDS.has(domain.kind))
        .map((domain) => ({ id: domain.documentReferenceId, name: domain.name, rootDomainId: domain.rootDomainId ?? domain.documentReferenceId }))
        .sort((a, b) => (a.id === user?.domainId ? -1 : b.id === user?.domainId ? 1 : a.name.localeCompare(b.name, 'ja'))),
    [domains.data, user?.domainId],
  );
  const domainNames = useMemo(() => new Map(domainChoices.map((domain) => [domain.id, domain.name])), [domainChoices]);
  const defaultDomainId = domainChoices.find((domain) => domain.id === user?.domainId)?.id ?? domainChoices[0]?.id ?? user?.domainId ?? '';
  // The user's own domain, when the domains are not readable or not loaded yet.
  const formDomains: DomainChoice[] =
    domainChoices.length > 0 ? domainChoices : user?.domainId ? [{ id: user.domainId, name: user.domainId, rootDomainId: user.rootDomainId }] : [];

  const selectedRooms = rooms.data.filter((room) => selection.has(room.documentReferenceId));
  const deleting = deletingId === null ? null : (rooms.data.find((room) => room.documentReferenceId === deletingId) ?? null);

  const move = async (group: readonly Room[], room: Room, step: -1 | 1) => {
    setMoving(true);
    try {
      await saveSortOrders(documents, moveWrites(group, room.documentReferenceId, step));
    } catch (error) {
      notify({ color: 'red', title: t('roomConfig.notices.moveFailed', { name: room.name }), message: t(errorKeyOf(error)) });
    } finally {
      setMoving(false);
    }
  };

  const handlers: RoomHandlers = {
    edit: (room) => setEditing({ room }),
    remove: (room) => setDeletingId(room.documentReferenceId),
    move: (group, room, step) => void move(group, room, step),
    canEdit,
    canDelete,
    canMove: canEdit && sort === 'sortOrder',
    moving,
    domainName: (room) => (domainNames.size > 1 ? (domainNames.get(room.domainId) ?? null) : null),
  };

  const select = (roomIds: readonly string[], selected: boolean) => {
    setSelection((current) => {
      const next = new Set(current);
      for (const id of roomIds) {
        if (selected) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  };

  const bulkDone = (operation: string, failures: readonly BulkFailure[]) => {
    setSelection(new Set(failures.map((failure) => failure.roomId)));
    setReport(failures.length > 0 ? { operation, failures } : null);
  };

  const createButton = canCreate ? (
    <Button leftSection={<IconPlus size={iconSize('xs')} />} onClick={() => setEditing({ room: null })}>
      {t('roomConfig.actions.add')}
    </Button>
  ) : null;

  const rowsShown = groups.reduce((count, group) => count + group.rooms.length, 0);

  return (
    <ScreenPage>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Group gap="sm" align="flex-end">
          <TextInput
            aria-label={t('roomConfig.search')}
            placeholder={t('roomConfig.search')}
            leftSection={<IconSearch size={iconSize('xs')} />}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            w={260}
          />
          {domainChoices.length > 1 ? (
            <Select
              aria-label={t('roomConfig.fields.domainId')}
              placeholder={t('roomConfig.allDomains')}
              data={domainChoices.map((domain) => ({ value: domain.id, label: domain.name }))}
              value={domainFilter}
              onChange={setDomainFilter}
              clearable
              w={200}
            />
          ) : null}
          {floors.length > 0 ? (
            <Select
              aria-label={t('roomConfig.fields.floor')}
              placeholder={t('roomConfig.allFloors')}
              data={floors}
              value={floor}
              onChange={setFloor}
              clearable
              w={160}
            />
          ) : null}
          {units.length > 0 ? (
            <Select
              aria-label={t('roomConfig.fields.unit')}
              placeholder={t('roomConfig.allUnits')}
              data={units}
              value={unit}
              onChange={setUnit}
              clearable
              w={170}
            />
          ) : null}
          <SegmentedControl
            aria-label={t('roomConfig.sort')}
            value={sort}
            onChange={(value) => setSort(value as SortKey)}
            data={[
              { value: 'sortOrder', label: t('roomConfig.sortOrder') },
              { value: 'name', label: t('roomConfig.sortName') },
            ]}
          />
        </Group>
        <Group gap="sm" align="flex-end">
          <SegmentedControl
            aria-label={t('roomConfig.layout')}
            value={layout}
            onChange={(value) => navigate(PATH_OF_LAYOUT[value as Layout])}
            data={[
              { value: 'card', label: t('roomConfig.layouts.card') },
              { value: 'table', label: t('roomConfig.layouts.table') },
              { value: 'smallcard', label: t('roomConfig.layouts.smallcard') },
            ]}
          />
          {rooms.data.length > 0 ? createButton : null}
        </Group>
      </Group>

      {report !== null ? <BulkFailures operation={report.operation} failures={report.failures} onClose={() => setReport(null)} /> : null}
      {layout === 'table' && selectedRooms.length > 0 ? (
        <RoomConfigBulk rooms={selectedRooms} floors={floors} units={units} canDelete={canDelete} canAssign={canAssign} onDone={bulkDone} />
      ) : null}

      {rooms.error ? (
        <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
          {t('roomConfig.loadFailed', { reason: t(errorKeyOf(rooms.error)) })}
        </Alert>
      ) : rooms.loading ? (
        <Group justify="center" p="xl">
          <Loader aria-label={t('roomConfig.loading')} />
        </Group>
      ) : rooms.data.length === 0 ? (
        <Stack align="center" gap="sm" py="xl" data-testid="room-config-empty">
          <Text fw={600}>{t('roomConfig.empty')}</Text>
          <Text size="sm" c="dimmed">
            {canCreate ? t('roomConfig.emptyHintAdmin') : t('roomConfig.emptyHintStaff')}
          </Text>
          {createButton}
        </Stack>
      ) : rowsShown === 0 ? (
        <Text c="dimmed" py="lg" ta="center">
          {t('roomConfig.noMatch')}
        </Text>
      ) : layout === 'table' ? (
        <RoomConfigTable groups={groups} handlers={handlers} selected={selection} onSelect={select} selectable={canEdit} />
      ) : (
        <RoomConfigCards groups={groups} small={layout === 'smallcard'} handlers={handlers} />
      )}

      {editing !== null ? (
        <RoomConfigForm
          room={editing.room}
          rooms={rooms.data}
          devices={devices.data}
          domains={formDomains}
          defaultDomainId={defaultDomainId}
          defaultSortOrder={nextSortOrder(rooms.data)}
          floors={floors}
          units={units}
          canAssign={canAssign}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {deleting !== null ? <RoomConfigDelete room={deleting} canAssign={canAssign} onClose={() => setDeletingId(null)} /> : null}
    </ScreenPage>
  );
}
