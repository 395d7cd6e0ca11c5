/**
 * An agency's partners (the customers it lends devices to and bills): which domains may become
 * one, saving a partner's contract, a partner's staff list, and the agency's invoice settings.
 *
 * A partner record's id is the partner's root domain (`domains/{agency}/partners/{rootDomainId}`):
 * the engine then gives the agency that root and every domain under it. A new partner must be a
 * root domain (corporation or individual) that no other agency serves (`agencyDomainId` empty or
 * this agency). Finding candidates reads outside the agency's scope, so it is done with the
 * server's own identity and answers only names and ids of eligible roots.
 */
import type { Claims } from '@nemuri/shared/documents/access';
import type { Data } from '@nemuri/shared/documents/update';
import { SYSTEM_PRINCIPAL } from '../ingest/deviceStatus.ts';
import type { DocumentStore } from '../documents/store.ts';
import { idOf, LIMIT, text } from './agencyData.ts';
import { AgencyError } from './agencyError.ts';

export interface PartnerInput {
  name: string;
  contractStart: string | null;
  contractEnd: string | null;
  monthlyUnitPrice: number;
  status: 'active' | 'ended';
}

const PARTNER_KINDS = ['corporation', 'individual'];

function eligible(domain: Data, agencyId: string): boolean {
  const id = idOf(domain);
  const root = text(domain.rootDomainId) ?? id;
  const agency = text(domain.agencyDomainId);
  return root === id && PARTNER_KINDS.includes(String(domain.kind)) && (agency === null || agency === agencyId);
}

/** Root domains the agency may add as partners (not already its partners). */
export async function partnerCandidates(store: DocumentStore, claims: Claims, agencyId: string): Promise<{ id: string; name: string; kind: string }[]> {
  const [domains, partners] = await Promise.all([
    store.query(SYSTEM_PRINCIPAL, { collection: 'domains', where: [['kind', 'in', PARTNER_KINDS]], limit: LIMIT }),
    store.query(claims, { collection: `domains/${agencyId}/partners`, limit: LIMIT }),
  ]);
  const taken = new Set(partners.map(idOf));
  return domains
    .filter((domain) => eligible(domain, agencyId) && !taken.has(idOf(domain)))
    .map((domain) => ({ id: idOf(domain), name: text(domain.name) ?? idOf(domain), kind: String(domain.kind) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Creates or updates a partner; a new one must be an eligible root domain. */
export async function savePartner(store: DocumentStore, claims: Claims, agencyId: string, partnerId: string, input: PartnerInput): Promise<Data> {
  if (input.contractStart !== null && input.contractEnd !== null && input.contractEnd < input.contractStart) {
    throw new AgencyError(400, 'invalid-argument', 'invalid-argument', 'contractEnd is before contractStart');
  }
  const path = `domains/${agencyId}/partners/${partnerId}`;
  const existing = await store.get(claims, path);
  if (existing === null) {
    const domain = await store.get(SYSTEM_PRINCIPAL, `domains/${partnerId}`);
    if (domain === null) throw new AgencyError(404, 'not-found', 'domain-not-found', `No domain ${partnerId}`);
    if (!eligible(domain.document, agencyId)) throw new AgencyError(409, 'failed-precondition', 'domain-not-eligible', `${partnerId} is not a root corporation or household free to become this agency's partner`);
  }
  return store.set(claims, path, { ...input }, false);
}

/** The staff of a partner's domains (read-only for the agency), without disabled flags hidden. */
export async function partnerStaff(store: DocumentStore, claims: Claims, agencyId: string, partnerId: string, domainIds: readonly string[]): Promise<Data[]> {
  const partner = await store.get(claims, `domains/${agencyId}/partners/${partnerId}`);
  if (partner === null) throw new AgencyError(404, 'not-found', 'partner-not-found', `No partner ${partnerId}`);
  const lists = await Promise.all(domainIds.map(async (domainId) => (await store.query(claims, { collection: `domains/${domainId}/staff`, limit: LIMIT })).map((staff) => ({ ...staff, domainId }))));
  return lists.flat();
}

/** Sets or clears the agency's invoice registration number (T + 13 digits). */
export async function saveInvoiceSettings(store: DocumentStore, claims: Claims, agencyId: string, invoiceRegistrationNumber: string | null): Promise<Data | null> {
  return store.update(claims, `domains/${agencyId}`, { invoiceRegistrationNumber });
}
