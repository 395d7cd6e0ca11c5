import { Alert, Anchor, Button, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { iconSize } from '../../lib/icons.ts';

/** An organisation id as the server accepts it: `saml.` or `oidc.`, then letters, digits, "-" or "_" (server: auth/sso.ts). */
export const ORGANISATION_ID = /^(saml|oidc)\.[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;

/** /sso: asks for the organisation's single sign-on id, then starts it at /sso/<id>. */
export default function SsoScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [organisationId, setOrganisationId] = useState(searchParams.get('id') ?? '');
  const [fieldError, setFieldError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const id = organisationId.trim();
    if (!ORGANISATION_ID.test(id)) {
      setFieldError(t('sso.validation'));
      return;
    }
    const redirect = searchParams.get('redirect');
    navigate(`/sso/${encodeURIComponent(id)}${redirect === null ? '' : `?redirect=${encodeURIComponent(redirect)}`}`);
  };

  return (
    <ScreenPage>
      <Paper withBorder radius="md" p="lg" component="form" onSubmit={submit} noValidate>
        <Stack gap="md">
          {searchParams.get('error') !== null ? (
            <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
              {t('sso.failed')}
            </Alert>
          ) : null}
          <Text size="sm">{t('sso.intro')}</Text>
          <TextInput
            label={t('sso.organisationId')}
            description={t('sso.organisationIdHint')}
            placeholder="saml.sakura"
            autoComplete="organization"
            autoCapitalize="none"
            spellCheck={false}
            value={organisationId}
            onChange={(event) => setOrganisationId(event.currentTarget.value)}
            error={fieldError}
            required
          />
          <Button type="submit" fullWidth>
            {t('sso.start')}
          </Button>
          <Anchor component={Link} to="/login" size="sm">
            {t('sso.backToLogin')}
          </Anchor>
        </Stack>
      </Paper>
    </ScreenPage>
  );
}
