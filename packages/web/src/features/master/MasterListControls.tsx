import { Button, Group } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { iconSize } from '../../lib/icons.ts';

/** The "create" button above a master list (shown only to those who may edit). */
export function CreateBar({ label, onCreate }: { label: string; onCreate: () => void }) {
  return (
    <Group>
      <Button leftSection={<IconPlus size={iconSize('xs')} />} onClick={onCreate}>
        {label}
      </Button>
    </Group>
  );
}

/** Edit and delete of one row of a master list; `what` names the record for screen readers. */
export function RowEditDelete({ what, onEdit, onDelete }: { what: string; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="nowrap">
      <Button size="xs" variant="light" leftSection={<IconPencil size={iconSize('xs')} />} onClick={onEdit} aria-label={t('master.editOf', { what })}>
        {t('master.edit')}
      </Button>
      <Button
        size="xs"
        color="red"
        variant="subtle"
        leftSection={<IconTrash size={iconSize('xs')} />}
        onClick={onDelete}
        aria-label={t('master.deleteOf', { what })}
      >
        {t('master.delete.button')}
      </Button>
    </Group>
  );
}
