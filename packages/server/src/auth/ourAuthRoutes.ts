/**
 * Our own endpoints under /api/auth (Better Auth plugins: registration, report links, reauthentication,
 * e-mail change) as declared routes: authPlugin registers each in front of the catch-all with these
 * schemas, so Fastify checks the body or query with the shared zod schema before Better Auth runs,
 * every answer is checked against its `response` schema, and /api/openapi.json documents them like
 * every other route. The endpoint declares the same schema (`createAuthEndpoint({ body })`), so
 * its handler reads typed input and no endpoint parses by hand.
 *
 * Input that does not match answers what the endpoint answered for it before the schemas did
 * (`refusal`: the screens pick their message by these codes). As in Better Auth's own endpoints,
 * input is checked before the session is.
 *
 * Better Auth's own endpoints (sign-in, sign-up, two-factor, SSO, …) keep the catch-all: Better
 * Auth checks their bodies itself, and sign-in in particular must cost the same for every address.
 */
import { errorResponses, type ApiErrorStatus } from '@nemuri/shared/apiErrors';
import { changeEmailInput, emailChanged, emailLinkTokenInput } from '@nemuri/shared/emailChange';
import { authStatusAnswer, reauthenticateInput } from '@nemuri/shared/reauthentication';
import {
  acceptInvitationInput,
  createInvitationInput,
  createReportLinkInput,
  domainRegistered,
  invitationAccepted,
  invitationCreated,
  invitationPreview,
  invitationPreviewQuery,
  redeemReportLinkInput,
  registerDomainInput,
  REGISTRATION_ERRORS,
  REPORT_LINK_ERRORS,
  reportLinkCreated,
  reportLinkPreview,
  reportLinkRedeemed,
  reportLinkTokenQuery,
} from '@nemuri/shared/registration';
import type { ZodTypeAny } from 'zod/v3';
import { EMAIL_CHANGE_ERRORS } from './emailChange.ts';
import { REAUTHENTICATION_ERRORS } from './reauthentication.ts';

export interface OurAuthRoute {
  method: 'GET' | 'POST';
  /** Under AUTH_BASE_PATH, as the Better Auth plugin names the endpoint. */
  path: string;
  schema: { summary: string; body?: ZodTypeAny; querystring?: ZodTypeAny; response: Record<number, ZodTypeAny> };
  /** What input off the schema answers; without a `message`, the one naming each problem. */
  refusal: { status: ApiErrorStatus; code: string; message?: string };
}

/**
 * Every answer may also be 429 (Better Auth's limits per client address, authPlugin's
 * `too-many-requests`), and every POST 403 (Better Auth's origin check, `INVALID_ORIGIN`).
 */
const errors = (...statuses: ApiErrorStatus[]) => errorResponses(...statuses, 429);
const postErrors = (...statuses: ApiErrorStatus[]) => errors(...statuses, 403);

const invalidRegistration = { status: 400, code: REGISTRATION_ERRORS.invalidInput } as const;
const unknownReportLink = { status: 404, code: REPORT_LINK_ERRORS.notFound, message: 'no such report link' } as const;

export const OUR_AUTH_ROUTES: readonly OurAuthRoute[] = [
  {
    method: 'POST',
    path: '/registration/domain',
    schema: {
      summary: 'Registers a new root domain with the caller as its owner (level 5), signed in at once',
      body: registerDomainInput,
      response: { 200: domainRegistered, ...postErrors(400, 403) },
    },
    refusal: invalidRegistration,
  },
  {
    method: 'POST',
    path: '/registration/invitations',
    schema: {
      summary: 'Invites someone to a domain by mail (level 3+, never above the inviter’s own level)',
      body: createInvitationInput,
      response: { 200: invitationCreated, ...postErrors(400, 403) },
    },
    refusal: invalidRegistration,
  },
  {
    method: 'GET',
    path: '/registration/invitation',
    schema: {
      summary: 'What an invitation link offers (domain, address, level, status)',
      querystring: invitationPreviewQuery,
      response: { 200: invitationPreview, ...errors(404) },
    },
    refusal: { status: 404, code: REGISTRATION_ERRORS.invitationNotFound, message: 'no such invitation' },
  },
  {
    method: 'POST',
    path: '/registration/accept',
    schema: {
      summary: 'Joins a domain through an invitation: a new account, or the signed-in one with the invited address',
      body: acceptInvitationInput,
      response: { 200: invitationAccepted, ...postErrors(400, 403, 404, 409, 410) },
    },
    refusal: invalidRegistration,
  },
  {
    method: 'POST',
    path: '/report-access/links',
    schema: {
      summary: 'A report link for one room, for a family member or doctor (level 3+, the room in scope)',
      body: createReportLinkInput,
      response: { 200: reportLinkCreated, ...postErrors(400, 401, 403) },
    },
    refusal: invalidRegistration,
  },
  {
    method: 'GET',
    path: '/report-access/preview',
    schema: {
      summary: 'What a report link offers (room, expiry, status)',
      querystring: reportLinkTokenQuery,
      response: { 200: reportLinkPreview, ...errors(404) },
    },
    refusal: unknownReportLink,
  },
  {
    method: 'POST',
    path: '/report-access/redeem',
    schema: {
      summary: 'Makes the signed-in level-1 user a viewer of the link’s room reports',
      body: redeemReportLinkInput,
      response: { 200: reportLinkRedeemed, ...postErrors(401, 403, 404, 410) },
    },
    refusal: unknownReportLink,
  },
  {
    method: 'POST',
    path: '/reauthenticate',
    schema: {
      summary: 'Proves again who the signed-in user is (password): a fresh session replaces the current one',
      body: reauthenticateInput,
      response: { 200: authStatusAnswer, ...postErrors(400, 401) },
    },
    refusal: { status: 400, ...REAUTHENTICATION_ERRORS.invalidPassword },
  },
  {
    method: 'POST',
    path: '/email/change',
    schema: {
      summary: 'Mails a confirmation link to a new address (a recent sign-in); the same answer whether or not the address is taken',
      body: changeEmailInput,
      response: { 200: authStatusAnswer, ...postErrors(400, 401, 403) },
    },
    refusal: { status: 400, ...EMAIL_CHANGE_ERRORS.invalidEmail },
  },
  {
    method: 'POST',
    path: '/email/confirm',
    schema: {
      summary: 'Changes the address, from the link mailed to the new one; the old address gets a link to take it back',
      body: emailLinkTokenInput,
      response: { 200: emailChanged, ...postErrors(400) },
    },
    refusal: { status: 400, ...EMAIL_CHANGE_ERRORS.invalidToken },
  },
  {
    method: 'POST',
    path: '/email/recover',
    schema: {
      summary: 'Takes an address change back, from the mail to the old address; every session ends',
      body: emailLinkTokenInput,
      response: { 200: emailChanged, ...postErrors(400) },
    },
    refusal: { status: 400, ...EMAIL_CHANGE_ERRORS.invalidToken },
  },
];
