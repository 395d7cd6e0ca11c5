import { Alert, Anchor, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { IconRefresh, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { collectionByName } from '@nemuri/shared/documents/collections';
import { ScreenLoading } from '../../components/ScreenStatus.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { useQuery } from '../../lib/documents/hooks.ts';
import { iconSize } from '../../lib/icons.ts';
import { jsonRequest, stringField } from '../../lib/jsonRequest.ts';
import { notify } from '../../lib/notify.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { formatBytes, STATUS_RUNNING, type UploadRecord } from './importLook.ts';
import { UploadResult } from './UploadOutcome.tsx';
import { UploadStatusBadge } from './UploadStatusBadge.tsx';

const HISTORY_LIMIT = 500;
/** Who may delete an upload: the collection's own rule, which the server enforces. */
const DELETE_LEVEL = collectionByName('rooms/uploads')?.access.delete ?? Number.POSITIVE_INFINITY;

/** `/room/:roomid/history`: the room's uploads, live, with status, reason, period and days; reprocess and delete. */
export function RoomHistoryPanel({ roomId }: { roomId: string }) {
  const { t } = useTranslation();
  const level = useCurrentUser()?.accessLevel ?? 0;
  // Newest first, so that the limit keeps the latest uploads.
  const uploads = useQuery({ collection: `rooms/${roomId}/uploads`, orderBy: [['createdAt', 'desc']], limit: HISTORY_LIMIT });
  const [deleting, setDeleting] = useState<UploadRecord | null>(null);
  const [working, setWorking] = useState<string | null>(null);

  const act = async (upload: UploadRecord, action: 'reprocess' | 'delete') => {
    setWorking(upload.documentReferenceId);
    const base = `/api/rooms/${encodeURIComponent(roomId)}/uploads/${encodeURIComponent(upload.documentReferenceId)}`;
    const reply = action === 'reprocess' ? await jsonRequest('POST', `${base}/reprocess`, {}) : await jsonRequest('DELETE', base);
    setWorking(null);
    if (reply.ok) notify({ color: 'teal', message: t(action === 'reprocess' ? 'imports.history.reprocessing' : 'imports.history.deleted', { name: upload.fileName }) });
    else notify({ color: 'red', message: t('imports.history.actionFailed', { message: stringField(reply.body, 'message') ?? reply.status }) });
    if (action === 'delete') setDeleting(null);
  };

  if (uploads.loading) return <ScreenLoading label={t('imports.history.loading')} />;
  if (uploads.error) return <Alert color="red">{t('imports.history.failed')}</Alert>;
  const list = uploads.data ?? [];
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
                  <UploadStatusBadge status={upload.status} />
                </Table.Td>
                <Table.Td>{upload.recordStart && upload.recordEnd ? `${formatDateTime(upload.recordStart)} 〜 ${formatDateTime(upload.recordEnd)}` : '—'}</Table.Td>
                <Table.Td maw={280}>
                  <UploadResult roomId={roomId} upload={upload} />
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Button size="compact-sm" variant="subtle" leftSection={<IconRefresh size={iconSize('xs')} />} disabled={STATUS_RUNNING.has(upload.status) || working !== null} onClick={() => void act(upload, 'reprocess')}>
                      {t('imports.history.reprocess')}
                    </Button>
                    {level >= DELETE_LEVEL ? (
                      <Button size="compact-sm" variant="subtle" color="red" leftSection={<IconTrash size={iconSize('xs')} />} disabled={upload.status === 'parsing' || upload.status === 'analyzing' || working !== null} onClick={() => setDeleting(upload)}>
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
