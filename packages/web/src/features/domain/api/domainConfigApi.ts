/**
 * What the domain configuration screen writes. Domain and staff records go through the document
 * engine (which applies levels, scope and the staff rules); invitations through the registration
 * endpoint (which mails the link); a second-factor reset through the staff endpoint
 * (docs/api.md, "Staff"). The checks here only explain a refusal better than the server's English.
 */
import { guardAllowsWrite, type Claims } from '@nemuri/shared/documents/access';
import { collectionByName } from '@nemuri/shared/documents/collections';
import { DocumentError } from '@nemuri/shared/documents/errors';
import type { Data } from '@nemuri/shared/documents/update';
import { REGISTRATION_ERRORS } from '@nemuri/shared/registration';
import type { DocumentsClient } from '../../../lib/documents/client.ts';
import { ApiError } from '../../../lib/http/apiError.ts';
import { http } from '../../../lib/http/httpClient.ts';
import type { RecordOf } from '../../../lib/documents/records.ts';

export type StaffMember = RecordOf<'domains/staff'>;
export type Invitation = RecordOf<'invitations'>;
export type InvitationState = 'valid' | 'used' | 'expired' | 'revoked';

type Client = Pick<DocumentsClient, 'update'>;

const STAFF = collectionByName('domains/staff');

/** Whether the staff rules let the caller write this member's record with this level (null: no change). */
export function mayWriteStaff(claims: Claims, member: { accessLevel: number } | null, accessLevel: number | null = null): boolean {
  if (STAFF === undefined) return false;
  const before = member === null ? null : { accessLevel: member.accessLevel };
  const after = accessLevel === null ? before : { accessLevel };
  return guardAllowsWrite(STAFF, claims, before, after);
}

export function invitationStateOf(invitation: Invitation, now = Date.now()): InvitationState {
  if (typeof invitation.revokedAt === 'string' && invitation.revokedAt !== '') return 'revoked';
  if (typeof invitation.usedAt === 'string' && invitation.usedAt !== '') return 'used';
  return Date.parse(invitation.expiresAt) <= now ? 'expired' : 'valid';
}

export async function saveDomainFields(client: Client, domainId: string, fields: Data): Promise<void> {
  await client.update(`domains/${domainId}`, fields);
}

export async function saveStaffMember(client: Client, domainId: string, uid: string, fields: { accessLevel?: number; disabled?: boolean }): Promise<void> {
  await client.update(`domains/${domainId}/staff/${uid}`, fields);
}

/** The server's own endpoints; a refusal is an ApiError with its code. */
function post(path: string, body: unknown): Promise<unknown> {
  return http.json<unknown>('POST', path, { body });
}

/** Invites by mail into /registerUser/:domainId at the level. */
export async function inviteStaff(domainId: string, email: string, accessLevel: number): Promise<{ id: string; expiresAt: string }> {
  return (await post('/api/auth/registration/invitations', { email, accessLevel, domainId })) as { id: string; expiresAt: string };
}

/**
 * Ends an invitation: revoked, and expired now, so that its link stops working (the invitation
 * page and acceptance go by the expiry).
 */
export async function revokeInvitation(client: Client, invitationId: string): Promise<void> {
  const now = new Date().toISOString();
  await client.update(`invitations/${invitationId}`, { revokedAt: now, expiresAt: now });
}

/** Sends a new invitation with the same address and level, and revokes the old one. */
export async function resendInvitation(client: Client, invitation: Invitation): Promise<void> {
  await inviteStaff(invitation.domainId, invitation.email, invitation.accessLevel);
  if (invitationStateOf(invitation) === 'valid') await revokeInvitation(client, invitation.documentReferenceId);
}

export async function resetSecondFactor(domainId: string, uid: string): Promise<void> {
  await post(`/api/staff/${encodeURIComponent(domainId)}/${encodeURIComponent(uid)}/second-factor/reset`, {});
}

/** The locale key that explains a failed write. */
export function errorKeyOf(error: unknown): string {
  if (error instanceof ApiError && error.isNetworkFailure) return 'domainConfig.errors.network';
  if (error instanceof ApiError) {
    if (error.status === 429) return 'domainConfig.errors.tooManyRequests';
    if (error.code === REGISTRATION_ERRORS.invitationNotAllowed || error.status === 403) return 'domainConfig.errors.permissionDenied';
    if (error.status === 401) return 'domainConfig.errors.unauthenticated';
    if (error.status === 404) return 'domainConfig.errors.notFound';
    if (error.status === 400) return 'domainConfig.errors.invalidArgument';
    return 'domainConfig.errors.unexpected';
  }
  if (error instanceof DocumentError) {
    switch (error.code) {
      case 'permission-denied':
        return 'domainConfig.errors.permissionDenied';
      case 'unauthenticated':
        return 'domainConfig.errors.unauthenticated';
      case 'not-found':
        return 'domainConfig.errors.notFound';
      case 'aborted':
        return 'domainConfig.errors.aborted';
      case 'failed-precondition':
        return 'domainConfig.errors.lastOwner';
      case 'invalid-argument':
        return 'domainConfig.errors.invalidArgument';
      case 'unimplemented':
        return 'domainConfig.errors.unexpected';
    }
  }
  return 'domainConfig.errors.unexpected';
}
