/**
 * /master/history-lists: the release notes (`histories`, one per version). The newest is the one
 * help shows and the one the app shows once after an update (ReleaseNotice.tsx).
 */
import { Badge, Group, Modal, Table, Text, TextInput, Textarea } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RecordOf } from '../../lib/documents/records.ts';
import { CreateBar, RowEditDelete } from './MasterListControls.tsx';
import { notify } from '../../lib/notify.ts';
import { compareVersions, newestRelease } from '../../lib/releaseNote.ts';
import { ConfirmDelete, FormActions, Loaded, MasterForm, MasterPage, useCanEditMaster, useSave } from './MasterFrame.tsx';
import { createRecord, deleteRecord, replaceRecord } from './api/masterApi.ts';
import { checkRelease, releaseIdOf, type Problems, type ReleaseDraft } from './masterForms.ts';
import { useReleaseHistories } from './api/masterQueries.ts';

type Release = RecordOf<'histories'>;
const EMPTY: ReleaseDraft = { version: '', date: '', title: '', body: '' };

function ReleaseForm({ editing, takenIds, onClose }: { editing: Release | 'new' | null; takenIds: readonly string[]; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSave();
  const isNew = editing === 'new';
  const [draft, setDraft] = useState<ReleaseDraft>(EMPTY);
  const [problems, setProblems] = useState<Problems<keyof ReleaseDraft>>({});
  const [openedFor, setOpenedFor] = useState<Release | 'new' | null>(null);
  if (editing !== openedFor) {
    setOpenedFor(editing);
    setDraft(
      editing === null || editing === 'new'
        ? { ...EMPTY, date: new Date().toISOString().slice(0, 10) }
        : { version: editing.version, date: editing.date, title: editing.title, body: editing.body },
    );
    setProblems({});
    save.clear();
  }
  const set = (field: keyof ReleaseDraft, value: string) => setDraft((current) => ({ ...current, [field]: value }));
  const error = (field: keyof ReleaseDraft) => (problems[field] ? t(`master.problems.${problems[field]}`) : undefined);
  const submit = () => {
    const checked = checkRelease(draft);
    if (!checked.ok) {
      setProblems(checked.problems);
      return;
    }
    setProblems({});
    const path = `histories/${isNew ? releaseIdOf(checked.fields.version) : editing === null ? '' : editing.documentReferenceId}`;
    save.run(
      () => (isNew ? createRecord(path, checked.fields, takenIds) : replaceRecord(path, checked.fields)),
      () => {
        notify({ color: 'green', message: t('master.saved', { what: checked.fields.version }) });
        onClose();
      },
    );
  };
  return (
    <Modal opened={editing !== null} onClose={onClose} title={t(isNew ? 'master.histories.createTitle' : 'master.histories.editTitle')} centered size="lg">
      <MasterForm onSubmit={submit}>
        <Group grow>
          <TextInput
            label={t('master.fieldNames.version')}
            placeholder="0.9.0"
            value={draft.version}
            onChange={(event) => set('version', event.currentTarget.value)}
            error={error('version')}
            disabled={!isNew}
            required
          />
          <TextInput
            label={t('master.fieldNames.date')}
            placeholder="2026-11-01"
            value={draft.date}
            onChange={(event) => set('date', event.currentTarget.value)}
            error={error('date')}
            required
          />
        </Group>
        <TextInput
          label={t('master.fieldNames.title')}
          value={draft.title}
          onChange={(event) => set('title', event.currentTarget.value)}
          error={error('title')}
          required
        />
        <Textarea
          label={t('master.fieldNames.body')}
          value={draft.body}
          onChange={(event) => set('body', event.currentTarget.value)}
          error={error('body')}
          autosize
          minRows={4}
        />
        <FormActions refusal={save.refusal} saving={save.saving} onCancel={onClose} />
      </MasterForm>
    </Modal>
  );
}

export default function HistoryList() {
  const { t } = useTranslation();
  const canEdit = useCanEditMaster();
  const releases = useReleaseHistories();
  const [editing, setEditing] = useState<Release | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Release | null>(null);
  const rows = useMemo(
    () =>
      releases.data
        .filter((release) => typeof release.version === 'string')
        .sort((a, b) => compareVersions(b.version, a.version) || b.date.localeCompare(a.date)),
    [releases.data],
  );
  const newest = newestRelease(rows);
  return (
    <MasterPage editable>
      {canEdit ? <CreateBar label={t('master.histories.create')} onCreate={() => setEditing('new')} /> : null}
      <Loaded loading={releases.loading} error={releases.error} empty={rows.length === 0} emptyText={t('master.histories.none')}>
        <Table.ScrollContainer minWidth={720}>
          <Table striped data-testid="history-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('master.fieldNames.version')}</Table.Th>
                <Table.Th>{t('master.fieldNames.date')}</Table.Th>
                <Table.Th>{t('master.fieldNames.title')}</Table.Th>
                <Table.Th>{t('master.fieldNames.body')}</Table.Th>
                {canEdit ? <Table.Th>{t('master.actions')}</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((release) => (
                <Table.Tr key={release.documentReferenceId} data-testid="history-row" data-version={release.version}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Text ff="monospace" size="sm">
                        {release.version}
                      </Text>
                      {release === newest ? (
                        <Badge size="sm" variant="light">
                          {t('master.histories.newest')}
                        </Badge>
                      ) : null}
                    </Group>
                  </Table.Td>
                  <Table.Td>{release.date}</Table.Td>
                  <Table.Td>{release.title}</Table.Td>
                  <Table.Td>
                    <Text size="sm" lineClamp={2}>
                      {release.body}
                    </Text>
                  </Table.Td>
                  {canEdit ? (
                    <Table.Td>
                      <RowEditDelete what={release.version} onEdit={() => setEditing(release)} onDelete={() => setDeleting(release)} />
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Loaded>
      <ReleaseForm editing={editing} takenIds={releases.data.map((release) => release.documentReferenceId)} onClose={() => setEditing(null)} />
      <ConfirmDelete
        what={deleting?.version ?? null}
        onClose={() => setDeleting(null)}
        onDelete={async () => {
          if (deleting !== null) await deleteRecord(`histories/${deleting.documentReferenceId}`);
          notify({ color: 'green', message: t('master.deleted', { what: deleting?.version ?? '' }) });
        }}
      />
    </MasterPage>
  );
}
