/**
 * /master/view-lists: the raw views (`views`, one per route key) with their name, device types and
 * channels. A view's drawing layout is kept as it is when the form saves (the form does not edit it).
 */
import { Badge, Group, Modal, MultiSelect, Table, Text, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RecordOf } from '../../lib/documents/records.ts';
import { CreateBar, RowEditDelete } from './MasterListControls.tsx';
import { notify } from '../../lib/notify.ts';
import { ConfirmDelete, FormActions, Loaded, MasterForm, MasterPage, useCanEditMaster, useSave } from './MasterFrame.tsx';
import { createRecord, deleteRecord, updateRecord } from './api/masterApi.ts';
import { checkView, type Problems, type ViewDraft } from './masterForms.ts';
import { useDeviceTypes, useViews } from './api/masterQueries.ts';

type View = RecordOf<'views'>;
const EMPTY: ViewDraft = { routeKey: '', name: '', deviceTypeIds: [], channels: '' };

function ViewForm({
  editing,
  typeChoices,
  takenIds,
  onClose,
}: {
  editing: View | 'new' | null;
  typeChoices: { value: string; label: string }[];
  takenIds: readonly string[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSave();
  const isNew = editing === 'new';
  const [draft, setDraft] = useState<ViewDraft>(EMPTY);
  const [problems, setProblems] = useState<Problems<keyof ViewDraft>>({});
  const [openedFor, setOpenedFor] = useState<View | 'new' | null>(null);
  if (editing !== openedFor) {
    setOpenedFor(editing);
    setDraft(
      editing === null || editing === 'new'
        ? EMPTY
        : { routeKey: editing.routeKey, name: editing.name ?? '', deviceTypeIds: editing.deviceTypeIds ?? [], channels: (editing.channels ?? []).join(', ') },
    );
    setProblems({});
    save.clear();
  }
  const error = (field: keyof ViewDraft) => (problems[field] ? t(`master.problems.${problems[field]}`) : undefined);
  const submit = () => {
    const checked = checkView(draft);
    if (!checked.ok) {
      setProblems(checked.problems);
      return;
    }
    setProblems({});
    const path = `views/${isNew ? checked.fields.routeKey : editing === null ? '' : editing.documentReferenceId}`;
    // On edit, `name: undefined` removes a cleared name; the layout stays.
    save.run(
      () => (isNew ? createRecord(path, checked.fields, takenIds) : updateRecord(path, { name: undefined, ...checked.fields })),
      () => {
        notify({ color: 'green', message: t('master.saved', { what: checked.fields.routeKey }) });
        onClose();
      },
    );
  };
  return (
    <Modal opened={editing !== null} onClose={onClose} title={t(isNew ? 'master.views.createTitle' : 'master.views.editTitle')} centered size="lg">
      <MasterForm onSubmit={submit}>
        <TextInput
          label={t('master.fieldNames.routeKey')}
          placeholder="raw-ecg"
          value={draft.routeKey}
          onChange={(event) => setDraft({ ...draft, routeKey: event.currentTarget.value })}
          error={error('routeKey')}
          disabled={!isNew}
          required
        />
        <TextInput
          label={t('master.fieldNames.name')}
          value={draft.name}
          onChange={(event) => setDraft({ ...draft, name: event.currentTarget.value })}
          error={error('name')}
        />
        <MultiSelect
          label={t('master.fieldNames.deviceTypeIds')}
          data={typeChoices}
          value={draft.deviceTypeIds}
          onChange={(value) => setDraft({ ...draft, deviceTypeIds: value })}
          error={error('deviceTypeIds')}
          clearable
        />
        <TextInput
          label={t('master.fieldNames.channels')}
          description={t('master.views.channelsHint')}
          value={draft.channels}
          onChange={(event) => setDraft({ ...draft, channels: event.currentTarget.value })}
          error={error('channels')}
        />
        <FormActions refusal={save.refusal} saving={save.saving} onCancel={onClose} />
      </MasterForm>
    </Modal>
  );
}

export default function ViewList() {
  const { t } = useTranslation();
  const canEdit = useCanEditMaster();
  const views = useViews();
  const types = useDeviceTypes();
  const [editing, setEditing] = useState<View | 'new' | null>(null);
  const [deleting, setDeleting] = useState<View | null>(null);
  const typeChoices = useMemo(
    () => types.data.map((type) => ({ value: type.documentReferenceId, label: type.name ?? type.documentReferenceId })),
    [types.data],
  );
  const rows = useMemo(() => views.data.filter((view) => typeof view.routeKey === 'string').sort((a, b) => a.routeKey.localeCompare(b.routeKey)), [views.data]);
  const typeName = (id: string) => typeChoices.find((choice) => choice.value === id)?.label ?? id;
  return (
    <MasterPage editable>
      {canEdit ? <CreateBar label={t('master.views.create')} onCreate={() => setEditing('new')} /> : null}
      <Loaded loading={views.loading} error={views.error} empty={rows.length === 0} emptyText={t('master.views.none')}>
        <Table.ScrollContainer minWidth={720}>
          <Table striped data-testid="view-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('master.fieldNames.routeKey')}</Table.Th>
                <Table.Th>{t('master.fieldNames.name')}</Table.Th>
                <Table.Th>{t('master.fieldNames.deviceTypeIds')}</Table.Th>
                <Table.Th>{t('master.fieldNames.channels')}</Table.Th>
                {canEdit ? <Table.Th>{t('master.actions')}</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((view) => (
                <Table.Tr key={view.documentReferenceId} data-testid="view-row" data-route-key={view.routeKey}>
                  <Table.Td>
                    <Text ff="monospace" size="sm">
                      {view.routeKey}
                    </Text>
                  </Table.Td>
                  <Table.Td>{view.name ?? ''}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {(view.deviceTypeIds ?? []).map((id) => (
                        <Badge key={id} variant="light" size="sm">
                          {typeName(id)}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>{(view.channels ?? []).join(', ')}</Table.Td>
                  {canEdit ? (
                    <Table.Td>
                      <RowEditDelete what={view.routeKey} onEdit={() => setEditing(view)} onDelete={() => setDeleting(view)} />
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Loaded>
      <ViewForm editing={editing} typeChoices={typeChoices} takenIds={views.data.map((view) => view.documentReferenceId)} onClose={() => setEditing(null)} />
      <ConfirmDelete
        what={deleting?.routeKey ?? null}
        onClose={() => setDeleting(null)}
        onDelete={async () => {
          if (deleting !== null) await deleteRecord(`views/${deleting.documentReferenceId}`);
          notify({ color: 'green', message: t('master.deleted', { what: deleting?.routeKey ?? '' }) });
        }}
      />
    </MasterPage>
  );
}
