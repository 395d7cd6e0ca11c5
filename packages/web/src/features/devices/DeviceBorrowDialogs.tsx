import { Alert, Badge, Button, Group, Modal, Select, Stack, Table, Text, TextInput, Textarea } from '@mantine/core';
import { DEFAULT_TIME_ZONE } from '@nemuri/shared/constants';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { dayjs, formatDate } from '../../lib/dates.ts';
import { borrowErrorMessage, lendDevice, returnDevice } from './api/deviceBorrowApi.ts';
import type { BorrowEntry, BorrowRow } from './deviceBorrowRows.ts';
import { FormFooter } from '../../components/FormFooter.tsx';

export interface DomainChoice {
  value: string;
  label: string;
}

/** A day typed as YYYY-MM-DD, as the instant it starts (or ends) in Tokyo. */
function dayStart(day: string): string {
  return dayjs.tz(day, DEFAULT_TIME_ZONE).toISOString();
}

function dayEnd(day: string): string {
  return dayjs.tz(day, DEFAULT_TIME_ZONE).endOf('day').toISOString();
}

function today(): string {
  return dayjs().tz(DEFAULT_TIME_ZONE).format('YYYY-MM-DD');
}

function ErrorAlert({ message }: { message: string | null }) {
  if (message === null) return null;
  return (
    <Alert color="red" role="alert">
      {message}
    </Alert>
  );
}

interface LendProps {
  row: BorrowRow | null;
  domains: readonly DomainChoice[];
  onClose: () => void;
  onLent: (row: BorrowRow, domainLabel: string) => void;
}

/** Lend one device: to which domain, from when (until when), and why. */
export function LendDialog({ row, ...props }: LendProps) {
  const { t } = useTranslation();
  // Mounted afresh per device, so nothing typed for another device stays in the form.
  return (
    <Modal opened={row !== null} onClose={props.onClose} title={t('deviceBorrow.lend.title', { serial: row?.serial ?? '' })}>
      {row === null ? null : <LendForm key={row.serial} row={row} {...props} />}
    </Modal>
  );
}

function LendForm({ row, domains, onClose, onLent }: Omit<LendProps, 'row'> & { row: BorrowRow }) {
  const { t } = useTranslation();
  const [domainId, setDomainId] = useState<string | null>(null);
  const [from, setFrom] = useState(today);
  const [until, setUntil] = useState('');
  const [note, setNote] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const domainError = domainId === null ? t('deviceBorrow.lend.domainRequired') : null;
  const fromError = /^\d{4}-\d\d-\d\d$/.test(from) ? null : t('deviceBorrow.lend.fromRequired');
  const untilError = until !== '' && fromError === null && until < from ? t('deviceBorrow.lend.untilBeforeFrom') : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (domainId === null || domainError !== null || fromError !== null || untilError !== null) return;
    setBusy(true);
    setError(null);
    try {
      await lendDevice(row.serial, {
        toDomainId: domainId,
        from: dayStart(from),
        until: until === '' ? null : dayEnd(until),
        note: note.trim() === '' ? null : note.trim(),
      });
      onLent(row, domains.find((domain) => domain.value === domainId)?.label ?? domainId);
    } catch (caught) {
      setError(borrowErrorMessage(t, caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('deviceBorrow.lend.device', { serial: row.serial, type: row.typeName })}
        </Text>
        <Select
          label={t('deviceBorrow.lend.domain')}
          placeholder={t('deviceBorrow.lend.domainPlaceholder')}
          data={domains.map((domain) => ({ ...domain }))}
          value={domainId}
          onChange={setDomainId}
          error={touched ? domainError : null}
          searchable
          required
        />
        <Group grow align="flex-start">
          <TextInput
            type="date"
            label={t('deviceBorrow.lend.from')}
            data-autofocus
            value={from}
            onChange={(event) => setFrom(event.currentTarget.value)}
            error={touched ? fromError : null}
            required
          />
          <TextInput
            type="date"
            label={t('deviceBorrow.lend.until')}
            description={t('deviceBorrow.lend.untilHint')}
            value={until}
            onChange={(event) => setUntil(event.currentTarget.value)}
            error={untilError}
          />
        </Group>
        <Textarea
          label={t('deviceBorrow.lend.note')}
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
          maxLength={1000}
          autosize
          minRows={2}
        />
        <ErrorAlert message={error} />
        <FormFooter cancelLabel={t('deviceBorrow.cancel')} submitLabel={t('deviceBorrow.lend.submit')} busy={busy} onCancel={onClose} />
      </Stack>
    </form>
  );
}

interface ReturnProps {
  row: BorrowRow | null;
  onClose: () => void;
  onReturned: (row: BorrowRow) => void;
}

/** Asks before taking a device back: its domain loses it (and its room) at once. */
export function ReturnDialog({ row, onClose, onReturned }: ReturnProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const open = row?.open ?? null;

  const close = () => {
    setError(null);
    onClose();
  };

  const confirm = async () => {
    if (row === null || open === null) return;
    setBusy(true);
    setError(null);
    try {
      await returnDevice(row.serial, open.id);
      onReturned(row);
    } catch (caught) {
      setError(borrowErrorMessage(t, caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={row !== null} onClose={close} title={t('deviceBorrow.return.title', { serial: row?.serial ?? '' })}>
      <Stack gap="sm">
        <Text size="sm">{t('deviceBorrow.return.confirm', { serial: row?.serial ?? '', domain: open?.toDomainName ?? row?.holderName ?? '' })}</Text>
        <Text size="xs" c="dimmed">
          {t('deviceBorrow.return.effect')}
        </Text>
        <ErrorAlert message={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('deviceBorrow.cancel')}
          </Button>
          <Button color="orange" loading={busy} onClick={() => void confirm()}>
            {t('deviceBorrow.return.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function period(t: (key: string, options?: Record<string, string>) => string, entry: BorrowEntry): string {
  return t('deviceBorrow.history.period', {
    from: formatDate(entry.from),
    until: entry.until === null ? t('deviceBorrow.history.noUntil') : formatDate(entry.until),
  });
}

/** Every borrow of one device, newest first. */
export function HistoryDialog({ row, onClose }: { row: BorrowRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={row !== null} onClose={onClose} title={t('deviceBorrow.history.title', { serial: row?.serial ?? '' })} size="lg">
      {row === null ? null : row.history.length === 0 ? (
        <Text c="dimmed">{t('deviceBorrow.history.none')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={520}>
          <Table striped data-testid="borrow-history">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('deviceBorrow.history.domain')}</Table.Th>
                <Table.Th>{t('deviceBorrow.history.periodHeader')}</Table.Th>
                <Table.Th>{t('deviceBorrow.history.returned')}</Table.Th>
                <Table.Th>{t('deviceBorrow.history.note')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {row.history.map((entry) => (
                <Table.Tr key={entry.id} data-testid="borrow-history-row">
                  <Table.Td>{entry.toDomainName}</Table.Td>
                  <Table.Td>{period(t, entry)}</Table.Td>
                  <Table.Td>
                    {entry.returnedAt === null ? (
                      <Badge color="blue" variant="light">
                        {t('deviceBorrow.history.open')}
                      </Badge>
                    ) : (
                      formatDate(entry.returnedAt)
                    )}
                  </Table.Td>
                  <Table.Td>{entry.note ?? ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Modal>
  );
}
