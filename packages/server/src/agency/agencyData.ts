/**
 * What an agency's area shows, read through the document engine with the agency's claims
 * (agencyAccess.ts), so the engine's scope (the agency and its partners' domains) applies to every
 * read: the agency, its partners with their domains, its devices (owned by it or held by a
 * partner's domain), the partners' rooms, its bills and the borrows of its devices. Every list is
 * read whole, page after page: a bill or a count made from a capped read would drop lines silently.
 */
import { DEFAULT_PAYMENT_TERMS, type PaymentTerms } from '@nemuri/shared/billing/billArithmetic';
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError } from '@nemuri/shared/documents/errors';
import type { Data } from '@nemuri/shared/documents/update';
import { readEveryPage } from '../documents/keysetPage.ts';
import type { DocumentStore } from '../documents/store.ts';
import { AgencyError } from './agencyError.ts';

/** The engine's largest page: lists that may be longer are read with `readEveryPage` or keyset-paged. */
export const LIMIT = 1000;

export function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

export function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** The contract's payment terms, or the default (月末締め翌月末払い). */
export function paymentTermsOf(partner: Data | null): PaymentTerms {
  const terms = partner?.paymentTerms;
  if (typeof terms !== 'object' || terms === null) return DEFAULT_PAYMENT_TERMS;
  const { monthsAfter, day } = terms as Data;
  return { monthsAfter: numberOr(monthsAfter, DEFAULT_PAYMENT_TERMS.monthsAfter), day: typeof day === 'number' ? day : null };
}

/**
 * A record the engine gave back, typed as its answer (shared billing/agencyAnswers.ts): the engine
 * checked its fields against the registry's schema when it was written, and the route's response
 * schema checks the answer again as it goes out (a mismatch is logged), so it is not parsed twice.
 */
export function answered<T extends object>(record: Data): T {
  return record as unknown as T;
}

export function idOf(record: Data): string {
  return String(record.documentReferenceId);
}

export interface DomainInfo {
  id: string;
  name: string;
  kind: string;
  rootDomainId: string;
}

export interface AgencyData {
  agency: Data;
  partners: Data[];
  /** The domains in the agency's scope (itself, partner roots and their facilities). */
  domains: DomainInfo[];
  /** Partner root id → the ids of the partner's domains (the root and the domains under it). */
  partnerDomains: Map<string, string[]>;
  devices: Data[];
  rooms: Data[];
  bills: Data[];
  /** Borrows of the agency's devices, each with its device serial. */
  borrows: (Data & { deviceSerial: string })[];
  deviceTypes: Map<string, string>;
}

/** The agency's domain record; 404 when absent, out of scope or not an agency. */
export async function readAgency(store: DocumentStore, claims: Claims, agencyId: string): Promise<Data> {
  let found: { document: Data } | null = null;
  try {
    found = await store.get(claims, `domains/${agencyId}`);
  } catch (error) {
    if (!(error instanceof DocumentError && error.code === 'permission-denied')) throw error;
  }
  if (found === null || found.document.kind !== 'agency') throw new AgencyError(404, 'not-found', 'agency-not-found', `No agency ${agencyId}`);
  return found.document;
}

/** The partner's domains: its root and every domain whose root it is. */
export function domainsOfPartner(partnerId: string, domains: readonly DomainInfo[]): string[] {
  return [partnerId, ...domains.filter((domain) => domain.rootDomainId === partnerId && domain.id !== partnerId).map((domain) => domain.id)];
}

/** Which partner (root id) a domain belongs to, or null. */
export function partnerOfDomain(partnerDomains: ReadonlyMap<string, readonly string[]>, domainId: string | null): string | null {
  if (domainId === null) return null;
  for (const [partnerId, ids] of partnerDomains) if (ids.includes(domainId)) return partnerId;
  return null;
}

/** The serial of a borrow record's device (`devices/{serial}/borrows/{id}`). */
function serialOfBorrow(path: unknown): string | null {
  const parts = typeof path === 'string' ? path.split('/') : [];
  return parts.length === 4 && parts[0] === 'devices' ? (parts[1] ?? null) : null;
}

export async function loadAgencyData(store: DocumentStore, claims: Claims, agencyId: string): Promise<AgencyData> {
  const agency = await readAgency(store, claims, agencyId);
  const [partners, domainRecords, deviceRecords, roomRecords, bills, borrowRecords, typeRecords] = await Promise.all([
    readEveryPage(store, claims, { collection: `domains/${agencyId}/partners` }),
    readEveryPage(store, claims, { collection: 'domains' }),
    readEveryPage(store, claims, { collection: 'devices' }),
    readEveryPage(store, claims, { collection: 'rooms' }),
    readEveryPage(store, claims, { collection: `domains/${agencyId}/bills` }),
    readEveryPage(store, claims, { collection: 'borrows', collectionGroup: true }),
    readEveryPage(store, claims, { collection: 'deviceTypes' }),
  ]);
  const domains: DomainInfo[] = domainRecords.map((record) => ({
    id: idOf(record),
    name: text(record.name) ?? idOf(record),
    kind: text(record.kind) ?? '',
    rootDomainId: text(record.rootDomainId) ?? idOf(record),
  }));
  const partnerDomains = new Map(partners.map((partner) => [idOf(partner), domainsOfPartner(idOf(partner), domains)]));
  const partnerDomainIds = new Set([...partnerDomains.values()].flat());
  // The agency's devices: owned by it, or held by one of its partners' domains.
  const devices = deviceRecords.filter((device) => device.ownerAgencyDomainId === agencyId || partnerDomainIds.has(text(device.domainId) ?? ''));
  const ownSerials = new Set(devices.filter((device) => device.ownerAgencyDomainId === agencyId).map(idOf));
  const borrows = borrowRecords.flatMap((borrow) => {
    const serial = serialOfBorrow(borrow.documentPath);
    return serial !== null && ownSerials.has(serial) ? [{ ...borrow, deviceSerial: serial }] : [];
  });
  const rooms = roomRecords.filter((room) => partnerDomainIds.has(text(room.domainId) ?? ''));
  const deviceTypes = new Map(typeRecords.map((type) => [idOf(type), text(type.name) ?? idOf(type)]));
  return { agency, partners, domains, partnerDomains, devices, rooms, bills, borrows, deviceTypes };
}
