/**
 * Create or edit a device type: id (fixed once created), name, model, description, raw views and
 * channels (one a line). Editing keeps the fields the form does not show (calibration).
 */
import { Group, Modal, MultiSelect, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RecordOf } from '../../lib/documents/records.ts';
import { notify } from '../../lib/notify.ts';
import { RAW_VIEW_KEYS } from '@nemuri/shared/rawViews';
import { FormActions, MasterForm, RefusalAlert, useSave } from './MasterFrame.tsx';
import { createRecord, updateRecord } from './api/masterApi.ts';
import { channelsText, checkDeviceType, type DeviceTypeDraft, type Problems } from './masterForms.ts';

export type DeviceType = RecordOf<'deviceTypes'>;
const EMPTY: DeviceTypeDraft = { id: '', name: '', model: '', description: '', rawViews: [], channels: '' };

export function DeviceTypeForm({ editing, takenIds = [], onClose }: { editing: DeviceType | 'new' | null; takenIds?: readonly string[]; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSave();
  const isNew = editing === 'new';
  const [draft, setDraft] = useState<DeviceTypeDraft>(EMPTY);
  const [problems, setProblems] = useState<Problems<keyof DeviceTypeDraft>>({});
  const [openedFor, setOpenedFor] = useState<DeviceType | 'new' | null>(null);
  if (editing !== openedFor) {
    setOpenedFor(editing);
    setDraft(
      editing === null || editing === 'new'
        ? EMPTY
        : {
            id: editing.documentReferenceId,
            name: editing.name,
            model: editing.model,
            description: editing.description ?? '',
            rawViews: editing.rawViews ?? [],
            channels: channelsText(editing.channels),
          },
    );
    setProblems({});
    save.clear();
  }
  const set = (field: 'id' | 'name' | 'model' | 'description' | 'channels', value: string) => setDraft((current) => ({ ...current, [field]: value }));
  const error = (field: keyof DeviceTypeDraft) => (problems[field] ? t(`master.problems.${problems[field]}`) : undefined);
  const submit = () => {
    const checked = checkDeviceType(draft);
    if (!checked.ok) {
      setProblems(checked.problems);
      return;
    }
    setProblems({});
    const { id, fields } = checked.fields;
    const path = `deviceTypes/${id}`;
    save.run(
      () => (isNew ? createRecord(path, fields, takenIds) : updateRecord(path, { description: undefined, ...fields })),
      () => {
        notify({ color: 'green', message: t('master.saved', { what: fields.name }) });
        onClose();
      },
    );
  };
  return (
    <Modal opened={editing !== null} onClose={onClose} title={t(isNew ? 'master.deviceTypes.createTitle' : 'master.deviceTypes.editTitle')} centered size="lg">
      <MasterForm onSubmit={submit}>
        <TextInput
          label={t('master.fieldNames.id')}
          placeholder="nemuri-chest"
          value={draft.id}
          onChange={(event) => set('id', event.currentTarget.value)}
          error={error('id')}
          disabled={!isNew}
          required
        />
        <Group grow>
          <TextInput
            label={t('master.fieldNames.name')}
            value={draft.name}
            onChange={(event) => set('name', event.currentTarget.value)}
            error={error('name')}
            required
          />
          <TextInput
            label={t('master.fieldNames.model')}
            value={draft.model}
            onChange={(event) => set('model', event.currentTarget.value)}
            error={error('model')}
            required
          />
        </Group>
        <Textarea
          label={t('master.fieldNames.description')}
          value={draft.description}
          onChange={(event) => set('description', event.currentTarget.value)}
          autosize
          minRows={2}
        />
        <MultiSelect
          label={t('master.fieldNames.rawViews')}
          data={[...RAW_VIEW_KEYS]}
          value={draft.rawViews}
          onChange={(value) => setDraft((current) => ({ ...current, rawViews: value }))}
          error={error('rawViews')}
          clearable
        />
        <Textarea
          label={t('master.fieldNames.channels')}
          description={t('master.deviceTypes.channelsHint')}
          value={draft.channels}
          onChange={(event) => set('channels', event.currentTarget.value)}
          error={error('channels')}
          autosize
          minRows={3}
          styles={{ input: { fontFamily: 'monospace' } }}
        />
        {problems.form ? <RefusalAlert refusal={{ messageKey: 'invalid', fields: [] }} /> : null}
        <FormActions refusal={save.refusal} saving={save.saving} onCancel={onClose} />
      </MasterForm>
    </Modal>
  );
}
