/**
 * What every master screen shares: the frame (title, the area's links, a read-only note for level
 * 100), loading/error/empty states, a refusal message, a JSON viewer and a delete confirmation.
 */
import { Alert, Button, Code, Group, Loader, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconLock } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { DocumentError } from '@nemuri/shared/documents/errors';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { iconSize } from '../../lib/icons.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { canEditMasterData } from './masterAccess.ts';
import { refusalOf, type Refusal } from './serverRefusal.ts';
import { FormFooter } from '../../components/FormFooter.tsx';

const AREA_LINKS = [
  { to: '/master', key: 'overview' },
  { to: '/master/paramater-lists', key: 'parameters' },
  { to: '/master/device-types', key: 'deviceTypes' },
  { to: '/master/domain-lists', key: 'domains' },
  { to: '/master/view-lists', key: 'views' },
  { to: '/master/history-lists', key: 'histories' },
] as const;

/** Whether the signed-in developer may write master data (senior developer, 101+). */
export function useCanEditMaster(): boolean {
  return canEditMasterData(useCurrentUser()?.accessLevel ?? 0);
}

function isCurrent(pathname: string, to: string): boolean {
  if (to === '/master') return pathname === '/master' || pathname === '/master/';
  // Detail pages belong to their list: a device type and a device to the devices, a domain to the domains.
  if (to === '/master/device-types') return pathname.startsWith(to) || pathname.startsWith('/master/device-lists/') || pathname.startsWith('/master/device/');
  if (to === '/master/domain-lists') return pathname.startsWith(to) || pathname.startsWith('/master/domain/');
  return pathname.startsWith(to);
}

function AreaLinks() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <Group component="nav" aria-label={t('master.nav.label')} gap="xs" wrap="wrap">
      {AREA_LINKS.map((link) => {
        const current = isCurrent(pathname, link.to);
        return (
          <Button
            key={link.to}
            component={Link}
            to={link.to}
            size="compact-md"
            variant={current ? 'filled' : 'subtle'}
            aria-current={current ? 'page' : undefined}
          >
            {t(`master.nav.${link.key}`)}
          </Button>
        );
      })}
    </Group>
  );
}

/** The frame of a master screen; `editable` screens tell a level-100 developer they only look. */
export function MasterPage({ title, editable = false, children }: { title?: string; editable?: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  const canEdit = useCanEditMaster();
  return (
    <ScreenPage {...(title === undefined ? {} : { title })}>
      <AreaLinks />
      {editable && !canEdit ? (
        <Alert color="gray" icon={<IconLock size={iconSize('xs')} />} data-testid="master-read-only">
          {t('master.readOnly')}
        </Alert>
      ) : null}
      {children}
    </ScreenPage>
  );
}

/** Loading, failed or empty; null when there is something to show. */
export function LoadState({
  loading,
  error,
  empty,
  emptyText,
}: {
  loading: boolean;
  error: DocumentError | null | undefined;
  empty?: boolean;
  emptyText?: string;
}) {
  const { t } = useTranslation();
  if (error) {
    return (
      <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
        {t('master.loadFailed')}
      </Alert>
    );
  }
  if (loading) {
    return (
      <Group justify="center" p="xl">
        <Loader aria-label={t('master.loading')} />
      </Group>
    );
  }
  if (empty) return <Text c="dimmed">{emptyText ?? t('master.empty')}</Text>;
  return null;
}

/** The loading/error/empty state of a part, or the part itself. */
export function Loaded({
  loading,
  error,
  empty,
  emptyText,
  children,
}: {
  loading: boolean;
  error: DocumentError | null | undefined;
  empty?: boolean;
  emptyText?: string;
  children: ReactNode;
}) {
  if (error || loading || empty === true)
    return <LoadState loading={loading} error={error} empty={empty === true} {...(emptyText === undefined ? {} : { emptyText })} />;
  return <>{children}</>;
}

/** Why the server refused a write, in Japanese, next to the form. */
export function RefusalAlert({ refusal }: { refusal: Refusal | null }) {
  const { t } = useTranslation();
  if (refusal === null) return null;
  const fields = refusal.fields.map((field) => t(`master.fieldNames.${field}`, { defaultValue: field })).join('、');
  return (
    <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert" data-testid="master-refusal">
      {t(`master.refusals.${refusal.messageKey}`, { fields })}
    </Alert>
  );
}

/** A record as indented JSON, for the data viewers. */
export function JsonView({ value, label }: { value: unknown; label?: string }) {
  return (
    <ScrollArea.Autosize mah={360} type="auto">
      <Code block aria-label={label} data-testid="json-view">
        {JSON.stringify(value, null, 2)}
      </Code>
    </ScrollArea.Autosize>
  );
}

/** Runs a save; on refusal keeps the form open with the reason. */
export function useSave(): { saving: boolean; refusal: Refusal | null; clear: () => void; run: (save: () => Promise<void>, onDone: () => void) => void } {
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  return {
    saving,
    refusal,
    clear: () => setRefusal(null),
    run: (save, onDone) => {
      setSaving(true);
      setRefusal(null);
      save()
        .then(() => {
          setSaving(false);
          onDone();
        })
        .catch((error: unknown) => {
          setSaving(false);
          setRefusal(refusalOf(error));
        });
    },
  };
}

/** A form of the master screens: submits without the browser's own validation (ours words it in Japanese). */
export function MasterForm({ onSubmit, children }: { onSubmit: () => void; children: ReactNode }) {
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <Stack gap="sm">{children}</Stack>
    </form>
  );
}

/** The end of a master form: the server's refusal, if any, then cancel and save. */
export function FormActions({ refusal, saving, onCancel }: { refusal: Refusal | null; saving: boolean; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      <RefusalAlert refusal={refusal} />
      <FormFooter cancelLabel={t('master.cancel')} submitLabel={t('master.save')} busy={saving} onCancel={onCancel} />
    </>
  );
}

/** Asks before deleting a record; the server's refusal shows inside. */
export function ConfirmDelete({ what, onClose, onDelete }: { what: string | null; onClose: () => void; onDelete: () => Promise<void> }) {
  const { t } = useTranslation();
  const save = useSave();
  const close = () => {
    save.clear();
    onClose();
  };
  return (
    <Modal opened={what !== null} onClose={close} title={t('master.delete.title')} centered>
      <Stack gap="md">
        <Text>{t('master.delete.body', { what: what ?? '' })}</Text>
        <RefusalAlert refusal={save.refusal} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('master.cancel')}
          </Button>
          <Button color="red" loading={save.saving} onClick={() => save.run(onDelete, close)}>
            {t('master.delete.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
