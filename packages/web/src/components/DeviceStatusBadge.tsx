import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DeviceStatus } from '@nemuri/shared/documents/collections';

const STATUS_COLORS: Readonly<Record<DeviceStatus, string>> = { stock: 'gray', lent: 'blue', in_use: 'teal', repair: 'orange', retired: 'dark' };

/** A device's status (在庫, 貸出中, 使用中, 修理中, 廃棄), the same on every screen that lists devices. */
export function DeviceStatusBadge({ status, variant = 'light', testId }: { status: string; variant?: 'light' | 'outline'; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLORS[status as DeviceStatus] ?? 'gray'} variant={variant} data-status={status} data-testid={testId}>
      {t(`deviceConfig.status.${status}`, { defaultValue: status })}
    </Badge>
  );
}
