/**
 * Partnership by consent (security issue 17, finding 2; docs/api.md "Partner requests"): an agency
 * asks a customer's root domain to become its partner, and the customer's owner (5) or privileged
 * administrator (4) accepts or declines. Only an accepted request makes the partner record
 * (`domains/{agency}/partners/{root}`) that puts the customer's domains in the agency's scope; the
 * customer can end the partnership later, which removes that record again.
 *
 * A request is `domains/{agencyId}/partnerRequests/{customerRootId}`: one per agency and customer,
 * written only by the server (the registry's `managedBy`), asked again by overwriting it.
 */
import { z } from 'zod/v3';
import { nonEmpty, timestamp } from './documents/types.ts';

export const PARTNER_REQUEST_STATUSES = ['requested', 'accepted', 'declined', 'cancelled', 'ended'] as const;
export type PartnerRequestStatus = (typeof PARTNER_REQUEST_STATUSES)[number];

/** After a decline, the same agency may ask that customer again only after this many days (no request spam). */
export const ASK_AGAIN_AFTER_DAYS = 30;

const day = z.string().regex(/^\d{4}-\d\d-\d\d$/, 'dates are YYYY-MM-DD');

/** The stored record (the registry's schema of `domains/partnerRequests`). */
export const partnerRequestSchema = z
  .object({
    customerDomainId: nonEmpty,
    /** Names as they were when asked: each side reads the other's name from here, not from records out of its scope. */
    customerName: z.string().nullable().optional(),
    agencyName: z.string().nullable().optional(),
    status: z.enum(PARTNER_REQUEST_STATUSES),
    /** The contract the agency proposes; accepting copies it to the partner record. */
    partnerName: nonEmpty,
    contractStart: day.nullable().optional(),
    contractEnd: day.nullable().optional(),
    monthlyUnitPrice: z.number().int().gte(0).optional(),
    message: z.string().max(1000).nullable().optional(),
    requestedBy: nonEmpty,
    requestedAt: timestamp,
    answeredBy: z.string().nullable().optional(),
    answeredAt: timestamp.nullable().optional(),
  })
  .strict();

/** What an agency administrator sends to ask (PUT /api/agency/:agencyId/partner-requests/:domainId). */
export const partnerRequestInput = z
  .object({
    name: z.string().trim().min(1).max(200),
    contractStart: day.nullable(),
    contractEnd: day.nullable(),
    monthlyUnitPrice: z.number().int().gte(0).lte(10_000_000),
    message: z.string().trim().max(1000).nullable().optional(),
  })
  .strict();
export type PartnerRequestInput = z.infer<typeof partnerRequestInput>;

/** What a customer sends to answer (POST /api/domains/:domainId/partner-requests/:agencyId/answer). */
export const partnerRequestAnswer = z.object({ accept: z.boolean() }).strict();

/** What both sides see of a request: its status and the contract the agency proposed. */
const proposedContract = z.object({
  status: z.enum(PARTNER_REQUEST_STATUSES),
  partnerName: z.string(),
  contractStart: z.string().nullable(),
  contractEnd: z.string().nullable(),
  monthlyUnitPrice: z.number().nullable(),
  message: z.string().nullable(),
  /** Empty for a partnership made before requests existed (it has no request). */
  requestedAt: z.string(),
  answeredAt: z.string().nullable(),
});

/** A request as the agency sees it. */
export const agencyPartnerRequestRowSchema = proposedContract.extend({ domainId: z.string(), customerName: z.string() }).strict();
export type AgencyPartnerRequestRow = z.infer<typeof agencyPartnerRequestRowSchema>;

/** A request or a partnership as the customer sees it. */
export const customerPartnerRequestRowSchema = proposedContract
  .extend({
    agencyId: z.string(),
    agencyName: z.string(),
    /** The partnership is in force (the agency sees this customer's devices and rooms). */
    partner: z.boolean(),
  })
  .strict();
export type CustomerPartnerRequestRow = z.infer<typeof customerPartnerRequestRowSchema>;

/** GET /api/agency/:agencyId/partner-requests: a keyset page, newest first; `nextCursor` the last row's customer id. */
export const agencyPartnerRequestsPageSchema = z.object({ requests: z.array(agencyPartnerRequestRowSchema), nextCursor: z.string().nullable() }).strict();
export type AgencyPartnerRequestsPage = z.infer<typeof agencyPartnerRequestsPageSchema>;

/** PUT /api/agency/:agencyId/partner-requests/:domainId: the request as sent. */
export const partnerRequestSentSchema = z.object({ request: agencyPartnerRequestRowSchema }).strict();

/**
 * GET /api/domains/:domainId/partner-requests (and what answering or ending gives back: the first
 * page): `nextCursor` the agency of the page's last request when another page follows.
 */
export const customerPartnerRequestsPageSchema = z.object({ requests: z.array(customerPartnerRequestRowSchema), nextCursor: z.string().nullable() }).strict();
export type CustomerPartnerRequestsPage = z.infer<typeof customerPartnerRequestsPageSchema>;
