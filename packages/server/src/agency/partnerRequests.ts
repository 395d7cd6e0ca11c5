/**
 * Partnership by consent (shared/partnerRequests.ts; security issue 17, finding 2). A partner record
 * (`domains/{agency}/partners/{root}`) puts the customer's whole tree in the agency's scope, so the
 * server writes one only when the customer's owner (5) or privileged administrator (4) accepts the
 * agency's request, and removes it when the customer ends the partnership.
 *
 * Both sides' records live in the agency's domain (the request beside the partner record). The
 * agency reads and writes them with its own claims (agencyAccess.ts). The customer cannot see the
 * agency's domain, so their side reads with the server's identity, limited here to the requests
 * naming their own root, and writes with claims acting in the agency's domain under the customer's
 * uid, so that the audit log names who consented. Out of the customer's reach (another root, a
 * request that does not exist) answers 404 alike.
 */
import type { PartnerCandidate } from '@nemuri/shared/billing/agencyAnswers';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError } from '@nemuri/shared/documents/errors';
import type { Data } from '@nemuri/shared/documents/update';
import {
  ASK_AGAIN_AFTER_DAYS,
  type AgencyPartnerRequestRow,
  type AgencyPartnerRequestsPage,
  type CustomerPartnerRequestRow,
  type CustomerPartnerRequestsPage,
  type PartnerRequestInput,
  type PartnerRequestStatus,
} from '@nemuri/shared/partnerRequests';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import type { DocumentStore } from '../documents/store.ts';
import { keysetPage, readEveryPage, UnknownCursor } from '../documents/keysetPage.ts';
import { ApiError } from '../http/errors.ts';
import type { MailMessage } from '../mail/mail.ts';
import { partnerRequestMail } from '../mail/mailTexts.ts';
import { eligible, PARTNER_KINDS } from './agencyPartners.ts';
import { idOf, numberOr, text } from './agencyData.ts';
import { AgencyError } from './agencyError.ts';

export const requestPath = (agencyId: string, customerId: string): string => `domains/${agencyId}/partnerRequests/${customerId}`;
export const partnerPath = (agencyId: string, customerId: string): string => `domains/${agencyId}/partners/${customerId}`;

/** The agency of a request or partner record (`domains/{agencyId}/…/{id}`). */
function agencyOfPath(path: unknown): string {
  return typeof path === 'string' ? (path.split('/')[1] ?? '') : '';
}

const notFound = (id: string) => new AgencyError(404, 'not-found', 'domain-not-found', `No domain ${id} that can become a partner`);

/**
 * The agencies serving each customer, from the active partner records: those are what give an
 * agency its scope, whether they came from an accepted request or were made before requests existed.
 */
async function servingAgencies(store: DocumentStore, customerIds: readonly string[] | null): Promise<Map<string, string[]>> {
  const { rows } = await store.database.query<{ path: string; id: string }>(
    `select path, id from documents where collection_group = 'partners' and coalesce(data ->> 'status', 'active') = 'active'${customerIds === null ? '' : ' and id = any($1::text[])'}`,
    customerIds === null ? [] : [customerIds],
  );
  const serving = new Map<string, string[]>();
  for (const row of rows) serving.set(row.id, [...(serving.get(row.id) ?? []), agencyOfPath(row.path)]);
  return serving;
}

/** Whether another agency serves the customer (one agency serves a customer). */
async function servedByAnother(store: DocumentStore, customerId: string, agencyId: string): Promise<boolean> {
  const agencies = (await servingAgencies(store, [customerId])).get(customerId) ?? [];
  return agencies.some((id) => id !== agencyId);
}

/** The customer's root domain if the agency may ask it, else 404 (missing and ineligible answer alike). */
async function askableRoot(store: DocumentStore, agencyId: string, customerId: string): Promise<Data> {
  const domain = await store.get(SYSTEM_PRINCIPAL, `domains/${customerId}`);
  if (domain === null || !eligible(domain.document, agencyId) || (await servedByAnother(store, customerId, agencyId))) throw notFound(customerId);
  return domain.document;
}

/** Root domains the agency may ask: eligible, not its partner, not asked and waiting, not served by another agency. */
export async function partnerCandidates(store: DocumentStore, claims: Claims, agencyId: string): Promise<PartnerCandidate[]> {
  const [domains, partners, requests, serving] = await Promise.all([
    readEveryPage(store, SYSTEM_PRINCIPAL, { collection: 'domains', where: [['kind', 'in', PARTNER_KINDS]] }),
    readEveryPage(store, claims, { collection: `domains/${agencyId}/partners` }),
    readEveryPage(store, claims, { collection: `domains/${agencyId}/partnerRequests`, where: [['status', '==', 'requested']] }),
    servingAgencies(store, null),
  ]);
  const servedElsewhere = [...serving].filter(([, agencies]) => agencies.some((id) => id !== agencyId)).map(([customerId]) => customerId);
  const taken = new Set([...partners.map(idOf), ...requests.map(idOf), ...servedElsewhere]);
  return domains
    .filter((domain) => eligible(domain, agencyId) && !taken.has(idOf(domain)))
    .map((domain) => ({ id: idOf(domain), name: text(domain.name) ?? idOf(domain), kind: String(domain.kind) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

function contractOf(request: Data): Omit<AgencyPartnerRequestRow, 'domainId' | 'customerName'> {
  return {
    status: request.status as PartnerRequestStatus,
    partnerName: text(request.partnerName) ?? '',
    contractStart: text(request.contractStart),
    contractEnd: text(request.contractEnd),
    monthlyUnitPrice: typeof request.monthlyUnitPrice === 'number' ? request.monthlyUnitPrice : null,
    message: text(request.message),
    requestedAt: String(request.requestedAt),
    answeredAt: text(request.answeredAt),
  };
}

function agencyRow(request: Data): AgencyPartnerRequestRow {
  return { domainId: idOf(request), customerName: text(request.customerName) ?? idOf(request), ...contractOf(request) };
}

/** A page of the agency's requests, newest first (then by id), keyset-paged (keysetPage.ts). */
export async function agencyRequestsPage(
  store: DocumentStore,
  claims: Claims,
  agencyId: string,
  limit: number,
  cursor: string | undefined,
): Promise<AgencyPartnerRequestsPage> {
  const page = await keysetPage(store, claims, { collection: `domains/${agencyId}/partnerRequests`, orderBy: [['requestedAt', 'desc']] }, limit, cursor);
  return { requests: page.records.map(agencyRow), nextCursor: page.nextCursor };
}

export interface AskResult {
  request: AgencyPartnerRequestRow;
  /** The customer's owners to tell (empty when the request was already waiting: no second mail). */
  notify: MailMessage[];
}

/** The customer's owners' addresses (active level-5 staff of the root). */
async function ownerAddresses(store: DocumentStore, customerId: string): Promise<string[]> {
  const staff = await readEveryPage(store, SYSTEM_PRINCIPAL, {
    collection: `domains/${customerId}/staff`,
    where: [['accessLevel', '==', ROLE_LEVELS.ownerAdministrator]],
  });
  return [...new Set(staff.filter((member) => member.disabled !== true).flatMap((member) => (typeof member.email === 'string' ? [member.email] : [])))];
}

/**
 * Asks the customer (a root corporation or household free of other agencies) to become the agency's
 * partner, proposing the contract. Asking again while waiting changes the proposal; after a decline,
 * only ASK_AGAIN_AFTER_DAYS later.
 */
export async function askPartner(
  store: DocumentStore,
  claims: Claims,
  agency: Data,
  customerId: string,
  input: PartnerRequestInput,
  now: Date,
): Promise<AskResult> {
  if (input.contractStart !== null && input.contractEnd !== null && input.contractEnd < input.contractStart) {
    throw new AgencyError(400, 'invalid-argument', 'invalid-argument', 'contractEnd is before contractStart');
  }
  const agencyId = idOf(agency);
  const customer = await askableRoot(store, agencyId, customerId);
  if ((await store.get(claims, partnerPath(agencyId, customerId))) !== null)
    throw new AgencyError(409, 'failed-precondition', 'already-partner', `${customerId} is already a partner`);
  const existing = (await store.get(claims, requestPath(agencyId, customerId)))?.document ?? null;
  if (existing?.status === 'declined' && now.getTime() - Date.parse(String(existing.answeredAt)) < ASK_AGAIN_AFTER_DAYS * 86_400_000) {
    throw new AgencyError(409, 'failed-precondition', 'recently-declined', `${customerId} declined within the last ${ASK_AGAIN_AFTER_DAYS} days`);
  }
  const waiting = existing?.status === 'requested';
  const record = {
    customerDomainId: customerId,
    customerName: text(customer.name),
    agencyName: text(agency.name),
    status: 'requested',
    partnerName: input.name,
    contractStart: input.contractStart,
    contractEnd: input.contractEnd,
    monthlyUnitPrice: input.monthlyUnitPrice,
    message: input.message ?? null,
    requestedBy: claims.uid,
    requestedAt: waiting ? String(existing.requestedAt) : now.toISOString(),
    answeredBy: null,
    answeredAt: null,
  };
  const saved = await store.set(claims, requestPath(agencyId, customerId), record, false);
  const notify = waiting
    ? []
    : (await ownerAddresses(store, customerId)).map((to) => partnerRequestMail(to, text(customer.name) ?? customerId, text(agency.name) ?? agencyId));
  return { request: agencyRow(saved), notify };
}

/** Withdraws a waiting request. */
export async function cancelRequest(store: DocumentStore, claims: Claims, agencyId: string, customerId: string, now: Date): Promise<void> {
  const found = await store.get(claims, requestPath(agencyId, customerId));
  if (found === null) throw new AgencyError(404, 'not-found', 'request-not-found', `No partner request to ${customerId}`);
  if (found.document.status !== 'requested')
    throw new AgencyError(409, 'failed-precondition', 'request-not-pending', `The request to ${customerId} is ${String(found.document.status)}`);
  await commitOne(store, claims, requestPath(agencyId, customerId), found.version, {
    ...withoutCommon(found.document),
    status: 'cancelled',
    answeredBy: claims.uid,
    answeredAt: now.toISOString(),
  });
}

// ---------------------------------------------------------------- the customer's side

/** The caller, if they may answer for the root domain `domainId`: levels 4-5 of that root; others 403, another root 404. */
export function customerCaller(principal: Claims | null, domainId: string): Claims {
  if (principal === null) throw new ApiError(401, 'unauthenticated', 'Sign in to use the data');
  const level = principal.accessLevel;
  if (level < ROLE_LEVELS.privilegeAdministrator || level > ROLE_LEVELS.ownerAdministrator) {
    throw new AgencyError(
      403,
      'permission-denied',
      'permission-denied',
      'Partner requests are answered by the owner (level 5) or a privileged administrator (level 4) of the corporation or household',
    );
  }
  if (principal.rootDomainId !== domainId) throw notFound(domainId);
  return principal;
}

/**
 * The claims the customer's answer is written with: acting in the agency's domain (where the records
 * live), under the customer's uid, so the audit log names who consented or ended. Server code only.
 */
function consentClaims(customer: Claims, agencyId: string): Claims {
  return { uid: customer.uid, accessLevel: ROLE_LEVELS.agencyAdmin, domainId: agencyId, rootDomainId: agencyId };
}

/** Common fields come back on every record read and cannot be written. */
function withoutCommon(record: Data): Data {
  const { documentReferenceId: _id, documentPath: _path, createdAt: _created, updatedAt: _updated, ...data } = record;
  return data;
}

async function commitOne(store: DocumentStore, claims: Claims, path: string, version: number, data: Data, also: unknown[] = []): Promise<void> {
  try {
    await store.commit(claims, { reads: [{ path, version }], writes: [{ op: 'set', path, data, merge: false }, ...also] });
  } catch (error) {
    if (error instanceof DocumentError && error.code === 'aborted')
      throw new AgencyError(409, 'failed-precondition', 'conflict', `${path} changed meanwhile; try again`);
    throw error;
  }
}

/** The agencies whose partner the customer is (partner records are named by the customer's root). */
async function partnerAgencies(store: DocumentStore, customerId: string): Promise<Map<string, Data>> {
  const { rows } = await store.database.query<{ path: string; data: Data }>(
    "select path, data from documents where collection_group = 'partners' and id = $1 and coalesce(data ->> 'status', 'active') = 'active'",
    [customerId],
  );
  return new Map(rows.map((row) => [agencyOfPath(row.path), row.data]));
}

/** A partnership in force made before requests existed: it has no request record, so it is shown as one. */
async function partnershipRow(store: DocumentStore, customerId: string, agencyId: string, partner: Data): Promise<CustomerPartnerRequestRow> {
  const agency = await store.get(SYSTEM_PRINCIPAL, `domains/${agencyId}`);
  return {
    agencyId,
    agencyName: text(agency?.document.name) ?? agencyId,
    partner: true,
    status: 'accepted',
    partnerName: text(partner.name) ?? customerId,
    contractStart: text(partner.contractStart),
    contractEnd: text(partner.contractEnd),
    monthlyUnitPrice: typeof partner.monthlyUnitPrice === 'number' ? partner.monthlyUnitPrice : null,
    message: null,
    requestedAt: '',
    answeredAt: null,
  };
}

/**
 * A page of the requests to the customer, newest first (then by path), keyset-paged like the agency
 * side's: the cursor is the agency of the previous page's last request, and must name a request to
 * this customer, else 400 (a guessed agency id tells nothing about other customers). The first page
 * also carries the partnerships in force that have no request (made before requests existed).
 */
export async function customerRequestsPage(
  store: DocumentStore,
  customerId: string,
  limit: number,
  cursor: string | undefined,
): Promise<CustomerPartnerRequestsPage> {
  let after: string | null = null;
  if (cursor !== undefined) {
    const path = requestPath(cursor, customerId);
    const found = await store.get(SYSTEM_PRINCIPAL, path);
    if (found === null || found.document.customerDomainId !== customerId) throw new UnknownCursor(cursor);
    after = path;
  }
  const [found, partners] = await Promise.all([
    store.query(SYSTEM_PRINCIPAL, {
      collection: 'partnerRequests',
      collectionGroup: true,
      where: [['customerDomainId', '==', customerId]],
      orderBy: [['requestedAt', 'desc']],
      limit: limit + 1,
      ...(after === null ? {} : { startAfter: { document: after } }),
    }),
    partnerAgencies(store, customerId),
  ]);
  const requests = found.slice(0, limit);
  const rows: CustomerPartnerRequestRow[] = requests.map((request) => {
    const agencyId = agencyOfPath(request.documentPath);
    return { agencyId, agencyName: text(request.agencyName) ?? agencyId, partner: partners.has(agencyId), ...contractOf(request) };
  });
  const withoutRequest: CustomerPartnerRequestRow[] = [];
  if (cursor === undefined) {
    for (const [agencyId, partner] of partners) {
      if ((await store.get(SYSTEM_PRINCIPAL, requestPath(agencyId, customerId))) === null)
        withoutRequest.push(await partnershipRow(store, customerId, agencyId, partner));
    }
  }
  const last = requests.at(-1);
  return { requests: [...withoutRequest, ...rows], nextCursor: found.length > limit && last !== undefined ? agencyOfPath(last.documentPath) : null };
}

/** Accepts (the partner record is written with the proposed contract) or declines a waiting request. */
export async function answerRequest(store: DocumentStore, customer: Claims, customerId: string, agencyId: string, accept: boolean, now: Date): Promise<void> {
  const path = requestPath(agencyId, customerId);
  const found = await store.get(SYSTEM_PRINCIPAL, path);
  if (found === null) throw new AgencyError(404, 'not-found', 'request-not-found', `No partner request from ${agencyId}`);
  if (found.document.status !== 'requested')
    throw new AgencyError(409, 'failed-precondition', 'request-not-pending', `The request from ${agencyId} is ${String(found.document.status)}`);
  const request = found.document;
  const answered = { ...withoutCommon(request), status: accept ? 'accepted' : 'declined', answeredBy: customer.uid, answeredAt: now.toISOString() };
  if (!accept) return commitOne(store, consentClaims(customer, agencyId), path, found.version, answered);
  // The customer may have joined another agency or changed since the request was made.
  const domain = await store.get(SYSTEM_PRINCIPAL, `domains/${customerId}`);
  if (domain === null || !eligible(domain.document, agencyId) || (await servedByAnother(store, customerId, agencyId))) {
    throw new AgencyError(409, 'failed-precondition', 'domain-not-eligible', `${customerId} cannot become ${agencyId}'s partner now`);
  }
  const partner = {
    name: text(request.partnerName) ?? customerId,
    contractStart: text(request.contractStart),
    contractEnd: text(request.contractEnd),
    monthlyUnitPrice: numberOr(request.monthlyUnitPrice, 0),
    status: 'active',
  };
  await commitOne(store, consentClaims(customer, agencyId), path, found.version, answered, [
    { op: 'set', path: partnerPath(agencyId, customerId), data: partner, merge: false },
  ]);
}

/** Ends a partnership: the partner record goes (and with it the agency's sight of the customer); the request says ended. */
export async function endPartnership(store: DocumentStore, customer: Claims, customerId: string, agencyId: string, now: Date): Promise<void> {
  const partner = await store.get(SYSTEM_PRINCIPAL, partnerPath(agencyId, customerId));
  if (partner === null) throw new AgencyError(404, 'not-found', 'partner-not-found', `${customerId} is not ${agencyId}'s partner`);
  const path = requestPath(agencyId, customerId);
  const found = await store.get(SYSTEM_PRINCIPAL, path);
  // Partnerships made before requests existed have no request: one is written to keep the history.
  const base = found?.document ?? {
    customerDomainId: customerId,
    partnerName: text(partner.document.name) ?? customerId,
    contractStart: text(partner.document.contractStart),
    contractEnd: text(partner.document.contractEnd),
    requestedBy: 'unknown',
    requestedAt: String(partner.document.createdAt ?? now.toISOString()),
  };
  const ended = { ...withoutCommon(base), status: 'ended', answeredBy: customer.uid, answeredAt: now.toISOString() };
  await commitOne(store, consentClaims(customer, agencyId), path, found?.version ?? 0, ended, [{ op: 'delete', path: partnerPath(agencyId, customerId) }]);
}
