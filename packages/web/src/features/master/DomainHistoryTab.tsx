/**
 * A domain's changes from the audit log (/master/domain/:domainid/history): who changed which of
 * its records, when, how and which fields — every record whose tenant is the domain (its own
 * record, staff, rooms with their nights and uploads, devices, alerts…), read page by page from
 * the server newest first (docs/api.md "Audit log"), never the whole log at once.
 */
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { AuditLogTable } from '../../components/AuditLogTable.tsx';
import { useAuditPages } from '../../lib/auditLogPages.ts';
import { iconSize } from '../../lib/icons.ts';

const PAGE_SIZE = 50;

export function DomainHistoryTab({ domainId }: { domainId: string }) {
  const { t } = useTranslation();
  const filter = useMemo(() => ({ domainId }), [domainId]);
  const pages = useAuditPages(filter, PAGE_SIZE);
  return (
    <Stack gap="xs" data-testid="domain-history">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('master.history.scope', { count: PAGE_SIZE })}
        </Text>
        <Button variant="default" size="xs" leftSection={<IconRefresh size={iconSize('xs')} />} onClick={pages.reload} loading={pages.loading}>
          {t('master.history.reload')}
        </Button>
      </Group>
      <AuditLogTable pages={pages} showDomain={false} />
    </Stack>
  );
}
