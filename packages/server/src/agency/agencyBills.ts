/**
 * An agency's monthly bills to its partners (docs/api.md, "Agency bills"): generate a month's
 * drafts from the borrows of the agency's devices, issue, mark paid, delete a draft.
 *
 * A bill's id is `{partnerDomainId}-{YYYY-MM}`: one bill per partner and month. Regenerating
 * replaces a draft; an issued or paid bill is frozen (a qualified invoice, once handed over, is
 * corrected by a new one, never rewritten), so generating over it, or issuing it again, is refused.
 * Every change is one engine commit against the version read, so two requests at once cannot both
 * win (the loser gets `conflict`).
 *
 * Only days that have passed are billed: a draft of the month under way counts the days up to
 * yesterday (`billedThrough`), and it cannot be issued before the month is over (an issued bill
 * is frozen, so the rest of the month could never be billed).
 *
 * Invoice numbers: the agency record's server-only `lastInvoiceNumber` is raised in the same
 * commit that issues the bill, and the commit reads both at the versions it saw; a concurrent issue
 * makes it abort and start again from the new number. So numbers never repeat and never skip.
 */
import {
  buildBill,
  dueDateOf,
  invoiceNumberOf,
  lastPassedDay,
  monthIsOver,
  STANDARD_TAX_RATE,
  type DeviceHolding,
} from '@nemuri/shared/billing/billArithmetic';
import type { Bill, GenerateResult } from '@nemuri/shared/billing/agencyAnswers';
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError } from '@nemuri/shared/documents/errors';
import type { Data } from '@nemuri/shared/documents/update';
import { withServerOnlyFields, type DocumentStore } from '../documents/store.ts';
import { answered, idOf, loadAgencyData, numberOr, paymentTermsOf, text, type AgencyData } from './agencyData.ts';
import { AgencyError } from './agencyError.ts';
import { monthOfInstant } from './agencyViews.ts';

export function billIdOf(partnerDomainId: string, month: string): string {
  return `${partnerDomainId}-${month}`;
}

/** The devices each partner's domains held in the month: the borrows of the agency's devices to them. */
export function holdingsOf(data: AgencyData, partnerId: string): DeviceHolding[] {
  const domainIds = data.partnerDomains.get(partnerId) ?? [partnerId];
  const bySerial = new Map<string, DeviceHolding['periods'][number][]>();
  for (const borrow of data.borrows) {
    if (!domainIds.includes(text(borrow.toDomainId) ?? '')) continue;
    const periods = bySerial.get(borrow.deviceSerial) ?? [];
    periods.push({ from: String(borrow.from), until: text(borrow.until), returnedAt: text(borrow.returnedAt) });
    bySerial.set(borrow.deviceSerial, periods);
  }
  return [...bySerial].map(([deviceSerial, periods]) => ({ deviceSerial, periods }));
}

async function versionOf(store: DocumentStore, claims: Claims, path: string): Promise<{ data: Data | null; version: number }> {
  const found = await store.get(claims, path);
  return { data: found?.document ?? null, version: found?.version ?? 0 };
}

/** One write against the version read; a concurrent change answers 409 conflict. */
async function commitOne(store: DocumentStore, claims: Claims, path: string, version: number, data: Data): Promise<void> {
  try {
    await store.commit(claims, { reads: [{ path, version }], writes: [{ op: 'set', path, data, merge: false }] });
  } catch (error) {
    if (error instanceof DocumentError && error.code === 'aborted')
      throw new AgencyError(409, 'failed-precondition', 'conflict', `${path} changed meanwhile; try again`);
    throw error;
  }
}

function frozen(path: string, status: unknown): AgencyError {
  return new AgencyError(409, 'failed-precondition', 'bill-frozen', `${path} is ${String(status)}: an issued or paid bill cannot be regenerated or changed`);
}

/**
 * The addressee: the partner's legal name as its own domain record states it (what the customer
 * registered), else the name the agency gave the partner; never an internal id.
 */
function legalNameOf(data: AgencyData, partner: Data): string {
  const domain = data.domains.find((entry) => entry.id === idOf(partner));
  return (domain !== undefined && domain.name !== domain.id ? domain.name : null) ?? text(partner.name) ?? domain?.name ?? idOf(partner);
}

/** Drafts the month's bills: for one partner (refused when its bill is frozen), or for every partner (frozen ones skipped). */
export async function generateBills(
  store: DocumentStore,
  claims: Claims,
  agencyId: string,
  month: string,
  partnerId: string | null,
  now: Date,
): Promise<GenerateResult> {
  if (month > monthOfInstant(now.getTime()))
    throw new AgencyError(400, 'invalid-argument', 'future-month', `${month} has not begun: bills are for the current month or earlier`);
  const data = await loadAgencyData(store, claims, agencyId);
  const partners = partnerId === null ? data.partners : data.partners.filter((partner) => idOf(partner) === partnerId);
  if (partnerId !== null && partners.length === 0)
    throw new AgencyError(404, 'not-found', 'partner-not-found', `No partner ${partnerId} of agency ${agencyId}`);
  const result: GenerateResult = { bills: [], skipped: [] };
  const through = lastPassedDay(month, now.getTime());
  for (const partner of partners) {
    const partnerDomainId = idOf(partner);
    const path = `domains/${agencyId}/bills/${billIdOf(partnerDomainId, month)}`;
    const existing = await versionOf(store, claims, path);
    if (existing.data !== null && existing.data.status !== 'draft') {
      if (partnerId !== null) throw frozen(path, existing.data.status);
      result.skipped.push({ partnerDomainId, reason: 'bill-frozen' });
      continue;
    }
    if (typeof partner.monthlyUnitPrice !== 'number') {
      result.skipped.push({ partnerDomainId, reason: 'no-unit-price' });
      continue;
    }
    const bill = through === null ? null : buildBill(month, partner.monthlyUnitPrice, holdingsOf(data, partnerDomainId), STANDARD_TAX_RATE, through);
    if (bill === null || through === null || bill.lines.length === 0) {
      result.skipped.push({ partnerDomainId, reason: 'no-usage' });
      continue;
    }
    const record: Data = {
      partnerDomainId,
      partnerName: legalNameOf(data, partner),
      month,
      billedThrough: through,
      lines: bill.lines,
      subtotal: bill.subtotal,
      taxRate: bill.taxRate,
      taxes: bill.taxes,
      consumptionTax: bill.consumptionTax,
      total: bill.total,
      status: 'draft',
      issuedAt: null,
      paidAt: null,
      dueDate: null,
      invoiceNumber: null,
      generatedAt: now.toISOString(),
    };
    await commitOne(store, claims, path, existing.version, record);
    result.bills.push(answered<Bill>({ ...record, documentReferenceId: billIdOf(partnerDomainId, month), documentPath: path }));
  }
  return result;
}

async function existingBill(store: DocumentStore, claims: Claims, agencyId: string, billId: string): Promise<{ path: string; data: Data; version: number }> {
  const path = `domains/${agencyId}/bills/${billId}`;
  const found = await versionOf(store, claims, path);
  if (found.data === null) throw new AgencyError(404, 'not-found', 'bill-not-found', `No bill ${billId}`);
  return { path, data: found.data, version: found.version };
}

/** The stored fields of a record read back (the engine adds the common fields). */
function storedFields(record: Data): Data {
  const { documentReferenceId: _id, documentPath: _path, createdAt: _created, updatedAt: _updated, ...fields } = record;
  return fields;
}

/** How often an issue starts again after a concurrent one took the next number. */
const ISSUE_ATTEMPTS = 50;

/**
 * Issues a draft: fixes the issuer (name, registration number) and the addressee's legal name as
 * printed, takes the agency's next invoice number, and sets the due date from the partner's
 * payment terms. A qualified invoice needs the issuer's registration number, so an agency without
 * one cannot issue; a month under way cannot be issued (its days are not all billed yet).
 */
export async function issueBill(store: DocumentStore, claims: Claims, agencyId: string, billId: string, now: Date): Promise<Bill> {
  const agencyPath = `domains/${agencyId}`;
  // The agency record is read and raised with the server-only field visible to this commit only.
  const counterClaims = withServerOnlyFields(claims);
  for (let attempt = 1; ; attempt++) {
    const bill = await existingBill(store, claims, agencyId, billId);
    if (bill.data.status !== 'draft') throw frozen(bill.path, bill.data.status);
    const month = String(bill.data.month);
    if (!monthIsOver(month, now.getTime()))
      throw new AgencyError(409, 'failed-precondition', 'month-not-over', `${month} is not over yet: a bill is issued once every day of its month has passed`);
    const agency = await versionOf(store, counterClaims, agencyPath);
    if (agency.data === null) throw new AgencyError(404, 'not-found', 'agency-not-found', `No agency ${agencyId}`);
    const registrationNumber = text(agency.data.invoiceRegistrationNumber);
    if (registrationNumber === null)
      throw new AgencyError(
        409,
        'failed-precondition',
        'registration-number-missing',
        'Set the agency’s invoice registration number (T + 13 digits) before issuing',
      );
    const partnerDomainId = String(bill.data.partnerDomainId);
    const [partner, customer] = await Promise.all([
      versionOf(store, claims, `domains/${agencyId}/partners/${partnerDomainId}`),
      versionOf(store, claims, `domains/${partnerDomainId}`),
    ]);
    const sequence = numberOr(agency.data.lastInvoiceNumber, 0) + 1;
    const next: Data = {
      ...storedFields(bill.data),
      status: 'issued',
      issuedAt: now.toISOString(),
      dueDate: dueDateOf(month, paymentTermsOf(partner.data)),
      invoiceSequence: sequence,
      invoiceNumber: invoiceNumberOf(sequence),
      partnerName: text(customer.data?.name) ?? text(bill.data.partnerName) ?? text(partner.data?.name) ?? partnerDomainId,
      issuerName: text(agency.data.name),
      issuerRegistrationNumber: registrationNumber,
    };
    try {
      // The agency record first: every issue locks in the same order.
      await store.commit(counterClaims, {
        reads: [
          { path: agencyPath, version: agency.version },
          { path: bill.path, version: bill.version },
        ],
        writes: [
          { op: 'update', path: agencyPath, data: { lastInvoiceNumber: sequence } },
          { op: 'set', path: bill.path, data: next, merge: false },
        ],
      });
      return answered<Bill>({ ...next, documentReferenceId: billId, documentPath: bill.path });
    } catch (error) {
      if (!(error instanceof DocumentError && error.code === 'aborted')) throw error;
      if (attempt >= ISSUE_ATTEMPTS)
        throw new AgencyError(
          409,
          'failed-precondition',
          'conflict',
          `${bill.path} could not take an invoice number: too many bills issued at once; try again`,
        );
    }
  }
}

export async function markBillPaid(store: DocumentStore, claims: Claims, agencyId: string, billId: string, now: Date): Promise<Bill> {
  const bill = await existingBill(store, claims, agencyId, billId);
  if (bill.data.status === 'draft')
    throw new AgencyError(409, 'failed-precondition', 'bill-not-issued', `${bill.path} is a draft: issue it before marking it paid`);
  if (bill.data.status === 'paid') throw new AgencyError(409, 'failed-precondition', 'bill-already-paid', `${bill.path} is already paid`);
  const next: Data = { ...storedFields(bill.data), status: 'paid', paidAt: now.toISOString() };
  await commitOne(store, claims, bill.path, bill.version, next);
  return answered<Bill>({ ...next, documentReferenceId: billId, documentPath: bill.path });
}

/** Deletes a draft; issued and paid bills stay. */
export async function deleteDraft(store: DocumentStore, claims: Claims, agencyId: string, billId: string): Promise<void> {
  const bill = await existingBill(store, claims, agencyId, billId);
  if (bill.data.status !== 'draft') throw frozen(bill.path, bill.data.status);
  try {
    await store.commit(claims, { reads: [{ path: bill.path, version: bill.version }], writes: [{ op: 'delete', path: bill.path }] });
  } catch (error) {
    if (error instanceof DocumentError && error.code === 'aborted')
      throw new AgencyError(409, 'failed-precondition', 'conflict', `${bill.path} changed meanwhile; try again`);
    throw error;
  }
}

/** The bill for the PDF: issued or paid only (a draft is not an invoice yet). */
export async function billForInvoice(store: DocumentStore, claims: Claims, agencyId: string, billId: string): Promise<Data> {
  const bill = await existingBill(store, claims, agencyId, billId);
  if (bill.data.status === 'draft')
    throw new AgencyError(409, 'failed-precondition', 'bill-not-issued', `${bill.path} is a draft: issue it to get its invoice`);
  return bill.data;
}

/**
 * Whom the invoice is addressed to: the legal name fixed on the bill at issue; for bills issued
 * before it was fixed, the partner's domain record, then the agency's name for the partner.
 */
export async function addresseeOf(store: DocumentStore, claims: Claims, agencyId: string, bill: Data): Promise<string> {
  const fixed = text(bill.partnerName);
  if (fixed !== null) return fixed;
  const partnerDomainId = String(bill.partnerDomainId);
  const [customer, partner] = await Promise.all([
    versionOf(store, claims, `domains/${partnerDomainId}`),
    versionOf(store, claims, `domains/${agencyId}/partners/${partnerDomainId}`),
  ]);
  return text(customer.data?.name) ?? text(partner.data?.name) ?? partnerDomainId;
}
