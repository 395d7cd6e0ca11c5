/**
 * /master/paramater-lists: every analysis and device parameter, searchable and by device type;
 * senior developers create, edit and delete them. A value must match its type and lie within its
 * min and max (parameterForm.ts); the list marks a stored value that does not.
 */
import { Badge, Button, Group, Modal, NumberInput, SegmentedControl, Select, Stack, Table, Text, TextInput, Textarea } from '@mantine/core';
import { IconAlertTriangle, IconPlus, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { iconSize } from '../../lib/icons.ts';
import { RowEditDelete } from './MasterListControls.tsx';
import { notify } from '../../lib/notify.ts';
import { ConfirmDelete, FormActions, Loaded, MasterForm, MasterPage, useCanEditMaster, useSave } from './MasterFrame.tsx';
import { createRecord, deleteRecord, replaceRecord } from './api/masterApi.ts';
import {
  checkParameter,
  EMPTY_PARAMETER,
  PARAMETER_TYPES,
  parameterDraftOf,
  parameterValueProblem,
  type ParameterDraft,
  type ParameterField,
  type ParameterProblems,
  type ParameterRecord,
} from './parameterForm.ts';
import { useDeviceTypes, useParameters } from './api/masterQueries.ts';

interface Choice {
  value: string;
  label: string;
}

function ParameterForm({
  editing,
  typeChoices,
  takenIds,
  onClose,
}: {
  editing: ParameterRecord | 'new' | null;
  typeChoices: Choice[];
  takenIds: readonly string[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSave();
  const isNew = editing === 'new';
  const [draft, setDraft] = useState<ParameterDraft>(EMPTY_PARAMETER);
  const [problems, setProblems] = useState<ParameterProblems>({});
  const [openedFor, setOpenedFor] = useState<ParameterRecord | 'new' | null>(null);
  // A new target fills the form again (render-time reset instead of an effect).
  if (editing !== openedFor) {
    setOpenedFor(editing);
    setDraft(editing === null || editing === 'new' ? EMPTY_PARAMETER : parameterDraftOf(editing));
    setProblems({});
    save.clear();
  }
  const set = (field: ParameterField, value: string) => setDraft((current) => ({ ...current, [field]: value }));
  const error = (field: ParameterField) => (problems[field] ? t(`master.problems.${problems[field]}`, { min: draft.min, max: draft.max }) : undefined);

  const submit = () => {
    const checked = checkParameter(draft);
    if (!checked.ok) {
      setProblems(checked.problems);
      return;
    }
    setProblems({});
    const path = isNew ? `parameters/${checked.fields.key}` : `parameters/${editing === null ? '' : editing.documentReferenceId}`;
    save.run(
      () => (isNew ? createRecord(path, checked.fields, takenIds) : replaceRecord(path, checked.fields)),
      () => {
        notify({ color: 'green', message: t('master.saved', { what: checked.fields.key }) });
        onClose();
      },
    );
  };

  return (
    <Modal opened={editing !== null} onClose={onClose} title={t(isNew ? 'master.parameters.createTitle' : 'master.parameters.editTitle')} centered size="lg">
      <MasterForm onSubmit={submit}>
        <TextInput
          label={t('master.fieldNames.key')}
          value={draft.key}
          onChange={(event) => set('key', event.currentTarget.value)}
          error={error('key')}
          disabled={!isNew}
          required
        />
        <Select
          label={t('master.fieldNames.deviceTypeId')}
          placeholder={t('master.parameters.allTypes')}
          data={typeChoices}
          value={draft.deviceTypeId === '' ? null : draft.deviceTypeId}
          onChange={(value) => set('deviceTypeId', value ?? '')}
          clearable
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('master.fieldNames.type')}
          </Text>
          <SegmentedControl
            aria-label={t('master.fieldNames.type')}
            data={PARAMETER_TYPES.map((type) => ({ value: type, label: t(`master.parameters.types.${type}`) }))}
            value={draft.type}
            onChange={(value) =>
              setDraft((current) => ({
                ...current,
                type: PARAMETER_TYPES.find((type) => type === value) ?? 'number',
                value: value === 'boolean' ? 'true' : current.type === 'boolean' ? '' : current.value,
              }))
            }
          />
        </Stack>
        {draft.type === 'boolean' ? (
          <Select
            label={t('master.fieldNames.value')}
            data={[
              { value: 'true', label: t('master.parameters.yes') },
              { value: 'false', label: t('master.parameters.no') },
            ]}
            value={draft.value}
            onChange={(value) => set('value', value ?? '')}
            error={error('value')}
            allowDeselect={false}
          />
        ) : (
          <TextInput
            label={t('master.fieldNames.value')}
            value={draft.value}
            onChange={(event) => set('value', event.currentTarget.value)}
            error={error('value')}
            required
            inputMode={draft.type === 'number' ? 'decimal' : undefined}
          />
        )}
        {draft.type === 'number' ? (
          <Group grow>
            <NumberInput label={t('master.fieldNames.min')} value={draft.min} onChange={(value) => set('min', String(value))} error={error('min')} />
            <NumberInput label={t('master.fieldNames.max')} value={draft.max} onChange={(value) => set('max', String(value))} error={error('max')} />
          </Group>
        ) : null}
        <TextInput label={t('master.fieldNames.unit')} value={draft.unit} onChange={(event) => set('unit', event.currentTarget.value)} error={error('unit')} />
        <Textarea
          label={t('master.fieldNames.description')}
          value={draft.description}
          onChange={(event) => set('description', event.currentTarget.value)}
          autosize
          minRows={2}
        />
        {problems.form ? <Text c="red">{t(`master.problems.${problems.form}`)}</Text> : null}
        <FormActions refusal={save.refusal} saving={save.saving} onCancel={onClose} />
      </MasterForm>
    </Modal>
  );
}

export default function ParameterList() {
  const { t } = useTranslation();
  const canEdit = useCanEditMaster();
  const parameters = useParameters();
  const types = useDeviceTypes();
  const [search, setSearch] = useState('');
  const [typeId, setTypeId] = useState<string | null>(null);
  const [editing, setEditing] = useState<ParameterRecord | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ParameterRecord | null>(null);

  const typeChoices = useMemo(
    () => types.data.map((type) => ({ value: type.documentReferenceId, label: type.name ?? type.documentReferenceId })),
    [types.data],
  );
  const typeName = (id: string | null | undefined) => (id ? (typeChoices.find((choice) => choice.value === id)?.label ?? id) : t('master.parameters.allTypes'));
  const rows = useMemo(() => {
    const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean);
    return parameters.data
      .filter((record) => typeof record.key === 'string')
      .filter((record) => typeId === null || (typeId === '' ? !record.deviceTypeId : record.deviceTypeId === typeId))
      .filter((record) => words.every((word) => `${record.key} ${record.description ?? ''} ${record.deviceTypeId ?? ''}`.toLowerCase().includes(word)))
      .sort((a, b) => a.key.localeCompare(b.key));
  }, [parameters.data, search, typeId]);

  const valueText = (record: ParameterRecord) => {
    const value = record.type === 'boolean' ? t(record.value === true ? 'master.parameters.yes' : 'master.parameters.no') : String(record.value);
    return record.unit ? `${value} ${record.unit}` : value;
  };

  return (
    <MasterPage editable>
      <Group gap="sm" align="flex-end">
        <TextInput
          leftSection={<IconSearch size={iconSize('xs')} />}
          placeholder={t('master.parameters.search')}
          aria-label={t('master.parameters.search')}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={280}
        />
        <Select
          aria-label={t('master.fieldNames.deviceTypeId')}
          placeholder={t('master.parameters.anyType')}
          data={[{ value: '', label: t('master.parameters.allTypes') }, ...typeChoices]}
          value={typeId}
          onChange={setTypeId}
          clearable
          w={260}
        />
        {canEdit ? (
          <Button leftSection={<IconPlus size={iconSize('xs')} />} onClick={() => setEditing('new')}>
            {t('master.parameters.create')}
          </Button>
        ) : null}
      </Group>
      <Loaded
        loading={parameters.loading}
        error={parameters.error}
        empty={rows.length === 0}
        emptyText={parameters.data.length === 0 ? t('master.parameters.none') : t('master.noMatch')}
      >
        <Table.ScrollContainer minWidth={820}>
          <Table striped highlightOnHover data-testid="parameter-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('master.fieldNames.key')}</Table.Th>
                <Table.Th>{t('master.fieldNames.deviceTypeId')}</Table.Th>
                <Table.Th>{t('master.fieldNames.value')}</Table.Th>
                <Table.Th>{t('master.parameters.range')}</Table.Th>
                <Table.Th>{t('master.fieldNames.description')}</Table.Th>
                {canEdit ? <Table.Th>{t('master.actions')}</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((record) => {
                const problem = parameterValueProblem(record.value, record.type, record.min, record.max);
                return (
                  <Table.Tr key={record.documentReferenceId} data-testid="parameter-row" data-key={record.key}>
                    <Table.Td>
                      <Text ff="monospace" size="sm">
                        {record.key}
                      </Text>
                    </Table.Td>
                    <Table.Td>{typeName(record.deviceTypeId)}</Table.Td>
                    <Table.Td data-testid="parameter-value">
                      <Group gap={4} wrap="nowrap">
                        {valueText(record)}
                        {problem !== null ? (
                          <Badge color="red" variant="light" leftSection={<IconAlertTriangle size={12} />}>
                            {t(`master.problems.${problem}`, { min: record.min, max: record.max })}
                          </Badge>
                        ) : null}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      {record.type === 'number' && (typeof record.min === 'number' || typeof record.max === 'number')
                        ? `${record.min ?? ''} – ${record.max ?? ''}`
                        : '—'}
                    </Table.Td>
                    <Table.Td>{record.description ?? ''}</Table.Td>
                    {canEdit ? (
                      <Table.Td>
                        <RowEditDelete what={record.key} onEdit={() => setEditing(record)} onDelete={() => setDeleting(record)} />
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Loaded>
      <ParameterForm
        editing={editing}
        typeChoices={typeChoices}
        takenIds={parameters.data.map((record) => record.documentReferenceId)}
        onClose={() => setEditing(null)}
      />
      <ConfirmDelete
        what={deleting?.key ?? null}
        onClose={() => setDeleting(null)}
        onDelete={async () => {
          if (deleting !== null) await deleteRecord(`parameters/${deleting.documentReferenceId}`);
          notify({ color: 'green', message: t('master.deleted', { what: deleting?.key ?? '' }) });
        }}
      />
    </MasterPage>
  );
}
