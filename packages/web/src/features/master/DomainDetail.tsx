/**
 * /master/domain/:domainid with its tabs: data (every record of the domain, read-only), sleep (a
 * room's nights) and history (the domain's changes from the audit log).
 */
import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useCurrentRoute } from '../../lib/routeHandle.ts';
import { useDocument } from '../../lib/documents/hooks.ts';
import { DomainDataTab } from './DomainDataTab.tsx';
import { DomainHistoryTab } from './DomainHistoryTab.tsx';
import { DomainSleepTab } from './DomainSleepTab.tsx';
import { Loaded, MasterPage } from './MasterFrame.tsx';

type Tab = 'data' | 'sleep' | 'history';
const TABS: readonly { tab: Tab; suffix: string; route: string }[] = [
  { tab: 'data', suffix: '', route: 'masterDomainData' },
  { tab: 'sleep', suffix: '/sleep', route: 'masterDomainSleep' },
  { tab: 'history', suffix: '/history', route: 'masterDomainHistory' },
];

export default function DomainDetail() {
  const { t } = useTranslation();
  const domainId = useParams().domainid ?? '';
  const route = useCurrentRoute();
  const current = TABS.find((entry) => entry.route === route?.name)?.tab ?? 'data';
  const domain = useDocument(`domains/${domainId}`);
  if (domain.loading || domain.error || domain.data === null) {
    return (
      <MasterPage>
        <Loaded loading={domain.loading} error={domain.error} empty emptyText={t('master.domains.notFound', { id: domainId })}>
          {null}
        </Loaded>
      </MasterPage>
    );
  }
  const record = domain.data;
  return (
    <MasterPage title={t('master.domains.detailTitle', { name: record.name })}>
      <Group component="nav" aria-label={t('master.domains.tabsLabel')} gap="xs">
        {TABS.map(({ tab, suffix }) => (
          <Button
            key={tab}
            component={Link}
            to={`/master/domain/${encodeURIComponent(domainId)}${suffix}`}
            size="compact-md"
            variant={tab === current ? 'light' : 'subtle'}
            aria-current={tab === current ? 'page' : undefined}
          >
            {t(`master.domains.tabs.${tab}`)}
          </Button>
        ))}
      </Group>
      {current === 'data' ? (
        <DomainDataTab domain={record} />
      ) : current === 'sleep' ? (
        <DomainSleepTab domainId={domainId} />
      ) : (
        <DomainHistoryTab domainId={domainId} />
      )}
    </MasterPage>
  );
}
