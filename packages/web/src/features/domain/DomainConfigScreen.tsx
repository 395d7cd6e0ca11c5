import { Alert, Group, Loader, Select, Tabs, Text } from '@mantine/core';
import { levelAllows, type Claims } from '@nemuri/shared/documents/access';
import { collectionByName } from '@nemuri/shared/documents/collections';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { Fragment, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { useDocument } from '../../lib/documents/hooks.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { BasicInfoTab } from './BasicInfoTab.tsx';
import { DatesTab } from './DatesTab.tsx';
import { errorKeyOf } from './api/domainConfigApi.ts';
import type { Domain } from './domainConfigForm.ts';
import { NumbersTab } from './NumbersTab.tsx';
import { PartnerRequestsTab } from './PartnerRequestsTab.tsx';
import { SecurityTab } from './SecurityTab.tsx';
import { StaffTab } from './StaffTab.tsx';
import { useDomainChoices } from './api/domainQueries.ts';

const DOMAINS = collectionByName('domains');
/** Domains that have staff and settings of their own (an agency's and the maker's are set up by the maker). */
const CONFIGURABLE_KINDS = new Set(['corporation', 'facility', 'individual']);
const TABS = ['basic', 'staff', 'dates', 'numbers', 'security', 'notifications', 'integrations', 'agency'] as const;
type Tab = (typeof TABS)[number];

/**
 * Domain configuration (/domain-config, level 3+): basic information, staff, dates, numbers and
 * the second-factor requirement of one domain, and on the root domain for levels 4-5 the agencies'
 * partner requests (PartnerRequestsTab). An administrator (3) has their own domain; levels
 * 4 and above choose among the domains in their scope. Every write goes through the document
 * engine, which enforces level, scope and the staff rules; the controls only follow them.
 */
/** The tabs other features provide (composed in app/pages): each renders for one domain. */
export interface DomainConfigPanels {
  notifications: (domainId: string) => ReactNode;
  integrations: (domainId: string) => ReactNode;
}

export function DomainConfigScreen({ panels }: { panels: DomainConfigPanels }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const level = user?.accessLevel ?? 0;
  const chooses = level >= ROLE_LEVELS.privilegeAdministrator;
  const domains = useDomainChoices(chooses);
  const [chosen, setChosen] = useState<string | null>(null);
  const [tab, setTab] = useState<Tab>('basic');

  const choices = useMemo(
    () =>
      domains.data
        .filter((domain) => CONFIGURABLE_KINDS.has(domain.kind))
        .map((domain) => ({ value: domain.documentReferenceId, label: domain.name }))
        .sort((a, b) => (a.value === user?.domainId ? -1 : b.value === user?.domainId ? 1 : a.label.localeCompare(b.label, 'ja'))),
    [domains.data, user?.domainId],
  );
  const domainId = chosen ?? user?.domainId ?? choices[0]?.value ?? null;
  const domain = useDocument<Domain>(domainId === null ? null : `domains/${domainId}`);
  const readOnly = DOMAINS === undefined || !levelAllows(DOMAINS, 'update', level);
  const claims: Claims | null =
    user === null ? null : { uid: user.uid, accessLevel: user.accessLevel, domainId: user.domainId, rootDomainId: user.rootDomainId };

  const body = () => {
    if (domainId === null) return <Alert color="yellow">{t('domainConfig.noDomain')}</Alert>;
    if (domain.loading)
      return (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">{t('domainConfig.loading')}</Text>
        </Group>
      );
    if (domain.error !== null) return <Alert color="red">{t('domainConfig.loadFailed', { reason: t(errorKeyOf(domain.error)) })}</Alert>;
    if (domain.data === null || claims === null) return <Alert color="yellow">{t('domainConfig.notFound')}</Alert>;
    const record = domain.data;
    // Each domain's forms start from its own record.
    const key = record.documentReferenceId;
    // Agencies' partner requests are answered by the root's owners and privileged administrators (levels 4-5), on the root.
    const answersAgencies = level >= ROLE_LEVELS.privilegeAdministrator && level <= ROLE_LEVELS.ownerAdministrator && key === user?.rootDomainId;
    // Integration API keys are managed by the facility's administrators (levels 3-5; the server checks the domain).
    const managesKeys = level >= ROLE_LEVELS.administrator && level <= ROLE_LEVELS.ownerAdministrator;
    // Notifications are set by the domain's administrators (the server refuses everyone else).
    const tabs = TABS.filter(
      (name) => (name !== 'agency' || answersAgencies) && (name !== 'integrations' || managesKeys) && (name !== 'notifications' || !readOnly),
    );
    return (
      <Tabs value={tabs.includes(tab) ? tab : 'basic'} onChange={(value) => setTab(tabs.find((name) => name === value) ?? 'basic')} keepMounted={false}>
        <Tabs.List>
          {tabs.map((name) => (
            <Tabs.Tab key={name} value={name}>
              {t(`domainConfig.tabs.${name}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="basic" pt="md">
          <BasicInfoTab key={key} domain={record} readOnly={readOnly} />
        </Tabs.Panel>
        <Tabs.Panel value="staff" pt="md">
          <StaffTab key={key} domainId={key} claims={claims} />
        </Tabs.Panel>
        <Tabs.Panel value="dates" pt="md">
          <DatesTab key={key} domain={record} readOnly={readOnly} />
        </Tabs.Panel>
        <Tabs.Panel value="numbers" pt="md">
          <NumbersTab key={key} domain={record} readOnly={readOnly} />
        </Tabs.Panel>
        <Tabs.Panel value="security" pt="md">
          <SecurityTab key={key} domain={record} readOnly={readOnly} ownSecondFactor={(user?.mfas.length ?? 0) > 0} />
        </Tabs.Panel>
        {!readOnly ? (
          <Tabs.Panel value="notifications" pt="md">
            <Fragment key={key}>{panels.notifications(key)}</Fragment>
          </Tabs.Panel>
        ) : null}
        {managesKeys ? (
          <Tabs.Panel value="integrations" pt="md">
            <Fragment key={key}>{panels.integrations(key)}</Fragment>
          </Tabs.Panel>
        ) : null}
        {answersAgencies ? (
          <Tabs.Panel value="agency" pt="md">
            <PartnerRequestsTab key={key} domainId={key} />
          </Tabs.Panel>
        ) : null}
      </Tabs>
    );
  };

  return (
    <ScreenPage>
      {chooses && choices.length > 1 ? (
        <Select
          label={t('domainConfig.domain')}
          data={choices}
          value={domainId}
          onChange={(value) => setChosen(value)}
          allowDeselect={false}
          searchable
          w={360}
        />
      ) : null}
      {readOnly ? <Alert color="gray">{t('domainConfig.readOnly')}</Alert> : null}
      {body()}
    </ScreenPage>
  );
}
