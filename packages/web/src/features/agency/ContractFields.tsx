/**
 * A partner's contract as both agency dialogs edit it (asking a customer, editing a partner): the
 * name on the bills, the contract dates and the monthly unit price, with the same checks.
 */
import { Group, NumberInput, Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PaymentTerms } from '@nemuri/shared/billing/billArithmetic';

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
export function contractOf(
  values: ContractValues,
): { name: string; contractStart: string | null; contractEnd: string | null; monthlyUnitPrice: number } | null {
  const { name, contractStart, contractEnd, price } = values;
  if (name.trim() === '' || typeof price !== 'number' || price < 0 || !Number.isInteger(price)) return null;
  if (badDate(contractStart) || badDate(contractEnd) || badOrder(values)) return null;
  return {
    name: name.trim(),
    contractStart: contractStart === '' ? null : contractStart,
    contractEnd: contractEnd === '' ? null : contractEnd,
    monthlyUnitPrice: price,
  };
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
        <TextInput
          type="date"
          label={t('agency.partners.contractStart')}
          value={values.contractStart}
          onChange={(event) => set({ contractStart: event.currentTarget.value })}
          error={badDate(values.contractStart) ? t('agency.partners.badDate') : null}
        />
        <TextInput
          type="date"
          label={t('agency.partners.contractEnd')}
          value={values.contractEnd}
          onChange={(event) => set({ contractEnd: event.currentTarget.value })}
          error={badDate(values.contractEnd) ? t('agency.partners.badDate') : badOrder(values) ? t('agency.partners.badOrder') : null}
        />
      </Group>
      <NumberInput
        label={t('agency.partners.columns.unitPrice')}
        description={t('agency.partners.unitPriceHelp')}
        value={values.price}
        onChange={(price) => set({ price })}
        min={0}
        step={10}
        allowDecimal={false}
        thousandSeparator=","
        suffix="円"
        required
      />
    </>
  );
}

const PAYMENT_MONTHS = [0, 1, 2, 3] as const;
const PAYMENT_DAYS = [5, 10, 15, 20, 25] as const;

/** When the partner pays (月末締め): the month after the billed one, and the day (or the last). Sets the invoices' due date. */
export function PaymentTermsFields({ value, onChange }: { value: PaymentTerms; onChange: (next: PaymentTerms) => void }) {
  const { t } = useTranslation();
  const days = [
    { value: 'end', label: t('agency.partners.paymentDayEnd') },
    ...PAYMENT_DAYS.map((day) => ({ value: String(day), label: t('agency.partners.paymentDayOf', { day }) })),
  ];
  // A day set elsewhere (the API takes 1–31) stays selectable.
  if (value.day !== null && !days.some((option) => option.value === String(value.day)))
    days.push({ value: String(value.day), label: t('agency.partners.paymentDayOf', { day: value.day }) });
  return (
    <Group grow align="flex-end" data-testid="payment-terms">
      <Select
        label={t('agency.partners.paymentTerms')}
        description={t('agency.partners.paymentMonths')}
        data={PAYMENT_MONTHS.map((months) => ({ value: String(months), label: t(`agency.partners.paymentMonthOptions.${months}`) }))}
        value={String(value.monthsAfter)}
        onChange={(next) => onChange({ ...value, monthsAfter: Number(next ?? value.monthsAfter) })}
        allowDeselect={false}
      />
      <Select
        label={t('agency.partners.paymentDay')}
        data={days}
        value={value.day === null ? 'end' : String(value.day)}
        onChange={(next) => onChange({ ...value, day: next === null || next === 'end' ? null : Number(next) })}
        allowDeselect={false}
      />
    </Group>
  );
}
