/**
 * Who may do what to which record (PRODUCT.md section 1). An operation needs the collection's
 * minimum level (collections.ts) and, for tenant data, the record inside the caller's data scope:
 * - level 1: rooms whose `ownerUids` include the user (and those rooms' records); for the report
 *   collections (REPORT_COLLECTIONS: the room and its sleep records) also rooms whose
 *   `reportViewerUids` include the user (a family member or doctor given a report link);
 * - levels 2-3: their own `domainId`;
 * - levels 4-5: every domain under their `rootDomainId`;
 * - levels 50-51: their agency domain and its partner domains;
 * - levels 100+: everything.
 * Staff records add the level guard (collections.ts `LevelGuard`).
 */
import { ROLE_LEVELS } from '../roles.ts';
import { collectionByName, type CollectionSpec, type Operation } from './collections.ts';

/** The caller's claims (the server's `request.principal`). */
export interface Claims {
  uid: string;
  accessLevel: number;
  domainId: string | null;
  rootDomainId: string | null;
}

/** Where a record belongs. */
export interface RecordTenant {
  domainId: string | null;
  rootDomainId: string | null;
  roomId: string | null;
}

/** Facts the scope needs from the data: the agency's partners, the user's rooms. */
export interface ScopeFacts {
  partnerDomainIds: readonly string[];
  ownedRoomIds: readonly string[];
  /** Rooms whose reports the user may read (`reportViewerUids`). */
  reportRoomIds?: readonly string[];
}

/** What a report viewer may read of a room: the room itself and its sleep records. */
export const REPORT_COLLECTIONS: readonly string[] = ['rooms', 'rooms/sleeps'];

export type DataScope =
  | { kind: 'all' }
  | { kind: 'none' }
  /** Records whose domain is one of `domainIds` or whose root domain is one of `rootDomainIds`. */
  | { kind: 'domains'; domainIds: readonly string[]; rootDomainIds: readonly string[] }
  /** `reportOnlyRoomIds`: the rooms among them the user reads as a report viewer, not as an owner. */
  | { kind: 'rooms'; roomIds: readonly string[]; reportOnlyRoomIds?: readonly string[] };

/** Agency levels (50-51): they see their partners' tenants, through a minimised view. */
export function isAgencyLevel(claims: Pick<Claims, 'accessLevel'>): boolean {
  return claims.accessLevel >= ROLE_LEVELS.agency && claims.accessLevel < ROLE_LEVELS.developer;
}

/**
 * Whether the caller reads what belongs to this domain whole: everyone does within their scope but
 * the agency levels, which see their customers' data minimised (CollectionSpec.agencyView, room
 * states without vitals, no raw signals) and only their own domain's whole. The one rule for the
 * document engine, monitoring and signals.
 */
export function readsWhole(claims: Pick<Claims, 'accessLevel' | 'domainId'>, domainId: string | null): boolean {
  return !isAgencyLevel(claims) || (domainId !== null && domainId === claims.domainId);
}

/** Whether the scope needs the partners (levels 50-51) or the owned rooms (level 1) looked up. */
export function factsNeeded(claims: Claims): { partners: boolean; rooms: boolean } {
  const level = claims.accessLevel;
  return { partners: level >= ROLE_LEVELS.agency && level < ROLE_LEVELS.developer && claims.domainId !== null, rooms: level === ROLE_LEVELS.individualUser };
}

/** The caller's scope for one collection (`collection`: its registry name; the report collections widen a level-1 scope). */
export function dataScopeOf(claims: Claims, facts: ScopeFacts, collection?: string): DataScope {
  const level = claims.accessLevel;
  if (level >= ROLE_LEVELS.developer) return { kind: 'all' };
  if (level >= ROLE_LEVELS.agency) {
    if (claims.domainId === null) return { kind: 'none' };
    // Collections an agency may not read of its customers (CollectionSpec.agencyView 'none').
    if (collection !== undefined && collectionByName(collection)?.agencyView === 'none')
      return { kind: 'domains', domainIds: [claims.domainId], rootDomainIds: [] };
    const ids = [claims.domainId, ...facts.partnerDomainIds];
    return { kind: 'domains', domainIds: ids, rootDomainIds: ids };
  }
  if (level >= ROLE_LEVELS.privilegeAdministrator) {
    return claims.rootDomainId === null ? { kind: 'none' } : { kind: 'domains', domainIds: [], rootDomainIds: [claims.rootDomainId] };
  }
  if (level >= ROLE_LEVELS.generalStaff) {
    return claims.domainId === null ? { kind: 'none' } : { kind: 'domains', domainIds: [claims.domainId], rootDomainIds: [] };
  }
  if (level === ROLE_LEVELS.individualUser) {
    const reportRooms = collection !== undefined && REPORT_COLLECTIONS.includes(collection) ? (facts.reportRoomIds ?? []) : [];
    if (reportRooms.length === 0) return { kind: 'rooms', roomIds: facts.ownedRoomIds };
    const owned = new Set(facts.ownedRoomIds);
    return { kind: 'rooms', roomIds: [...new Set([...facts.ownedRoomIds, ...reportRooms])], reportOnlyRoomIds: reportRooms.filter((id) => !owned.has(id)) };
  }
  return { kind: 'none' };
}

export function inScope(scope: DataScope, tenant: RecordTenant): boolean {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'none':
      return false;
    case 'domains':
      return (
        (tenant.domainId !== null && scope.domainIds.includes(tenant.domainId)) ||
        (tenant.rootDomainId !== null && scope.rootDomainIds.includes(tenant.rootDomainId))
      );
    case 'rooms':
      return tenant.roomId !== null && scope.roomIds.includes(tenant.roomId);
  }
}

/** Whether the level alone allows the operation on the collection. */
export function levelAllows(spec: CollectionSpec, operation: Operation, level: number): boolean {
  const min = spec.access[operation];
  return min !== null && level >= min;
}

function guardedLevel(spec: CollectionSpec, data: Record<string, unknown> | null): number {
  const value = data === null || spec.levelGuard === undefined ? undefined : data[spec.levelGuard.field];
  return typeof value === 'number' ? value : 0;
}

/** The level guard for reading: whether this record is visible to the caller. */
export function guardAllowsView(spec: CollectionSpec, claims: Claims, data: Record<string, unknown>): boolean {
  const guard = spec.levelGuard;
  if (guard === undefined || claims.accessLevel >= guard.viewAllFrom) return true;
  return guardedLevel(spec, data) < guard.protectedFrom;
}

/** The level guard for writing: the record before and after (null when absent). */
export function guardAllowsWrite(spec: CollectionSpec, claims: Claims, before: Record<string, unknown> | null, after: Record<string, unknown> | null): boolean {
  const guard = spec.levelGuard;
  if (guard === undefined) return true;
  if (guardedLevel(spec, after) > claims.accessLevel) return false;
  if (claims.accessLevel >= guard.editAllFrom) return true;
  return guardedLevel(spec, before) < guard.protectedFrom && guardedLevel(spec, after) < guard.protectedFrom;
}
