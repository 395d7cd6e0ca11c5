import { REPORT_LINK_DEFAULT_DAYS, REPORT_LINK_MAX_DAYS } from '@nemuri/shared/registration';
import type { ReportLinksPage, ReportLinkState } from '@nemuri/shared/report/reportApi';
import { Alert, Badge, Button, CopyButton, Group, Image, Loader, Modal, NumberInput, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconCheck, IconCopy, IconLink, IconLinkOff } from '@tabler/icons-react';
import QRCode from 'qrcode';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CursorPager } from '../../components/CursorPager.tsx';
import { useCursorPages, type CursorPagesState } from '../../lib/cursorPages.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { iconSize } from '../../lib/icons.ts';
import { notify } from '../../lib/notify.ts';
import { createLink, fetchLinksPage, revokeLink } from './api/reportApi.ts';

const STATE_COLOR: Record<ReportLinkState, string> = { unused: 'blue', inUse: 'teal', expired: 'gray', revoked: 'red' };

/** Links read a page at a time (GET /api/reports/rooms/:roomId/links). */
export const LINKS_PAGE = 10;

/**
 * An administrator's report links for one room: make a link with an expiry (its address, a copy
 * button and a QR code to hand over), and the room's links with their state, last access and a
 * revoke button. A revoked link stops working at the viewer's next read.
 */
export function ReportLinksDialog({ roomId, roomName, opened, onClose }: { roomId: string; roomName: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('report.links.title', { room: roomName })} size="xl">
      {/* The modal mounts its content only while open: the links are read when it opens, not for every room of the report. */}
      <ReportLinks roomId={roomId} />
    </Modal>
  );
}

function ReportLinks({ roomId }: { roomId: string }) {
  const { t } = useTranslation();
  const pages = useCursorPages<{ roomId: string }, ReportLinksPage>({ roomId }, LINKS_PAGE, fetchLinksPage);
  const reload = pages.reload;
  const [validDays, setValidDays] = useState<number>(REPORT_LINK_DEFAULT_DAYS);
  const [made, setMade] = useState<{ url: string; qr: string | null } | null>(null);
  const [busy, setBusy] = useState(false);

  const make = async () => {
    setBusy(true);
    try {
      const link = await createLink(roomId, validDays);
      const qr = await QRCode.toDataURL(link.url, { margin: 1, width: 160 }).catch(() => null);
      setMade({ url: link.url, qr });
      reload();
    } catch {
      notify({ color: 'red', message: t('report.links.createFailed') });
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (id: string) => {
    try {
      await revokeLink(id);
      notify({ color: 'green', message: t('report.links.revoked') });
      reload();
    } catch {
      notify({ color: 'red', message: t('report.links.revokeFailed') });
    }
  };

  return (
    <Stack gap="md">
      <Group align="flex-end">
        <NumberInput
          label={t('report.links.validDays')}
          min={1}
          max={REPORT_LINK_MAX_DAYS}
          value={validDays}
          onChange={(value) => setValidDays(typeof value === 'number' ? value : REPORT_LINK_DEFAULT_DAYS)}
          w={160}
        />
        <Button leftSection={<IconLink size={iconSize('xs')} />} loading={busy} onClick={() => void make()}>
          {t('report.links.create')}
        </Button>
      </Group>
      {made === null ? null : (
        <Group align="flex-start" data-testid="report-link-made">
          {made.qr === null ? null : <Image src={made.qr} alt={t('report.links.qrAlt')} w={120} h={120} />}
          <Stack gap={4} style={{ flex: 1 }}>
            <TextInput label={t('report.links.url')} value={made.url} readOnly data-testid="report-link-url" />
            <CopyButton value={made.url}>
              {({ copied, copy }) => (
                <Button
                  size="xs"
                  variant="light"
                  w="fit-content"
                  leftSection={copied ? <IconCheck size={iconSize('xs')} /> : <IconCopy size={iconSize('xs')} />}
                  onClick={copy}
                >
                  {copied ? t('report.links.copied') : t('report.links.copy')}
                </Button>
              )}
            </CopyButton>
            <Text size="xs" c="dimmed">
              {t('report.links.hint')}
            </Text>
          </Stack>
        </Group>
      )}
      <LinksTable pages={pages} onRevoke={(id) => void revoke(id)} />
    </Stack>
  );
}

/** A page of the room's links with their state and a revoke button, the pager and the empty state. */
function LinksTable({ pages, onRevoke }: { pages: CursorPagesState<ReportLinksPage>; onRevoke: (id: string) => void }) {
  const { t } = useTranslation();
  if (pages.error !== null) {
    return (
      <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
        {t('report.links.loadFailed')}
      </Alert>
    );
  }
  if (pages.page === null) return <Loader size="sm" aria-label={t('report.links.loading')} />;
  const links = pages.page.links;
  if (links.length === 0 && pages.pageIndex === 0) return <Text c="dimmed">{t('report.links.none')}</Text>;
  return (
    <Stack gap="xs" aria-busy={pages.loading} style={{ opacity: pages.loading ? 0.6 : 1 }}>
      <Table.ScrollContainer minWidth={640}>
        <Table striped data-testid="report-links">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('report.links.columns.created')}</Table.Th>
              <Table.Th>{t('report.links.columns.expires')}</Table.Th>
              <Table.Th>{t('report.links.columns.state')}</Table.Th>
              <Table.Th>{t('report.links.columns.lastAccess')}</Table.Th>
              <Table.Th>{t('report.links.columns.accessCount')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {links.map((link) => (
              <Table.Tr key={link.id} data-testid="report-link-row" data-state={link.state}>
                <Table.Td>{link.createdAt ? formatDateTime(link.createdAt) : '—'}</Table.Td>
                <Table.Td>{formatDateTime(link.expiresAt)}</Table.Td>
                <Table.Td>
                  <Badge color={STATE_COLOR[link.state]} variant="light">
                    {t(`report.links.states.${link.state}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>{link.lastAccessAt ? formatDateTime(link.lastAccessAt) : '—'}</Table.Td>
                <Table.Td>{link.accessCount}</Table.Td>
                <Table.Td>
                  {link.state === 'unused' || link.state === 'inUse' ? (
                    <Button size="xs" color="red" variant="light" leftSection={<IconLinkOff size={iconSize('xs')} />} onClick={() => onRevoke(link.id)}>
                      {t('report.links.revoke')}
                    </Button>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <CursorPager pages={pages} previousLabel={t('report.links.newer')} nextLabel={t('report.links.older')} testId="report-links-pager" />
    </Stack>
  );
}
