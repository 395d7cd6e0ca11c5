import { Alert, Anchor, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { IconRefresh, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { collectionByName } from '@nemuri/shared/documents/collections';
import { ScreenLoading } from '../../components/ScreenStatus.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { iconSize } from '../../lib/icons.ts';
import { ApiError } from '../../lib/http/apiError.ts';
import { notify } from '../../lib/notify.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { deleteUpload, reprocessUpload, useUploadCount, useUploadPage } from './api/uploads.ts';
import { formatBytes, STATUS_RUNNING, type UploadRecord } from './importLook.ts';
import { UploadColumns, UploadResult } from './UploadOutcome.tsx';
import { UploadStatusBadge } from './UploadStatusBadge.tsx';

/** Uploads per page (a room collects one or more a night, for years). */
export const HISTORY_PAGE_SIZE = 20;
/** Who may delete an upload: the collection's own rule, which the server enforces. */
const DELETE_LEVEL = collectionByName('rooms/uploads')?.access.delete ?? Number.POSITIVE_INFINITY;

/**
 * `/room/:roomid/history`: the room's uploads, live, newest first, a page at a time: status, what each
 * column gave, warnings, reason, period and days; reprocess and delete.
 */
export function RoomHistoryPanel({ roomId }: { roomId: string }) {
  const { t } = useTranslation();
  const level = useCurrentUser()?.accessLevel ?? 0;
  // The createdAt of the last upload of each page before this one (a cursor by value: deleting that upload does not lose the place).
  const [cursors, setCursors] = useState<string[]>([]);
  const startAfter = cursors[cursors.length - 1];
  // One more than a page: whether a next page exists.
  const uploads = useUploadPage(roomId, HISTORY_PAGE_SIZE + 1, startAfter);
  const total = useUploadCount(roomId);
  const [deleting, setDeleting] = useState<UploadRecord | null>(null);
  const [working, setWorking] = useState<string | null>(null);

  const act = async (upload: UploadRecord, action: 'reprocess' | 'delete') => {
    setWorking(upload.documentReferenceId);
    const failure = await (
      action === 'reprocess' ? reprocessUpload(roomId, upload.documentReferenceId) : deleteUpload(roomId, upload.documentReferenceId)
    ).then(
      () => null,
      (error: unknown) => error,
    );
    setWorking(null);
    if (failure === null)
      notify({ color: 'teal', message: t(action === 'reprocess' ? 'imports.history.reprocessing' : 'imports.history.deleted', { name: upload.fileName }) });
    else notify({ color: 'red', message: t('imports.history.actionFailed', { message: failure instanceof ApiError ? failure.message : String(failure) }) });
    if (action === 'delete') setDeleting(null);
  };

  if (uploads.loading) return <ScreenLoading label={t('imports.history.loading')} />;
  if (uploads.error) return <Alert color="red">{t('imports.history.failed')}</Alert>;
  const page = uploads.data ?? [];
  const list = page.slice(0, HISTORY_PAGE_SIZE);
  const hasNext = page.length > HISTORY_PAGE_SIZE;
  if (list.length === 0 && cursors.length > 0) {
    // The page emptied (its uploads were deleted): back to the first page.
    return (
      <Button variant="subtle" onClick={() => setCursors([])}>
        {t('imports.history.firstPage')}
      </Button>
    );
  }
  if (list.length === 0) {
    return (
      <Alert color="gray">
        <Stack gap={4} align="flex-start">
          <Text size="sm">{t('imports.history.empty')}</Text>
          <Anchor component={Link} to={`/room/${encodeURIComponent(roomId)}/import`} size="sm">
            {t('imports.history.toImport')}
          </Anchor>
        </Stack>
      </Alert>
    );
  }
  return (
    <Stack gap="md">
      <Table.ScrollContainer minWidth={900}>
        <Table verticalSpacing="sm" data-testid="upload-history">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('imports.history.file')}</Table.Th>
              <Table.Th>{t('imports.history.uploadedAt')}</Table.Th>
              <Table.Th>{t('imports.history.status')}</Table.Th>
              <Table.Th>{t('imports.history.period')}</Table.Th>
              <Table.Th>{t('imports.history.days')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((upload) => (
              <Table.Tr key={upload.documentReferenceId} data-upload={upload.fileName}>
                <Table.Td>
                  <Text fw={500} style={{ wordBreak: 'break-all' }}>
                    {upload.fileName}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t(`imports.formatNames.${upload.format}`)} · {formatBytes(upload.size)}
                    {upload.deviceSerial ? ` · ${upload.deviceSerial}` : ''}
                    {upload.hasStages ? ` · ${t('imports.history.withStages')}` : ''}
                  </Text>
                </Table.Td>
                <Table.Td>{upload.createdAt ? formatDateTime(upload.createdAt) : '—'}</Table.Td>
                <Table.Td>
                  <UploadStatusBadge status={upload.status} warnings={upload.warnings?.length ?? 0} />
                </Table.Td>
                <Table.Td>
                  {upload.recordStart && upload.recordEnd ? `${formatDateTime(upload.recordStart)} 〜 ${formatDateTime(upload.recordEnd)}` : '—'}
                </Table.Td>
                <Table.Td maw={320}>
                  <Stack gap={6}>
                    <UploadResult roomId={roomId} upload={upload} />
                    <UploadColumns upload={upload} />
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      leftSection={<IconRefresh size={iconSize('xs')} />}
                      disabled={STATUS_RUNNING.has(upload.status) || working !== null}
                      onClick={() => void act(upload, 'reprocess')}
                    >
                      {t('imports.history.reprocess')}
                    </Button>
                    {level >= DELETE_LEVEL ? (
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        leftSection={<IconTrash size={iconSize('xs')} />}
                        disabled={upload.status === 'parsing' || upload.status === 'analyzing' || working !== null}
                        onClick={() => setDeleting(upload)}
                      >
                        {t('imports.history.delete')}
                      </Button>
                    ) : null}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between" wrap="wrap" data-testid="history-pages">
        <Text size="sm" c="dimmed">
          {t('imports.history.pageRange', {
            from: cursors.length * HISTORY_PAGE_SIZE + 1,
            to: cursors.length * HISTORY_PAGE_SIZE + list.length,
            total: total.count,
          })}
        </Text>
        <Group gap="xs">
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<IconChevronLeft size={iconSize('xs')} />}
            disabled={cursors.length === 0}
            onClick={() => setCursors(cursors.slice(0, -1))}
          >
            {t('imports.history.previousPage')}
          </Button>
          <Button
            size="compact-sm"
            variant="default"
            rightSection={<IconChevronRight size={iconSize('xs')} />}
            disabled={!hasNext}
            onClick={() => setCursors([...cursors, String(list[list.length - 1]?.createdAt ?? '')])}
          >
            {t('imports.history.nextPage')}
          </Button>
        </Group>
      </Group>
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title={t('imports.history.deleteTitle')} centered>
        <Stack>
          <Text>{t('imports.history.deleteBody', { name: deleting?.fileName ?? '', count: deleting?.sleepDays?.length ?? 0 })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {t('imports.history.keep')}
            </Button>
            <Button color="red" loading={working !== null} onClick={() => deleting && void act(deleting, 'delete')}>
              {t('imports.history.confirmDelete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
