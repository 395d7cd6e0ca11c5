/**
 * What the agency API answers (docs/api.md, "Agency area" and "Agency bills"): rows of devices,
 * partners and rooms, the statistics, the bills and the records a write gives back. The server
 * builds them and its routes declare these schemas as their `response` (checked as each answer is
 * written, shown in /api/openapi.json); the agency screens type what they read from them.
 */
import { z } from 'zod/v3';
import { SCHEMAS } from '../documents/collections.ts';

/**
 * A record of `collection` as the agency's routes answer it: the registry's fields plus the common
 * ones the engine adds (`createdAt`/`updatedAt` on records read back, not on ones just written).
 */
function answeredRecord<T extends z.ZodRawShape>(schema: z.ZodObject<T>) {
  return schema
    .extend({ documentReferenceId: z.string(), documentPath: z.string(), createdAt: z.string().optional(), updatedAt: z.string().optional() })
    .strict();
}

const paymentTermsSchema = z.object({ monthsAfter: z.number().int(), day: z.number().int().nullable() }).strict();

export const deviceRowSchema = z
  .object({
    serial: z.string(),
    deviceTypeId: z.string(),
    typeName: z.string(),
    status: z.string(),
    holderDomainId: z.string().nullable(),
    holderName: z.string().nullable(),
    partnerId: z.string().nullable(),
    roomId: z.string().nullable(),
    roomName: z.string().nullable(),
    lastSeenAt: z.string().nullable(),
    online: z.boolean(),
  })
  .strict();
export type DeviceRow = z.infer<typeof deviceRowSchema>;

export const partnerRowSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    contractStart: z.string().nullable(),
    contractEnd: z.string().nullable(),
    monthlyUnitPrice: z.number().nullable(),
    status: z.string(),
    /** The contract's payment terms (the default 月末締め翌月末払い when it states none). */
    paymentTerms: paymentTermsSchema,
    domainIds: z.array(z.string()),
    deviceCount: z.number().int(),
    roomCount: z.number().int(),
    /** Issued bills not yet paid, with tax (yen). */
    unpaidTotal: z.number(),
  })
  .strict();
export type PartnerRow = z.infer<typeof partnerRowSchema>;

export const roomRowSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    domainId: z.string(),
    domainName: z.string(),
    partnerId: z.string().nullable(),
    deviceSerial: z.string().nullable(),
    status: z.string().nullable(),
    residentName: z.string().nullable(),
  })
  .strict();
export type RoomRow = z.infer<typeof roomRowSchema>;

export const monthRevenueSchema = z
  .object({
    month: z.string(),
    /** Issued and paid bills: before tax, tax, with tax. Drafts are not revenue yet. */
    subtotal: z.number(),
    consumptionTax: z.number(),
    total: z.number(),
    /** Of the total, what is paid. */
    paid: z.number(),
    /** Devices held by a partner on at least one day of the month (from the borrows). */
    devicesOut: z.number().int(),
  })
  .strict();
export type MonthRevenue = z.infer<typeof monthRevenueSchema>;

const count = z.number().int().min(0);
export const agencyStatisticsSchema = z
  .object({
    devices: z.object({ total: count, stock: count, lent: count, inUse: count, repair: count, retired: count, online: count, atPartners: count }).strict(),
    roomsMonitored: count,
    rooms: count,
    partners: z.object({ total: count, active: count }).strict(),
    bills: z.object({ draft: count, issued: count, paid: count, unpaidTotal: z.number() }).strict(),
    months: z.array(monthRevenueSchema),
    byPartner: z.array(z.object({ partnerId: z.string(), name: z.string(), devices: count, rooms: count }).strict()),
  })
  .strict();
export type AgencyStatistics = z.infer<typeof agencyStatisticsSchema>;

/** GET /api/agency/agencies: the agencies the caller may open (their own; every agency for the maker's developers). */
export const agencyChoicesSchema = z.object({ agencies: z.array(z.object({ id: z.string(), name: z.string() }).strict()) }).strict();
export type AgencyChoice = z.infer<typeof agencyChoicesSchema>['agencies'][number];

/** GET /api/agency/:agencyId/overview. */
export const agencyOverviewSchema = z
  .object({
    agency: z.object({ id: z.string(), name: z.string().nullable(), invoiceRegistrationNumber: z.string().nullable() }).strict(),
    partners: z.array(partnerRowSchema),
    /** The domains in the agency's scope: itself, its partners and the facilities under them. */
    domains: z.array(z.object({ id: z.string(), name: z.string(), kind: z.string(), rootDomainId: z.string() }).strict()),
    canEdit: z.boolean(),
  })
  .strict();
export type AgencyOverview = z.infer<typeof agencyOverviewSchema>;

/** GET /api/agency/:agencyId/statistics. */
export const agencyStatisticsAnswerSchema = z.object({ statistics: agencyStatisticsSchema }).strict();

/** GET /api/agency/:agencyId/partner-candidates: root domains the agency may ask to become partners. */
export const partnerCandidatesSchema = z.object({ domains: z.array(z.object({ id: z.string(), name: z.string(), kind: z.string() }).strict()) }).strict();
export type PartnerCandidate = z.infer<typeof partnerCandidatesSchema>['domains'][number];

/** A bill as stored (`domains/{agency}/bills/{partner}-{YYYY-MM}`, collections.ts) with its id and path. */
export const agencyBillSchema = answeredRecord(SCHEMAS['domains/bills']);
export type Bill = z.infer<typeof agencyBillSchema>;
export type BillLine = NonNullable<Bill['lines']>[number];
export type BillStatus = Bill['status'];

/** POST …/bills/:billId/issue and …/paid. */
export const billAnswerSchema = z.object({ bill: agencyBillSchema }).strict();

/** POST …/bills/generate: the drafts written, and the partners left out with why. */
export const generateBillsAnswerSchema = z
  .object({
    bills: z.array(agencyBillSchema),
    skipped: z.array(z.object({ partnerDomainId: z.string(), reason: z.enum(['bill-frozen', 'no-usage', 'no-unit-price']) }).strict()),
  })
  .strict();
export type GenerateResult = z.infer<typeof generateBillsAnswerSchema>;

/** PUT …/partners/:partnerId: the partner record as saved. */
export const partnerSavedSchema = z.object({ partner: answeredRecord(SCHEMAS['domains/partners']) }).strict();
export type PartnerRecord = z.infer<typeof partnerSavedSchema>['partner'];

/** GET …/partners/:partnerId/staff: the staff of the partner's domains, each with its domain. */
export const staffRowSchema = answeredRecord(SCHEMAS['domains/staff']).extend({ domainId: z.string() }).strict();
export type StaffRow = z.infer<typeof staffRowSchema>;
export const partnerStaffSchema = z.object({ staff: z.array(staffRowSchema) }).strict();

/** PUT …/settings: the agency's domain record as saved. */
export const agencySettingsSavedSchema = z.object({ agency: answeredRecord(SCHEMAS.domains).nullable() }).strict();
export type AgencyRecord = NonNullable<z.infer<typeof agencySettingsSavedSchema>['agency']>;

/**
 * GET /api/agency/:agencyId/bills: a page of the agency's bills, newest month first (then by
 * partner), optionally of one status or partner; `nextCursor` (a bill id) asks for the next page.
 */
export const AGENCY_BILLS_DEFAULT_PAGE = 50;
export const AGENCY_BILLS_MAX_PAGE = 200;
export const AGENCY_BILL_STATUSES = ['draft', 'issued', 'paid'] as const;

export const billsPageSchema = z.object({ bills: z.array(agencyBillSchema), nextCursor: z.string().nullable() }).strict();
export type BillsPage = z.infer<typeof billsPageSchema>;

/**
 * GET /api/agency/:agencyId/partners and …/partner-requests: keyset pages (partners by name, then
 * id; requests newest first); `nextCursor` (the last row's id) asks for the next page, null on the last.
 */
export const AGENCY_LIST_DEFAULT_PAGE = 50;
export const AGENCY_LIST_MAX_PAGE = 200;

export const partnersPageSchema = z.object({ partners: z.array(partnerRowSchema), nextCursor: z.string().nullable() }).strict();
export type PartnersPage = z.infer<typeof partnersPageSchema>;

/** GET /api/agency/:agencyId/devices: a bounded page of the agency's devices matching the filter. */
export const AGENCY_DEVICES_DEFAULT_PAGE = 50;
export const AGENCY_DEVICES_MAX_PAGE = 200;

export interface DeviceFilter {
  search: string;
  status: string | null;
  partnerId: string | null;
  online: 'online' | 'offline' | null;
}

export const devicesPageSchema = z
  .object({
    devices: z.array(deviceRowSchema),
    /** Devices matching the filter, and all the agency's devices. */
    matched: count,
    total: count,
  })
  .strict();
export type DevicesPage = z.infer<typeof devicesPageSchema>;

/** Devices matching every given condition; the search looks at serial, type, holder and room. */
export function filterDevices(rows: readonly DeviceRow[], filter: DeviceFilter): DeviceRow[] {
  const needle = filter.search.trim().toLowerCase();
  return rows.filter((row) => {
    if (filter.status !== null && row.status !== filter.status) return false;
    if (filter.partnerId !== null && row.partnerId !== filter.partnerId) return false;
    if (filter.online === 'online' && !row.online) return false;
    if (filter.online === 'offline' && row.online) return false;
    if (needle === '') return true;
    return [row.serial, row.typeName, row.holderName ?? '', row.roomName ?? ''].some((value) => value.toLowerCase().includes(needle));
  });
}

/** GET /api/agency/:agencyId/rooms?partnerId: a bounded page of a partner's rooms (by facility, then name). */
export const AGENCY_ROOMS_PAGE = 50;

export const roomsPageSchema = z
  .object({
    rooms: z.array(roomRowSchema),
    /** The rooms of the partner (or of every partner). */
    matched: count,
  })
  .strict();
export type RoomsPage = z.infer<typeof roomsPageSchema>;
