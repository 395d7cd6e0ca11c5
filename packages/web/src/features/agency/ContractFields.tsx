/**
 * A partner's contract as both agency dialogs edit it (asking a customer, editing a partner): the
 * name on the bills, the contract dates and the monthly unit price, with the same checks.
 */
import { Group, NumberInput, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const DAY_PATTERN = /^\d{4}-\d\d-\d\d$/;

export interface ContractValues {
  name: string;
  /** `YYYY-MM-DD` or '' (none). */
  contractStart: string;
  contractEnd: string;
  /** The number input's value: a number, or '' while empty. */
  price: number | string;
}

/** What the API takes, or null while the values are not a valid contract. */
export function contractOf(values: ContractValues): { name: string; contractStart: string | null; contractEnd: string | null; monthlyUnitPrice: number } | null {
  const { name, contractStart, contractEnd, price } = values;
  if (name.trim() === '' || typeof price !== 'number' || price < 0 || !Number.isInteger(price)) return null;
  if (badDate(contractStart) || badDate(contractEnd) || badOrder(values)) return null;
  return { name: name.trim(), contractStart: contractStart === '' ? null : contractStart, contractEnd: contractEnd === '' ? null : contractEnd, monthlyUnitPrice: price };
}

function badDate(value: string): boolean {
  return value !== '' && !DAY_PATTERN.test(value);
}

function badOrder({ contractStart, contractEnd }: ContractValues): boolean {
  return contractStart !== '' && contractEnd !== '' && contractEnd < contractStart;
}

export function ContractFields({ values, onChange }: { values: ContractValues; onChange: (next: ContractValues) => void }) {
  const { t } = useTranslation();
  const set = (change: Partial<ContractValues>) => onChange({ ...values, ...change });
  return (
    <>
      <TextInput label={t('agency.partners.columns.name')} value={values.name} onChange={(event) => set({ name: event.currentTarget.value })} required />
      <Group grow>
        <TextInput type="date" label={t('agency.partners.contractStart')} value={values.contractStart} onChange={(event) => set({ contractStart: event.currentTarget.value })} error={badDate(values.contractStart) ? t('agency.partners.badDate') : null} />
        <TextInput
          type="date"
          label={t('agency.partners.contractEnd')}
          value={values.contractEnd}
          onChange={(event) => set({ contractEnd: event.currentTarget.value })}
          error={badDate(values.contractEnd) ? t('agency.partners.badDate') : badOrder(values) ? t('agency.partners.badOrder') : null}
        />
      </Group>
      <NumberInput label={t('agency.partners.columns.unitPrice')} description={t('agency.partners.unitPriceHelp')} value={values.price} onChange={(price) => set({ price })} min={0} step={10} allowDecimal={false} thousandSeparator="," suffix="円" required />
    </>
  );
}
