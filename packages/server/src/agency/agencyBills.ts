/**
 * An agency's monthly bills to its partners (docs/api.md, "Agency bills"): generate a month's
 * drafts from the borrows of the agency's devices, issue, mark paid, delete a draft.
 *
 * A bill's id is `{partnerDomainId}-{YYYY-MM}`: one bill per partner and month. Regenerating
 * replaces a draft; an issued or paid bill is frozen (a qualified invoice, once handed over, is
 * corrected by a new one, never rewritten), so generating over it, or issuing it again, is refused.
 * Every change is one engine commit against the version read, so two requests at once cannot both
 * win (the loser gets `conflict`).
 */
import { buildBill, lastDayOf, nextMonth, STANDARD_TAX_RATE, type DeviceHolding } from '@nemuri/shared/billing/billArithmetic';
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError } from '@nemuri/shared/documents/errors';
import type { Data } from '@nemuri/shared/documents/update';
import type { DocumentStore } from '../documents/store.ts';
import { idOf, loadAgencyData, text, type AgencyData } from './agencyData.ts';
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

export interface GenerateResult {
  bills: Data[];
  skipped: { partnerDomainId: string; reason: 'bill-frozen' | 'no-usage' | 'no-unit-price' }[];
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
    if (error instanceof DocumentError && error.code === 'aborted') throw new AgencyError(409, 'failed-precondition', 'conflict', `${path} changed meanwhile; try again`);
    throw error;
  }
}

function frozen(path: string, status: unknown): AgencyError {
  return new AgencyError(409, 'failed-precondition', 'bill-frozen', `${path} is ${String(status)}: an issued or paid bill cannot be regenerated or changed`);
}

/** Drafts the month's bills: for one partner (refused when its bill is frozen), or for every partner (frozen ones skipped). */
export async function generateBills(store: DocumentStore, claims: Claims, agencyId: string, month: string, partnerId: string | null, now: Date): Promise<GenerateResult> {
  if (month > monthOfInstant(now.getTime())) throw new AgencyError(400, 'invalid-argument', 'future-month', `${month} has not begun: bills are for the current month or earlier`);
  const data = await loadAgencyData(store, claims, agencyId);
  const partners = partnerId === null ? data.partners : data.partners.filter((partner) => idOf(partner) === partnerId);
  if (partnerId !== null && partners.length === 0) throw new AgencyError(404, 'not-found', 'partner-not-found', `No partner ${partnerId} of agency ${agencyId}`);
  const result: GenerateResult = { bills: [], skipped: [] };
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
    const bill = buildBill(month, partner.monthlyUnitPrice, holdingsOf(data, partnerDomainId), STANDARD_TAX_RATE);
    if (bill.lines.length === 0) {
      result.skipped.push({ partnerDomainId, reason: 'no-usage' });
      continue;
    }
    const record: Data = {
      partnerDomainId,
      partnerName: text(partner.name) ?? partnerDomainId,
      month,
      lines: bill.lines,
      subtotal: bill.subtotal,
      taxRate: bill.taxRate,
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
    result.bills.push({ ...record, documentReferenceId: billIdOf(partnerDomainId, month), documentPath: path });
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

/**
 * Issues a draft: fixes the issuer (name, registration number) as printed, the invoice number and
 * the due date (the last day of the month after the bill's month). A qualified invoice needs the
 * issuer's registration number, so an agency without one cannot issue.
 */
export async function issueBill(store: DocumentStore, claims: Claims, agencyId: string, billId: string, agency: Data, now: Date): Promise<Data> {
  const bill = await existingBill(store, claims, agencyId, billId);
  if (bill.data.status !== 'draft') throw frozen(bill.path, bill.data.status);
  const registrationNumber = text(agency.invoiceRegistrationNumber);
  if (registrationNumber === null) throw new AgencyError(409, 'failed-precondition', 'registration-number-missing', 'Set the agency’s invoice registration number (T + 13 digits) before issuing');
  const month = String(bill.data.month);
  const next: Data = {
    ...storedFields(bill.data),
    status: 'issued',
    issuedAt: now.toISOString(),
    dueDate: lastDayOf(nextMonth(month)),
    invoiceNumber: `${month.replace('-', '')}-${String(bill.data.partnerDomainId)}`,
    issuerName: text(agency.name),
    issuerRegistrationNumber: registrationNumber,
  };
  await commitOne(store, claims, bill.path, bill.version, next);
  return { ...next, documentReferenceId: billId, documentPath: bill.path };
}

export async function markBillPaid(store: DocumentStore, claims: Claims, agencyId: string, billId: string, now: Date): Promise<Data> {
  const bill = await existingBill(store, claims, agencyId, billId);
  if (bill.data.status === 'draft') throw new AgencyError(409, 'failed-precondition', 'bill-not-issued', `${bill.path} is a draft: issue it before marking it paid`);
  if (bill.data.status === 'paid') throw new AgencyError(409, 'failed-precondition', 'bill-already-paid', `${bill.path} is already paid`);
  const next: Data = { ...storedFields(bill.data), status: 'paid', paidAt: now.toISOString() };
  await commitOne(store, claims, bill.path, bill.version, next);
  return { ...next, documentReferenceId: billId, documentPath: bill.path };
}

/** Deletes a draft; issued and paid bills stay. */
export async function deleteDraft(store: DocumentStore, claims: Claims, agencyId: string, billId: string): Promise<void> {
  const bill = await existingBill(store, claims, agencyId, billId);
  if (bill.data.status !== 'draft') throw frozen(bill.path, bill.data.status);
  try {
    await store.commit(claims, { reads: [{ path: bill.path, version: bill.version }], writes: [{ op: 'delete', path: bill.path }] });
  } catch (error) {
    if (error instanceof DocumentError && error.code === 'aborted') throw new AgencyError(409, 'failed-precondition', 'conflict', `${bill.path} changed meanwhile; try again`);
    throw error;
  }
}

/** The bill for the PDF: issued or paid only (a draft is not an invoice yet). */
export async function billForInvoice(store: DocumentStore, claims: Claims, agencyId: string, billId: string): Promise<Data> {
  const bill = await existingBill(store, claims, agencyId, billId);
  if (bill.data.status === 'draft') throw new AgencyError(409, 'failed-precondition', 'bill-not-issued', `${bill.path} is a draft: issue it to get its invoice`);
  return bill.data;
}
