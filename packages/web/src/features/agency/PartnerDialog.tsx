import { Button, Group, Modal, Select, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../lib/notify.ts';
import { agencyApi, agencyErrorMessage, type PartnerRow } from './api/agencyApi.ts';
import { ContractFields, contractOf, PaymentTermsFields, type ContractValues } from './ContractFields.tsx';
import type { PaymentTerms } from '@nemuri/shared/billing/billArithmetic';

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
  const [values, setValues] = useState<ContractValues>({
    name: partner.name,
    contractStart: partner.contractStart ?? '',
    contractEnd: partner.contractEnd ?? '',
    price: partner.monthlyUnitPrice ?? '',
  });
  const [status, setStatus] = useState<'active' | 'ended'>(partner.status === 'ended' ? 'ended' : 'active');
  const [paymentTerms, setPaymentTerms] = useState<PaymentTerms>(partner.paymentTerms);
  const [saving, setSaving] = useState(false);

  const contract = contractOf(values);

  const save = async () => {
    if (contract === null) return;
    setSaving(true);
    try {
      await agencyApi.savePartner(agencyId, domainId, { ...contract, status, paymentTerms });
      notify({ color: 'green', message: t('agency.partners.saved', { name: contract.name }) });
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
        <ContractFields values={values} onChange={setValues} />
        <PaymentTermsFields value={paymentTerms} onChange={setPaymentTerms} />
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
          <Button onClick={() => void save()} loading={saving} disabled={contract === null}>
            {t('agency.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
