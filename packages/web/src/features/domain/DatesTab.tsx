import { Button, Group, NumberInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSectionForm } from './domainConfigFields.ts';
import { datesValuesOf, validateDates, type DatesValues, type Domain } from './domainConfigForm.ts';

interface DatesTabProps {
  domain: Domain;
  readOnly: boolean;
}

/** The sleep-day boundary, the night window (HH:MM, may cross midnight) and the report closing day. */
export function DatesTab({ domain, readOnly }: DatesTabProps) {
  const { t } = useTranslation();
  const { values, set, error, section } = useSectionForm<DatesValues>(domain.documentReferenceId, () => datesValuesOf(domain), validateDates);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void section.save();
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('domainConfig.tabs.dates')}>
      <Stack gap="sm" maw={720}>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput
            label={t('domainConfig.fields.sleepDayBoundaryHour')}
            description={t('domainConfig.dates.sleepDayBoundaryHint')}
            value={values.sleepDayBoundaryHour}
            onChange={(value) => set('sleepDayBoundaryHour', value)}
            error={error('sleepDayBoundaryHour')}
            rightSection={t('domainConfig.units.hour')}
            placeholder="12"
            readOnly={readOnly}
          />
          <NumberInput
            label={t('domainConfig.fields.reportClosingDay')}
            description={t('domainConfig.dates.reportClosingDayHint')}
            value={values.reportClosingDay}
            onChange={(value) => set('reportClosingDay', value)}
            error={error('reportClosingDay')}
            rightSection={t('domainConfig.units.day')}
            placeholder="31"
            readOnly={readOnly}
          />
          <TextInput
            label={t('domainConfig.fields.nightStart')}
            description={t('domainConfig.dates.nightHint')}
            value={values.nightStart}
            onChange={(event) => set('nightStart', event.currentTarget.value)}
            error={error('nightStart')}
            placeholder="21:00"
            readOnly={readOnly}
          />
          <TextInput
            label={t('domainConfig.fields.nightEnd')}
            description={t('domainConfig.dates.nightHint')}
            value={values.nightEnd}
            onChange={(event) => set('nightEnd', event.currentTarget.value)}
            error={error('nightEnd')}
            placeholder="07:00"
            readOnly={readOnly}
          />
        </SimpleGrid>
        {readOnly ? null : (
          <Group>
            <Button type="submit" loading={section.saving}>
              {t('domainConfig.actions.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
