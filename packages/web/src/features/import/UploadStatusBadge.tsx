import { Badge, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { STATUS_COLORS, STATUS_RUNNING, type UploadStatus } from './importLook.ts';

/** An upload's processing status, with a spinner while it runs. */
export function UploadStatusBadge({ status }: { status: UploadStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" data-status={status} leftSection={STATUS_RUNNING.has(status) ? <Loader size={10} color={STATUS_COLORS[status]} /> : null}>
      {t(`imports.status.${status}`)}
    </Badge>
  );
}
