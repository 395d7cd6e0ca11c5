import { Select, Tabs, Text } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { useCurrentRoute } from '../../lib/routeHandle.ts';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { AgencyBills } from './AgencyBills.tsx';
import { AgencyDevices } from './AgencyDevices.tsx';
import { AgencyPartnerDetail } from './AgencyPartnerDetail.tsx';
import { AgencyPartners } from './AgencyPartners.tsx';
import { AgencyStatisticsView } from './AgencyStatistics.tsx';
import { Failure, Loading } from './AgencyStatus.tsx';
import { agencyApi, agencyErrorMessage, type AgencyChoice } from './api/agencyApi.ts';
import { agencyPath, type AgencySection } from './agencyPaths.ts';
import { useAgencyOverview } from './api/useAgencyData.ts';

const SECTIONS: readonly AgencySection[] = ['statistics', 'devices', 'bills', 'partners'];

const SECTION_OF_ROUTE: Record<string, AgencySection> = {
  agencyStatistics: 'statistics',
  agencyDevices: 'devices',
  agencyBills: 'bills',
  agencyPartners: 'partners',
  agencyPartner: 'partners',
};

/** Developers choose the agency (kept in `?agency=`); agency users have their own. */
function useAgencyChoice(): { agencyId: string | null; agencies: AgencyChoice[]; loaded: boolean; error: unknown; isDeveloper: boolean } {
  const user = useCurrentUser();
  const [params] = useSearchParams();
  const isDeveloper = (user?.accessLevel ?? 0) >= ROLE_LEVELS.developer;
  const [agencies, setAgencies] = useState<{ list: AgencyChoice[]; error: unknown } | null>(null);
  useEffect(() => {
    if (!isDeveloper) return undefined;
    let current = true;
    agencyApi.agencies().then(
      (reply) => current && setAgencies({ list: reply.agencies, error: null }),
      (error: unknown) => current && setAgencies({ list: [], error }),
    );
    return () => {
      current = false;
    };
  }, [isDeveloper]);
  if (!isDeveloper) return { agencyId: user?.domainId ?? null, agencies: [], loaded: true, error: null, isDeveloper };
  const list = agencies?.list ?? [];
  const chosen = params.get('agency');
  const agencyId = chosen !== null && list.some((agency) => agency.id === chosen) ? chosen : (list[0]?.id ?? null);
  return { agencyId, agencies: list, loaded: agencies !== null, error: agencies?.error ?? null, isDeveloper };
}

/**
 * The agency area (/agency/statistics, devices, bills, partners, partner/:partnerId): a distributor's
 * devices out, partners, revenue and monthly bills. Agency users see their own agency; developers
 * pick one at the top. The server decides what each may see and do (level 51 edits).
 */
export default function AgencyScreen() {
  const { t } = useTranslation();
  const route = useCurrentRoute();
  const navigate = useNavigate();
  const { partnerId } = useParams();
  const { agencyId, agencies, loaded, error: agenciesError, isDeveloper } = useAgencyChoice();
  const overview = useAgencyOverview(agencyId);
  const section = SECTION_OF_ROUTE[route?.name ?? ''] ?? 'devices';

  let body: ReactNode;
  if (agenciesError !== null) body = <Failure message={agencyErrorMessage(t, agenciesError)} />;
  else if (!loaded) body = <Loading label={t('agency.loading')} />;
  else if (agencyId === null) body = <Text c="dimmed">{t('agency.noAgency')}</Text>;
  else if (overview.error !== null) body = <Failure message={agencyErrorMessage(t, overview.error)} />;
  else if (overview.data === null) body = <Loading label={t('agency.loading')} />;
  else if (route?.name === 'agencyPartner' && partnerId !== undefined)
    body = <AgencyPartnerDetail agencyId={agencyId} overview={overview.data} partnerId={partnerId} reload={overview.reload} />;
  else if (section === 'statistics') body = <AgencyStatisticsView agencyId={agencyId} />;
  else if (section === 'bills') body = <AgencyBills agencyId={agencyId} overview={overview.data} reload={overview.reload} />;
  else if (section === 'partners') body = <AgencyPartners agencyId={agencyId} overview={overview.data} reload={overview.reload} />;
  else body = <AgencyDevices agencyId={agencyId} partners={overview.data.partners} />;

  return (
    <ScreenPage>
      {isDeveloper ? (
        <Select
          label={t('agency.picker.label')}
          placeholder={t('agency.picker.placeholder')}
          data={agencies.map((agency) => ({ value: agency.id, label: agency.name }))}
          value={agencyId}
          onChange={(value) =>
            value !== null && navigate(agencyPath(section === 'partners' && route?.name === 'agencyPartner' ? 'partners' : section, value, true))
          }
          allowDeselect={false}
          maw={360}
          data-testid="agency-picker"
        />
      ) : null}
      {!isDeveloper && overview.data !== null && agencyId !== null ? (
        <Text c="dimmed" size="sm" data-testid="agency-name">
          {overview.data.agency.name ?? agencyId}
        </Text>
      ) : null}
      <Tabs value={section} onChange={(value) => value !== null && agencyId !== null && navigate(agencyPath(value as AgencySection, agencyId, isDeveloper))}>
        <Tabs.List>
          {SECTIONS.map((name) => (
            <Tabs.Tab key={name} value={name}>
              {t(`agency.sections.${name}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {body}
    </ScreenPage>
  );
}
