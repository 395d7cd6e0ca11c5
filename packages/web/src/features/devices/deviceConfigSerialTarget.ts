/**
 * Where a scanned device label (/sn/:value) leads (PRODUCT.md section 4): the device's room sleep
 * page when the user may see that room; else the master device page for developers (100+); else
 * device registration with the serial filled in (staff and above; others are told here).
 */
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { SERIAL_PATTERN } from './deviceConfigRows.ts';

export type SerialTarget = { kind: 'invalid' } | { kind: 'notVisible' } | { kind: 'go'; to: string };

/** `roomId`: the room holding the device among those the user may see (null: none). */
export function serialNumberTarget(value: string, accessLevel: number, roomId: string | null): SerialTarget {
  if (!SERIAL_PATTERN.test(value)) return { kind: 'invalid' };
  if (roomId !== null) return { kind: 'go', to: `/room/${encodeURIComponent(roomId)}/sleep` };
  if (accessLevel >= ROLE_LEVELS.developer) return { kind: 'go', to: `/master/device/${encodeURIComponent(value)}` };
  // Registration is for staff: below it, say so here instead of sending the user to a refusal.
  if (accessLevel < ROLE_LEVELS.generalStaff) return { kind: 'notVisible' };
  return { kind: 'go', to: `/device-config/card?register=${encodeURIComponent(value)}` };
}
