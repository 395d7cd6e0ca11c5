/**
 * An agency's partners (the customers it lends devices to and bills): which domains may become
 * one, editing a partner's contract, a partner's staff list, and the agency's invoice settings.
 *
 * A partner record's id is the partner's root domain (`domains/{agency}/partners/{rootDomainId}`):
 * the engine then gives the agency that root and every domain under it. So the record is made only
 * by the customer's consent (partnerRequests.ts); here the agency edits the contract of a partner it
 * has. A partner must be a root domain (corporation or individual) that no other agency serves
 * (`agencyDomainId` empty or this agency).
 */
import type { AgencyRecord, PartnerRecord, StaffRow } from '@nemuri/shared/billing/agencyAnswers';
import type { Claims } from '@nemuri/shared/documents/access';
import type { Data } from '@nemuri/shared/documents/update';
import type { DocumentStore } from '../documents/store.ts';
import { readEveryPage } from '../documents/keysetPage.ts';
import { answered, idOf, text } from './agencyData.ts';
import { AgencyError } from './agencyError.ts';

export interface PartnerInput {
  name: string;
  contractStart: string | null;
  contractEnd: string | null;
  monthlyUnitPrice: number;
  status: 'active' | 'ended';
  /** When bills are due (billArithmetic.ts dueDateOf); absent: 月末締め翌月末払い. */
  paymentTerms?: { monthsAfter: number; day: number | null } | undefined;
}

export const PARTNER_KINDS = ['corporation', 'individual'];

/** Whether the domain may be the agency's partner: a root corporation or household no other agency serves. */
export function eligible(domain: Data, agencyId: string): boolean {
  const id = idOf(domain);
  const root = text(domain.rootDomainId) ?? id;
  const agency = text(domain.agencyDomainId);
  return root === id && PARTNER_KINDS.includes(String(domain.kind)) && (agency === null || agency === agencyId);
}

/** Edits the contract of an existing partner; a new partner comes only from the customer accepting a request (404 here). */
export async function savePartner(store: DocumentStore, claims: Claims, agencyId: string, partnerId: string, input: PartnerInput): Promise<PartnerRecord> {
  if (input.contractStart !== null && input.contractEnd !== null && input.contractEnd < input.contractStart) {
    throw new AgencyError(400, 'invalid-argument', 'invalid-argument', 'contractEnd is before contractStart');
  }
  const path = `domains/${agencyId}/partners/${partnerId}`;
  if ((await store.get(claims, path)) === null)
    throw new AgencyError(404, 'not-found', 'partner-not-found', `No partner ${partnerId}: ask the customer with a partner request`);
  const { paymentTerms, ...contract } = input;
  return answered<PartnerRecord>(await store.set(claims, path, { ...contract, ...(paymentTerms === undefined ? {} : { paymentTerms }) }, false));
}

/** The staff of a partner's domains (read-only for the agency), without disabled flags hidden. */
export async function partnerStaff(
  store: DocumentStore,
  claims: Claims,
  agencyId: string,
  partnerId: string,
  domainIds: readonly string[],
): Promise<StaffRow[]> {
  const partner = await store.get(claims, `domains/${agencyId}/partners/${partnerId}`);
  if (partner === null) throw new AgencyError(404, 'not-found', 'partner-not-found', `No partner ${partnerId}`);
  const lists = await Promise.all(
    domainIds.map(async (domainId) =>
      (await readEveryPage(store, claims, { collection: `domains/${domainId}/staff` })).map((staff) => answered<StaffRow>({ ...staff, domainId })),
    ),
  );
  return lists.flat();
}

/** Sets or clears the agency's invoice registration number (T + 13 digits). */
export async function saveInvoiceSettings(
  store: DocumentStore,
  claims: Claims,
  agencyId: string,
  invoiceRegistrationNumber: string | null,
): Promise<AgencyRecord | null> {
  const saved = await store.update(claims, `domains/${agencyId}`, { invoiceRegistrationNumber });
  return saved === null ? null : answered<AgencyRecord>(saved);
}
