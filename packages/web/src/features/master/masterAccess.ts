/**
 * Who may change master data (device types, parameters, views, release notes). Every developer
 * (100+) opens the master area; writing needs a senior developer (101, PRODUCT.md section 4). The
 * server's collection rules enforce the same level; the screens only hide what would be refused.
 */
import { EDIT_LEVELS } from '@nemuri/shared/routeAccess';

export function canEditMasterData(accessLevel: number): boolean {
  return accessLevel >= EDIT_LEVELS.masterData;
}
