import { Alert, Group, Modal, NumberInput, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFooter } from '../../components/FormFooter.tsx';
import { notify } from '../../lib/notify.ts';
import { agencyApi, agencyErrorMessage } from './agencyApi.ts';

const DAY_PATTERN = /^\d{4}-\d\d-\d\d$/;

interface PartnerRequestDialogProps {
  agencyId: string;
  opened: boolean;
  onClose: () => void;
  onSent: () => void;
}

/**
 * Asking a customer (one of the candidate root domains) to become a partner, with the proposed
 * contract. Nothing of the customer becomes visible until their owner accepts (partner requests).
 */
export function PartnerRequestDialog({ agencyId, opened, onClose, onSent }: PartnerRequestDialogProps) {
  const { t } = useTranslation();
  const [domainId, setDomainId] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [contractStart, setContractStart] = useState('');
  const [contractEnd, setContractEnd] = useState('');
  const [price, setPrice] = useState<number | string>('');
  const [message, setMessage] = useState('');
  const [candidates, setCandidates] = useState<{ id: string; name: string }[] | null>(null);
  const [candidateError, setCandidateError] = useState<unknown>(null);
  const [sendError, setSendError] = useState<unknown>(null);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (!opened) return undefined;
    let current = true;
    agencyApi.candidates(agencyId).then(
      (reply) => current && setCandidates(reply.domains),
      (error: unknown) => current && setCandidateError(error),
    );
    return () => {
      current = false;
    };
  }, [opened, agencyId]);

  const badDate = (value: string) => value !== '' && !DAY_PATTERN.test(value);
  const badOrder = contractStart !== '' && contractEnd !== '' && contractEnd < contractStart;
  const valid = domainId !== null && name.trim() !== '' && typeof price === 'number' && price >= 0 && Number.isInteger(price) && !badDate(contractStart) && !badDate(contractEnd) && !badOrder;

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid || domainId === null || typeof price !== 'number') return;
    setSending(true);
    setSendError(null);
    try {
      await agencyApi.askPartner(agencyId, domainId, {
        name: name.trim(),
        contractStart: contractStart === '' ? null : contractStart,
        contractEnd: contractEnd === '' ? null : contractEnd,
        monthlyUnitPrice: price,
        message: message.trim() === '' ? null : message.trim(),
      });
      notify({ color: 'green', message: t('agency.partners.sent', { name: name.trim() }) });
      onSent();
      onClose();
    } catch (error) {
      setSendError(error);
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('agency.partners.createTitle')}>
      <form onSubmit={(event) => void send(event)}>
        <Stack>
          <Text size="sm" c="dimmed">
            {t('agency.partners.requestHelp')}
          </Text>
          {candidateError !== null ? (
            <Alert color="red">{agencyErrorMessage(t, candidateError)}</Alert>
          ) : (
            <Select
              label={t('agency.partners.domain')}
              placeholder={candidates === null ? t('agency.loading') : candidates.length === 0 ? t('agency.partners.noCandidates') : t('agency.partners.chooseDomain')}
              data={(candidates ?? []).map((candidate) => ({ value: candidate.id, label: candidate.name }))}
              value={domainId}
              onChange={(value) => {
                setDomainId(value);
                const chosen = candidates?.find((candidate) => candidate.id === value);
                if (chosen !== undefined && name === '') setName(chosen.name);
              }}
              searchable
              required
            />
          )}
          <TextInput label={t('agency.partners.columns.name')} value={name} onChange={(event) => setName(event.currentTarget.value)} required />
          <Group grow>
            <TextInput type="date" label={t('agency.partners.contractStart')} value={contractStart} onChange={(event) => setContractStart(event.currentTarget.value)} error={badDate(contractStart) ? t('agency.partners.badDate') : null} />
            <TextInput type="date" label={t('agency.partners.contractEnd')} value={contractEnd} onChange={(event) => setContractEnd(event.currentTarget.value)} error={badDate(contractEnd) ? t('agency.partners.badDate') : badOrder ? t('agency.partners.badOrder') : null} />
          </Group>
          <NumberInput label={t('agency.partners.columns.unitPrice')} description={t('agency.partners.unitPriceHelp')} value={price} onChange={setPrice} min={0} step={10} allowDecimal={false} thousandSeparator="," suffix="円" required />
          <Textarea label={t('agency.partners.message')} value={message} onChange={(event) => setMessage(event.currentTarget.value)} maxLength={1000} autosize minRows={2} />
          {sendError !== null ? <Alert color="red">{agencyErrorMessage(t, sendError)}</Alert> : null}
          <FormFooter cancelLabel={t('agency.cancel')} submitLabel={t('agency.partners.send')} busy={sending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
