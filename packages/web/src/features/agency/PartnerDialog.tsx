import { Button, Group, Modal, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../lib/notify.ts';
import { agencyApi, agencyErrorMessage, type PartnerRow } from './agencyApi.ts';

const DAY_PATTERN = /^\d{4}-\d\d-\d\d$/;

interface PartnerDialogProps {
  agencyId: string;
  /** The partner edited (a new partner comes only from a request the customer accepts: PartnerRequestDialog). */
  partner: PartnerRow;
  opened: boolean;
  onClose: () => void;
  onSaved: () => void;
}

/** Editing an existing partner's contract. */
export function PartnerDialog({ agencyId, partner, opened, onClose, onSaved }: PartnerDialogProps) {
  const { t } = useTranslation();
  const domainId = partner.id;
  const [name, setName] = useState(partner.name);
  const [contractStart, setContractStart] = useState(partner.contractStart ?? '');
  const [contractEnd, setContractEnd] = useState(partner.contractEnd ?? '');
  const [price, setPrice] = useState<number | string>(partner.monthlyUnitPrice ?? '');
  const [status, setStatus] = useState<'active' | 'ended'>(partner.status === 'ended' ? 'ended' : 'active');
  const [saving, setSaving] = useState(false);

  const badDate = (value: string) => value !== '' && !DAY_PATTERN.test(value);
  const badOrder = contractStart !== '' && contractEnd !== '' && contractEnd < contractStart;
  const valid = name.trim() !== '' && typeof price === 'number' && price >= 0 && Number.isInteger(price) && !badDate(contractStart) && !badDate(contractEnd) && !badOrder;

  const save = async () => {
    if (!valid || typeof price !== 'number') return;
    setSaving(true);
    try {
      await agencyApi.savePartner(agencyId, domainId, { name: name.trim(), contractStart: contractStart === '' ? null : contractStart, contractEnd: contractEnd === '' ? null : contractEnd, monthlyUnitPrice: price, status });
      notify({ color: 'green', message: t('agency.partners.saved', { name: name.trim() }) });
      onSaved();
      onClose();
    } catch (error) {
      notify({ color: 'red', message: agencyErrorMessage(t, error) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('agency.partners.editTitle', { name: partner.name })}>
      <Stack>
        <TextInput label={t('agency.partners.columns.name')} value={name} onChange={(event) => setName(event.currentTarget.value)} required />
        <Group grow>
          <TextInput type="date" label={t('agency.partners.contractStart')} value={contractStart} onChange={(event) => setContractStart(event.currentTarget.value)} error={badDate(contractStart) ? t('agency.partners.badDate') : null} />
          <TextInput type="date" label={t('agency.partners.contractEnd')} value={contractEnd} onChange={(event) => setContractEnd(event.currentTarget.value)} error={badDate(contractEnd) ? t('agency.partners.badDate') : badOrder ? t('agency.partners.badOrder') : null} />
        </Group>
        <NumberInput label={t('agency.partners.columns.unitPrice')} description={t('agency.partners.unitPriceHelp')} value={price} onChange={setPrice} min={0} step={10} allowDecimal={false} thousandSeparator="," suffix="円" required />
        <Select
          label={t('agency.partners.columns.status')}
          data={(['active', 'ended'] as const).map((value) => ({ value, label: t(`agency.partnerStatuses.${value}`) }))}
          value={status}
          onChange={(value) => setStatus(value === 'ended' ? 'ended' : 'active')}
          allowDeselect={false}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('agency.cancel')}
          </Button>
          <Button onClick={() => void save()} loading={saving} disabled={!valid}>
            {t('agency.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
