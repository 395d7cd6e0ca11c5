/**
 * A domain's changes from the audit log: who changed which of its records, when, how and which
 * fields. The log names records by path only, so the newest changes are read and those of the
 * domain's own records, rooms and devices kept (auditFilter.ts).
 */
import { Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { DocumentError } from '@nemuri/shared/documents/errors';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/dates.ts';
import { documents } from '../../lib/documents/documents.ts';
import { useQuery } from '../../lib/documents/hooks.ts';
import type { RecordOf } from '../../lib/documents/records.ts';
import { iconSize } from '../../lib/icons.ts';
import { domainAudits } from './auditFilter.ts';
import { Loaded } from './MasterFrame.tsx';

/** How far back the history reaches: the engine's page limit of newest changes. */
const NEWEST = 1000;
const OPERATION_COLOR = { create: 'teal', set: 'blue', update: 'blue', delete: 'red' } as const;

type AuditLog = RecordOf<'auditLogs'>;

/**
 * The newest changes, read once (and again on request) rather than live: every write anywhere adds
 * one, so a live query of a thousand would be sent again on every write in the system.
 */
function useNewestChanges(): { data: AuditLog[]; loading: boolean; error: DocumentError | null; reload: () => void } {
  const [round, setRound] = useState(0);
  const [state, setState] = useState<{ round: number; data: AuditLog[]; error: DocumentError | null } | null>(null);
  useEffect(() => {
    let active = true;
    documents
      .query({ collection: 'auditLogs', orderBy: [['when', 'desc']], limit: NEWEST })
      .then((data) => active && setState({ round, data, error: null }))
      .catch((error: unknown) => active && setState({ round, data: [], error: error instanceof DocumentError ? error : new DocumentError('aborted', String(error)) }));
    return () => {
      active = false;
    };
  }, [round]);
  const current = state !== null && state.round === round ? state : null;
  return { data: current?.data ?? [], loading: current === null, error: current?.error ?? null, reload: () => setRound((value) => value + 1) };
}

export function DomainHistoryTab({ domainId }: { domainId: string }) {
  const { t } = useTranslation();
  const logs = useNewestChanges();
  const rooms = useQuery({ collection: 'rooms', where: [['domainId', '==', domainId]], limit: 1000 });
  const devices = useQuery({ collection: 'devices', where: [['domainId', '==', domainId]], limit: 1000 });
  const staff = useQuery({ collection: `domains/${domainId}/staff`, limit: 1000 });
  const names = useMemo(() => new Map(staff.data.map((member) => [member.documentReferenceId, member.displayName])), [staff.data]);
  const entries = useMemo(
    () => domainAudits(logs.data, { domainId, roomIds: rooms.data.map((room) => room.documentReferenceId), deviceSerials: devices.data.map((device) => device.documentReferenceId) }),
    [logs.data, rooms.data, devices.data, domainId],
  );
  const loading = logs.loading || rooms.loading || devices.loading;
  return (
    <Stack gap="xs" data-testid="domain-history">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('master.history.scope', { count: NEWEST })}
        </Text>
        <Button variant="default" size="xs" leftSection={<IconRefresh size={iconSize('xs')} />} onClick={logs.reload} loading={logs.loading}>
          {t('master.history.reload')}
        </Button>
      </Group>
      <Loaded loading={loading} error={logs.error ?? rooms.error ?? devices.error} empty={entries.length === 0} emptyText={t('master.history.none')}>
        <Table.ScrollContainer minWidth={820}>
          <Table striped data-testid="history-log-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('master.history.when')}</Table.Th>
                <Table.Th>{t('master.history.who')}</Table.Th>
                <Table.Th>{t('master.history.operation')}</Table.Th>
                <Table.Th>{t('master.history.path')}</Table.Th>
                <Table.Th>{t('master.history.changedKeys')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry) => (
                <Table.Tr key={entry.documentReferenceId} data-testid="history-log-row" data-path={entry.path}>
                  <Table.Td>{formatDateTime(entry.when)}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{names.get(entry.who) ?? entry.who}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={OPERATION_COLOR[entry.operation]} variant="light">
                      {t(`master.history.operations.${entry.operation}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {entry.path}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {entry.changedKeys.map((key) => (
                        <Badge key={key} size="sm" variant="outline">
                          {key}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Loaded>
    </Stack>
  );
}
