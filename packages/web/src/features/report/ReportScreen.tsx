import type { RoomReport } from '@nemuri/shared/report/roomReport';
import { addReportDays } from '@nemuri/shared/report/period';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconX } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { dayjs } from '../../lib/dates.ts';
import { iconSize } from '../../lib/icons.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { ApiError } from '../../lib/http/apiError.ts';
import { ReportControls } from './ReportControls.tsx';
import { ReportRoomSection } from './ReportRoomSection.tsx';
import { ReportDownloads } from './ReportDownloads.tsx';
import { fetchReports, type ReportSelection } from './api/reportApi.ts';
import { REPORT_PRINT_CSS } from './reportPrint.ts';
import { periodOf, problemOf, type PeriodChoice, type RoomChoice } from './reportSelection.ts';
import { useReportRooms } from './api/reportRooms.ts';

type Result =
  { kind: 'idle' } | { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; selection: ReportSelection; reports: RoomReport[] };

/** Yesterday in Japan: the latest sleep day that has ended by the morning. */
function latestDay(): string {
  return addReportDays(dayjs().tz('Asia/Tokyo').format('YYYY-MM-DD'), -1);
}

/**
 * Printable sleep reports (/report): staff choose rooms and a period and get, per room, the sleep
 * diary, the per-day metrics with period averages, the rate trends and a comment; print it (A4,
 * a room per page) or download it as PDF or CSV. Administrators hand out report links from here.
 * (A family member or doctor with a report link reads the room's own pages and downloads its report there.)
 */
export default function ReportScreen() {
  const { t } = useTranslation();
  const level = useCurrentUser()?.accessLevel ?? 0;
  const rooms = useReportRooms();
  const choices = useMemo<RoomChoice[]>(
    () => rooms.data.map((room) => ({ id: String(room.documentReferenceId), name: room.name, floor: room.floor ?? null, sortOrder: room.sortOrder ?? null })),
    [rooms.data],
  );
  // null until the user chooses: a family member or doctor (one room, or a few) starts with all of theirs.
  const [picked, setPicked] = useState<string[] | null>(null);
  const [period, setPeriod] = useState<PeriodChoice>(() => {
    const day = latestDay();
    return { kind: 'month', anchor: day, customFrom: addReportDays(day, -6), customTo: day };
  });
  const [result, setResult] = useState<Result>({ kind: 'idle' });
  // The request of the reports shown being made: aborted when asked again, cancelled or on leaving the page.
  const request = useRef<AbortController | null>(null);
  useEffect(() => () => request.current?.abort(), []);
  const viewer = level < ROLE_LEVELS.generalStaff;
  const chosen = picked ?? (viewer ? choices.map((room) => room.id) : []);
  const range = periodOf(period);
  const problem = problemOf(chosen, range);

  const show = () => {
    if (problem !== null) return;
    const selection = { roomIds: chosen, from: range.from, to: range.to };
    setResult({ kind: 'loading' });
    request.current?.abort();
    const abort = new AbortController();
    request.current = abort;
    fetchReports(selection, abort.signal).then(
      (reports) => setResult({ kind: 'ready', selection, reports }),
      (error: unknown) => {
        if (abort.signal.aborted) return;
        setResult({ kind: 'failed', message: error instanceof ApiError && error.status === 404 ? t('report.errors.notFound') : t('report.errors.failed') });
      },
    );
  };
  const cancel = () => {
    request.current?.abort();
    request.current = null;
    setResult({ kind: 'idle' });
  };

  if (rooms.loading) {
    return (
      <ScreenPage>
        <Group justify="center" p="xl">
          <Loader aria-label={t('report.loading')} />
        </Group>
      </ScreenPage>
    );
  }
  if (rooms.error !== null) {
    return (
      <ScreenPage>
        <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
          {t('report.errors.rooms')}
        </Alert>
      </ScreenPage>
    );
  }
  if (choices.length === 0) {
    return (
      <ScreenPage>
        <Text c="dimmed" data-testid="report-no-rooms">
          {t(viewer ? 'report.noRoomsViewer' : 'report.noRooms')}
        </Text>
      </ScreenPage>
    );
  }
  return (
    <ScreenPage>
      <style>{REPORT_PRINT_CSS}</style>
      <Stack gap="md">
        <ReportControls
          rooms={choices}
          chosen={chosen}
          onChoose={setPicked}
          period={period}
          onPeriod={setPeriod}
          range={range}
          problem={problem === null ? null : t(`report.problems.${problem}`)}
          problemIsEmptyChoice={problem === 'noRooms'}
          loading={result.kind === 'loading'}
          onShow={show}
        />
        {result.kind === 'idle' ? (
          <Text c="dimmed" className="nemuri-no-print">
            {t('report.idle')}
          </Text>
        ) : null}
        {result.kind === 'loading' ? (
          <Group justify="center" p="xl">
            <Loader aria-label={t('report.loadingReport')} />
            <Button size="xs" variant="subtle" color="red" leftSection={<IconX size={iconSize('xs')} />} onClick={cancel} data-testid="report-cancel">
              {t('report.download.cancel')}
            </Button>
          </Group>
        ) : null}
        {result.kind === 'failed' ? (
          <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
            {result.message}
          </Alert>
        ) : null}
        {result.kind === 'ready' ? (
          <Stack gap="md">
            <ReportDownloads selection={result.selection} />
            {result.reports.map((report) => (
              <ReportRoomSection
                key={`${report.room.id}:${report.from}:${report.to}`}
                report={report}
                canComment={level >= ROLE_LEVELS.generalStaff}
                canShare={level >= ROLE_LEVELS.administrator}
              />
            ))}
          </Stack>
        ) : null}
      </Stack>
    </ScreenPage>
  );
}
