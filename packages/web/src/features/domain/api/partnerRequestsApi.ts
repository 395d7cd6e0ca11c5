/**
 * The customer's side of partner requests (docs/api.md, "Partner requests"): the root domain's
 * owners (5) and privileged administrators (4) list agencies' requests, accept or decline them,
 * and end a partnership. The server checks who may; a refusal carries a `reason` shown in Japanese
 * (locale `domainConfig.partnerRequests.errors`).
 */
import type { TFunction } from 'i18next';
import { useCallback, useEffect, useState } from 'react';
import type { CustomerPartnerRequestRow } from '@nemuri/shared/partnerRequests';
import { ApiError, reasonOrCode } from '../../../lib/http/apiError.ts';
import { http } from '../../../lib/http/httpClient.ts';

export type { CustomerPartnerRequestRow };

async function call(method: 'GET' | 'POST', path: string, body?: object): Promise<CustomerPartnerRequestRow[]> {
  return (await http.json<{ requests: CustomerPartnerRequestRow[] }>(method, path, { body })).requests;
}

const base = (domainId: string) => `/api/domains/${encodeURIComponent(domainId)}/partner-requests`;

export const partnerRequestsApi = {
  list: (domainId: string) => call('GET', base(domainId)),
  answer: (domainId: string, agencyId: string, accept: boolean) => call('POST', `${base(domainId)}/${encodeURIComponent(agencyId)}/answer`, { accept }),
  end: (domainId: string, agencyId: string) => call('POST', `${base(domainId)}/${encodeURIComponent(agencyId)}/end`, {}),
};

const KNOWN = ['permission-denied', 'domain-not-found', 'request-not-found', 'request-not-pending', 'partner-not-found', 'domain-not-eligible', 'conflict'];

export function partnerRequestErrorMessage(t: TFunction, error: unknown): string {
  const reason = error instanceof ApiError && KNOWN.includes(reasonOrCode(error)) ? reasonOrCode(error) : 'unexpected';
  return t(`domainConfig.partnerRequests.errors.${reason}`);
}

/** The requests of a root domain, with a setter for the list an answer returns. */
export function usePartnerRequests(domainId: string): {
  data: CustomerPartnerRequestRow[] | null;
  error: unknown;
  replace: (rows: CustomerPartnerRequestRow[]) => void;
} {
  const [state, setState] = useState<{ data: CustomerPartnerRequestRow[] | null; error: unknown }>({ data: null, error: null });
  useEffect(() => {
    let current = true;
    partnerRequestsApi.list(domainId).then(
      (data) => current && setState({ data, error: null }),
      (error: unknown) => current && setState({ data: null, error }),
    );
    return () => {
      current = false;
    };
  }, [domainId]);
  const replace = useCallback((rows: CustomerPartnerRequestRow[]) => setState({ data: rows, error: null }), []);
  return { ...state, replace };
}
