import { Button, Group, NumberInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { DEFAULT_ALERT_NUMBERS } from '@nemuri/analysis/alerts';
import { ALERT_NUMBER_SPECS } from '@nemuri/shared/domainNumbers';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { problemText, useSectionSave } from './domainConfigFields.ts';
import { numbersValuesOf, validateNumbers, type Domain, type NumbersValues } from './domainConfigForm.ts';

interface NumbersTabProps {
  domain: Domain;
  readOnly: boolean;
}

/** Every alert threshold with its unit and allowed range; an empty field uses the default. */
export function NumbersTab({ domain, readOnly }: NumbersTabProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<NumbersValues>(() => numbersValuesOf(domain));
  const section = useSectionSave(domain.documentReferenceId, () => validateNumbers(values));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void section.save();
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('domainConfig.tabs.numbers')}>
      <Stack gap="sm" maw={720}>
        <Text size="sm" c="dimmed">
          {t('domainConfig.numbers.hint')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {ALERT_NUMBER_SPECS.map((spec) => (
            <NumberInput
              key={spec.key}
              label={t(`domainConfig.fields.${spec.key}`)}
              description={t('domainConfig.numbers.range', { min: spec.min, max: spec.max, unit: spec.unit, fallback: DEFAULT_ALERT_NUMBERS[spec.key] })}
              value={values[spec.key]}
              onChange={(value) => {
                setValues((current) => ({ ...current, [spec.key]: value }));
                section.clear(spec.key);
              }}
              error={problemText(t, section.problems, spec.key)}
              step={spec.step}
              decimalScale={spec.step < 1 ? 1 : 0}
              placeholder={String(DEFAULT_ALERT_NUMBERS[spec.key])}
              rightSection={<Text size="xs">{spec.unit}</Text>}
              rightSectionWidth={56}
              readOnly={readOnly}
            />
          ))}
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
