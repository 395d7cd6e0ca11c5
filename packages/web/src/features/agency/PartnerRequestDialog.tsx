import { Alert, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFooter } from '../../components/FormFooter.tsx';
import { notify } from '../../lib/notify.ts';
import { agencyApi, agencyErrorMessage } from './api/agencyApi.ts';
import { ContractFields, contractOf, type ContractValues } from './ContractFields.tsx';

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
  const [values, setValues] = useState<ContractValues>({ name: '', contractStart: '', contractEnd: '', price: '' });
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

  const contract = contractOf(values);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (contract === null || domainId === null) return;
    setSending(true);
    setSendError(null);
    try {
      await agencyApi.askPartner(agencyId, domainId, { ...contract, message: message.trim() === '' ? null : message.trim() });
      notify({ color: 'green', message: t('agency.partners.sent', { name: contract.name }) });
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
              placeholder={
                candidates === null ? t('agency.loading') : candidates.length === 0 ? t('agency.partners.noCandidates') : t('agency.partners.chooseDomain')
              }
              data={(candidates ?? []).map((candidate) => ({ value: candidate.id, label: candidate.name }))}
              value={domainId}
              onChange={(value) => {
                setDomainId(value);
                const chosen = candidates?.find((candidate) => candidate.id === value);
                if (chosen !== undefined && values.name === '') setValues({ ...values, name: chosen.name });
              }}
              searchable
              required
            />
          )}
          <ContractFields values={values} onChange={setValues} />
          <Textarea
            label={t('agency.partners.message')}
            value={message}
            onChange={(event) => setMessage(event.currentTarget.value)}
            maxLength={1000}
            autosize
            minRows={2}
          />
          {sendError !== null ? <Alert color="red">{agencyErrorMessage(t, sendError)}</Alert> : null}
          <FormFooter cancelLabel={t('agency.cancel')} submitLabel={t('agency.partners.send')} busy={sending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
