import { Alert, Stack, Switch, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { documents } from '../../lib/documents/documents.ts';
import { notify } from '../../lib/notify.ts';
import { errorKeyOf, saveDomainFields } from './api/domainConfigApi.ts';
import type { Domain } from './domainConfigForm.ts';

interface SecurityTabProps {
  domain: Domain;
  readOnly: boolean;
  /** Whether the signed-in user has a second factor: turning the requirement on without one holds them at level 0 too. */
  ownSecondFactor: boolean;
}

/**
 * Whether every member must enrol a second factor (`settings.requireMfa`). A member without one
 * acts at level 0 until they enrol (server auth/secondFactorPolicy.ts); a corporation's setting
 * holds for its facilities too.
 */
export function SecurityTab({ domain, readOnly, ownSecondFactor }: SecurityTabProps) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const required = domain.settings?.requireMfa === true;

  const change = async (requireMfa: boolean) => {
    setSaving(true);
    try {
      await saveDomainFields(documents, domain.documentReferenceId, { settings: { ...(domain.settings ?? {}), requireMfa } });
      notify({ color: 'teal', message: t('domainConfig.notices.saved') });
    } catch (error) {
      notify({ color: 'red', title: t('domainConfig.notices.saveFailed'), message: t(errorKeyOf(error)) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap="sm" maw={720}>
      <Switch
        label={t('domainConfig.security.requireMfa')}
        description={t('domainConfig.security.requireMfaHint')}
        checked={required}
        disabled={readOnly || saving}
        onChange={(event) => void change(event.currentTarget.checked)}
      />
      {!required && !ownSecondFactor && !readOnly ? (
        <Alert color="orange">
          <Text size="sm">{t('domainConfig.security.enrolFirst')}</Text>
        </Alert>
      ) : null}
      {required ? (
        <Alert color="yellow">
          <Text size="sm">{t('domainConfig.security.requiredNote')}</Text>
        </Alert>
      ) : null}
    </Stack>
  );
}
