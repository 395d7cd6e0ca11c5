import { Button, Group, NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSectionForm } from './domainConfigFields.ts';
import { basicValuesOf, validateBasic, type BasicValues, type Domain } from './domainConfigForm.ts';
import { PREFECTURES } from './prefectures.ts';

interface BasicInfoTabProps {
  domain: Domain;
  readOnly: boolean;
}

/** Name, kana, address, phone and location (typed as latitude and longitude: no map, no network). */
export function BasicInfoTab({ domain, readOnly }: BasicInfoTabProps) {
  const { t } = useTranslation();
  const { values, set, error, section } = useSectionForm<BasicValues>(domain.documentReferenceId, () => basicValuesOf(domain), validateBasic);
  const textField = (field: 'name' | 'nameKana' | 'postalCode' | 'city' | 'line' | 'phone', extra: { required?: boolean; placeholder?: string } = {}) => (
    <TextInput
      label={t(`domainConfig.fields.${field}`)}
      value={values[field]}
      onChange={(event) => set(field, event.currentTarget.value)}
      error={error(field)}
      readOnly={readOnly}
      {...extra}
    />
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void section.save();
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('domainConfig.tabs.basic')}>
      <Stack gap="sm" maw={720}>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {textField('name', { required: true })}
          {textField('nameKana')}
          {textField('postalCode', { placeholder: '123-4567' })}
          <Select
            label={t('domainConfig.fields.prefecture')}
            data={PREFECTURES}
            value={values.prefecture === '' ? null : values.prefecture}
            onChange={(value) => set('prefecture', value ?? '')}
            searchable
            clearable
            readOnly={readOnly}
            error={error('prefecture')}
          />
          {textField('city')}
          {textField('line')}
          {textField('phone', { placeholder: '03-1234-5678' })}
          <TextInput label={t('domainConfig.fields.timeZone')} value={domain.timeZone ?? 'Asia/Tokyo'} readOnly />
        </SimpleGrid>
        <Text size="sm" fw={500}>
          {t('domainConfig.fields.location')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput
            label={t('domainConfig.fields.latitude')}
            value={values.latitude}
            onChange={(value) => set('latitude', value)}
            error={error('latitude')}
            decimalScale={6}
            readOnly={readOnly}
            placeholder="35.681236"
          />
          <NumberInput
            label={t('domainConfig.fields.longitude')}
            value={values.longitude}
            onChange={(value) => set('longitude', value)}
            error={error('longitude')}
            decimalScale={6}
            readOnly={readOnly}
            placeholder="139.767125"
          />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {t('domainConfig.basic.locationHint')}
        </Text>
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
