import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { NIGHT_FROM_HOUR, NIGHT_MIN_MINUTES, NIGHT_TO_HOUR, type ImportWarning, type ReadColumn } from '@nemuri/shared/imports';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { formatDay } from '../../lib/dates.ts';
import { useDocument } from '../../lib/documents/hooks.ts';
import { ApiError } from '../../lib/http/apiError.ts';
import { reprocessUpload } from './api/uploads.ts';
import { notify } from '../../lib/notify.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { ReadColumnList } from './ReadColumnList.tsx';
import { UploadStatusBadge } from './UploadStatusBadge.tsx';
import type { UploadRecord } from './importLook.ts';

/** The sleep days an upload made (each a link to that day), what made none, or why it failed. */
export function UploadResult({ roomId, upload }: { roomId: string; upload: UploadRecord }) {
  const { t } = useTranslation();
  if (upload.status === 'failed') {
    return (
      <Stack gap={4}>
        <Text size="sm" c="red" data-testid="upload-error">
          {t(`imports.errors.${upload.errorCode ?? 'internal'}`, { defaultValue: t('imports.errors.internal') })}
          {upload.error ? (
            <Text span size="xs" c="dimmed" display="block">
              {upload.error}
            </Text>
          ) : null}
        </Text>
        {upload.errorCode === 'unknown-columns' ? <SkipColumnsButton roomId={roomId} upload={upload} /> : null}
      </Stack>
    );
  }
  if (upload.status !== 'done') return null;
  const days = upload.sleepDays ?? [];
  const warnings = (upload.warnings ?? []) as ImportWarning[];
  return (
    <Stack gap={4}>
      {days.length === 0 && warnings.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('imports.noDays')}
        </Text>
      ) : null}
      {days.length > 0 ? (
        <Group gap={6} wrap="wrap">
          {days.map((day) => (
            <Anchor key={day} component={Link} to={`/room/${encodeURIComponent(roomId)}/sleep?day=${day}`} size="sm" data-day={day}>
              {formatDay(day)}
            </Anchor>
          ))}
        </Group>
      ) : null}
      {warnings.map((warning) => (
        <Text key={`${warning.code}:${warning.day}`} size="xs" c="orange" data-testid="upload-warning" data-warning={warning.code}>
          {t(`imports.warnings.${warning.code}`, {
            day: formatDay(warning.day),
            minutes: warning.minutes,
            nightMinutes: warning.nightMinutes,
            min: NIGHT_MIN_MINUTES,
            from: NIGHT_FROM_HOUR,
            to: NIGHT_TO_HOUR,
          })}
        </Text>
      ))}
    </Stack>
  );
}

/** The columns an upload read (or could not), folded away until asked for. */
export function UploadColumns({ upload }: { upload: UploadRecord }) {
  const { t } = useTranslation();
  const columns = (upload.columns ?? []) as ReadColumn[];
  const [open, setOpen] = useState(upload.status === 'failed');
  if (columns.length === 0) return null;
  const skipped = columns.filter((column) => column.status === 'skipped' || column.status === 'problem').length;
  return (
    <Stack gap={4}>
      <Anchor component="button" type="button" size="xs" onClick={() => setOpen((value) => !value)} aria-expanded={open}>
        {t(open ? 'imports.history.hideColumns' : 'imports.history.showColumns', { count: columns.length, skipped })}
      </Anchor>
      {open ? <ReadColumnList columns={columns} phase="history" /> : null}
    </Stack>
  );
}

/** The user's decision from the history: process the file again without the columns it could not read. */
function SkipColumnsButton({ roomId, upload }: { roomId: string; upload: UploadRecord }) {
  const { t } = useTranslation();
  const level = useCurrentUser()?.accessLevel ?? 0;
  const [working, setWorking] = useState(false);
  if (level < ROLE_LEVELS.generalStaff) return null;
  const skip = async () => {
    setWorking(true);
    const failure = await reprocessUpload(roomId, upload.documentReferenceId, { unknownColumns: 'skip' }).then(
      () => null,
      (error: unknown) => error,
    );
    setWorking(false);
    if (failure === null) notify({ color: 'teal', message: t('imports.history.reprocessing', { name: upload.fileName }) });
    else notify({ color: 'red', message: t('imports.history.actionFailed', { message: failure instanceof ApiError ? failure.message : String(failure) }) });
  };
  return (
    <Button size="compact-xs" variant="light" color="orange" loading={working} onClick={() => void skip()} style={{ alignSelf: 'flex-start' }}>
      {t('imports.history.skipColumns')}
    </Button>
  );
}

/** An upload just sent, followed live until it is processed. */
export function LiveUploadOutcome({ roomId, uploadId }: { roomId: string; uploadId: string }) {
  const { t } = useTranslation();
  const upload = useDocument(`rooms/${roomId}/uploads/${uploadId}`);
  if (upload.loading)
    return (
      <Text size="sm" c="dimmed">
        {t('imports.following')}
      </Text>
    );
  if (upload.data === null)
    return (
      <Text size="sm" c="dimmed">
        {t('imports.gone')}
      </Text>
    );
  return (
    <Stack gap={4}>
      <UploadStatusBadge status={upload.data.status} warnings={upload.data.warnings?.length ?? 0} />
      <UploadResult roomId={roomId} upload={upload.data} />
      {upload.data.status === 'failed' ? <UploadColumns upload={upload.data} /> : null}
    </Stack>
  );
}
