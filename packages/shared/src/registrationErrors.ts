/** Error codes of the registration and report-link endpoints (see registration.ts), shared by server and web. */

/** Error codes of the registration endpoints (beside Better Auth's own, e.g. USER_ALREADY_EXISTS). */
export const REGISTRATION_ERRORS = {
  invalidInput: 'INVALID_REGISTRATION_INPUT',
  invitationNotFound: 'INVITATION_NOT_FOUND',
  invitationUsed: 'INVITATION_USED',
  invitationExpired: 'INVITATION_EXPIRED',
  /** The signed-in account's address is not the invited one. */
  invitationOtherAddress: 'INVITATION_FOR_ANOTHER_ADDRESS',
  /** The invited address has an account already: sign in with it, then accept. */
  signInToAccept: 'SIGN_IN_TO_ACCEPT_INVITATION',
  /** Accepting would leave the account's current domain without an owner. */
  lastOwner: 'LAST_OWNER_OF_DOMAIN',
  /** The inviter may not grant this level or invite to this domain. */
  invitationNotAllowed: 'INVITATION_NOT_ALLOWED',
} as const;

export const REPORT_LINK_ERRORS = {
  notFound: 'REPORT_LINK_NOT_FOUND',
  used: 'REPORT_LINK_USED',
  expired: 'REPORT_LINK_EXPIRED',
  /** Staff see reports through their own domain; the link is for family members and doctors (level 1). */
  forViewersOnly: 'REPORT_LINK_FOR_VIEWERS_ONLY',
} as const;
