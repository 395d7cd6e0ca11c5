/**
 * /domain-config 「通知」 (administrators): how alerts reach staff away from the station — the
 * escalation steps, privacy (resident names), the rate limit, LINE and the signed webhook — the
 * on-duty schedule (day and night shifts with their staff and units), and the delivery log.
 */
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  MultiSelect,
  NumberInput,
  PasswordInput,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ALERT_TYPE_NAMES } from '@nemuri/shared/monitoring';
import {
  ESCALATION_TARGETS,
  MAX_ESCALATION_STEPS,
  type DomainNotificationSettings,
  type EscalationTarget,
  type Shift,
  type ShiftAssignment,
} from '@nemuri/shared/notifications';
import { notify } from '../../lib/notify.ts';
import { notificationErrorMessage } from './notificationErrorMessage.ts';
import { notificationsApi, useDraft, useLoaded } from './api/notificationsApi.ts';
import { DeliveryLog } from './DeliveryLog.tsx';

const today = () => new Date().toLocaleDateString('sv-SE');

export function DomainNotificationsTab({ domainId }: { domainId: string }) {
  return (
    <Stack gap="xl">
      <SettingsForm domainId={domainId} />
      <ShiftEditor domainId={domainId} />
      <DeliveryLog domainId={domainId} />
    </Stack>
  );
}

function SettingsForm({ domainId }: { domainId: string }) {
  const { t } = useTranslation();
  const loaded = useLoaded(domainId, () => notificationsApi.settings(domainId));
  const [draft, setDraft] = useDraft(
    loaded.data,
    domainId,
    ({ lineConfigured: _line, webhookSecretSet: _secret, ...settings }): DomainNotificationSettings => settings,
  );
  const [lineToken, setLineToken] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (loaded.error !== null) return <Alert color="red">{notificationErrorMessage(t, loaded.error)}</Alert>;
  if (draft === null || loaded.data === null) return <Loader size="sm" aria-label={t('notifications.loading')} />;
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
  const setStep = (index: number, step: { target?: EscalationTarget; afterMin?: number }) =>
    setDraft({ ...draft, escalation: draft.escalation.map((old, at) => (at === index ? { ...old, ...step } : old)) });
  const save = () =>
    act(async () => {
      const saved = await notificationsApi.saveSettings(domainId, {
        ...draft,
        webhookUrl: draft.webhookUrl === '' ? null : draft.webhookUrl,
        ...(lineToken === '' ? {} : { lineChannelAccessToken: lineToken }),
      });
      loaded.set(saved);
      setLineToken('');
      notify({ color: 'teal', message: t('notifications.saved') });
    });
  const targets = ESCALATION_TARGETS.map((target) => ({ value: target, label: t(`notifications.targets.${target}`) }));
  return (
    <Stack gap="md" component="section" aria-label={t('notifications.domain.title')}>
      <Title order={3} size="h5">
        {t('notifications.domain.title')}
      </Title>
      <Switch
        label={t('notifications.domain.showResidentName')}
        description={t('notifications.domain.showResidentNameHelp')}
        checked={draft.showResidentName}
        onChange={(event) => setDraft({ ...draft, showResidentName: event.currentTarget.checked })}
      />
      <Stack gap="xs">
        <Text fw={600} size="sm">
          {t('notifications.domain.escalation')}
        </Text>
        {draft.escalation.map((step, index) => (
          <Group key={index} gap="sm" align="end" wrap="wrap">
            <Badge variant="light">{t('notifications.domain.step', { number: index + 1 })}</Badge>
            <Select
              aria-label={t('notifications.domain.target', { number: index + 1 })}
              data={targets}
              value={step.target}
              onChange={(value) => value !== null && setStep(index, { target: value as EscalationTarget })}
              allowDeselect={false}
              w={220}
            />
            {index === 0 ? (
              <Text size="sm">{t('notifications.domain.atOnce')}</Text>
            ) : (
              <NumberInput
                aria-label={t('notifications.domain.afterMin', { number: index + 1 })}
                suffix={t('notifications.domain.minutesLater')}
                min={0}
                max={240}
                value={step.afterMin}
                onChange={(value) => setStep(index, { afterMin: Number(value) || 0 })}
                w={160}
              />
            )}
            {index > 0 ? (
              <Button
                variant="subtle"
                color="red"
                size="compact-sm"
                onClick={() => setDraft({ ...draft, escalation: draft.escalation.filter((_, at) => at !== index) })}
              >
                {t('notifications.domain.removeStep')}
              </Button>
            ) : null}
          </Group>
        ))}
        {draft.escalation.length < MAX_ESCALATION_STEPS ? (
          <Group>
            <Button
              variant="light"
              size="compact-sm"
              onClick={() => setDraft({ ...draft, escalation: [...draft.escalation, { target: 'allStaff', afterMin: 10 }] })}
            >
              {t('notifications.domain.addStep')}
            </Button>
          </Group>
        ) : null}
      </Stack>
      <Group gap="sm" align="end">
        <NumberInput
          label={t('notifications.domain.rateMax')}
          min={1}
          max={60}
          value={draft.rateLimit.max}
          onChange={(value) => setDraft({ ...draft, rateLimit: { ...draft.rateLimit, max: Number(value) || 1 } })}
          w={200}
        />
        <NumberInput
          label={t('notifications.domain.rateWindow')}
          min={1}
          max={120}
          value={draft.rateLimit.windowMin}
          onChange={(value) => setDraft({ ...draft, rateLimit: { ...draft.rateLimit, windowMin: Number(value) || 1 } })}
          w={200}
        />
      </Group>
      <PasswordInput
        label={t('notifications.domain.lineToken')}
        description={loaded.data.lineConfigured ? t('notifications.domain.lineTokenSet') : t('notifications.domain.lineTokenUnset')}
        value={lineToken}
        onChange={(event) => setLineToken(event.currentTarget.value)}
        maw={520}
        autoComplete="off"
      />
      <TextInput
        label={t('notifications.domain.webhookUrl')}
        description={t('notifications.domain.webhookUrlHelp')}
        placeholder="https://"
        value={draft.webhookUrl ?? ''}
        onChange={(event) => setDraft({ ...draft, webhookUrl: event.currentTarget.value.trim() === '' ? null : event.currentTarget.value.trim() })}
        maw={520}
      />
      {draft.webhookUrl !== null ? (
        <MultiSelect
          label={t('notifications.domain.webhookTypes')}
          data={ALERT_TYPE_NAMES.map((type) => ({ value: type, label: t(`monitoring.alertTypes.${type}`) }))}
          value={draft.webhookAlertTypes}
          onChange={(values) =>
            setDraft({
              ...draft,
              webhookAlertTypes: values.filter((value): value is (typeof ALERT_TYPE_NAMES)[number] => (ALERT_TYPE_NAMES as readonly string[]).includes(value)),
            })
          }
          maw={520}
        />
      ) : null}
      <Group gap="sm">
        {/* A secret issued here is set, though the loaded settings (kept as they are, not to lose the draft) predate it. */}
        <Text size="sm">{loaded.data.webhookSecretSet || secret !== null ? t('notifications.domain.secretSet') : t('notifications.domain.secretUnset')}</Text>
        <Button
          variant="default"
          size="compact-sm"
          disabled={busy}
          onClick={() => void act(async () => setSecret((await notificationsApi.rotateWebhookSecret(domainId)).secret))}
        >
          {t('notifications.domain.rotateSecret')}
        </Button>
      </Group>
      {secret !== null ? (
        <Alert color="yellow" title={t('notifications.domain.secretOnce')}>
          <Code>{secret}</Code>
        </Alert>
      ) : null}
      {error !== null ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : null}
      <Group>
        <Button onClick={() => void save()} loading={busy}>
          {t('notifications.save')}
        </Button>
      </Group>
    </Stack>
  );
}

function ShiftEditor({ domainId }: { domainId: string }) {
  const { t } = useTranslation();
  const [day, setDay] = useState(today());
  const [shift, setShift] = useState<Shift>('night');
  const loaded = useLoaded(`${domainId}/${day}`, () => notificationsApi.shifts(domainId, day, 1));
  const [draft, setAssignments] = useDraft(
    loaded.data,
    `${day}/${shift}`,
    (data): ShiftAssignment[] => data.shifts.find((entry) => entry.day === day && entry.shift === shift)?.assignments ?? [],
  );
  const assignments = draft ?? [];
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const staff = loaded.data?.staff ?? [];
  const nameOf = (uid: string) => staff.find((member) => member.uid === uid)?.displayName ?? uid;
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await notificationsApi.saveShift(domainId, day, shift, assignments);
      loaded.reload();
      notify({ color: 'teal', message: t('notifications.saved') });
    } catch (caught) {
      setError(notificationErrorMessage(t, caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="md" component="section" aria-label={t('notifications.shifts.title')}>
      <Title order={3} size="h5">
        {t('notifications.shifts.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('notifications.shifts.help')}
      </Text>
      <Group gap="sm" align="end">
        <TextInput
          type="date"
          label={t('notifications.shifts.day')}
          value={day}
          onChange={(event) => event.currentTarget.value !== '' && setDay(event.currentTarget.value)}
          w={180}
        />
        <SegmentedControl
          value={shift}
          onChange={(value) => setShift(value === 'day' ? 'day' : 'night')}
          data={[
            { value: 'day', label: t('notifications.shifts.dayShift') },
            { value: 'night', label: t('notifications.shifts.nightShift') },
          ]}
        />
      </Group>
      {loaded.loading && loaded.data === null ? <Loader size="sm" /> : null}
      {loaded.error !== null ? <Alert color="red">{notificationErrorMessage(t, loaded.error)}</Alert> : null}
      {loaded.data !== null ? (
        <>
          <MultiSelect
            label={t('notifications.shifts.staff')}
            data={staff.map((member) => ({ value: member.uid, label: member.displayName || member.uid }))}
            value={assignments.map((assignment) => assignment.uid)}
            onChange={(uids) => setAssignments(uids.map((uid) => assignments.find((assignment) => assignment.uid === uid) ?? { uid, unit: null }))}
            searchable
            maw={520}
          />
          {assignments.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('notifications.shifts.nobody')}
            </Text>
          ) : null}
          {assignments.map((assignment) => (
            <Group key={assignment.uid} gap="sm">
              <Text size="sm" w={160} truncate>
                {nameOf(assignment.uid)}
              </Text>
              <TextInput
                aria-label={t('notifications.shifts.unitOf', { name: nameOf(assignment.uid) })}
                placeholder={t('notifications.shifts.allUnits')}
                value={assignment.unit ?? ''}
                onChange={(event) =>
                  setAssignments(
                    assignments.map((other) =>
                      other.uid === assignment.uid ? { ...other, unit: event.currentTarget.value.trim() === '' ? null : event.currentTarget.value } : other,
                    ),
                  )
                }
                w={200}
              />
            </Group>
          ))}
          {error !== null ? (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          ) : null}
          <Group>
            <Button onClick={() => void save()} loading={busy}>
              {t('notifications.shifts.save')}
            </Button>
          </Group>
        </>
      ) : null}
    </Stack>
  );
}
