import { ActionIcon, Badge, Checkbox, Group, Progress, Select, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatLocalDateTime } from '../../lib/dates.ts';
import { iconSize } from '../../lib/icons.ts';
import type { FilePreview } from './filePreview.ts';
import { hoursMinutes } from '../../lib/dates.ts';
import { formatBytes } from './importLook.ts';
import { LiveUploadOutcome } from './UploadOutcome.tsx';
import { ReadColumnList } from './ReadColumnList.tsx';
import { problemColumns, roomOf, type ImportFile, type RoomChoice } from './useImportFiles.ts';

interface ImportFileTableProps {
  files: readonly ImportFile[];
  /** With rooms: a room column where the user matches each file (bulk import). */
  rooms?: readonly RoomChoice[];
  onRemove: (key: string) => void;
  onChooseRoom?: (key: string, roomId: string | null) => void;
  /** The user's choice for the columns a file's preview could not read. */
  onChooseSkip: (key: string, skip: boolean) => void;
}

/** The chosen files: what the browser found in each, its room, and its upload and processing. */
export function ImportFileTable({ files, rooms, onRemove, onChooseRoom, onChooseSkip }: ImportFileTableProps) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table verticalSpacing="sm" data-testid="import-files">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('imports.columns.file')}</Table.Th>
            <Table.Th>{t('imports.columns.contents')}</Table.Th>
            {rooms ? <Table.Th>{t('imports.columns.room')}</Table.Th> : null}
            <Table.Th>{t('imports.columns.status')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {files.map((item) => {
            const target = rooms ? roomOf(item, rooms) : item.chosenRoomId === null ? null : { roomId: item.chosenRoomId, by: 'chosen' as const };
            const sending = item.upload.state !== 'idle';
            return (
              <Table.Tr key={item.key} data-file={item.file.name}>
                <Table.Td miw={200}>
                  <Text fw={500} style={{ wordBreak: 'break-all' }}>
                    {item.file.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatBytes(item.file.size)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <PreviewCell item={item} onChooseSkip={(skip) => onChooseSkip(item.key, skip)} />
                </Table.Td>
                {rooms ? (
                  <Table.Td>
                    <Stack gap={2}>
                      <Select
                        aria-label={t('imports.roomFor', { name: item.file.name })}
                        placeholder={t('imports.chooseRoom')}
                        data={rooms.map((room) => ({ value: room.id, label: room.name }))}
                        value={target?.roomId ?? null}
                        onChange={(value) => onChooseRoom?.(item.key, value)}
                        searchable
                        disabled={sending}
                        w={200}
                      />
                      {target?.by === 'serial' ? (
                        <Text size="xs" c="dimmed">
                          {t('imports.matchedBySerial')}
                        </Text>
                      ) : null}
                    </Stack>
                  </Table.Td>
                ) : null}
                <Table.Td miw={180}>
                  <UploadCell item={item} roomId={target?.roomId ?? null} />
                </Table.Td>
                <Table.Td>
                  {item.upload.state === 'uploading' ? null : (
                    <Tooltip label={t('imports.removeFile')}>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={t('imports.removeFileNamed', { name: item.file.name })}
                        onClick={() => onRemove(item.key)}
                      >
                        <IconX size={iconSize('sm')} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function PreviewCell({ item, onChooseSkip }: { item: ImportFile; onChooseSkip: (skip: boolean) => void }) {
  const { t } = useTranslation();
  if (item.preview === null)
    return (
      <Text size="sm" c="dimmed">
        {t('imports.reading')}
      </Text>
    );
  if (!item.preview.ok) {
    return (
      <Text size="sm" c="red" data-testid="preview-problem">
        {t(`imports.preview.${item.preview.reason}`)}
        {item.preview.detail ? (
          <Text span size="xs" c="dimmed" display="block">
            {item.preview.detail}
          </Text>
        ) : null}
      </Text>
    );
  }
  const problems = problemColumns(item);
  return (
    <Stack gap={6}>
      <PreviewSummary preview={item.preview.preview} />
      {problems > 0 ? (
        <Stack gap={4} data-testid="column-choice">
          <Text size="sm" c="red">
            {t('imports.problemColumns', { count: problems })}
          </Text>
          <Checkbox
            size="xs"
            label={t('imports.skipProblemColumns')}
            checked={item.skipProblemColumns}
            disabled={item.upload.state !== 'idle'}
            onChange={(event) => onChooseSkip(event.currentTarget.checked)}
          />
        </Stack>
      ) : null}
    </Stack>
  );
}

function PreviewSummary({ preview }: { preview: FilePreview }) {
  const { t } = useTranslation();
  const start =
    preview.start === null ? null : 'instantMs' in preview.start ? formatDateTime(preview.start.instantMs) : formatLocalDateTime(preview.start.localText);
  return (
    <Stack gap={2} data-testid="file-preview">
      <Group gap={6}>
        <Badge variant="outline" size="sm">
          {t(`imports.formatNames.${preview.format}`)}
        </Badge>
        {preview.stageEpochs > 0 ? (
          <Badge variant="light" color="grape" size="sm">
            {t('imports.hypnogram', { count: preview.stageEpochs })}
          </Badge>
        ) : null}
      </Group>
      {start ? <Text size="sm">{t('imports.startAt', { start })}</Text> : null}
      {preview.durationSec !== null ? <Text size="sm">{t('imports.duration', hoursMinutes(preview.durationSec / 60))}</Text> : null}
      {preview.columns.length > 0 ? <ReadColumnList columns={preview.columns} phase="preview" /> : null}
      <Text size="xs" c="dimmed">
        {preview.deviceSerial ? t('imports.serial', { serial: preview.deviceSerial }) : t('imports.noSerial')}
      </Text>
    </Stack>
  );
}

function UploadCell({ item, roomId }: { item: ImportFile; roomId: string | null }) {
  const { t } = useTranslation();
  const { upload } = item;
  if (upload.state === 'idle') {
    if (item.preview?.ok !== true) return null;
    return (
      <Text size="sm" c="dimmed">
        {roomId === null ? t('imports.needsRoom') : t('imports.readyToUpload')}
      </Text>
    );
  }
  if (upload.state === 'uploading') {
    return (
      <Stack gap={4}>
        <Text size="sm">{t('imports.uploading', { percent: Math.round(upload.progress * 100) })}</Text>
        <Progress value={upload.progress * 100} aria-label={t('imports.uploadProgress', { name: item.file.name })} animated />
      </Stack>
    );
  }
  const { answer } = upload;
  switch (answer.kind) {
    case 'created':
      return roomId === null ? null : <LiveUploadOutcome roomId={roomId} uploadId={answer.uploadId} />;
    case 'duplicate':
      return (
        <Text size="sm" c="orange" data-testid="upload-duplicate">
          {t('imports.duplicate', { name: answer.fileName })}
        </Text>
      );
    case 'refused':
      return (
        <Text size="sm" c="red">
          {t(`imports.errors.${answer.reason ?? 'internal'}`, { defaultValue: answer.message || t('imports.errors.internal') })}
        </Text>
      );
    case 'network':
      return (
        <Text size="sm" c="red">
          {t('imports.networkError')}
        </Text>
      );
    case 'aborted':
      return (
        <Text size="sm" c="dimmed">
          {t('imports.aborted')}
        </Text>
      );
  }
}
