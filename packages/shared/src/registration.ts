/**
 * Joining the product without an existing account (PRODUCT.md section 4): `/register` creates a
 * new root domain whose first user is its owner (level 5); `/registerUser/:domainId` lets a person
 * invited by mail join that domain at the invited level. Shapes shared by the server's endpoints
 * (under /api/auth/registration/*) and the web app's screens.
 */
import { z } from 'zod/v3';
import { ROLE_LEVELS } from './roles.ts';

// The error codes live in a module without zod, so that the web app's sign-in page can name them
// without loading the schema library.
export { REGISTRATION_ERRORS, REPORT_LINK_ERRORS } from './registrationErrors.ts';

/** How long an invitation link stays valid. */
export const INVITATION_VALID_DAYS = 7;

/** Kinds of domain a person may register on their own (agencies and the maker are set up by the maker). */
export const REGISTRABLE_DOMAIN_KINDS = ['corporation', 'facility', 'individual'] as const;
export type RegistrableDomainKind = (typeof REGISTRABLE_DOMAIN_KINDS)[number];

/** Levels an invitation may grant: a domain's own users, up to its owner. */
export const INVITABLE_LEVELS = [
  ROLE_LEVELS.individualUser,
  ROLE_LEVELS.generalStaff,
  ROLE_LEVELS.administrator,
  ROLE_LEVELS.privilegeAdministrator,
  ROLE_LEVELS.ownerAdministrator,
] as const;

const email = z.string().trim().toLowerCase().email();
const name = z.string().trim().min(1).max(100);
/** Length rules are Better Auth's (MIN/MAX_PASSWORD_LENGTH): checked there, with its error codes. */
const password = z.string().min(1).max(1000);

export const registerDomainInput = z
  .object({ name, email, password, domainName: z.string().trim().min(1).max(100), domainKind: z.enum(REGISTRABLE_DOMAIN_KINDS) })
  .strict();
export type RegisterDomainInput = z.infer<typeof registerDomainInput>;

export const createInvitationInput = z
  .object({
    email,
    accessLevel: z
      .number()
      .int()
      .refine((level) => (INVITABLE_LEVELS as readonly number[]).includes(level), 'not a level an invitation can grant'),
    /** Default: the inviter's own domain. */
    domainId: z.string().min(1).optional(),
  })
  .strict();
export type CreateInvitationInput = z.infer<typeof createInvitationInput>;

/** Accepting an invitation: a new account (name and password), or the signed-in account with the invited address (neither). */
export const acceptInvitationInput = z
  .object({ invitationId: z.string().min(1), domainId: z.string().min(1), name: name.optional(), password: password.optional() })
  .strict();
export type AcceptInvitationInput = z.infer<typeof acceptInvitationInput>;

/** POST /registration/domain answers the new root domain and its owner (signed in by the answer's cookie). */
export const domainRegistered = z.object({ domainId: z.string(), userId: z.string() }).strict();

/** POST /registration/invitations: the invitation mailed, and until when its link works. */
export const invitationCreated = z.object({ id: z.string(), domainId: z.string(), expiresAt: z.string() }).strict();

/** POST /registration/accept: who joined which domain. */
export const invitationAccepted = z.object({ userId: z.string(), domainId: z.string() }).strict();

/** GET /registration/invitation?id=…; no id answers as an unknown one. */
export const invitationPreviewQuery = z.object({ id: z.string().min(1) });

export const INVITATION_STATUSES = ['valid', 'used', 'expired'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** What the invitation page shows before the invitee accepts. */
export const invitationPreview = z
  .object({
    domainId: z.string(),
    domainName: z.string(),
    email: z.string(),
    accessLevel: z.number().int(),
    expiresAt: z.string(),
    status: z.enum(INVITATION_STATUSES),
  })
  .strict();
export type InvitationPreview = z.infer<typeof invitationPreview>;

/** How long a report link works unless its creator says otherwise, and at most. */
export const REPORT_LINK_DEFAULT_DAYS = 30;
export const REPORT_LINK_MAX_DAYS = 365;

export const createReportLinkInput = z.object({ roomId: z.string().min(1), validDays: z.number().int().min(1).max(REPORT_LINK_MAX_DAYS).optional() }).strict();

/** The new link (`url` carries the token, shown this once) and until when it works. */
export const reportLinkCreated = z.object({ id: z.string(), url: z.string(), expiresAt: z.string() }).strict();

/** GET /report-access/preview?token=…; no token answers as an unknown one. */
export const reportLinkTokenQuery = z.object({ token: z.string().min(1) });

/** POST /report-access/redeem: the link's token, as the link carries it. */
export const redeemReportLinkInput = z.object({ token: z.string().min(1) }).strict();

/** The room whose reports the viewer may now read. */
export const reportLinkRedeemed = z.object({ roomId: z.string() }).strict();

/** What /register-report-access-user shows before the link is used. */
export const reportLinkPreview = z.object({ roomId: z.string(), roomName: z.string(), expiresAt: z.string(), status: z.enum(INVITATION_STATUSES) }).strict();
export type ReportLinkPreview = z.infer<typeof reportLinkPreview>;
