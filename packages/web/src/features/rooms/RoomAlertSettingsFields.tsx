import { Accordion, Badge, Checkbox, Group, NumberInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { resolveAlertNumbers } from '@nemuri/analysis/alerts';
import { alertNumberSpec } from '@nemuri/shared/domainNumbers';
import { ALERT_TYPE_NAMES, type AlertTypeName } from '@nemuri/shared/monitoring';
import { DEFAULT_NIGHT_END, DEFAULT_NIGHT_START, ROOM_ALERT_NUMBER_KEYS } from '@nemuri/shared/roomAlertSettings';
import { useTranslation } from 'react-i18next';
import { useDocument } from '../../lib/documents/hooks.ts';
import { overrideCount, type AlertSettingsValues } from './roomAlertSettingsForm.ts';

interface RoomAlertSettingsFieldsProps {
  /** The room's domain, whose numbers apply where the room sets none. */
  domainId: string;
  values: AlertSettingsValues;
  error: string | undefined;
  onChange: (values: AlertSettingsValues) => void;
}

/**
 * The room's own alert settings, folded away until opened: which alert types sound for this room,
 * its thresholds and bed-exit delay, and its night; every empty field shows the domain's value.
 */
export function RoomAlertSettingsFields({ domainId, values, error, onChange }: RoomAlertSettingsFieldsProps) {
  const { t } = useTranslation();
  const domain = useDocument(domainId === '' ? null : `domains/${domainId}`);
  const domainNumbers = resolveAlertNumbers(domain.data?.numbers);
  const count = overrideCount(values);
  return (
    <Accordion variant="contained" chevronPosition="left" defaultValue={error !== undefined ? 'alerts' : null}>
      <Accordion.Item value="alerts">
        <Accordion.Control>
          <Group gap="xs" wrap="nowrap">
            <Text fw={500}>{t('roomConfig.alertSettings.title')}</Text>
            {count > 0 ? (
              <Badge variant="light" color="orange" data-testid="room-alert-overrides">
                {t('roomConfig.alertSettings.overrides', { count })}
              </Badge>
            ) : null}
          </Group>
        </Accordion.Control>
        <Accordion.Panel>
          <Stack gap="sm" data-testid="room-alert-settings">
            <Text size="sm" c="dimmed">
              {t('roomConfig.alertSettings.hint')}
            </Text>
            {error !== undefined ? (
              <Text size="sm" c="red" role="alert">
                {error}
              </Text>
            ) : null}
            <Checkbox.Group
              label={t('roomConfig.alertSettings.types')}
              value={values.enabledTypes}
              onChange={(enabled) => onChange({ ...values, enabledTypes: enabled as AlertTypeName[] })}
            >
              <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs" mt={6}>
                {ALERT_TYPE_NAMES.map((type) => (
                  <Checkbox key={type} value={type} label={t(`monitoring.alertTypes.${type}`)} />
                ))}
              </SimpleGrid>
            </Checkbox.Group>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {ROOM_ALERT_NUMBER_KEYS.map((key) => {
                const spec = alertNumberSpec(key);
                return (
                  <NumberInput
                    key={key}
                    label={t(`domainConfig.fields.${key}`)}
                    description={t('roomConfig.alertSettings.domainValue', { value: domainNumbers[key], unit: spec.unit })}
                    placeholder={String(domainNumbers[key])}
                    value={values.numbers[key]}
                    onChange={(value) => onChange({ ...values, numbers: { ...values.numbers, [key]: value } })}
                    min={spec.min}
                    max={spec.max}
                    step={spec.step}
                    decimalScale={spec.step < 1 ? 1 : 0}
                    rightSection={<Text size="xs">{spec.unit}</Text>}
                    rightSectionWidth={56}
                  />
                );
              })}
            </SimpleGrid>
            <SimpleGrid cols={{ base: 2 }} spacing="sm">
              <TextInput
                type="time"
                label={t('roomConfig.alertSettings.nightStart')}
                description={t('roomConfig.alertSettings.domainTime', { value: domain.data?.dates?.nightStart ?? DEFAULT_NIGHT_START })}
                value={values.nightStart}
                onChange={(event) => onChange({ ...values, nightStart: event.currentTarget.value })}
              />
              <TextInput
                type="time"
                label={t('roomConfig.alertSettings.nightEnd')}
                description={t('roomConfig.alertSettings.domainTime', { value: domain.data?.dates?.nightEnd ?? DEFAULT_NIGHT_END })}
                value={values.nightEnd}
                onChange={(event) => onChange({ ...values, nightEnd: event.currentTarget.value })}
              />
            </SimpleGrid>
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
