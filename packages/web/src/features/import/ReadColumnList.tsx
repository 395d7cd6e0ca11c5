import { Badge, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ReadColumn, ReadColumnStatus } from '@nemuri/shared/imports';

const STATUS_COLORS: Readonly<Record<ReadColumnStatus, string>> = { read: 'teal', context: 'gray', skipped: 'orange', problem: 'red' };

/**
 * What a file's columns are read as, one line each: its name, what it means with its unit, how many
 * values, and whether it is (or was) imported — before the upload (`preview`) and after (`history`).
 */
export function ReadColumnList({ columns, phase }: { columns: readonly ReadColumn[]; phase: 'preview' | 'history' }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2} data-testid="read-columns">
      {columns.map((column, index) => (
        <Group key={`${index}:${column.name}`} gap={6} wrap="nowrap" align="flex-start" data-column={column.name} data-column-status={column.status}>
          <Badge size="xs" variant="light" color={STATUS_COLORS[column.status]} style={{ flexShrink: 0 }}>
            {t(`imports.columnStatus.${phase}.${column.status}`)}
          </Badge>
          <Text size="xs" style={{ wordBreak: 'break-all' }}>
            <Text span fw={500} size="xs">
              {column.name === '' ? t('imports.columnUnnamed') : column.name}
            </Text>
            {column.as !== null ? ` → ${t(`imports.readAs.${column.as}`, { defaultValue: column.as })}` : ''}
            {column.unit ? `（${column.unit}）` : ''}
            {column.values !== undefined ? ` · ${t('imports.columnValues', { count: column.values })}` : ''}
            {column.reason ? (
              <Text span size="xs" c={column.status === 'problem' ? 'red' : 'dimmed'}>
                {` · ${t(`imports.columnReasons.${column.reason}`)}`}
              </Text>
            ) : null}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
