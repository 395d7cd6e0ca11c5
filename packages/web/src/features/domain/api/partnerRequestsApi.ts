/**
 * The customer's side of partner requests (docs/api.md, "Partner requests"): the root domain's
 * owners (5) and privileged administrators (4) list agencies' requests a page at a time (newest
 * first, keyset-paged), accept or decline them, and end a partnership. The server checks who may;
 * a refusal carries a `reason` shown in Japanese (locale `domainConfig.partnerRequests.errors`).
 */
import type { TFunction } from 'i18next';
import type { CustomerPartnerRequestRow, CustomerPartnerRequestsPage } from '@nemuri/shared/partnerRequests';
import { cursorPageQuery } from '../../../lib/cursorPages.ts';
import { ApiError, reasonOrCode } from '../../../lib/http/apiError.ts';
import { http } from '../../../lib/http/httpClient.ts';

export type { CustomerPartnerRequestRow };

export type CustomerRequestsPage = CustomerPartnerRequestsPage;

const base = (domainId: string) => `/api/domains/${encodeURIComponent(domainId)}/partner-requests`;

/** An answer or an end: the server sends the first page back, which the tab reloads in its own page size instead. */
async function act(path: string, body: object): Promise<void> {
  await http.json<CustomerRequestsPage>('POST', path, { body });
}

export const partnerRequestsApi = {
  page: (domainId: string, limit: number, cursor: string | null) =>
    http.json<CustomerRequestsPage>('GET', `${base(domainId)}?${cursorPageQuery(limit, cursor)}`),
  answer: (domainId: string, agencyId: string, accept: boolean) => act(`${base(domainId)}/${encodeURIComponent(agencyId)}/answer`, { accept }),
  end: (domainId: string, agencyId: string) => act(`${base(domainId)}/${encodeURIComponent(agencyId)}/end`, {}),
};

/** For useCursorPages: the filter carries the root domain. */
export function fetchCustomerRequestsPage(filter: { domainId: string }, limit: number, cursor: string | null): Promise<CustomerRequestsPage> {
  return partnerRequestsApi.page(filter.domainId, limit, cursor);
}

const KNOWN = ['permission-denied', 'domain-not-found', 'request-not-found', 'request-not-pending', 'partner-not-found', 'domain-not-eligible', 'conflict'];

export function partnerRequestErrorMessage(t: TFunction, error: unknown): string {
  const reason = error instanceof ApiError && KNOWN.includes(reasonOrCode(error)) ? reasonOrCode(error) : 'unexpected';
  return t(`domainConfig.partnerRequests.errors.${reason}`);
}
