/**
 * The agency area's endpoints (docs/api.md, "Agency area" and "Agency bills"). The server checks
 * who may see which agency and computes rows, statistics and bills; a refusal carries a `reason`
 * the screens show in Japanese (locale `agency.errors`).
 */
import type { TFunction } from 'i18next';
import { jsonRequest, stringField } from '../../lib/jsonRequest.ts';
import type { AgencyStatistics, DeviceRow, MonthRevenue, PartnerRow, RoomRow } from '@nemuri/shared/billing/agencyAnswers';
import type { AgencyPartnerRequestRow, PartnerRequestInput } from '@nemuri/shared/partnerRequests';

export type { AgencyPartnerRequestRow, AgencyStatistics, DeviceRow, MonthRevenue, PartnerRequestInput, PartnerRow, RoomRow };

export interface AgencyChoice {
  id: string;
  name: string;
}

export interface BillLine {
  deviceSerial: string;
  daysUsed: number;
  unitPrice: number;
  amount: number;
}

export type BillStatus = 'draft' | 'issued' | 'paid';

export interface Bill {
  documentReferenceId: string;
  partnerDomainId: string;
  partnerName?: string | null;
  month: string;
  lines?: BillLine[];
  subtotal?: number;
  taxRate?: number;
  consumptionTax?: number;
  total?: number;
  status: BillStatus;
  issuedAt?: string | null;
  paidAt?: string | null;
  dueDate?: string | null;
  invoiceNumber?: string | null;
}

export interface AgencyOverview {
  agency: { id: string; name: string | null; invoiceRegistrationNumber: string | null };
  partners: PartnerRow[];
  /** The domains in the agency's scope: itself, its partners and the facilities under them. */
  domains: { id: string; name: string; kind: string; rootDomainId: string }[];
  devices: DeviceRow[];
  rooms: RoomRow[];
  bills: Bill[];
  canEdit: boolean;
}

export interface PartnerInput {
  name: string;
  contractStart: string | null;
  contractEnd: string | null;
  monthlyUnitPrice: number;
  status: 'active' | 'ended';
}

export interface StaffRow {
  documentReferenceId: string;
  displayName: string;
  email: string;
  accessLevel: number;
  disabled?: boolean;
  lastSignInAt?: string | null;
  domainId: string;
}

export interface GenerateResult {
  bills: Bill[];
  skipped: { partnerDomainId: string; reason: string }[];
}

/** An answer other than 2xx: the server's code and reason, and its (English) message. */
export class AgencyApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'AgencyApiError';
  }
}

async function call<T>(method: string, path: string, body?: object): Promise<T> {
  const reply = await jsonRequest(method, path, body);
  if (!reply.ok) {
    const code = stringField(reply.body, 'code') ?? 'internal';
    throw new AgencyApiError(reply.status, code, stringField(reply.body, 'reason') ?? code, stringField(reply.body, 'message') ?? reply.text);
  }
  return reply.body as T;
}

const base = (agencyId: string) => `/api/agency/${encodeURIComponent(agencyId)}`;

export const agencyApi = {
  agencies: () => call<{ agencies: AgencyChoice[] }>('GET', '/api/agency/agencies'),
  overview: (agencyId: string) => call<AgencyOverview>('GET', `${base(agencyId)}/overview`),
  statistics: (agencyId: string) => call<{ statistics: AgencyStatistics }>('GET', `${base(agencyId)}/statistics`),
  candidates: (agencyId: string) => call<{ domains: { id: string; name: string; kind: string }[] }>('GET', `${base(agencyId)}/partner-candidates`),
  requests: (agencyId: string) => call<{ requests: AgencyPartnerRequestRow[] }>('GET', `${base(agencyId)}/partner-requests`),
  /** Asks a customer to become a partner: only their acceptance makes the partner (no scope before). */
  askPartner: (agencyId: string, domainId: string, input: PartnerRequestInput) => call<{ request: AgencyPartnerRequestRow }>('PUT', `${base(agencyId)}/partner-requests/${encodeURIComponent(domainId)}`, input),
  cancelRequest: (agencyId: string, domainId: string) => call<null>('DELETE', `${base(agencyId)}/partner-requests/${encodeURIComponent(domainId)}`),
  /** Edits an existing partner's contract. */
  savePartner: (agencyId: string, partnerId: string, input: PartnerInput) => call<{ partner: unknown }>('PUT', `${base(agencyId)}/partners/${encodeURIComponent(partnerId)}`, input),
  staff: (agencyId: string, partnerId: string) => call<{ staff: StaffRow[] }>('GET', `${base(agencyId)}/partners/${encodeURIComponent(partnerId)}/staff`),
  saveSettings: (agencyId: string, invoiceRegistrationNumber: string | null) => call<{ agency: unknown }>('PUT', `${base(agencyId)}/settings`, { invoiceRegistrationNumber }),
  generate: (agencyId: string, month: string, partnerId?: string) => call<GenerateResult>('POST', `${base(agencyId)}/bills/generate`, partnerId === undefined ? { month } : { month, partnerId }),
  issue: (agencyId: string, billId: string) => call<{ bill: Bill }>('POST', `${base(agencyId)}/bills/${encodeURIComponent(billId)}/issue`, {}),
  markPaid: (agencyId: string, billId: string) => call<{ bill: Bill }>('POST', `${base(agencyId)}/bills/${encodeURIComponent(billId)}/paid`, {}),
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
  'conflict',
  'unauthenticated',
];

/** The server's refusal in Japanese (locale `agency.errors`). */
export function agencyErrorMessage(t: TFunction, error: unknown): string {
  if (error instanceof AgencyApiError && KNOWN_REASONS.includes(error.reason)) return t(`agency.errors.${error.reason}`);
  return t('agency.errors.unexpected');
}

/** `12,345円`. */
export function formatYen(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${value.toLocaleString('ja-JP')}円`;
}
