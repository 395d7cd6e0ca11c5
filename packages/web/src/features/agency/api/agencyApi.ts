/**
 * The agency area's endpoints (docs/api.md, "Agency area" and "Agency bills"). The server checks
 * who may see which agency and computes rows, statistics and bills; a refusal carries a `reason`
 * the screens show in Japanese (locale `agency.errors`).
 */
import type { TFunction } from 'i18next';
import { ApiError, reasonOrCode } from '../../../lib/http/apiError.ts';
import { http, type HttpMethod } from '../../../lib/http/httpClient.ts';
import { cursorPageQuery } from '../../../lib/cursorPages.ts';
import type {
  AgencyChoice,
  AgencyOverview,
  AgencyRecord,
  AgencyStatistics,
  Bill,
  BillLine,
  BillsPage,
  BillStatus,
  DeviceFilter,
  DeviceRow,
  DevicesPage,
  GenerateResult,
  MonthRevenue,
  PartnerCandidate,
  PartnerRecord,
  PartnersPage,
  PartnerRow,
  RoomRow,
  RoomsPage,
  StaffRow,
} from '@nemuri/shared/billing/agencyAnswers';
import type { PaymentTerms } from '@nemuri/shared/billing/billArithmetic';
import type { AgencyPartnerRequestRow, AgencyPartnerRequestsPage, PartnerRequestInput } from '@nemuri/shared/partnerRequests';

// The answers' types come from the schemas the server's routes declare (one source of truth).
export type {
  AgencyChoice,
  AgencyOverview,
  AgencyPartnerRequestRow,
  AgencyStatistics,
  Bill,
  BillLine,
  BillsPage,
  BillStatus,
  DeviceRow,
  GenerateResult,
  MonthRevenue,
  PartnerRequestInput,
  PartnersPage,
  PartnerRow,
  RoomRow,
  StaffRow,
};

export interface BillsFilter {
  agencyId: string;
  status?: BillStatus;
  partnerId?: string;
}

/** For useCursorPages: the filter carries the agency. */
export function fetchBillsPage(filter: BillsFilter, limit: number, cursor: string | null): Promise<BillsPage> {
  return agencyApi.bills(filter.agencyId, filter, limit, cursor);
}

export type PartnerRequestsPage = AgencyPartnerRequestsPage;

/** For useCursorPages: the agency's partners, by name. */
export function fetchPartnersPage(filter: { agencyId: string }, limit: number, cursor: string | null): Promise<PartnersPage> {
  return agencyApi.partners(filter.agencyId, limit, cursor);
}

/** For useCursorPages: the agency's partner requests, newest first. */
export function fetchRequestsPage(filter: { agencyId: string }, limit: number, cursor: string | null): Promise<PartnerRequestsPage> {
  return agencyApi.requests(filter.agencyId, limit, cursor);
}

export interface PartnerInput {
  name: string;
  contractStart: string | null;
  contractEnd: string | null;
  monthlyUnitPrice: number;
  status: 'active' | 'ended';
  paymentTerms?: PaymentTerms;
}

/** A failure is the page's ApiError: the server's code and reason, and its (English) message. */
function call<T>(method: HttpMethod, path: string, body?: object): Promise<T> {
  return http.json<T>(method, path, { body });
}

const base = (agencyId: string) => `/api/agency/${encodeURIComponent(agencyId)}`;

export const agencyApi = {
  agencies: () => call<{ agencies: AgencyChoice[] }>('GET', '/api/agency/agencies'),
  overview: (agencyId: string) => call<AgencyOverview>('GET', `${base(agencyId)}/overview`),
  statistics: (agencyId: string) => call<{ statistics: AgencyStatistics }>('GET', `${base(agencyId)}/statistics`),
  candidates: (agencyId: string) => call<{ domains: PartnerCandidate[] }>('GET', `${base(agencyId)}/partner-candidates`),
  /** A page of the partners, by name (then id). */
  partners: (agencyId: string, limit: number, cursor: string | null) =>
    call<PartnersPage>('GET', `${base(agencyId)}/partners?${cursorPageQuery(limit, cursor)}`),
  /** A page of the requests to customers, newest first. */
  requests: (agencyId: string, limit: number, cursor: string | null) =>
    call<PartnerRequestsPage>('GET', `${base(agencyId)}/partner-requests?${cursorPageQuery(limit, cursor)}`),
  /** Asks a customer to become a partner: only their acceptance makes the partner (no scope before). */
  askPartner: (agencyId: string, domainId: string, input: PartnerRequestInput) =>
    call<{ request: AgencyPartnerRequestRow }>('PUT', `${base(agencyId)}/partner-requests/${encodeURIComponent(domainId)}`, input),
  cancelRequest: (agencyId: string, domainId: string) => call<null>('DELETE', `${base(agencyId)}/partner-requests/${encodeURIComponent(domainId)}`),
  /** Edits an existing partner's contract. */
  savePartner: (agencyId: string, partnerId: string, input: PartnerInput) =>
    call<{ partner: PartnerRecord }>('PUT', `${base(agencyId)}/partners/${encodeURIComponent(partnerId)}`, input),
  staff: (agencyId: string, partnerId: string) => call<{ staff: StaffRow[] }>('GET', `${base(agencyId)}/partners/${encodeURIComponent(partnerId)}/staff`),
  saveSettings: (agencyId: string, invoiceRegistrationNumber: string | null) =>
    call<{ agency: AgencyRecord | null }>('PUT', `${base(agencyId)}/settings`, { invoiceRegistrationNumber }),
  generate: (agencyId: string, month: string, partnerId?: string) =>
    call<GenerateResult>('POST', `${base(agencyId)}/bills/generate`, partnerId === undefined ? { month } : { month, partnerId }),
  issue: (agencyId: string, billId: string) => call<{ bill: Bill }>('POST', `${base(agencyId)}/bills/${encodeURIComponent(billId)}/issue`, {}),
  markPaid: (agencyId: string, billId: string) => call<{ bill: Bill }>('POST', `${base(agencyId)}/bills/${encodeURIComponent(billId)}/paid`, {}),
  /** A page of a partner's rooms (by facility, then name). */
  rooms: (agencyId: string, partnerId: string, limit: number, offset: number) =>
    call<RoomsPage>('GET', `${base(agencyId)}/rooms?${new URLSearchParams({ partnerId, limit: String(limit), offset: String(offset) }).toString()}`),
  /** A page of the devices matching the filter (sorted by serial). */
  devices: (agencyId: string, filter: DeviceFilter, limit: number, offset: number) => {
    const params = new URLSearchParams({ limit: String(limit), offset: String(offset) });
    if (filter.search.trim() !== '') params.set('search', filter.search.trim());
    if (filter.status !== null) params.set('status', filter.status);
    if (filter.partnerId !== null) params.set('partnerId', filter.partnerId);
    if (filter.online !== null) params.set('online', filter.online);
    return call<DevicesPage>('GET', `${base(agencyId)}/devices?${params.toString()}`);
  },
  /** A page of the bills, newest month first (keyset-paged by `cursor`). */
  bills: (agencyId: string, filter: BillsFilter, limit: number, cursor: string | null) => {
    const params = new URLSearchParams({ limit: String(limit) });
    if (filter.status !== undefined) params.set('status', filter.status);
    if (filter.partnerId !== undefined) params.set('partnerId', filter.partnerId);
    if (cursor !== null) params.set('cursor', cursor);
    return call<BillsPage>('GET', `${base(agencyId)}/bills?${params.toString()}`);
  },
  deleteDraft: (agencyId: string, billId: string) => call<null>('DELETE', `${base(agencyId)}/bills/${encodeURIComponent(billId)}`),
};

/** Where the browser downloads a bill's PDF invoice. */
export function invoicePdfUrl(agencyId: string, billId: string): string {
  return `${base(agencyId)}/bills/${encodeURIComponent(billId)}/pdf`;
}

const KNOWN_REASONS = [
  'invalid-argument',
  'permission-denied',
  'agency-not-found',
  'partner-not-found',
  'domain-not-found',
  'domain-not-eligible',
  'already-partner',
  'recently-declined',
  'request-not-found',
  'request-not-pending',
  'bill-not-found',
  'bill-frozen',
  'bill-not-issued',
  'bill-already-paid',
  'registration-number-missing',
  'future-month',
  'month-not-over',
  'conflict',
  'unauthenticated',
];

/** The server's refusal in Japanese (locale `agency.errors`). */
export function agencyErrorMessage(t: TFunction, error: unknown): string {
  if (error instanceof ApiError && KNOWN_REASONS.includes(reasonOrCode(error))) return t(`agency.errors.${reasonOrCode(error)}`);
  return t('agency.errors.unexpected');
}

/** `12,345円`. */
export function formatYen(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${value.toLocaleString('ja-JP')}円`;
}
