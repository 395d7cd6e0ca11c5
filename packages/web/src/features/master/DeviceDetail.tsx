/**
 * /master/device/:deviceSerial: one device: type, domain, room, status, firmware, battery, last
 * contact and whether it is online now; its borrows; the uploads of its room; and links to the
 * live raw views its type offers (`/monitoring-device/raw-*?serial=…`).
 */
import { Anchor, Badge, Button, Card, Group, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconActivityHeartbeat } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { useDocument } from '../../lib/documents/hooks.ts';
import { iconSize } from '../../lib/icons.ts';
import { RAW_VIEW_KEYS, type RawViewKey } from '@nemuri/shared/rawViews';
import { Loaded, MasterPage } from './MasterFrame.tsx';
import { isOnline } from './api/masterCounts.ts';
import { useDeviceBorrows, useRoomUploads } from './api/masterQueries.ts';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** The raw views of the type that the monitoring routes know. */
function liveViewsOf(rawViews: readonly string[] | undefined): RawViewKey[] {
  return RAW_VIEW_KEYS.filter((key) => (rawViews ?? []).includes(key));
}

/** Rows of the borrows and uploads shown at first, and added by each "more". */
const ROWS_STEP = 20;

/**
 * A domain by its name, linked to its page: never the bare id while the name loads (a loader), and
 * the id marked as unknown only when the record cannot be read.
 */
function DomainName({ domainId }: { domainId: string }) {
  const { t } = useTranslation();
  const domain = useDocument(`domains/${domainId}`);
  if (domain.loading) return <Loader size="xs" aria-label={t('master.device.loadingName')} />;
  return (
    <Anchor component={Link} to={`/master/domain/${encodeURIComponent(domainId)}`} data-testid="domain-name" data-domain={domainId}>
      {domain.data?.name ?? t('master.device.unknownDomain', { id: domainId })}
    </Anchor>
  );
}

/** "More": shows the next rows while the list may hold more than shown. */
function MoreRows({ shown, limit, onMore }: { shown: number; limit: number; onMore: () => void }) {
  const { t } = useTranslation();
  if (shown < limit) return null;
  return (
    <Group justify="center">
      <Button size="xs" variant="default" onClick={onMore}>
        {t('master.device.more')}
      </Button>
    </Group>
  );
}

function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

export default function DeviceDetail() {
  const { t } = useTranslation();
  const serial = useParams().deviceSerial ?? '';
  const now = useNow(15_000);
  const device = useDocument(`devices/${serial}`);
  const typeId = device.data?.deviceTypeId ?? null;
  const domainId = device.data?.domainId ?? null;
  const roomId = device.data?.roomId ?? null;
  const ownerAgencyId = device.data?.ownerAgencyDomainId ?? null;
  const type = useDocument(typeId === null ? null : `deviceTypes/${typeId}`);
  const room = useDocument(roomId ? `rooms/${roomId}` : null);
  const [borrowLimit, setBorrowLimit] = useState(ROWS_STEP);
  const [uploadLimit, setUploadLimit] = useState(ROWS_STEP);
  const borrows = useDeviceBorrows(serial, borrowLimit);
  const uploads = useRoomUploads(roomId || null, uploadLimit);

  if (device.loading || device.error || device.data === null) {
    return (
      <MasterPage>
        <Loaded loading={device.loading} error={device.error} empty emptyText={t('master.device.notFound', { serial })}>
          {null}
        </Loaded>
      </MasterPage>
    );
  }
  const record = device.data;
  const online = isOnline(record.lastSeenAt, now);
  const views = liveViewsOf(type.data?.rawViews);
  return (
    <MasterPage title={t('master.device.title', { serial })}>
      <Card withBorder data-testid="device-status">
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <Fact label={t('master.device.type')}>
            {typeId ? (
              <Anchor component={Link} to={`/master/device-lists/${encodeURIComponent(typeId)}`}>
                {type.data?.name ?? typeId}
              </Anchor>
            ) : (
              '—'
            )}
          </Fact>
          <Fact label={t('master.device.domain')}>{domainId ? <DomainName domainId={domainId} /> : '—'}</Fact>
          <Fact label={t('master.device.ownerAgency')}>{ownerAgencyId ? <DomainName domainId={ownerAgencyId} /> : '—'}</Fact>
          <Fact label={t('master.device.room')}>
            {roomId ? (
              room.loading ? (
                <Loader size="xs" aria-label={t('master.device.loadingName')} />
              ) : (
                (room.data?.name ?? t('master.device.unknownRoom', { id: roomId }))
              )
            ) : (
              '—'
            )}
          </Fact>
          <Fact label={t('master.device.status')}>{t(`master.counts.statuses.${record.status}`)}</Fact>
          <Fact label={t('master.device.firmware')}>{record.firmwareVersion ?? '—'}</Fact>
          <Fact label={t('master.device.battery')}>{typeof record.battery === 'number' ? `${Math.round(record.battery)}%` : '—'}</Fact>
          <Fact label={t('master.device.lastSeen')}>{record.lastSeenAt ? formatDateTime(record.lastSeenAt) : '—'}</Fact>
          <Fact label={t('master.device.connection')}>
            <Badge color={online ? 'teal' : 'gray'} data-testid="device-online">
              {t(online ? 'master.device.online' : 'master.device.offline')}
            </Badge>
          </Fact>
        </SimpleGrid>
      </Card>

      <Stack gap="xs" component="section" aria-label={t('master.device.liveViews')}>
        <Title order={3}>{t('master.device.liveViews')}</Title>
        {type.loading ? null : views.length === 0 ? (
          <Text c="dimmed">{t('master.device.noLiveViews')}</Text>
        ) : (
          <Group gap="xs">
            {views.map((view) => (
              <Button
                key={view}
                component={Link}
                to={`/monitoring-device/${view}?serial=${encodeURIComponent(serial)}`}
                variant="light"
                size="xs"
                leftSection={<IconActivityHeartbeat size={iconSize('xs')} />}
                data-testid="live-view-link"
              >
                {t(`master.device.views.${view}`)}
              </Button>
            ))}
          </Group>
        )}
      </Stack>

      <Stack gap="xs" component="section" aria-label={t('master.device.borrows')}>
        <Title order={3}>{t('master.device.borrows')}</Title>
        <Loaded loading={borrows.loading} error={borrows.error} empty={borrows.data.length === 0} emptyText={t('master.device.noBorrows')}>
          <Table striped data-testid="device-borrow-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('master.device.borrowTo')}</Table.Th>
                <Table.Th>{t('master.device.borrowFrom')}</Table.Th>
                <Table.Th>{t('master.device.borrowUntil')}</Table.Th>
                <Table.Th>{t('master.device.borrowReturned')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {borrows.data.map((borrow) => (
                <Table.Tr key={borrow.documentReferenceId}>
                  <Table.Td>
                    <DomainName domainId={borrow.toDomainId} />
                  </Table.Td>
                  <Table.Td>{formatDate(borrow.from)}</Table.Td>
                  <Table.Td>{borrow.until ? formatDate(borrow.until) : '—'}</Table.Td>
                  <Table.Td>{borrow.returnedAt ? formatDate(borrow.returnedAt) : '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <MoreRows shown={borrows.data.length} limit={borrowLimit} onMore={() => setBorrowLimit((limit) => limit + ROWS_STEP)} />
        </Loaded>
      </Stack>

      <Stack gap="xs" component="section" aria-label={t('master.device.uploads')}>
        <Title order={3}>{t('master.device.uploads')}</Title>
        {roomId === null ? (
          <Text c="dimmed">{t('master.device.noRoom')}</Text>
        ) : (
          <Loaded loading={uploads.loading} error={uploads.error} empty={uploads.data.length === 0} emptyText={t('master.device.noUploads')}>
            <Table striped data-testid="device-upload-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('master.device.uploadFile')}</Table.Th>
                  <Table.Th>{t('master.device.uploadFormat')}</Table.Th>
                  <Table.Th>{t('master.device.uploadStatus')}</Table.Th>
                  <Table.Th>{t('master.device.uploadedAt')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {uploads.data.map((upload) => (
                  <Table.Tr key={upload.documentReferenceId}>
                    <Table.Td>{upload.fileName}</Table.Td>
                    <Table.Td>{upload.format.toUpperCase()}</Table.Td>
                    <Table.Td>
                      <Badge
                        color={upload.status === 'failed' ? 'red' : upload.status === 'done' ? 'teal' : 'blue'}
                        variant="light"
                        title={upload.error ?? undefined}
                      >
                        {t(`master.device.uploadStatuses.${upload.status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{formatDateTime(upload.createdAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <MoreRows shown={uploads.data.length} limit={uploadLimit} onMore={() => setUploadLimit((limit) => limit + ROWS_STEP)} />
          </Loaded>
        )}
      </Stack>
    </MasterPage>
  );
}
