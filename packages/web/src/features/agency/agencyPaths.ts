/**
 * Links inside the agency area. A developer's chosen agency travels in `?agency=` so that links,
 * reloads and the back button keep it; agency users have only their own and need none.
 */
export type AgencySection = 'statistics' | 'devices' | 'bills' | 'partners';

export type PartnerTab = 'overview' | 'devices' | 'rooms' | 'bills' | 'staff';

export const PARTNER_TABS: readonly PartnerTab[] = ['overview', 'devices', 'rooms', 'bills', 'staff'];

function query(agencyId: string, withAgency: boolean, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ ...(withAgency ? { agency: agencyId } : {}), ...extra });
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export function agencyPath(section: AgencySection, agencyId: string, withAgency: boolean): string {
  return `/agency/${section}${query(agencyId, withAgency)}`;
}

export function partnerPath(agencyId: string, partnerId: string, withAgency: boolean, tab: PartnerTab = 'overview'): string {
  return `/agency/partner/${encodeURIComponent(partnerId)}${query(agencyId, withAgency, tab === 'overview' ? {} : { tab })}`;
}

export function isPartnerTab(value: string | null): value is PartnerTab {
  return value !== null && (PARTNER_TABS as readonly string[]).includes(value);
}
