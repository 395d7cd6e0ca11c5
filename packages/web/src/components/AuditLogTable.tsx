/**
 * A page of the audit log with its pager, as the /audit-log screen and the master domain history
 * show it: when, who (name, or the uid when the caller may not read that person), the operation,
 * the kind of data and its path, the changed fields, and the domain. Loading, failure and empty
 * states included; on a phone the table scrolls sideways.
 */
import { Alert, Badge, Button, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { IconAlertCircle, IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../lib/dates.ts';
import { iconSize } from '../lib/icons.ts';
import type { AuditPagesState } from '../lib/auditLogPages.ts';

const OPERATION_COLOR = { create: 'teal', set: 'blue', update: 'blue', delete: 'red' } as const;

export function AuditLogTable({ pages, showDomain = true }: { pages: AuditPagesState; showDomain?: boolean }) {
  const { t } = useTranslation();
  const { page, loading, error } = pages;
  if (error !== null) {
    return (
      <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert" title={t('auditLog.loadFailed')}>
        <Button size="xs" variant="default" onClick={pages.reload}>
          {t('auditLog.retry')}
        </Button>
      </Alert>
    );
  }
  if (page === null) {
    return (
      <Group justify="center" p="md">
        <Loader aria-label={t('auditLog.loadFailed')} size="sm" />
      </Group>
    );
  }
  return (
    <Stack gap="xs" data-testid="audit-log" aria-busy={loading} style={{ opacity: loading ? 0.6 : 1 }}>
      {page.rows.length === 0 ? (
        <Text c="dimmed">{t('auditLog.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={showDomain ? 980 : 840}>
          <Table striped data-testid="audit-log-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('auditLog.columns.when')}</Table.Th>
                <Table.Th>{t('auditLog.columns.who')}</Table.Th>
                <Table.Th>{t('auditLog.columns.operation')}</Table.Th>
                <Table.Th>{t('auditLog.columns.collection')}</Table.Th>
                <Table.Th>{t('auditLog.columns.path')}</Table.Th>
                <Table.Th>{t('auditLog.columns.changedKeys')}</Table.Th>
                {showDomain ? <Table.Th>{t('auditLog.columns.domain')}</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {page.rows.map((row) => (
                <Table.Tr key={row.id} data-testid="audit-log-row" data-path={row.path} data-operation={row.operation}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(row.when)}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{row.whoName ?? (row.who === 'system' ? t('auditLog.system') : row.who)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={OPERATION_COLOR[row.operation]} variant="light">
                      {t(`auditLog.operations.${row.operation}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{t(`auditLog.collections.${row.collection}`, { defaultValue: row.collection })}</Table.Td>
                  <Table.Td>
                    <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                      {row.path}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {row.changedKeys.map((key) => (
                        <Badge key={key} size="sm" variant="outline">
                          {key}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  {showDomain ? <Table.Td>{row.domainName ?? row.domainId ?? '—'}</Table.Td> : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group justify="space-between" data-testid="audit-log-pager">
        <Button
          size="xs"
          variant="default"
          leftSection={<IconChevronLeft size={iconSize('xs')} />}
          onClick={pages.previous}
          disabled={pages.pageIndex === 0 || loading}
        >
          {t('auditLog.previous')}
        </Button>
        <Text size="sm" c="dimmed">
          {t('auditLog.pageOf', { page: pages.pageIndex + 1 })}
        </Text>
        <Button size="xs" variant="default" rightSection={<IconChevronRight size={iconSize('xs')} />} onClick={pages.next} disabled={!pages.hasNext || loading}>
          {t('auditLog.next')}
        </Button>
      </Group>
    </Stack>
  );
}
