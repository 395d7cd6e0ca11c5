/**
 * /account-info 「通知」: the signed-in staff member's own channels (push on this device, mail,
 * LINE), the alert types they want, quiet hours, their devices, and a test notification.
 */
import { Alert, Button, Checkbox, Group, Loader, SimpleGrid, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ALERT_TYPE_NAMES, type AlertTypeName } from '@nemuri/shared/monitoring';
import { LINE_USER_ID, type NotificationPreferences } from '@nemuri/shared/notifications';
import { notify } from '../../lib/notify.ts';
import { notificationErrorMessage } from './notificationErrorMessage.ts';
import { notificationsApi, useDraft, useLoaded } from './api/notificationsApi.ts';
import { currentEndpoint, pushSupport, subscribeThisDevice } from './pushDevice.ts';

export function NotificationSettingsSection() {
  const { t } = useTranslation();
  const preferences = useLoaded('preferences', notificationsApi.preferences);
  const devices = useLoaded('devices', notificationsApi.subscriptions);
  const [draft, setDraft] = useDraft(preferences.data, 'preferences', (data): NotificationPreferences => data);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [subscribed, setSubscribed] = useState<boolean | null>(null);
  const support = pushSupport();

  useEffect(() => {
    void currentEndpoint().then(
      (endpoint) => setSubscribed(endpoint !== null),
      () => setSubscribed(false),
    );
  }, [devices.data]);

  if (preferences.loading && draft === null)
    return (
      <Group gap="xs">
        <Loader size="sm" />
        <Text size="sm">{t('notifications.loading')}</Text>
      </Group>
    );
  if (preferences.error !== null || draft === null) return <Alert color="red">{notificationErrorMessage(t, preferences.error)}</Alert>;

  const act = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(notificationErrorMessage(t, caught));
    } finally {
      setBusy(false);
    }
  };
  const lineInvalid = draft.lineUserId !== null && draft.lineUserId !== '' && !LINE_USER_ID.test(draft.lineUserId);
  const save = () =>
    act(async () => {
      const saved = await notificationsApi.savePreferences({ ...draft, lineUserId: draft.lineUserId === '' ? null : draft.lineUserId });
      preferences.set(saved);
      notify({ color: 'teal', message: t('notifications.saved') });
    });
  const enableThisDevice = () =>
    act(async () => {
      if (!(await subscribeThisDevice())) {
        setError(t('notifications.push.permissionRefused'));
        return;
      }
      devices.reload();
    });
  const sendTest = () =>
    act(async () => {
      await notificationsApi.sendTest();
      notify({ color: 'teal', message: t('notifications.testSent') });
    });
  const toggleType = (type: AlertTypeName, on: boolean) =>
    setDraft({ ...draft, alertTypes: on ? [...draft.alertTypes, type] : draft.alertTypes.filter((name) => name !== type) });

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('notifications.intro')}
      </Text>
      <Stack gap="xs">
        <Switch
          label={t('notifications.channels.push')}
          checked={draft.channels.push}
          onChange={(event) => setDraft({ ...draft, channels: { ...draft.channels, push: event.currentTarget.checked } })}
        />
        <Switch
          label={t('notifications.channels.mail')}
          checked={draft.channels.mail}
          onChange={(event) => setDraft({ ...draft, channels: { ...draft.channels, mail: event.currentTarget.checked } })}
        />
        <Switch
          label={t('notifications.channels.line')}
          checked={draft.channels.line}
          onChange={(event) => setDraft({ ...draft, channels: { ...draft.channels, line: event.currentTarget.checked } })}
        />
        {draft.channels.line ? (
          <TextInput
            label={t('notifications.lineUserId')}
            description={t('notifications.lineUserIdHelp')}
            value={draft.lineUserId ?? ''}
            error={lineInvalid ? t('notifications.lineUserIdInvalid') : undefined}
            onChange={(event) => setDraft({ ...draft, lineUserId: event.currentTarget.value.trim() })}
            maw={420}
          />
        ) : null}
      </Stack>
      <Checkbox.Group label={t('notifications.alertTypes')}>
        <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="xs" mt="xs">
          {ALERT_TYPE_NAMES.map((type) => (
            <Checkbox
              key={type}
              label={t(`monitoring.alertTypes.${type}`)}
              checked={draft.alertTypes.includes(type)}
              onChange={(event) => toggleType(type, event.currentTarget.checked)}
            />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
      <Stack gap="xs">
        <Switch
          label={t('notifications.quietHours')}
          description={t('notifications.quietHoursHelp')}
          checked={draft.quietHours !== null}
          onChange={(event) => setDraft({ ...draft, quietHours: event.currentTarget.checked ? { start: '22:00', end: '06:00' } : null })}
        />
        {draft.quietHours !== null ? (
          <Group gap="sm">
            <TextInput
              type="time"
              label={t('notifications.quietStart')}
              value={draft.quietHours.start}
              onChange={(event) => draft.quietHours && setDraft({ ...draft, quietHours: { ...draft.quietHours, start: event.currentTarget.value } })}
              w={140}
            />
            <TextInput
              type="time"
              label={t('notifications.quietEnd')}
              value={draft.quietHours.end}
              onChange={(event) => draft.quietHours && setDraft({ ...draft, quietHours: { ...draft.quietHours, end: event.currentTarget.value } })}
              w={140}
            />
          </Group>
        ) : null}
      </Stack>
      {error !== null ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : null}
      <Group gap="sm">
        <Button onClick={() => void save()} loading={busy} disabled={lineInvalid}>
          {t('notifications.save')}
        </Button>
        <Button variant="default" onClick={() => void sendTest()} disabled={busy}>
          {t('notifications.test')}
        </Button>
      </Group>
      <Stack gap="xs" component="section" aria-label={t('notifications.devices')}>
        <Text fw={600} size="sm">
          {t('notifications.devices')}
        </Text>
        {support === 'unsupported' ? (
          <Text size="sm" c="dimmed">
            {t('notifications.push.unsupported')}
          </Text>
        ) : null}
        {support === 'denied' ? (
          <Text size="sm" c="orange">
            {t('notifications.push.denied')}
          </Text>
        ) : null}
        {support === 'supported' && subscribed === false ? (
          <Group>
            <Button variant="light" onClick={() => void enableThisDevice()} loading={busy}>
              {t('notifications.push.enable')}
            </Button>
          </Group>
        ) : null}
        {devices.loading && devices.data === null ? <Loader size="xs" /> : null}
        {devices.error !== null ? <Alert color="red">{notificationErrorMessage(t, devices.error)}</Alert> : null}
        {devices.data !== null && devices.data.subscriptions.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('notifications.push.none')}
          </Text>
        ) : null}
        {devices.data !== null && devices.data.subscriptions.length > 0 ? (
          <Table.ScrollContainer minWidth={360}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('notifications.push.device')}</Table.Th>
                  <Table.Th>{t('notifications.push.lastSuccess')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {devices.data.subscriptions.map((device) => (
                  <Table.Tr key={device.id}>
                    <Table.Td>
                      {device.label ?? device.service}
                      <Text size="xs" c="dimmed">
                        {device.service}
                      </Text>
                    </Table.Td>
                    <Table.Td>{device.lastSuccessAt === null ? '—' : new Date(device.lastSuccessAt).toLocaleString('ja-JP')}</Table.Td>
                    <Table.Td>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        onClick={() => void act(async () => devices.set(await notificationsApi.removeSubscription(device.id)))}
                      >
                        {t('notifications.push.remove')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
      </Stack>
    </Stack>
  );
}
