/**
 * Who may use an agency's area (PRODUCT.md section 1): agency users (50, 51) their own agency
 * only, developers (100+) any agency; writes (bills, partners, settings) need 51 (agencyAdmin) or
 * a developer.
 *
 * The server then reads and writes through the document engine with the *agency's* claims: the
 * caller's uid (so the audit log names the caller) and level, but the agency as domain. The engine
 * then limits every read to that agency and its partners' domains exactly as it does for the
 * agency's own staff, so a developer looking at agency A sees what A's staff see, never B's data.
 */
import type { Claims } from '@nemuri/shared/documents/access';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { ApiError } from '../http/errors.ts';
import { AgencyError } from './agencyError.ts';

export type AgencyOperation = 'read' | 'write';

const ID_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;

/** A path id (agency, partner, bill) that the engine accepts as a document id. */
export function checkId(value: string, what: string): string {
  if (!ID_PATTERN.test(value)) throw new AgencyError(400, 'invalid-argument', 'invalid-argument', `Not a valid ${what} id: ${value}`);
  return value;
}

/** The caller's claims, refused unless the caller may do `operation` in `agencyId`'s area. */
export function callerFor(principal: Claims | null, agencyId: string, operation: AgencyOperation): Claims {
  if (principal === null) throw new ApiError(401, 'unauthenticated', 'Sign in to use the data');
  const level = principal.accessLevel;
  if (level < ROLE_LEVELS.agency)
    throw new AgencyError(403, 'permission-denied', 'permission-denied', 'The agency area needs an agency (level 50) or developer (level 100) account');
  if (level < ROLE_LEVELS.developer && principal.domainId !== agencyId)
    throw new AgencyError(403, 'permission-denied', 'permission-denied', 'An agency account sees its own agency only');
  if (operation === 'write' && level < ROLE_LEVELS.agencyAdmin)
    throw new AgencyError(403, 'permission-denied', 'permission-denied', 'Editing bills, partners and settings needs an agency administrator (level 51)');
  return principal;
}

/** The claims the engine acts with: the caller's uid, at most agencyAdmin's level, scoped to the agency. */
export function agencyClaims(caller: Claims, agencyId: string): Claims {
  return { uid: caller.uid, accessLevel: Math.min(caller.accessLevel, ROLE_LEVELS.agencyAdmin), domainId: agencyId, rootDomainId: agencyId };
}
