import { Anchor, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDocument } from '../../lib/documents/hooks.ts';
import { UploadStatusBadge } from './UploadStatusBadge.tsx';
import type { UploadRecord } from './importLook.ts';

/** The sleep days an upload made, each a link to that day, or why it failed. */
export function UploadResult({ roomId, upload }: { roomId: string; upload: UploadRecord }) {
  const { t } = useTranslation();
  if (upload.status === 'failed') {
    return (
      <Text size="sm" c="red" data-testid="upload-error">
        {t(`imports.errors.${upload.errorCode ?? 'internal'}`, { defaultValue: t('imports.errors.internal') })}
        {upload.error ? <Text span size="xs" c="dimmed" display="block">{upload.error}</Text> : null}
      </Text>
    );
  }
  if (upload.status !== 'done') return null;
  const days = upload.sleepDays ?? [];
  return (
    <Group gap={6} wrap="wrap">
      {days.length === 0 ? <Text size="sm" c="dimmed">{t('imports.noDays')}</Text> : null}
      {days.map((day) => (
        <Anchor key={day} component={Link} to={`/room/${encodeURIComponent(roomId)}/sleep?day=${day}`} size="sm">
          {day}
        </Anchor>
      ))}
    </Group>
  );
}

/** An upload just sent, followed live until it is processed. */
export function LiveUploadOutcome({ roomId, uploadId }: { roomId: string; uploadId: string }) {
  const { t } = useTranslation();
  const upload = useDocument(`rooms/${roomId}/uploads/${uploadId}`);
  if (upload.loading) return <Text size="sm" c="dimmed">{t('imports.following')}</Text>;
  if (upload.data === null) return <Text size="sm" c="dimmed">{t('imports.gone')}</Text>;
  return (
    <Stack gap={4}>
      <UploadStatusBadge status={upload.data.status} />
      <UploadResult roomId={roomId} upload={upload.data} />
    </Stack>
  );
}
