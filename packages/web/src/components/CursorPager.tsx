/**
 * The pager under a keyset-paged list (lib/cursorPages.ts): newer, the page number, older.
 */
import { Button, Group, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { iconSize } from '../lib/icons.ts';
import type { CursorPage, CursorPagesState } from '../lib/cursorPages.ts';

export function CursorPager<P extends CursorPage>({
  pages,
  previousLabel,
  nextLabel,
  testId,
}: {
  pages: CursorPagesState<P>;
  previousLabel: string;
  nextLabel: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  // A single page needs no pager.
  if (pages.pageIndex === 0 && !pages.hasNext) return null;
  return (
    <Group justify="space-between" data-testid={testId}>
      <Button
        size="xs"
        variant="default"
        leftSection={<IconChevronLeft size={iconSize('xs')} />}
        onClick={pages.previous}
        disabled={pages.pageIndex === 0 || pages.loading}
      >
        {previousLabel}
      </Button>
      <Text size="sm" c="dimmed">
        {t('auditLog.pageOf', { page: pages.pageIndex + 1 })}
      </Text>
      <Button
        size="xs"
        variant="default"
        rightSection={<IconChevronRight size={iconSize('xs')} />}
        onClick={pages.next}
        disabled={!pages.hasNext || pages.loading}
      >
        {nextLabel}
      </Button>
    </Group>
  );
}
