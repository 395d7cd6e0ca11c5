/**
 * The claims of the server itself (the ingest, device states, scheduled work): a system
 * administrator of no domain, so that the document engine's scope checks let it write any record.
 */
import type { Claims } from '@nemuri/shared/documents/access';
import { ROLE_LEVELS } from '@nemuri/shared/roles';

/** Records the server writes on its own behalf, not a user's. */
export const SYSTEM_PRINCIPAL: Claims = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
