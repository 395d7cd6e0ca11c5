import { MAX_REPORT_COMMENT } from '@nemuri/shared/report/period';
import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { iconSize } from '../../lib/icons.ts';
import { notify } from '../../lib/notify.ts';
import { saveComment } from './api/reportApi.ts';

/**
 * The staff comment printed with a room's report (stored on the room, `reportComment`). Staff edit
 * it; a family member or doctor reads it. On paper only the text shows.
 */
export function ReportComment({ roomId, roomName, initial, editable }: { roomId: string; roomName: string; initial: string | null; editable: boolean }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(initial ?? '');
  const [saved, setSaved] = useState(initial ?? '');
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      const stored = await saveComment(roomId, draft);
      setSaved(stored ?? '');
      setDraft(stored ?? '');
      notify({ color: 'green', message: t('report.comment.saved') });
    } catch {
      notify({ color: 'red', message: t('report.comment.failed') });
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack gap={4}>
      <Text fw={700} size="sm">
        {t('report.comment.title')}
      </Text>
      {editable ? (
        <Stack gap={4} className="nemuri-no-print">
          <Textarea
            aria-label={t('report.comment.label', { room: roomName })}
            placeholder={t('report.comment.placeholder')}
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value)}
            maxLength={MAX_REPORT_COMMENT}
            autosize
            minRows={2}
          />
          <Group justify="flex-end">
            <Button size="xs" leftSection={<IconDeviceFloppy size={iconSize('xs')} />} loading={saving} disabled={draft === saved} onClick={() => void save()}>
              {t('report.comment.save')}
            </Button>
          </Group>
        </Stack>
      ) : null}
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} className={editable ? 'nemuri-print-only' : undefined} data-testid="report-comment">
        {saved === '' ? t('report.comment.none') : saved}
      </Text>
    </Stack>
  );
}
