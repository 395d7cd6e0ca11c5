import { Alert, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconRefresh } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ALERT_CSV_MAX_DAYS } from '@nemuri/shared/alertHistory';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { dayjs } from '../../lib/dates.ts';
import { iconSize } from '../../lib/icons.ts';
import { ApiError } from '../../lib/http/apiError.ts';
import { alertCsvUrl } from './api/alertHistoryApi.ts';
import { apiFilterOf, screenFilterOf, screenParams, type ScreenFilter } from './alertHistoryFilter.ts';
import { AlertHistoryFilters } from './AlertHistoryFilters.tsx';
import { AlertHistoryList } from './AlertHistoryList.tsx';
import { useAlertHistory } from './api/useAlertHistory.ts';
import { useRoomsByName } from './api/alertRooms.ts';

/**
 * /alert-history: every alert of the user's rooms, past and present, newest first — a nurse who was
 * away sees what happened, who acknowledged it and when. Filters by room, type, state and days stand in
 * the address; the CSV downloads what they select.
 */
export default function AlertHistoryScreen() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const filter = useMemo(() => screenFilterOf(params), [params]);
  const apiFilter = useMemo(() => apiFilterOf(filter), [filter]);
  const history = useAlertHistory(apiFilter);
  const rooms = useRoomsByName();
  const roomOptions = useMemo(() => rooms.data.map((room) => ({ id: room.documentReferenceId, name: room.name })), [rooms.data]);
  const change = (next: ScreenFilter) => setParams(screenParams(next), { replace: true });
  const csvDays = dayjs(filter.toDay).diff(dayjs(filter.fromDay), 'day') + 1;
  const rows = history.page?.rows ?? [];

  return (
    <ScreenPage>
      <Paper withBorder radius="md" p="md">
        <Stack gap="xs">
          <AlertHistoryFilters filter={filter} rooms={roomOptions} csvUrl={csvDays > ALERT_CSV_MAX_DAYS ? null : alertCsvUrl(apiFilter)} onChange={change} />
          {csvDays > ALERT_CSV_MAX_DAYS ? (
            <Text size="sm" c="orange">
              {t('alertHistory.csvTooLong', { days: ALERT_CSV_MAX_DAYS })}
            </Text>
          ) : null}
        </Stack>
      </Paper>
      {history.error ? (
        <Alert color="red" role="alert" title={t('alertHistory.failed')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{history.error instanceof ApiError && history.error.status === 404 ? t('alertHistory.notFound') : history.error.message}</Text>
            <Button size="xs" variant="light" leftSection={<IconRefresh size={iconSize('xs')} />} onClick={history.reload}>
              {t('alertHistory.retry')}
            </Button>
          </Stack>
        </Alert>
      ) : history.loading && history.page === null ? (
        <Group justify="center" p="xl">
          <Loader aria-label={t('alertHistory.loading')} />
        </Group>
      ) : rows.length === 0 ? (
        <Alert color="gray" data-testid="alert-history-empty">
          {t('alertHistory.empty')}
        </Alert>
      ) : (
        <Stack gap="sm" style={{ opacity: history.loading ? 0.6 : 1 }} aria-busy={history.loading}>
          <AlertHistoryList rows={rows} />
          <Group justify="space-between">
            <Button
              variant="default"
              leftSection={<IconChevronLeft size={iconSize('sm')} />}
              disabled={history.pageIndex === 0 || history.loading}
              onClick={history.previous}
            >
              {t('alertHistory.newer')}
            </Button>
            <Text size="sm" c="dimmed">
              {t('alertHistory.page', { page: history.pageIndex + 1 })}
            </Text>
            <Button variant="default" rightSection={<IconChevronRight size={iconSize('sm')} />} disabled={!history.hasNext} onClick={history.next}>
              {t('alertHistory.older')}
            </Button>
          </Group>
        </Stack>
      )}
    </ScreenPage>
  );
}
