/**
 * The collection registry (PRODUCT.md section 5): for every collection its path template, a strict
 * zod schema (unknown keys rejected with zod 3's messages), unique fields, how its records belong
 * to a tenant, and the minimum level per operation. Server, client and tests all read this one
 * table; data scope (which records of a level's tenants) is in access.ts.
 *
 * Schemas hold the stored fields only: the common fields (`documentReferenceId`, `documentPath`,
 * `createdAt`, `updatedAt`) are set by the server, so writing one fails as an unrecognized key.
 */
import { z } from 'zod/v3';
import { IMPORT_WARNING_CODES, READ_COLUMN_REASONS, READ_COLUMN_STATUSES, READ_COLUMNS_MAX, UNKNOWN_COLUMN_CHOICES } from '../imports.ts';
import { ALERT_TYPE_NAMES } from '../monitoring.ts';
import { ROLE_LEVELS } from '../roles.ts';
import { bytes, geoPoint, nonEmpty, timestamp } from './types.ts';
import { partnerRequestSchema } from '../partnerRequests.ts';
import { roomAlertSettingsSchema } from '../roomAlertSettings.ts';

export type Operation = 'read' | 'list' | 'create' | 'update' | 'delete';
export const OPERATIONS: readonly Operation[] = ['read', 'list', 'create', 'update', 'delete'];

/**
 * How a record belongs to a tenant (its domain, root domain and, for level 1, its room):
 * - `global`: master data of the maker, no tenant; level alone decides.
 * - `domainDocument`: the record is a domain; its id is the domain.
 * - `fields`: the first non-empty of `domainFields` names the domain; `roomField` the room.
 * - `parent`: the tenant of the parent document (a domain's or a room's or a device's children).
 * - `roomField`: the tenant of the room named by the field.
 */
export type Tenancy =
  | { kind: 'global' }
  | { kind: 'domainDocument' }
  | { kind: 'fields'; domainFields: readonly string[]; roomField?: string; isRoom?: boolean }
  | { kind: 'parent' }
  | { kind: 'roomField'; field: string };

/** Minimum level per operation; null: no caller may do it through the API (the server writes it). */
export type AccessRule = Record<Operation, number | null>;

/**
 * The staff rule of PRODUCT.md section 1: below `viewAllFrom`, records whose `field` is at least
 * `protectedFrom` are invisible; below `editAllFrom`, such records (before or after the write)
 * cannot be written. Nobody grants a level above their own.
 */
export interface LevelGuard {
  field: string;
  protectedFrom: number;
  viewAllFrom: number;
  editAllFrom: number;
}

/**
 * A field naming another record (`rooms.deviceSerial` names `devices/{serial}`). A caller's write
 * that sets or changes it must name a record that exists and that the caller may read; with
 * `sameDomain`, that record must also belong to the same domain as the record written, so a room
 * cannot take another tenant's device, nor an alert another tenant's room (security issue 17,
 * findings 3 and 9). Missing and out of scope answer alike. The server's own writes are trusted.
 */
export interface Reference {
  field: string;
  /** The named record is `${collection}/${value}`. */
  collection: string;
  sameDomain?: boolean;
}

/**
 * A rule between records, kept by the server's document engine on every write of every caller,
 * in the write's transaction (server documents/collectionRules.ts).
 * - `fixedFields`: below `editableFrom`, the fields keep the value they were first written with.
 * - `keepsOwner`: a root domain keeps at least one signed-up, enabled staff member at `level` or
 *   above; a write that would leave none is refused (`failed-precondition`).
 * - `pairedRecord`: `field` names a record of `collection` whose `backField` names this record
 *   back (a room's `deviceSerial` and the device's `roomId`). When `field` changes, the named record
 *   takes this record's id and the one named before is released (its `backField` cleared, if it
 *   still named this record); deleting this record releases it too. With `unique` on `field`, a
 *   record of `collection` is named by one record at most.
 * - `acknowledgement`: who did something and when, as the server saw it (who acknowledged an
 *   alert). A write that fills `byField` or `atField` records the caller's uid and the server's
 *   time: `byField` naming anyone else is refused (`invalid-argument`), a time given is replaced.
 *   Only the tenant's own staff record it (levels `staffFrom` to below `staffBelow`, within their
 *   scope). Once recorded it stays: a later write changing or clearing `byField` is refused
 *   (`failed-precondition`), one giving another `atField` keeps the recorded time. The server's own
 *   identities are not bound by it (the monitoring clears an acknowledgement when it sounds again).
 */
export type CollectionRule =
  | { kind: 'fixedFields'; fields: readonly string[]; editableFrom: number }
  | { kind: 'acknowledgement'; byField: string; atField: string; staffFrom: number; staffBelow: number }
  | { kind: 'keepsOwner'; level: number }
  | { kind: 'pairedRecord'; field: string; collection: string; backField: string };

/**
 * What the agency levels (50-51) read of a tenant's records (data minimisation): device and room
 * status, never residents, notes or vitals. Absent: the whole record; `none`: not readable at all.
 */
export type AgencyView = readonly string[] | 'none';

export interface CollectionSpec {
  /** Registry key: the template's collection ids joined by '/', e.g. `rooms/sleeps`. */
  name: string;
  /** The last collection id: what a collection-group query names, e.g. `sleeps`. */
  group: string;
  /** e.g. `rooms/{roomId}/sleeps/{day}`. */
  template: string;
  /** Registry key of the parent document's collection, or null at the top. */
  parent: string | null;
  schema: z.AnyZodObject;
  /** Fields whose value no two records of the collection group share. */
  unique: readonly string[];
  tenancy: Tenancy;
  access: AccessRule;
  levelGuard?: LevelGuard;
  /** Document ids must match (e.g. sleep days `YYYY-MM-DD`). */
  idPattern?: RegExp;
  /**
   * Top-level fields only the server reads and writes (a device's `credentialHash`): the engine
   * leaves them out of every record it returns, refuses queries on them and refuses writes of
   * them, except for the server's own identity (server documents/store.ts).
   */
  serverOnlyFields?: readonly string[];
  /**
   * Written only through the API named here, which keeps rules the schema cannot (an issued bill is
   * frozen, a device is lent once at a time, an upload is a stored file): the documents API refuses
   * writes to the collection below the maker's developers (level 100), who may repair data.
   */
  managedBy?: string;
  /** Fields naming other records, checked on every caller's write (Reference). */
  references?: readonly Reference[];
  /**
   * Agency levels write records of this collection in their partners' domains too (devices they
   * lend). Elsewhere an agency writes only in its own domain: it never creates a customer's staff,
   * edits a customer's rooms or acknowledges a customer's alerts.
   */
  partnerWrites?: boolean;
  /** What agency levels read of records outside their own domain (AgencyView). */
  agencyView?: AgencyView;
  /** What a report viewer (level 1 given a report link, not an owner) reads of the record; absent: all of it. */
  reportViewerView?: readonly string[];
  /** Rules between this record and others (CollectionRule). */
  rules?: readonly CollectionRule[];
}

const L = ROLE_LEVELS;
const str = z.string();
const num = z.number();
const optStr = str.nullable().optional();
const optNum = num.nullable().optional();
const optTime = timestamp.nullable().optional();
const rule = (read: number | null, list: number | null, create: number | null, update: number | null, del: number | null): AccessRule => ({
  read,
  list,
  create,
  update,
  delete: del,
});
// Master data: everyone reads it; writing it is for senior developers (101), the maker's developers (100) look only.
const masterData = rule(L.individualUser, L.individualUser, L.seniorDeveloper, L.seniorDeveloper, L.seniorDeveloper);

const address = z.object({ postalCode: optStr, prefecture: optStr, city: optStr, line: optStr }).strict();

const domainSchema = z
  .object({
    name: nonEmpty,
    nameKana: optStr,
    kind: z.enum(['corporation', 'facility', 'individual', 'agency', 'developer']),
    parentDomainId: optStr,
    rootDomainId: optStr,
    agencyDomainId: optStr,
    address: address.optional(),
    phone: optStr,
    location: geoPoint.nullable().optional(),
    timeZone: optStr,
    settings: z.object({ requireMfa: z.boolean().optional() }).strict().optional(),
    dates: z
      .object({
        sleepDayBoundaryHour: num.int().gte(0).lte(23).optional(),
        nightStart: optStr,
        nightEnd: optStr,
        reportClosingDay: num.int().gte(1).lte(31).optional(),
      })
      .strict()
      .optional(),
    numbers: z
      .object({
        respirationRateLow: num.gte(0).optional(),
        respirationRateHigh: num.gte(0).optional(),
        heartRateLow: num.gte(0).optional(),
        heartRateHigh: num.gte(0).optional(),
        outOfBedAlertMin: num.gte(0).optional(),
        noBreathingAlertSec: num.gte(0).optional(),
        temperatureHigh: num.optional(),
        deviceOfflineMin: num.gte(0).optional(),
        alertResoundMin: num.gt(0).optional(),
        sittingUpAlertSec: num.gte(0).optional(),
      })
      .strict()
      .optional(),
    status: z.enum(['active', 'suspended', 'closed']).optional(),
    /** An agency's qualified-invoice issuer registration number (適格請求書発行事業者登録番号), printed on its bills. */
    invoiceRegistrationNumber: str
      .regex(/^T\d{13}$/)
      .nullable()
      .optional(),
    /**
     * An agency's last invoice number (server agency/agencyBills.ts): raised in the same commit
     * that issues a bill, so numbers never repeat or skip. Server-only: no caller sets it back.
     */
    lastInvoiceNumber: num.int().gte(0).optional(),
  })
  .strict();

const staffSchema = z
  .object({
    displayName: nonEmpty,
    email: str.email(),
    accessLevel: num.int().gte(0),
    disabled: z.boolean().optional(),
    invitedBy: optStr,
    lastSignInAt: optTime,
  })
  .strict();

const partnerSchema = z
  .object({
    name: nonEmpty,
    contractStart: optStr,
    contractEnd: optStr,
    monthlyUnitPrice: num.gte(0).optional(),
    status: z.enum(['active', 'ended']).optional(),
    /** Payment terms (billing/billArithmetic.ts, dueDateOf): months after the billed month, and the day (null: the last). */
    paymentTerms: z
      .object({ monthsAfter: num.int().gte(0).lte(3), day: num.int().gte(1).lte(31).nullable() })
      .strict()
      .optional(),
  })
  .strict();

const billSchema = z
  .object({
    partnerDomainId: nonEmpty,
    month: str.regex(/^\d{4}-(0[1-9]|1[0-2])$/),
    lines: z
      .array(
        z
          .object({
            deviceSerial: nonEmpty,
            daysUsed: num.int().gte(0),
            unitPrice: num.gte(0),
            amount: num.gte(0),
            taxRate: num.int().gte(0).lte(100).optional(),
          })
          .strict(),
      )
      .optional(),
    subtotal: num.gte(0).optional(),
    /** Per tax rate: the base and its tax, rounded once (a qualified invoice lists them). */
    taxes: z.array(z.object({ rate: num.int().gte(0).lte(100), base: num.gte(0), tax: num.gte(0) }).strict()).optional(),
    /** The last day billed (`YYYY-MM-DD`): a month under way is billed only up to the day before generation. */
    billedThrough: optStr,
    /** The issuer's sequence number behind invoiceNumber, unique per agency. */
    invoiceSequence: num.int().gte(1).nullable().optional(),
    consumptionTax: num.gte(0).optional(),
    total: num.gte(0).optional(),
    status: z.enum(['draft', 'issued', 'paid']),
    issuedAt: optTime,
    paidAt: optTime,
    /** Agency bills (server agency/): the partner's name, tax rate (%), due date and invoice number, fixed when generated or issued. */
    partnerName: optStr,
    taxRate: num.int().gte(0).lte(100).optional(),
    dueDate: optStr,
    invoiceNumber: optStr,
    /** The issuer as printed on the invoice, fixed at issue (a later change of name or number does not rewrite issued invoices). */
    issuerName: optStr,
    issuerRegistrationNumber: optStr,
    generatedAt: optTime,
  })
  .strict();

const roomSchema = z
  .object({
    domainId: nonEmpty,
    rootDomainId: optStr,
    name: nonEmpty,
    floor: optStr,
    unit: optStr,
    sortOrder: optNum,
    residentName: optStr,
    residentNote: optStr,
    deviceSerial: optStr,
    ownerUids: z.array(str).optional(),
    reportViewerUids: z.array(str).optional(),
    /** Staff's comment printed on the room's sleep reports (/report). */
    reportComment: str.max(2000).nullable().optional(),
    /** Alert settings of this room overriding its domain's numbers (shared/roomAlertSettings.ts). */
    alertSettings: roomAlertSettingsSchema.nullable().optional(),
    status: z.enum(['active', 'vacant', 'inactive']).optional(),
  })
  .strict();

const stat = z.object({ avg: optNum, min: optNum, max: optNum }).strict();
const sleepSchema = z
  .object({
    bedTime: optTime,
    sleepOnset: optTime,
    finalWake: optTime,
    outOfBedTime: optTime,
    timeInBedMin: num.gte(0).optional(),
    /** Minutes in bed scored sleep or wake; the sleep metrics count only these (the rest had no usable signal). */
    scoredMin: num.gte(0).optional(),
    totalSleepMin: num.gte(0).optional(),
    sleepEfficiency: num.gte(0).optional(),
    sleepLatencyMin: num.gte(0).optional(),
    wasoMin: num.gte(0).optional(),
    awakenings: num.int().gte(0).optional(),
    outOfBedCount: num.int().gte(0).optional(),
    outOfBedMin: num.gte(0).optional(),
    respirationRate: stat.optional(),
    heartRate: stat.optional(),
    apneaEvents: num.int().gte(0).optional(),
    apneaIndex: num.gte(0).optional(),
    movementIndex: num.gte(0).optional(),
    /** When epoch 0 begins (epoch i is the minute from epochStart + i minutes); without it, bedTime. */
    epochStart: optTime,
    /** Sleep stages scored by a person, as imported (EDF+ hypnogram): runs of one stage, in order. */
    hypnogram: z.array(z.object({ start: timestamp, durationSec: num.gt(0), stage: z.enum(['W', 'N1', 'N2', 'N3', 'N4', 'R', 'M', '?']) }).strict()).optional(),
    /** One per minute; `pauses`: breathing pauses (10 s or more) that began in that minute. */
    epochs: z
      .array(
        z
          .object({
            state: z.enum(['awake', 'light', 'deep', 'rem', 'outOfBed', 'unknown']),
            respirationRate: optNum,
            heartRate: optNum,
            activity: optNum,
            pauses: num.int().gte(0).optional(),
          })
          .strict(),
      )
      .optional(),
    source: nonEmpty,
  })
  .strict();

const readColumnSchema = z
  .object({
    name: str.max(200),
    as: str.max(40).nullable(),
    unit: str.max(40).nullable().optional(),
    status: z.enum(READ_COLUMN_STATUSES),
    reason: z.enum(READ_COLUMN_REASONS).nullable().optional(),
    values: num.int().gte(0).optional(),
  })
  .strict();
const importWarningSchema = z
  .object({ code: z.enum(IMPORT_WARNING_CODES), day: str.max(10), minutes: num.int().gte(0), nightMinutes: num.int().gte(0) })
  .strict();

const uploadSchema = z
  .object({
    fileName: nonEmpty,
    size: num.int().gte(0),
    sha256: str.regex(/^[0-9a-f]{64}$/).optional(),
    format: z.enum(['smf', 'edf', 'bdf', 'csv']),
    uploadedBy: nonEmpty,
    status: z.enum(['queued', 'parsing', 'analyzing', 'done', 'failed']),
    /** Why it failed, as a code the screens translate (`IMPORT_ERROR_CODES`), and the details. */
    errorCode: optStr,
    error: optStr,
    /** The device the recording came from, when the file says (EDF+ equipment, SMF file name). */
    deviceSerial: optStr,
    /** Sleep stages scored by a person (EDF+ hypnogram annotations) were found and kept. */
    hasStages: z.boolean().optional(),
    /** The device the recording's raw signals were stored under (the room's, at processing), for the sleep viewer's zoom. */
    storedSerial: optStr,
    processedAt: optTime,
    recordStart: optTime,
    recordEnd: optTime,
    channels: z.array(str).optional(),
    sampleCount: num.int().gte(0).optional(),
    sleepDays: z.array(str).optional(),
    /** What was read, column by column (imports.ts ReadColumn), and what made no sleep day (ImportWarning). */
    columns: z.array(readColumnSchema).max(READ_COLUMNS_MAX).nullable().optional(),
    warnings: z.array(importWarningSchema).max(400).nullable().optional(),
    /** The uploader's choice for columns the import cannot read (imports.ts UNKNOWN_COLUMN_CHOICES). */
    unknownColumns: z.enum(UNKNOWN_COLUMN_CHOICES).optional(),
  })
  .strict();

/** A device's life: in the maker's or agency's stock, lent, in use in a room, in repair, retired. */
export const DEVICE_STATUSES = ['stock', 'lent', 'in_use', 'repair', 'retired'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

const deviceSchema = z
  .object({
    deviceTypeId: nonEmpty,
    ownerAgencyDomainId: optStr,
    domainId: optStr,
    roomId: optStr,
    firmwareVersion: optStr,
    status: z.enum(DEVICE_STATUSES),
    lastSeenAt: optTime,
    battery: num.gte(0).lte(100).nullable().optional(),
    credentialHash: optStr,
  })
  .strict();

const borrowSchema = z.object({ toDomainId: nonEmpty, from: timestamp, until: optTime, returnedAt: optTime, by: nonEmpty, note: optStr }).strict();

const deviceTypeSchema = z
  .object({
    name: nonEmpty,
    model: nonEmpty,
    channels: z.array(z.object({ key: nonEmpty, sampleRateHz: num.gte(0), unit: optStr, scale: optNum }).strict()).optional(),
    rawViews: z.array(str).optional(),
    description: optStr,
    calibration: bytes.nullable().optional(),
  })
  .strict();

const parameterSchema = z
  .object({
    key: nonEmpty,
    deviceTypeId: optStr,
    value: z.union([num, str, z.boolean()]),
    type: z.enum(['number', 'string', 'boolean']),
    min: optNum,
    max: optNum,
    unit: optStr,
    description: optStr,
  })
  .strict();

const viewSchema = z
  .object({
    routeKey: nonEmpty,
    deviceTypeIds: z.array(str).optional(),
    channels: z.array(str).optional(),
    layout: z.record(z.unknown()).optional(),
    name: optStr,
  })
  .strict();

const historySchema = z.object({ version: nonEmpty, date: nonEmpty, title: nonEmpty, body: str }).strict();

const alertSchema = z
  .object({
    domainId: nonEmpty,
    roomId: optStr,
    deviceSerial: optStr,
    type: z.enum(ALERT_TYPE_NAMES),
    startedAt: timestamp,
    endedAt: optTime,
    acknowledgedBy: optStr,
    acknowledgedAt: optTime,
    /** When the monitoring last sounded it (opened, or again while active: issue 18); the station chimes when it moves. */
    soundedAt: optTime,
  })
  .strict();

const auditLogSchema = z
  .object({
    who: str,
    when: timestamp,
    path: nonEmpty,
    operation: z.enum(['create', 'set', 'update', 'delete']),
    changedKeys: z.array(str),
  })
  .strict();

const invitationSchema = z
  .object({ domainId: nonEmpty, email: str.email(), accessLevel: num.int().gte(1), expiresAt: timestamp, usedAt: optTime, revokedAt: optTime })
  .strict();

const reportAccessSchema = z
  .object({
    roomId: nonEmpty,
    createdBy: nonEmpty,
    tokenHash: nonEmpty,
    expiresAt: timestamp,
    viewerUid: optStr,
    /** Set when an administrator revokes the link: the viewer reads nothing from then on. */
    revokedAt: optTime,
    /** The viewer's latest read of the reports, and how many reads (every read is also in auditLogs). */
    lastAccessAt: optTime,
    accessCount: num.int().gte(0).optional(),
  })
  .strict();

const specs: Omit<CollectionSpec, 'name' | 'group' | 'parent'>[] = [
  {
    template: 'domains/{domainId}',
    schema: domainSchema,
    unique: [],
    tenancy: { kind: 'domainDocument' },
    access: rule(L.generalStaff, L.generalStaff, L.agency, L.administrator, L.developer),
    references: [
      { field: 'parentDomainId', collection: 'domains' },
      { field: 'agencyDomainId', collection: 'domains' },
    ],
    serverOnlyFields: ['lastInvoiceNumber'],
    // A domain's place in the tree is fixed once written, below the maker's levels.
    rules: [{ kind: 'fixedFields', fields: ['rootDomainId', 'parentDomainId', 'agencyDomainId', 'kind'], editableFrom: L.developer }],
  },
  {
    template: 'domains/{domainId}/staff/{uid}',
    schema: staffSchema,
    unique: ['email'],
    tenancy: { kind: 'parent' },
    access: rule(L.generalStaff, L.generalStaff, L.generalStaff, L.generalStaff, L.generalStaff),
    levelGuard: { field: 'accessLevel', protectedFrom: L.administrator, viewAllFrom: L.administrator, editAllFrom: L.privilegeAdministrator },
    rules: [{ kind: 'keepsOwner', level: L.ownerAdministrator }],
  },
  {
    template: 'domains/{domainId}/partners/{partnerDomainId}',
    schema: partnerSchema,
    unique: [],
    tenancy: { kind: 'parent' },
    access: rule(L.agency, L.agency, L.agencyAdmin, L.agencyAdmin, L.agencyAdmin),
    // A partner puts the customer's whole tree in the agency's scope: only by the customer's consent.
    managedBy: '/api/agency/{agencyId}/partner-requests',
  },
  {
    template: 'domains/{domainId}/bills/{billId}',
    schema: billSchema,
    unique: [],
    tenancy: { kind: 'parent' },
    access: rule(L.agency, L.agency, L.agencyAdmin, L.agencyAdmin, L.agencyAdmin),
    managedBy: '/api/agency/{agencyId}/bills',
  },
  {
    template: 'rooms/{roomId}',
    schema: roomSchema,
    unique: ['deviceSerial'],
    tenancy: { kind: 'fields', domainFields: ['domainId'], isRoom: true },
    access: rule(L.individualUser, L.individualUser, L.administrator, L.generalStaff, L.administrator),
    references: [{ field: 'deviceSerial', collection: 'devices', sameDomain: true }],
    // The room's device points back at the room: whoever changes a room's device moves both.
    rules: [{ kind: 'pairedRecord', field: 'deviceSerial', collection: 'devices', backField: 'roomId' }],
    agencyView: ['domainId', 'rootDomainId', 'name', 'floor', 'unit', 'sortOrder', 'deviceSerial', 'status'],
    reportViewerView: ['domainId', 'name', 'reportComment'],
  },
  {
    template: 'rooms/{roomId}/sleeps/{day}',
    schema: sleepSchema,
    unique: [],
    tenancy: { kind: 'parent' },
    access: rule(L.individualUser, L.individualUser, L.generalStaff, L.generalStaff, L.administrator),
    idPattern: /^\d{4}-\d\d-\d\d$/,
    agencyView: 'none',
  },
  {
    template: 'rooms/{roomId}/uploads/{uploadId}',
    schema: uploadSchema,
    unique: [],
    tenancy: { kind: 'parent' },
    access: rule(L.individualUser, L.individualUser, L.generalStaff, L.generalStaff, L.administrator),
    managedBy: '/api/rooms/{roomId}/uploads',
    agencyView: 'none',
  },
  {
    template: 'devices/{serial}',
    schema: deviceSchema,
    unique: [],
    tenancy: { kind: 'fields', domainFields: ['domainId', 'ownerAgencyDomainId'] },
    access: rule(L.generalStaff, L.generalStaff, L.developer, L.administrator, L.developer),
    serverOnlyFields: ['credentialHash'],
    references: [{ field: 'roomId', collection: 'rooms', sameDomain: true }],
    partnerWrites: true,
  },
  {
    template: 'devices/{serial}/borrows/{borrowId}',
    schema: borrowSchema,
    unique: [],
    tenancy: { kind: 'parent' },
    access: rule(L.generalStaff, L.generalStaff, L.agency, L.agency, L.developer),
    managedBy: '/api/devices/{serial}/borrows',
    references: [{ field: 'toDomainId', collection: 'domains' }],
    partnerWrites: true,
  },
  { template: 'deviceTypes/{id}', schema: deviceTypeSchema, unique: [], tenancy: { kind: 'global' }, access: masterData },
  { template: 'parameters/{id}', schema: parameterSchema, unique: [], tenancy: { kind: 'global' }, access: masterData },
  { template: 'views/{id}', schema: viewSchema, unique: ['routeKey'], tenancy: { kind: 'global' }, access: masterData },
  { template: 'histories/{id}', schema: historySchema, unique: ['version'], tenancy: { kind: 'global' }, access: masterData },
  {
    template: 'alerts/{id}',
    schema: alertSchema,
    unique: [],
    tenancy: { kind: 'fields', domainFields: ['domainId'], roomField: 'roomId' },
    access: rule(L.individualUser, L.individualUser, L.generalStaff, L.generalStaff, L.administrator),
    references: [
      { field: 'roomId', collection: 'rooms', sameDomain: true },
      { field: 'deviceSerial', collection: 'devices', sameDomain: true },
    ],
    agencyView: 'none',
    // Who acknowledged and when are the server's word, not the browser's (issue 18).
    rules: [{ kind: 'acknowledgement', byField: 'acknowledgedBy', atField: 'acknowledgedAt', staffFrom: L.generalStaff, staffBelow: L.agency }],
  },
  {
    template: 'auditLogs/{id}',
    schema: auditLogSchema,
    unique: [],
    tenancy: { kind: 'fields', domainFields: [] },
    access: rule(L.privilegeAdministrator, L.privilegeAdministrator, null, null, null),
  },
  {
    template: 'invitations/{id}',
    schema: invitationSchema,
    unique: [],
    tenancy: { kind: 'fields', domainFields: ['domainId'] },
    access: rule(L.administrator, L.administrator, L.administrator, L.administrator, L.administrator),
    // The staff rules hold for the level an invitation grants: an administrator (3) cannot raise one to 3+.
    levelGuard: { field: 'accessLevel', protectedFrom: L.administrator, viewAllFrom: L.administrator, editAllFrom: L.privilegeAdministrator },
  },
  {
    template: 'reportAccess/{id}',
    schema: reportAccessSchema,
    unique: [],
    tenancy: { kind: 'roomField', field: 'roomId' },
    access: rule(L.administrator, L.administrator, L.administrator, L.administrator, L.administrator),
    managedBy: '/api/auth/report-access and /api/reports/links',
  },
  // Partnership by consent (shared/partnerRequests.ts): the agency asks, the customer's owner answers; the server writes both sides.
  {
    template: 'domains/{domainId}/partnerRequests/{customerDomainId}',
    schema: partnerRequestSchema,
    unique: [],
    tenancy: { kind: 'parent' },
    access: rule(L.agency, L.agency, L.agencyAdmin, L.agencyAdmin, L.agencyAdmin),
    managedBy: '/api/agency/{agencyId}/partner-requests and /api/domains/{domainId}/partner-requests',
  },
];

function collectionIds(template: string): string[] {
  return template.split('/').filter((_, index) => index % 2 === 0);
}

export const COLLECTIONS: readonly CollectionSpec[] = specs.map((spec) => {
  const ids = collectionIds(spec.template);
  return { ...spec, name: ids.join('/'), group: ids[ids.length - 1] ?? '', parent: ids.length > 1 ? ids.slice(0, -1).join('/') : null };
});

const BY_NAME = new Map(COLLECTIONS.map((spec) => [spec.name, spec]));
const BY_GROUP = new Map(COLLECTIONS.map((spec) => [spec.group, spec]));

export function collectionByName(name: string): CollectionSpec | undefined {
  return BY_NAME.get(name);
}

/** The collection of a collection-group query (groups are unique in this registry). */
export function collectionByGroup(group: string): CollectionSpec | undefined {
  return BY_GROUP.get(group);
}

/** The common fields: set by the server, never written by a caller. */
export const COMMON_FIELDS = ['documentReferenceId', 'documentPath', 'createdAt', 'updatedAt'] as const;

/**
 * Each collection's schema under its registry name, with its own zod type, so that clients can
 * type records from the registry (web `RecordOf<'rooms'>`). Types only: COLLECTIONS is the table.
 */
export const SCHEMAS = {
  domains: domainSchema,
  'domains/staff': staffSchema,
  'domains/partners': partnerSchema,
  'domains/bills': billSchema,
  rooms: roomSchema,
  'rooms/sleeps': sleepSchema,
  'rooms/uploads': uploadSchema,
  devices: deviceSchema,
  'devices/borrows': borrowSchema,
  deviceTypes: deviceTypeSchema,
  parameters: parameterSchema,
  views: viewSchema,
  histories: historySchema,
  alerts: alertSchema,
  auditLogs: auditLogSchema,
  invitations: invitationSchema,
  reportAccess: reportAccessSchema,
  'domains/partnerRequests': partnerRequestSchema,
} as const;

export type CollectionName = keyof typeof SCHEMAS;
