/**
 * The agency area's API (docs/api.md, "Agency area" and "Agency bills"). Every route names the
 * agency; agency users (50, 51) may only name their own, developers (100+) any (agencyAccess.ts).
 * Reads need 50, writes 51.
 *   GET    /api/agency/agencies                           → `{ agencies }` the agencies the caller may open
 *   GET    /api/agency/:agencyId/overview                 → `{ agency, partners, domains, canEdit }` (devices, rooms and bills: GET …/devices, …/rooms and …/bills, a page at a time)
 *   GET    /api/agency/:agencyId/statistics               → `{ statistics }`
 *   GET    /api/agency/:agencyId/partner-candidates       → `{ domains }` (51)
 *   GET    /api/agency/:agencyId/partners?limit&cursor    → `{ partners, nextCursor }` by name, keyset-paged
 *   GET    /api/agency/:agencyId/partner-requests?limit&cursor → `{ requests, nextCursor }` newest first, keyset-paged
 *   PUT    /api/agency/:agencyId/partner-requests/:domainId `{ name, contractStart, contractEnd, monthlyUnitPrice, message? }` → `{ request }` (51)
 *   DELETE /api/agency/:agencyId/partner-requests/:domainId → 204, a waiting request withdrawn (51)
 *   PUT    /api/agency/:agencyId/partners/:partnerId      `{ name, contractStart, contractEnd, monthlyUnitPrice, status, paymentTerms? }` → `{ partner }` (existing partners only)
 *   GET    /api/agency/:agencyId/partners/:partnerId/staff → `{ staff }`
 *   PUT    /api/agency/:agencyId/settings                 `{ invoiceRegistrationNumber }` → `{ agency }`
 *   GET    /api/agency/:agencyId/devices?search&status&partnerId&online&limit&offset → `{ devices, matched, total }` a page of the filtered devices
 *   GET    /api/agency/:agencyId/rooms?partnerId&limit&offset → `{ rooms, matched }` a page of the partners' rooms
 *   GET    /api/agency/:agencyId/bills?status&partnerId&limit&cursor → `{ bills, nextCursor }` newest month first, keyset-paged
 *   POST   /api/agency/:agencyId/bills/generate           `{ month, partnerId? }` → `{ bills, skipped }`
 *   POST   /api/agency/:agencyId/bills/:billId/issue      `{}` → `{ bill }`
 *   POST   /api/agency/:agencyId/bills/:billId/paid       `{}` → `{ bill }`
 *   DELETE /api/agency/:agencyId/bills/:billId            → 204 (drafts only)
 *   GET    /api/agency/:agencyId/bills/:billId/pdf        → application/pdf (issued or paid bills)
 * The customer's side of partner requests (partnerRequests.ts), levels 4-5 of the root domain:
 *   GET    /api/domains/:domainId/partner-requests                   → `{ requests }`
 *   POST   /api/domains/:domainId/partner-requests/:agencyId/answer  `{ accept }` → `{ requests }`
 *   POST   /api/domains/:domainId/partner-requests/:agencyId/end     `{}` → `{ requests }`
 * Errors: `{ code, message, reason }` (agencyError.ts). Each route's `response` schemas (shared
 * billing/agencyAnswers.ts and partnerRequests.ts) document its answers in /api/openapi.json and
 * check each as it is written (openapi/responses.agency.test.ts calls them all).
 */
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod/v3';
import { recordIdParam } from '@nemuri/shared/periodQuery';
import { daysInMonth } from '@nemuri/shared/billing/billArithmetic';
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError } from '@nemuri/shared/documents/errors';
import { errorResponses, noContent } from '@nemuri/shared/apiErrors';
import {
  agencyChoicesSchema,
  agencyOverviewSchema,
  agencySettingsSavedSchema,
  agencyStatisticsAnswerSchema,
  billAnswerSchema,
  billsPageSchema,
  devicesPageSchema,
  generateBillsAnswerSchema,
  partnerCandidatesSchema,
  partnerSavedSchema,
  partnersPageSchema,
  partnerStaffSchema,
  roomsPageSchema,
  AGENCY_BILL_STATUSES,
  AGENCY_BILLS_DEFAULT_PAGE,
  AGENCY_BILLS_MAX_PAGE,
  AGENCY_DEVICES_DEFAULT_PAGE,
  AGENCY_DEVICES_MAX_PAGE,
  AGENCY_LIST_DEFAULT_PAGE,
  AGENCY_LIST_MAX_PAGE,
  AGENCY_ROOMS_PAGE,
  filterDevices,
  type Bill,
  type DevicesPage,
  type PartnersPage,
  type RoomsPage,
} from '@nemuri/shared/billing/agencyAnswers';
import { DEVICE_STATUSES } from '@nemuri/shared/documents/collections';
import {
  agencyPartnerRequestsPageSchema,
  customerPartnerRequestsPageSchema,
  partnerRequestAnswer,
  partnerRequestInput,
  partnerRequestSentSchema,
} from '@nemuri/shared/partnerRequests';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { keysetPage, readEveryPage, UnknownCursor } from '../documents/keysetPage.ts';
import { ApiError, apiErrorOfDocument } from '../http/errors.ts';
import { sendBytes } from '../http/sendBytes.ts';
import type { ZodTypeProvider } from '../http/zodRouteSchemas.ts';
import { agencyClaims, callerFor, checkId, type AgencyOperation } from './agencyAccess.ts';
import { addresseeOf, billForInvoice, deleteDraft, generateBills, issueBill, markBillPaid } from './agencyBills.ts';
import { answered, idOf, loadAgencyData, readAgency, text } from './agencyData.ts';
import { AgencyError } from './agencyError.ts';
import type { Mailer, MailMessage } from '../mail/mail.ts';
import { partnerStaff, savePartner, saveInvoiceSettings } from './agencyPartners.ts';
import {
  agencyRequestsPage,
  answerRequest,
  askPartner,
  cancelRequest,
  customerCaller,
  customerRequestsPage,
  endPartnership,
  partnerCandidates,
} from './partnerRequests.ts';
import { agencyStatistics, deviceRows, partnerRow, partnerRows, roomRows } from './agencyViews.ts';
import { issuerOf, renderInvoicePdf } from './invoicePdf.ts';

export interface AgencyPluginOptions {
  /** The clock (tests fix it); default the system's. */
  now?: () => Date;
  /** Where mail goes once sign-in has started (server.ts); without it, mail is logged and dropped. */
  mail?: Mailer | Promise<Mailer>;
}

const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'month must be YYYY-MM');
const day = z.string().regex(/^\d{4}-\d\d-\d\d$/, 'dates are YYYY-MM-DD');

const generateBody = z.object({ month, partnerId: z.string().min(1).max(200).optional() }).strict();
const emptyBody = z.object({}).strict();
const partnerBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    contractStart: day.nullable(),
    contractEnd: day.nullable(),
    monthlyUnitPrice: z.number().int().gte(0).lte(10_000_000),
    status: z.enum(['active', 'ended']),
    paymentTerms: z
      .object({ monthsAfter: z.number().int().gte(0).lte(3), day: z.number().int().gte(1).lte(31).nullable() })
      .strict()
      .optional(),
  })
  .strict();
const billsQuery = z
  .object({
    status: z.enum(AGENCY_BILL_STATUSES).optional(),
    partnerId: recordIdParam.optional(),
    limit: z.coerce.number().int().min(1).max(AGENCY_BILLS_MAX_PAGE).default(AGENCY_BILLS_DEFAULT_PAGE),
    /** The id of the last bill of the previous page. */
    cursor: recordIdParam.optional(),
  })
  .strict();
const devicesQuery = z
  .object({
    search: z.string().max(100).default(''),
    status: z.enum(DEVICE_STATUSES).optional(),
    partnerId: recordIdParam.optional(),
    online: z.enum(['online', 'offline']).optional(),
    limit: z.coerce.number().int().min(1).max(AGENCY_DEVICES_MAX_PAGE).default(AGENCY_DEVICES_DEFAULT_PAGE),
    /** Devices before the page (the agency's devices are all read, then filtered and cut). */
    offset: z.coerce.number().int().min(0).default(0),
  })
  .strict();
const roomsQuery = z
  .object({
    partnerId: recordIdParam.optional(),
    limit: z.coerce.number().int().min(1).max(AGENCY_DEVICES_MAX_PAGE).default(AGENCY_ROOMS_PAGE),
    /** Rooms before the page (the agency's rooms are all read, then sorted and cut). */
    offset: z.coerce.number().int().min(0).default(0),
  })
  .strict();
/** A keyset page of a list: `cursor` is the last row's id of the previous page. */
const listQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(AGENCY_LIST_MAX_PAGE).default(AGENCY_LIST_DEFAULT_PAGE),
    cursor: recordIdParam.optional(),
  })
  .strict();
const settingsBody = z
  .object({
    invoiceRegistrationNumber: z
      .string()
      .regex(/^T\d{13}$/, 'T followed by 13 digits')
      .nullable(),
  })
  .strict();

function replyError(reply: FastifyReply, error: ApiError): FastifyReply {
  const reason = error instanceof AgencyError ? error.reason : error.code;
  return reply.code(error.statusCode).type('application/json; charset=utf-8').send({ code: error.code, message: error.message, reason });
}

const agencyParams = z.object({ agencyId: z.string() });
const partnerParams = agencyParams.extend({ partnerId: z.string() });
const requestParams = agencyParams.extend({ domainId: z.string() });
const billParams = agencyParams.extend({ billId: z.string() });
const customerRequestParams = z.object({ domainId: z.string(), agencyId: z.string() });

/** The errors of a read: a bad id or query, signed out, not allowed, a missing (or out of reach) agency, partner or domain. */
const reads = errorResponses(400, 401, 403, 404);
/** A change's also: what the records' state forbids now (a frozen bill, a request no longer waiting, a concurrent change). */
const changes = errorResponses(400, 401, 403, 404, 409);

export const agencyPlugin = fp<AgencyPluginOptions>(
  async (fastify, { now = () => new Date(), mail }) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const store = app.documents;

    /** Sends without waiting: the answer does not depend on the mail server. */
    const deliver = (message: MailMessage): void => {
      if (mail === undefined) {
        app.log.warn({ to: message.to, subject: message.subject }, 'no mail transport is configured: the mail is dropped');
        return;
      }
      Promise.resolve(mail)
        .then((mailer) => mailer.send(message))
        .catch((error: unknown) => app.log.error({ err: error, to: message.to, subject: message.subject }, 'mail could not be sent'));
    };

    const answer = async <T>(reply: FastifyReply, fn: () => Promise<T>): Promise<T | FastifyReply> => {
      reply.header('cache-control', 'no-store');
      try {
        return await fn();
      } catch (error) {
        if (error instanceof UnknownCursor) return replyError(reply, new AgencyError(400, 'invalid-argument', 'invalid-argument', error.message));
        const apiError = error instanceof DocumentError ? apiErrorOfDocument(error) : error;
        if (apiError instanceof ApiError) return replyError(reply, apiError);
        throw error;
      }
    };

    /** The caller checked for the operation, and the claims the engine acts with inside the agency. */
    const scoped = (principal: Claims | null, agencyId: string, operation: AgencyOperation): { caller: Claims; claims: Claims } => {
      const caller = callerFor(principal, checkId(agencyId, 'agency'), operation);
      return { caller, claims: agencyClaims(caller, agencyId) };
    };

    app.get(
      '/api/agency/agencies',
      { schema: { summary: 'The agencies the caller may open', response: { 200: agencyChoicesSchema, ...errorResponses(401, 403) } } },
      async (request, reply) =>
        answer(reply, async () => {
          const principal = request.principal;
          if (principal === null) throw new ApiError(401, 'unauthenticated', 'Sign in to use the data');
          if (principal.accessLevel < ROLE_LEVELS.agency)
            throw new AgencyError(403, 'permission-denied', 'permission-denied', 'The agency area needs an agency (level 50) or developer (level 100) account');
          if (principal.accessLevel < ROLE_LEVELS.developer) {
            if (principal.domainId === null) return { agencies: [] };
            const agency = await readAgency(store, principal, principal.domainId);
            return { agencies: [{ id: principal.domainId, name: text(agency.name) ?? principal.domainId }] };
          }
          const agencies = await readEveryPage(store, principal, { collection: 'domains', where: [['kind', '==', 'agency']] });
          return {
            agencies: agencies.map((agency) => ({ id: idOf(agency), name: text(agency.name) ?? idOf(agency) })).sort((a, b) => a.name.localeCompare(b.name)),
          };
        }),
    );

    app.get(
      '/api/agency/:agencyId/overview',
      { schema: { summary: "An agency's partners and domains", params: agencyParams, response: { 200: agencyOverviewSchema, ...reads } } },
      async (request, reply) =>
        answer(reply, async () => {
          const { caller, claims } = scoped(request.principal, request.params.agencyId, 'read');
          const data = await loadAgencyData(store, claims, request.params.agencyId);
          return {
            agency: { id: request.params.agencyId, name: text(data.agency.name), invoiceRegistrationNumber: text(data.agency.invoiceRegistrationNumber) },
            partners: partnerRows(data),
            domains: data.domains.map((domain) => ({ id: domain.id, name: domain.name, kind: domain.kind, rootDomainId: domain.rootDomainId })),
            canEdit: caller.accessLevel >= ROLE_LEVELS.agencyAdmin,
          };
        }),
    );

    app.get(
      '/api/agency/:agencyId/statistics',
      { schema: { summary: "An agency's statistics", params: agencyParams, response: { 200: agencyStatisticsAnswerSchema, ...reads } } },
      async (request, reply) =>
        answer(reply, async () => {
          const { claims } = scoped(request.principal, request.params.agencyId, 'read');
          return { statistics: agencyStatistics(await loadAgencyData(store, claims, request.params.agencyId), now().getTime()) };
        }),
    );

    app.get(
      '/api/agency/:agencyId/partner-candidates',
      { schema: { summary: 'The root domains an agency may ask to be partners', params: agencyParams, response: { 200: partnerCandidatesSchema, ...reads } } },
      async (request, reply) =>
        answer(reply, async () => {
          const { claims } = scoped(request.principal, request.params.agencyId, 'write');
          await readAgency(store, claims, request.params.agencyId);
          return { domains: await partnerCandidates(store, claims, request.params.agencyId) };
        }),
    );

    app.put(
      '/api/agency/:agencyId/partners/:partnerId',
      { schema: { summary: "Edits a partner's contract", params: partnerParams, body: partnerBody, response: { 200: partnerSavedSchema, ...reads } } },
      async (request, reply) =>
        answer(reply, async () => {
          const { claims } = scoped(request.principal, request.params.agencyId, 'write');
          const body = request.body;
          const partnerId = checkId(request.params.partnerId, 'partner');
          await readAgency(store, claims, request.params.agencyId);
          const partner = await savePartner(store, claims, request.params.agencyId, partnerId, body);
          request.log.info({ agencyId: request.params.agencyId, partnerId, by: claims.uid }, 'agency partner saved');
          return { partner };
        }),
    );

    // The partners a page at a time, by name (then id), each with what it holds and owes.
    app.get(
      '/api/agency/:agencyId/partners',
      { schema: { summary: "A page of an agency's partners", params: agencyParams, querystring: listQuery, response: { 200: partnersPageSchema, ...reads } } },
      async (request, reply) =>
        answer(reply, async (): Promise<PartnersPage> => {
          const { claims } = scoped(request.principal, request.params.agencyId, 'read');
          const query = request.query;
          const data = await loadAgencyData(store, claims, request.params.agencyId);
          const page = await keysetPage(
            store,
            claims,
            { collection: `domains/${request.params.agencyId}/partners`, orderBy: [['name', 'asc']] },
            query.limit,
            query.cursor,
          );
          return { partners: page.records.map((partner) => partnerRow(data, partner)), nextCursor: page.nextCursor };
        }),
    );

    app.get(
      '/api/agency/:agencyId/partner-requests',
      {
        schema: {
          summary: "A page of an agency's partner requests",
          params: agencyParams,
          querystring: listQuery,
          response: { 200: agencyPartnerRequestsPageSchema, ...reads },
        },
      },
      async (request, reply) =>
        answer(reply, async () => {
          const { claims } = scoped(request.principal, request.params.agencyId, 'read');
          const query = request.query;
          await readAgency(store, claims, request.params.agencyId);
          return agencyRequestsPage(store, claims, request.params.agencyId, query.limit, query.cursor);
        }),
    );

    app.put(
      '/api/agency/:agencyId/partner-requests/:domainId',
      {
        schema: {
          summary: 'An agency asks a domain to become its partner',
          params: requestParams,
          body: partnerRequestInput,
          response: { 200: partnerRequestSentSchema, ...changes },
        },
      },
      async (request, reply) =>
        answer(reply, async () => {
          const { claims } = scoped(request.principal, request.params.agencyId, 'write');
          const body = request.body;
          const customerId = checkId(request.params.domainId, 'domain');
          const agency = await readAgency(store, claims, request.params.agencyId);
          const result = await askPartner(store, claims, agency, customerId, body, now());
          for (const message of result.notify) deliver(message);
          request.log.info({ agencyId: request.params.agencyId, customerId, by: claims.uid }, 'partner request sent');
          return { request: result.request };
        }),
    );

    app.delete(
      '/api/agency/:agencyId/partner-requests/:domainId',
      { schema: { summary: 'An agency withdraws a waiting partner request', params: requestParams, response: { 204: noContent, ...changes } } },
      async (request, reply) =>
        answer(reply, async () => {
          const { claims } = scoped(request.principal, request.params.agencyId, 'write');
          const customerId = checkId(request.params.domainId, 'domain');
          await readAgency(store, claims, request.params.agencyId);
          await cancelRequest(store, claims, request.params.agencyId, customerId, now());
          return reply.code(204).send();
        }),
    );

    app.get(
      '/api/domains/:domainId/partner-requests',
      {
        schema: {
          summary: 'A page of the partner requests to a corporation or household',
          params: z.object({ domainId: z.string() }),
          querystring: listQuery,
          response: { 200: customerPartnerRequestsPageSchema, ...reads },
        },
      },
      async (request, reply) =>
        answer(reply, async () => {
          customerCaller(request.principal, request.params.domainId);
          const query = request.query;
          return customerRequestsPage(store, request.params.domainId, query.limit, query.cursor);
        }),
    );

    app.post(
      '/api/domains/:domainId/partner-requests/:agencyId/answer',
      {
        schema: {
          summary: "A domain answers an agency's partner request",
          params: customerRequestParams,
          body: partnerRequestAnswer,
          response: { 200: customerPartnerRequestsPageSchema, ...changes },
        },
      },
      async (request, reply) =>
        answer(reply, async () => {
          const customer = customerCaller(request.principal, request.params.domainId);
          const body = request.body;
          const agencyId = checkId(request.params.agencyId, 'agency');
          await answerRequest(store, customer, request.params.domainId, agencyId, body.accept, now());
          request.log.info({ agencyId, customerId: request.params.domainId, by: customer.uid, accept: body.accept }, 'partner request answered');
          return customerRequestsPage(store, request.params.domainId, AGENCY_LIST_DEFAULT_PAGE, undefined);
        }),
    );

    app.post(
      '/api/domains/:domainId/partner-requests/:agencyId/end',
      {
        schema: {
          summary: 'A domain ends its partnership with an agency',
          params: customerRequestParams,
          body: emptyBody,
          response: { 200: customerPartnerRequestsPageSchema, ...changes },
        },
      },
      async (request, reply) =>
        answer(reply, async () => {
          const customer = customerCaller(request.principal, request.params.domainId);
          const agencyId = checkId(request.params.agencyId, 'agency');
          await endPartnership(store, customer, request.params.domainId, agencyId, now());
          request.log.info({ agencyId, customerId: request.params.domainId, by: customer.uid }, 'partnership ended by the customer');
          return customerRequestsPage(store, request.params.domainId, AGENCY_LIST_DEFAULT_PAGE, undefined);
        }),
    );

    app.get(
      '/api/agency/:agencyId/partners/:partnerId/staff',
      { schema: { summary: "The staff of a partner's domains", params: partnerParams, response: { 200: partnerStaffSchema, ...reads } } },
      async (request, reply) =>
        answer(reply, async () => {
          const { claims } = scoped(request.principal, request.params.agencyId, 'read');
          const partnerId = checkId(request.params.partnerId, 'partner');
          const data = await loadAgencyData(store, claims, request.params.agencyId);
          const domainIds = data.partnerDomains.get(partnerId);
          if (domainIds === undefined) throw new AgencyError(404, 'not-found', 'partner-not-found', `No partner ${partnerId}`);
          return { staff: await partnerStaff(store, claims, request.params.agencyId, partnerId, domainIds) };
        }),
    );

    app.put(
      '/api/agency/:agencyId/settings',
      {
        schema: {
          summary: "Sets an agency's invoice settings",
          params: agencyParams,
          body: settingsBody,
          response: { 200: agencySettingsSavedSchema, ...reads },
        },
      },
      async (request, reply) =>
        answer(reply, async () => {
          const { claims } = scoped(request.principal, request.params.agencyId, 'write');
          const body = request.body;
          await readAgency(store, claims, request.params.agencyId);
          const agency = await saveInvoiceSettings(store, claims, request.params.agencyId, body.invoiceRegistrationNumber);
          return { agency };
        }),
    );

    app.get(
      '/api/agency/:agencyId/devices',
      { schema: { summary: "A page of an agency's devices", params: agencyParams, querystring: devicesQuery, response: { 200: devicesPageSchema, ...reads } } },
      async (request, reply) =>
        answer(reply, async (): Promise<DevicesPage> => {
          const { claims } = scoped(request.principal, request.params.agencyId, 'read');
          const query = request.query;
          const data = await loadAgencyData(store, claims, request.params.agencyId);
          const rows = deviceRows(data, now().getTime());
          const matched = filterDevices(rows, {
            search: query.search,
            status: query.status ?? null,
            partnerId: query.partnerId ?? null,
            online: query.online ?? null,
          });
          return { devices: matched.slice(query.offset, query.offset + query.limit), matched: matched.length, total: rows.length };
        }),
    );

    app.get(
      '/api/agency/:agencyId/rooms',
      {
        schema: {
          summary: "A page of an agency's partners' rooms",
          params: agencyParams,
          querystring: roomsQuery,
          response: { 200: roomsPageSchema, ...reads },
        },
      },
      async (request, reply) =>
        answer(reply, async (): Promise<RoomsPage> => {
          const { claims } = scoped(request.principal, request.params.agencyId, 'read');
          const query = request.query;
          const data = await loadAgencyData(store, claims, request.params.agencyId);
          const rooms = roomRows(data)
            .filter((room) => query.partnerId === undefined || room.partnerId === query.partnerId)
            .sort(
              (a, b) => a.domainName.localeCompare(b.domainName, 'ja') || a.name.localeCompare(b.name, 'ja', { numeric: true }) || a.id.localeCompare(b.id),
            );
          return { rooms: rooms.slice(query.offset, query.offset + query.limit), matched: rooms.length };
        }),
    );

    // A page of bills, read by the engine with the agency's claims: keyset by the last bill's record
    // (month descending, then partner, then id), so a page costs the same however far back it is.
    app.get(
      '/api/agency/:agencyId/bills',
      { schema: { summary: "A page of an agency's bills", params: agencyParams, querystring: billsQuery, response: { 200: billsPageSchema, ...reads } } },
      async (request, reply) =>
        answer(reply, async () => {
          const { claims } = scoped(request.principal, request.params.agencyId, 'read');
          const query = request.query;
          const collection = `domains/${request.params.agencyId}/bills`;
          await readAgency(store, claims, request.params.agencyId);
          if (query.cursor !== undefined && (await store.get(claims, `${collection}/${query.cursor}`)) === null) {
            throw new AgencyError(400, 'invalid-argument', 'invalid-argument', 'cursor: not a bill of this agency');
          }
          const where: [string, '==', string][] = [];
          if (query.status !== undefined) where.push(['status', '==', query.status]);
          if (query.partnerId !== undefined) where.push(['partnerDomainId', '==', query.partnerId]);
          const found = await store.query(claims, {
            collection,
            where,
            orderBy: [
              ['month', 'desc'],
              ['partnerDomainId', 'asc'],
            ],
            limit: query.limit + 1,
            ...(query.cursor === undefined ? {} : { startAfter: { document: `${collection}/${query.cursor}` } }),
          });
          const bills = found.slice(0, query.limit).map((bill) => answered<Bill>(bill));
          return { bills, nextCursor: found.length > query.limit ? idOf(bills.at(-1) as (typeof bills)[number]) : null };
        }),
    );

    app.post(
      '/api/agency/:agencyId/bills/generate',
      { schema: { summary: "Drafts a month's bills", params: agencyParams, body: generateBody, response: { 200: generateBillsAnswerSchema, ...changes } } },
      async (request, reply) =>
        answer(reply, async () => {
          const { claims } = scoped(request.principal, request.params.agencyId, 'write');
          const body = request.body;
          const partnerId = body.partnerId === undefined ? null : checkId(body.partnerId, 'partner');
          const result = await generateBills(store, claims, request.params.agencyId, body.month, partnerId, now());
          request.log.info({ agencyId: request.params.agencyId, month: body.month, by: claims.uid, bills: result.bills.length }, 'agency bills generated');
          return result;
        }),
    );

    app.post(
      '/api/agency/:agencyId/bills/:billId/issue',
      { schema: { summary: 'Issues a draft bill', params: billParams, body: emptyBody, response: { 200: billAnswerSchema, ...changes } } },
      async (request, reply) =>
        answer(reply, async () => {
          const { claims } = scoped(request.principal, request.params.agencyId, 'write');
          await readAgency(store, claims, request.params.agencyId);
          const bill = await issueBill(store, claims, request.params.agencyId, checkId(request.params.billId, 'bill'), now());
          request.log.info({ agencyId: request.params.agencyId, billId: request.params.billId, by: claims.uid }, 'agency bill issued');
          return { bill };
        }),
    );

    app.post(
      '/api/agency/:agencyId/bills/:billId/paid',
      { schema: { summary: 'Marks an issued bill paid', params: billParams, body: emptyBody, response: { 200: billAnswerSchema, ...changes } } },
      async (request, reply) =>
        answer(reply, async () => {
          const { claims } = scoped(request.principal, request.params.agencyId, 'write');
          await readAgency(store, claims, request.params.agencyId);
          return { bill: await markBillPaid(store, claims, request.params.agencyId, checkId(request.params.billId, 'bill'), now()) };
        }),
    );

    app.delete(
      '/api/agency/:agencyId/bills/:billId',
      { schema: { summary: 'Deletes a draft bill', params: billParams, response: { 204: noContent, ...changes } } },
      async (request, reply) =>
        answer(reply, async () => {
          const { claims } = scoped(request.principal, request.params.agencyId, 'write');
          await readAgency(store, claims, request.params.agencyId);
          await deleteDraft(store, claims, request.params.agencyId, checkId(request.params.billId, 'bill'));
          return reply.code(204).send();
        }),
    );

    app.get(
      '/api/agency/:agencyId/bills/:billId/pdf',
      {
        config: { fairShare: 'pdf' },
        schema: {
          summary: 'An issued bill as a PDF invoice',
          params: billParams,
          produces: ['application/pdf'],
          response: { ...changes, ...errorResponses(429) },
        },
      },
      async (request, reply) =>
        answer(reply, async () => {
          const { claims } = scoped(request.principal, request.params.agencyId, 'read');
          const agency = await readAgency(store, claims, request.params.agencyId);
          const billId = checkId(request.params.billId, 'bill');
          const bill = await billForInvoice(store, claims, request.params.agencyId, billId);
          const pdf = await renderInvoicePdf(
            bill,
            issuerOf(bill, agency),
            await addresseeOf(store, claims, request.params.agencyId, bill),
            daysInMonth(String(bill.month)),
          );
          return sendBytes(reply.type('application/pdf').header('content-disposition', `attachment; filename="invoice-${billId}.pdf"`), pdf);
        }),
    );
  },
  { name: 'agency', dependencies: ['documents', 'principal'], encapsulate: true },
);
