import { Alert, Badge, Button, Card, Checkbox, Code, CopyButton, Group, Loader, Modal, Pagination, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { API_KEY_SCOPES, apiKeyCreateSchema, type ApiKeyCreatedResponse, type ApiKeyScope, type ApiKeyView } from '@nemuri/shared/integrations';
import { notify } from '../../lib/notify.ts';
import { apiKeyErrorMessage, apiKeysApi, useApiKeys } from './api/apiKeysApi.ts';

const when = (iso: string | null) => (iso === null ? null : new Date(iso).toLocaleString('ja-JP', { dateStyle: 'medium', timeStyle: 'short' }));

/** One key, as a card (readable on a phone): name, scopes, dates, and revoke while active. */
function KeyCard({ apiKey, busy, onRevoke }: { apiKey: ApiKeyView; busy: boolean; onRevoke: () => void }) {
  const { t } = useTranslation();
  const revoked = apiKey.revokedAt !== null;
  return (
    <Card withBorder padding="sm" data-testid="api-key" data-key-id={apiKey.id} data-revoked={revoked ? 'true' : 'false'}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {apiKey.name}
          </Text>
          <Badge color={revoked ? 'gray' : 'teal'} variant="light" style={{ flexShrink: 0 }}>
            {t(revoked ? 'integrations.revokedBadge' : 'integrations.activeBadge')}
          </Badge>
        </Group>
        <Group gap={4}>
          {apiKey.scopes.map((scope) => (
            <Badge key={scope} variant="outline" size="sm">
              {t(`integrations.scopes.${scope}.label`)}
            </Badge>
          ))}
        </Group>
        <Text size="xs" c="dimmed">
          {[
            t('integrations.createdAt', { date: when(apiKey.createdAt) }),
            t('integrations.lastUsedAt', { date: when(apiKey.lastUsedAt) ?? t('integrations.never') }),
            revoked ? t('integrations.revokedAt', { date: when(apiKey.revokedAt) }) : null,
          ]
            .filter((part) => part !== null)
            .join('・')}
        </Text>
        {revoked ? null : (
          <Group justify="flex-end">
            <Button variant="default" color="red" loading={busy} onClick={onRevoke} aria-label={t('integrations.revokeOf', { name: apiKey.name })}>
              {t('integrations.revoke')}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

/** The form for a new key: its name and scopes. */
function CreateKeyForm({ domainId, onCreated }: { domainId: string; onCreated: (created: ApiKeyCreatedResponse) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['rooms.read']);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const input = apiKeyCreateSchema.safeParse({ name, scopes });

  const create = async () => {
    if (!input.success) return;
    setBusy(true);
    setFailure(null);
    try {
      onCreated(await apiKeysApi.create(domainId, input.data));
      setName('');
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder padding="sm">
      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('integrations.createTitle')}
        </Title>
        <TextInput
          label={t('integrations.name')}
          description={t('integrations.nameHint')}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          maxLength={80}
          w="100%"
          maw={420}
        />
        <Checkbox.Group
          label={t('integrations.scopesLabel')}
          value={scopes}
          onChange={(values) => setScopes(API_KEY_SCOPES.filter((scope) => values.includes(scope)))}
        >
          <Stack gap={6} mt={4}>
            {API_KEY_SCOPES.map((scope) => (
              <Checkbox key={scope} value={scope} label={t(`integrations.scopes.${scope}.label`)} description={t(`integrations.scopes.${scope}.description`)} />
            ))}
          </Stack>
        </Checkbox.Group>
        {failure !== null ? (
          <Alert color="red" role="alert" withCloseButton onClose={() => setFailure(null)}>
            {apiKeyErrorMessage(t, failure)}
          </Alert>
        ) : null}
        <Group>
          <Button onClick={() => void create()} loading={busy} disabled={!input.success}>
            {t('integrations.create')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * Domain configuration, 外部連携 tab (facility administrators, levels 3-5): API keys with which
 * care-record software or nurse-call middleware reads this domain's rooms, sleep records and
 * alerts, or acknowledges alerts. A new key's secret is shown once, here; keys are revoked here.
 */
export function ApiKeysTab({ domainId }: { domainId: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const keys = useApiKeys(domainId, page);
  const [created, setCreated] = useState<ApiKeyCreatedResponse | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);

  const revoke = async (key: ApiKeyView) => {
    setRevoking(null);
    setBusy(key.id);
    setFailure(null);
    try {
      await apiKeysApi.revoke(domainId, key.id);
      notify({ color: 'green', message: t('integrations.revoked', { name: key.name }) });
      keys.reload();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(null);
    }
  };

  const list = () => {
    if (keys.error !== null) return <Alert color="red" role="alert">{`${t('integrations.loadFailed')} ${apiKeyErrorMessage(t, keys.error)}`}</Alert>;
    if (keys.data === null)
      return (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">{t('integrations.loading')}</Text>
        </Group>
      );
    const pages = Math.ceil(keys.data.total / keys.data.pageSize);
    return (
      <Stack gap="xs" data-testid="api-keys">
        {keys.data.keys.length === 0 ? <Text c="dimmed">{t('integrations.empty')}</Text> : null}
        {keys.data.keys.map((key) => (
          <KeyCard key={key.id} apiKey={key} busy={busy === key.id} onRevoke={() => setRevoking(key)} />
        ))}
        {pages > 1 ? <Pagination total={pages} value={page + 1} onChange={(value) => setPage(value - 1)} /> : null}
      </Stack>
    );
  };

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('integrations.intro')}
      </Text>
      <CreateKeyForm
        domainId={domainId}
        onCreated={(answer) => {
          setCreated(answer);
          setPage(0);
          keys.reload();
        }}
      />
      <Title order={3} size="h5">
        {t('integrations.listTitle')}
      </Title>
      {failure !== null ? (
        <Alert color="red" role="alert" withCloseButton onClose={() => setFailure(null)}>
          {apiKeyErrorMessage(t, failure)}
        </Alert>
      ) : null}
      {list()}
      <Modal opened={created !== null} onClose={() => setCreated(null)} title={t('integrations.secretTitle')} size="lg">
        <Stack>
          <Alert color="yellow">{t('integrations.secretOnce')}</Alert>
          <Code block data-testid="api-key-secret" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {created?.secret ?? ''}
          </Code>
          <Text size="sm" c="dimmed">
            {t('integrations.secretUsage')}
          </Text>
          <Group justify="flex-end">
            <CopyButton value={created?.secret ?? ''}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>
                  {t(copied ? 'integrations.copied' : 'integrations.copy')}
                </Button>
              )}
            </CopyButton>
            <Button onClick={() => setCreated(null)}>{t('integrations.secretDone')}</Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={revoking !== null} onClose={() => setRevoking(null)} title={t('integrations.confirmRevokeTitle')}>
        <Stack>
          <Text size="sm">{t('integrations.confirmRevoke', { name: revoking?.name ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRevoking(null)}>
              {t('integrations.back')}
            </Button>
            <Button color="red" onClick={() => revoking !== null && void revoke(revoking)}>
              {t('integrations.confirmRevokeButton')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
