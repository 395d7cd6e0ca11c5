/**
 * /master: how much there is (domains by kind, rooms, devices by status and online, device types),
 * what needs a look (failing uploads, open alerts), and whether the server and its database are
 * healthy (GET /api/health). Counts are live; "online" is recounted every half minute.
 */
import { Badge, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCount } from '../../lib/documents/hooks.ts';
import { MasterPage } from './MasterFrame.tsx';
import { countItems, type CountGroup, type CountItem } from './api/masterCounts.ts';
import { useHealth, type Health } from './api/serverHealth.ts';

const RECOUNT_ONLINE_MS = 30_000;

function CountCard({ item }: { item: CountItem }) {
  const { t } = useTranslation();
  const { count, loading, error } = useCount(item.query);
  const warn = item.warnWhenPositive === true && count > 0;
  return (
    <Card withBorder padding="sm" data-testid="master-count" data-count-id={item.id}>
      <Text size="sm" c="dimmed">
        {t(`master.counts.${item.labelKey}`)}
      </Text>
      {loading ? (
        <Loader size="sm" aria-label={t('master.loading')} />
      ) : error ? (
        <Text c="red" size="sm">
          {t('master.countFailed')}
        </Text>
      ) : (
        <Text fw={700} size="xl" c={warn ? 'red' : undefined} data-testid="master-count-value">
          {count}
        </Text>
      )}
    </Card>
  );
}

const HEALTH_COLOR: Record<Health['state'], string> = { loading: 'gray', ok: 'teal', error: 'red', unreachable: 'red' };

function HealthCard() {
  const { t } = useTranslation();
  const health = useHealth();
  return (
    <Card withBorder padding="sm" data-testid="master-health">
      <Group justify="space-between">
        <Title order={4}>{t('master.health.title')}</Title>
        {health.state === 'loading' ? (
          <Loader size="sm" aria-label={t('master.loading')} />
        ) : (
          <Badge color={HEALTH_COLOR[health.state]}>{t(`master.health.${health.state}`)}</Badge>
        )}
      </Group>
      {health.version !== undefined ? (
        <Text size="sm" c="dimmed">
          {t('master.health.detail', { version: health.version, database: health.database ?? '—' })}
        </Text>
      ) : null}
    </Card>
  );
}

const GROUPS: readonly CountGroup[] = ['domains', 'devices', 'other'];

export default function MasterOverview() {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), RECOUNT_ONLINE_MS);
    return () => clearInterval(timer);
  }, []);
  const items = countItems(now);
  return (
    <MasterPage>
      <HealthCard />
      {GROUPS.map((group) => (
        <Stack key={group} gap="xs">
          <Title order={3}>{t(`master.countGroups.${group}`)}</Title>
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
            {items
              .filter((item) => item.group === group)
              .map((item) => (
                <CountCard key={item.id} item={item} />
              ))}
          </SimpleGrid>
        </Stack>
      ))}
    </MasterPage>
  );
}
