/**
 * The agency area's API (docs/api.md, "Agency area" and "Agency bills"). Every route names the
 * agency; agency users (50, 51) may only name their own, developers (100+) any (agencyAccess.ts).
 * Reads need 50, writes 51.
 *   GET    /api/agency/agencies                           → `{ agencies }` the agencies the caller may open
 *   GET    /api/agency/:agencyId/overview                 → `{ agency, partners, domains, devices, rooms, bills, canEdit }`
 *   GET    /api/agency/:agencyId/statistics               → `{ statistics }`
 *   GET    /api/agency/:agencyId/partner-candidates       → `{ domains }` (51)
 *   GET    /api/agency/:agencyId/partner-requests         → `{ requests }`
 *   PUT    /api/agency/:agencyId/partner-requests/:domainId `{ name, contractStart, contractEnd, monthlyUnitPrice, message? }` → `{ request }` (51)
 *   DELETE /api/agency/:agencyId/partner-requests/:domainId → 204, a waiting request withdrawn (51)
 *   PUT    /api/agency/:agencyId/partners/:partnerId      `{ name, contractStart, contractEnd, monthlyUnitPrice, status }` → `{ partner }` (existing partners only)
 *   GET    /api/agency/:agencyId/partners/:partnerId/staff → `{ staff }`
 *   PUT    /api/agency/:agencyId/settings                 `{ invoiceRegistrationNumber }` → `{ agency }`
 *   POST   /api/agency/:agencyId/bills/generate           `{ month, partnerId? }` → `{ bills, skipped }`
 *   POST   /api/agency/:agencyId/bills/:billId/issue      `{}` → `{ bill }`
 *   POST   /api/agency/:agencyId/bills/:billId/paid       `{}` → `{ bill }`
 *   DELETE /api/agency/:agencyId/bills/:billId            → 204 (drafts only)
 *   GET    /api/agency/:agencyId/bills/:billId/pdf        → application/pdf (issued or paid bills)
 * The customer's side of partner requests (partnerRequests.ts), levels 4-5 of the root domain:
 *   GET    /api/domains/:domainId/partner-requests                   → `{ requests }`
 *   POST   /api/domains/:domainId/partner-requests/:agencyId/answer  `{ accept }` → `{ requests }`
 *   POST   /api/domains/:domainId/partner-requests/:agencyId/end     `{}` → `{ requests }`
 * Errors: `{ code, message, reason }` (agencyError.ts).
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod/v3';
import { daysInMonth } from '@nemuri/shared/billing/billArithmetic';
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError, HTTP_STATUS_OF_CODE } from '@nemuri/shared/documents/errors';
import { partnerRequestAnswer, partnerRequestInput } from '@nemuri/shared/partnerRequests';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { Database } from '../database/database.ts';
import { DocumentStore } from '../documents/store.ts';
import { ApiError, type ErrorCode } from '../http/errors.ts';
import { agencyClaims, callerFor, checkId, type AgencyOperation } from './agencyAccess.ts';
import { billForInvoice, deleteDraft, generateBills, issueBill, markBillPaid } from './agencyBills.ts';
import { idOf, LIMIT, loadAgencyData, readAgency, text } from './agencyData.ts';
import { AgencyError } from './agencyError.ts';
import type { Mailer, MailMessage } from '../mail/mail.ts';
import { partnerStaff, savePartner, saveInvoiceSettings } from './agencyPartners.ts';
import { agencyRequests, answerRequest, askPartner, cancelRequest, customerCaller, customerRequests, endPartnership, partnerCandidates } from './partnerRequests.ts';
import { agencyStatistics, deviceRows, partnerRows, roomRows } from './agencyViews.ts';
import { issuerOf, renderInvoicePdf } from './invoicePdf.ts';

export interface AgencyPluginOptions {
  database: Database;
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
  })
  .strict();
const settingsBody = z.object({ invoiceRegistrationNumber: z.string().regex(/^T\d{13}$/, 'T followed by 13 digits').nullable() }).strict();

function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) {
    throw new AgencyError(400, 'invalid-argument', 'invalid-argument', parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; '));
  }
  return parsed.data;
}

function replyError(reply: FastifyReply, error: ApiError): FastifyReply {
  const reason = error instanceof AgencyError ? error.reason : error.code;
  return reply.code(error.statusCode).type('application/json; charset=utf-8').send({ code: error.code, message: error.message, reason });
}

function apiErrorOf(error: DocumentError): ApiError {
  const code: ErrorCode = error.code === 'aborted' ? 'already-exists' : error.code === 'unimplemented' ? 'internal' : error.code;
  return new ApiError(HTTP_STATUS_OF_CODE[error.code], code, error.message);
}

type Params = { agencyId: string };

export const agencyPlugin: FastifyPluginAsync<AgencyPluginOptions> = async (app, { database, now = () => new Date(), mail }) => {
  const store = new DocumentStore(database, app.log);

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
      const apiError = error instanceof DocumentError ? apiErrorOf(error) : error;
      if (apiError instanceof ApiError) return replyError(reply, apiError);
      throw error;
    }
  };

  /** The caller checked for the operation, and the claims the engine acts with inside the agency. */
  const scoped = (principal: Claims | null, agencyId: string, operation: AgencyOperation): { caller: Claims; claims: Claims } => {
    const caller = callerFor(principal, checkId(agencyId, 'agency'), operation);
    return { caller, claims: agencyClaims(caller, agencyId) };
  };

  app.get('/api/agency/agencies', async (request, reply) =>
    answer(reply, async () => {
      const principal = request.principal;
      if (principal === null) throw new ApiError(401, 'unauthenticated', 'Sign in to use the data');
      if (principal.accessLevel < ROLE_LEVELS.agency) throw new AgencyError(403, 'permission-denied', 'permission-denied', 'The agency area needs an agency (level 50) or developer (level 100) account');
      if (principal.accessLevel < ROLE_LEVELS.developer) {
        if (principal.domainId === null) return { agencies: [] };
        const agency = await readAgency(store, principal, principal.domainId);
        return { agencies: [{ id: principal.domainId, name: text(agency.name) ?? principal.domainId }] };
      }
      const agencies = await store.query(principal, { collection: 'domains', where: [['kind', '==', 'agency']], limit: LIMIT });
      return { agencies: agencies.map((agency) => ({ id: idOf(agency), name: text(agency.name) ?? idOf(agency) })).sort((a, b) => a.name.localeCompare(b.name)) };
    }),
  );

  app.get<{ Params: Params }>('/api/agency/:agencyId/overview', async (request, reply) =>
    answer(reply, async () => {
      const { caller, claims } = scoped(request.principal, request.params.agencyId, 'read');
      const data = await loadAgencyData(store, claims, request.params.agencyId);
      const at = now().getTime();
      return {
        agency: { id: request.params.agencyId, name: text(data.agency.name), invoiceRegistrationNumber: text(data.agency.invoiceRegistrationNumber) },
        partners: partnerRows(data),
        domains: data.domains.map((domain) => ({ id: domain.id, name: domain.name, kind: domain.kind, rootDomainId: domain.rootDomainId })),
        devices: deviceRows(data, at),
        rooms: roomRows(data),
        bills: [...data.bills].sort((a, b) => String(b.month).localeCompare(String(a.month)) || String(a.partnerDomainId).localeCompare(String(b.partnerDomainId))),
        canEdit: caller.accessLevel >= ROLE_LEVELS.agencyAdmin,
      };
    }),
  );

  app.get<{ Params: Params }>('/api/agency/:agencyId/statistics', async (request, reply) =>
    answer(reply, async () => {
      const { claims } = scoped(request.principal, request.params.agencyId, 'read');
      return { statistics: agencyStatistics(await loadAgencyData(store, claims, request.params.agencyId), now().getTime()) };
    }),
  );

  app.get<{ Params: Params }>('/api/agency/:agencyId/partner-candidates', async (request, reply) =>
    answer(reply, async () => {
      const { claims } = scoped(request.principal, request.params.agencyId, 'write');
      await readAgency(store, claims, request.params.agencyId);
      return { domains: await partnerCandidates(store, claims, request.params.agencyId) };
    }),
  );

  app.put<{ Params: Params & { partnerId: string } }>('/api/agency/:agencyId/partners/:partnerId', async (request, reply) =>
    answer(reply, async () => {
      const { claims } = scoped(request.principal, request.params.agencyId, 'write');
      const body = parseBody(partnerBody, request.body);
      const partnerId = checkId(request.params.partnerId, 'partner');
      await readAgency(store, claims, request.params.agencyId);
      const partner = await savePartner(store, claims, request.params.agencyId, partnerId, body);
      request.log.info({ agencyId: request.params.agencyId, partnerId, by: claims.uid }, 'agency partner saved');
      return { partner };
    }),
  );

  app.get<{ Params: Params }>('/api/agency/:agencyId/partner-requests', async (request, reply) =>
    answer(reply, async () => {
      const { claims } = scoped(request.principal, request.params.agencyId, 'read');
      await readAgency(store, claims, request.params.agencyId);
      return { requests: await agencyRequests(store, claims, request.params.agencyId) };
    }),
  );

  app.put<{ Params: Params & { domainId: string } }>('/api/agency/:agencyId/partner-requests/:domainId', async (request, reply) =>
    answer(reply, async () => {
      const { claims } = scoped(request.principal, request.params.agencyId, 'write');
      const body = parseBody(partnerRequestInput, request.body);
      const customerId = checkId(request.params.domainId, 'domain');
      const agency = await readAgency(store, claims, request.params.agencyId);
      const result = await askPartner(store, claims, agency, customerId, body, now());
      for (const message of result.notify) deliver(message);
      request.log.info({ agencyId: request.params.agencyId, customerId, by: claims.uid }, 'partner request sent');
      return { request: result.request };
    }),
  );

  app.delete<{ Params: Params & { domainId: string } }>('/api/agency/:agencyId/partner-requests/:domainId', async (request, reply) =>
    answer(reply, async () => {
      const { claims } = scoped(request.principal, request.params.agencyId, 'write');
      const customerId = checkId(request.params.domainId, 'domain');
      await readAgency(store, claims, request.params.agencyId);
      await cancelRequest(store, claims, request.params.agencyId, customerId, now());
      return reply.code(204).send();
    }),
  );

  type CustomerParams = { domainId: string };

  app.get<{ Params: CustomerParams }>('/api/domains/:domainId/partner-requests', async (request, reply) =>
    answer(reply, async () => {
      customerCaller(request.principal, request.params.domainId);
      return { requests: await customerRequests(store, request.params.domainId) };
    }),
  );

  app.post<{ Params: CustomerParams & { agencyId: string } }>('/api/domains/:domainId/partner-requests/:agencyId/answer', async (request, reply) =>
    answer(reply, async () => {
      const customer = customerCaller(request.principal, request.params.domainId);
      const body = parseBody(partnerRequestAnswer, request.body);
      const agencyId = checkId(request.params.agencyId, 'agency');
      await answerRequest(store, customer, request.params.domainId, agencyId, body.accept, now());
      request.log.info({ agencyId, customerId: request.params.domainId, by: customer.uid, accept: body.accept }, 'partner request answered');
      return { requests: await customerRequests(store, request.params.domainId) };
    }),
  );

  app.post<{ Params: CustomerParams & { agencyId: string } }>('/api/domains/:domainId/partner-requests/:agencyId/end', async (request, reply) =>
    answer(reply, async () => {
      const customer = customerCaller(request.principal, request.params.domainId);
      parseBody(emptyBody, request.body);
      const agencyId = checkId(request.params.agencyId, 'agency');
      await endPartnership(store, customer, request.params.domainId, agencyId, now());
      request.log.info({ agencyId, customerId: request.params.domainId, by: customer.uid }, 'partnership ended by the customer');
      return { requests: await customerRequests(store, request.params.domainId) };
    }),
  );

  app.get<{ Params: Params & { partnerId: string } }>('/api/agency/:agencyId/partners/:partnerId/staff', async (request, reply) =>
    answer(reply, async () => {
      const { claims } = scoped(request.principal, request.params.agencyId, 'read');
      const partnerId = checkId(request.params.partnerId, 'partner');
      const data = await loadAgencyData(store, claims, request.params.agencyId);
      const domainIds = data.partnerDomains.get(partnerId);
      if (domainIds === undefined) throw new AgencyError(404, 'not-found', 'partner-not-found', `No partner ${partnerId}`);
      return { staff: await partnerStaff(store, claims, request.params.agencyId, partnerId, domainIds) };
    }),
  );

  app.put<{ Params: Params }>('/api/agency/:agencyId/settings', async (request, reply) =>
    answer(reply, async () => {
      const { claims } = scoped(request.principal, request.params.agencyId, 'write');
      const body = parseBody(settingsBody, request.body);
      await readAgency(store, claims, request.params.agencyId);
      const agency = await saveInvoiceSettings(store, claims, request.params.agencyId, body.invoiceRegistrationNumber);
      return { agency };
    }),
  );

  app.post<{ Params: Params }>('/api/agency/:agencyId/bills/generate', async (request, reply) =>
    answer(reply, async () => {
      const { claims } = scoped(request.principal, request.params.agencyId, 'write');
      const body = parseBody(generateBody, request.body);
      const partnerId = body.partnerId === undefined ? null : checkId(body.partnerId, 'partner');
      const result = await generateBills(store, claims, request.params.agencyId, body.month, partnerId, now());
      request.log.info({ agencyId: request.params.agencyId, month: body.month, by: claims.uid, bills: result.bills.length }, 'agency bills generated');
      return result;
    }),
  );

  app.post<{ Params: Params & { billId: string } }>('/api/agency/:agencyId/bills/:billId/issue', async (request, reply) =>
    answer(reply, async () => {
      const { claims } = scoped(request.principal, request.params.agencyId, 'write');
      parseBody(emptyBody, request.body);
      const agency = await readAgency(store, claims, request.params.agencyId);
      const bill = await issueBill(store, claims, request.params.agencyId, checkId(request.params.billId, 'bill'), agency, now());
      request.log.info({ agencyId: request.params.agencyId, billId: request.params.billId, by: claims.uid }, 'agency bill issued');
      return { bill };
    }),
  );

  app.post<{ Params: Params & { billId: string } }>('/api/agency/:agencyId/bills/:billId/paid', async (request, reply) =>
    answer(reply, async () => {
      const { claims } = scoped(request.principal, request.params.agencyId, 'write');
      parseBody(emptyBody, request.body);
      await readAgency(store, claims, request.params.agencyId);
      return { bill: await markBillPaid(store, claims, request.params.agencyId, checkId(request.params.billId, 'bill'), now()) };
    }),
  );

  app.delete<{ Params: Params & { billId: string } }>('/api/agency/:agencyId/bills/:billId', async (request, reply) =>
    answer(reply, async () => {
      const { claims } = scoped(request.principal, request.params.agencyId, 'write');
      await readAgency(store, claims, request.params.agencyId);
      await deleteDraft(store, claims, request.params.agencyId, checkId(request.params.billId, 'bill'));
      return reply.code(204).send();
    }),
  );

  app.get<{ Params: Params & { billId: string } }>('/api/agency/:agencyId/bills/:billId/pdf', { config: { fairShare: 'pdf' } }, async (request, reply) =>
    answer(reply, async () => {
      const { claims } = scoped(request.principal, request.params.agencyId, 'read');
      const agency = await readAgency(store, claims, request.params.agencyId);
      const billId = checkId(request.params.billId, 'bill');
      const bill = await billForInvoice(store, claims, request.params.agencyId, billId);
      const pdf = await renderInvoicePdf(bill, issuerOf(bill, agency), daysInMonth(String(bill.month)));
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="invoice-${billId}.pdf"`)
        .send(pdf);
    }),
  );
};
