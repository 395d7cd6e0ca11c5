import { Badge, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { STATUS_COLORS, STATUS_RUNNING, type UploadStatus } from './importLook.ts';

/** An upload's processing status, with a spinner while it runs; done with warnings reads so, never plain 完了. */
export function UploadStatusBadge({ status, warnings = 0 }: { status: UploadStatus; warnings?: number }) {
  const { t } = useTranslation();
  const warned = status === 'done' && warnings > 0;
  return (
    <Badge
      color={warned ? 'orange' : STATUS_COLORS[status]}
      variant="light"
      data-status={status}
      data-warnings={warnings}
      leftSection={STATUS_RUNNING.has(status) ? <Loader size={10} color={STATUS_COLORS[status]} /> : null}
    >
      {warned ? t('imports.status.doneWithWarnings') : t(`imports.status.${status}`)}
    </Badge>
  );
}
