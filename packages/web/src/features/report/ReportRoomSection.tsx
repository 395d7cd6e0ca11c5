import type { RoomReport } from '@nemuri/shared/report/roomReport';
import { Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconLink } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { iconSize } from '../../lib/icons.ts';
import { formatDay } from '../../lib/dates.ts';
import { RateTrendChart } from './RateTrendChart.tsx';
import { ReportComment } from './ReportComment.tsx';
import { ReportLinksDialog } from './ReportLinksDialog.tsx';
import { ReportMetricTable } from './ReportMetricTable.tsx';
import { SleepDiaryChart } from './SleepDiaryChart.tsx';

/** One room's report: heading, diary, metric table, rate trends and comment; a page of its own on paper. */
export function ReportRoomSection({ report, canComment, canShare }: { report: RoomReport; canComment: boolean; canShare: boolean }) {
  const { t } = useTranslation();
  const [sharing, setSharing] = useState(false);
  const { room } = report;
  return (
    <Paper withBorder p="md" className="nemuri-report-room" data-testid="report-room" data-room={room.id}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <Stack gap={2}>
            <Title order={3}>{t('report.room.title', { room: room.name })}</Title>
            <Text size="sm" c="dimmed">
              {[
                t('report.room.period', { from: formatDay(report.from), to: formatDay(report.to) }),
                room.floor ? t('report.room.floor', { floor: room.floor }) : null,
                room.residentName ? t('report.room.resident', { name: room.residentName }) : null,
                t('report.room.recordedDays', { days: report.averages.days }),
              ]
                .filter((part) => part !== null)
                .join('　')}
            </Text>
          </Stack>
          {canShare ? (
            <Button size="xs" variant="light" className="nemuri-no-print" leftSection={<IconLink size={iconSize('xs')} />} onClick={() => setSharing(true)}>
              {t('report.links.open')}
            </Button>
          ) : null}
        </Group>
        {report.averages.days === 0 ? (
          <Text c="dimmed" data-testid="report-empty">
            {t('report.room.noRecords')}
          </Text>
        ) : null}
        <Stack gap={4}>
          <Text fw={700} size="sm">
            {t('report.diary.title')}
          </Text>
          <SleepDiaryChart days={report.diary} rule={report.rule} roomName={room.name} />
        </Stack>
        <Stack gap={4}>
          <Text fw={700} size="sm">
            {t('report.table.title')}
          </Text>
          <ReportMetricTable report={report} />
        </Stack>
        <Stack gap={4} className="nemuri-report-trends">
          <Text fw={700} size="sm">
            {t('report.trend.title')}
          </Text>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <RateTrendChart points={report.trend} rate="respiration" />
            <RateTrendChart points={report.trend} rate="heartRate" />
          </SimpleGrid>
        </Stack>
        <ReportComment roomId={room.id} roomName={room.name} initial={room.comment} editable={canComment} />
      </Stack>
      {canShare ? <ReportLinksDialog roomId={room.id} roomName={room.name} opened={sharing} onClose={() => setSharing(false)} /> : null}
    </Paper>
  );
}
