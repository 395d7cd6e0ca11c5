/**
 * Who an escalation step notifies (DomainNotificationSettings `escalation`):
 * - `onDuty`: the staff on the current shift (day or night, by the domain's night window) whose
 *   assignment covers the room's unit or floor, or every room (unit null);
 * - `administrators`: the domain's staff of level 3 and up; `owners`: level 5, in the domain or
 *   its root domain (a corporation's owner); `allStaff`: every staff member of the domain.
 * Disabled staff are never notified; agency levels never (they see no residents).
 */
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { EscalationTarget, Shift, ShiftAssignment } from '@nemuri/shared/notifications';
import type { Queryable } from '../database/database.ts';
import { inNight, type NightWindow } from '../monitoring/nightWindow.ts';
import { minuteOfDay } from './notificationSettings.ts';

export interface StaffMember {
  uid: string;
  displayName: string;
  email: string;
  accessLevel: number;
}

export interface AlertRoom {
  roomId: string;
  name: string;
  unit: string | null;
  floor: string | null;
  residentName: string | null;
}

interface StaffRow {
  id: string;
  domain_id: string;
  data: { displayName?: unknown; email?: unknown; accessLevel?: unknown; disabled?: unknown };
}

export async function staffOf(db: Queryable, domainIds: readonly string[]): Promise<(StaffMember & { domainId: string })[]> {
  const { rows } = await db.query<StaffRow>(`select id, domain_id, data from documents where collection = any($1::text[])`, [
    domainIds.map((id) => `domains/${id}/staff`),
  ]);
  return rows.flatMap((row) => {
    const { displayName, email, accessLevel, disabled } = row.data;
    if (disabled === true || typeof accessLevel !== 'number' || typeof email !== 'string') return [];
    if (accessLevel < ROLE_LEVELS.generalStaff || accessLevel >= ROLE_LEVELS.agency) return [];
    return [{ uid: row.id, domainId: row.domain_id, displayName: typeof displayName === 'string' ? displayName : '', email, accessLevel }];
  });
}

/** The local calendar date (YYYY-MM-DD) of `atMs` in the time zone. */
export function localDate(atMs: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(atMs));
}

/** The shift in force at `atMs`: the night belongs to the day it began (after midnight, the day before). */
export function shiftAt(night: NightWindow, atMs: number): { day: string; shift: Shift } {
  if (!inNight(night, atMs)) return { day: localDate(atMs, night.timeZone), shift: 'day' };
  const today = localDate(atMs, night.timeZone);
  const afterMidnight = night.start > night.end && minuteOfDay(atMs, night.timeZone) < night.end;
  return { day: afterMidnight ? localDate(atMs - 24 * 3600_000, night.timeZone) : today, shift: 'night' };
}

export async function assignmentsOf(db: Queryable, domainId: string, day: string, shift: Shift): Promise<ShiftAssignment[]> {
  const { rows } = await db.query<{ assignments: ShiftAssignment[] }>(
    'select assignments from notify_shifts where domain_id = $1 and day = $2::date and shift = $3',
    [domainId, day, shift],
  );
  return rows[0]?.assignments ?? [];
}

function covers(assignment: ShiftAssignment, room: AlertRoom | null): boolean {
  return assignment.unit === null || (room !== null && (assignment.unit === room.unit || assignment.unit === room.floor));
}

export interface RecipientQuery {
  target: EscalationTarget;
  domainId: string;
  rootDomainId: string | null;
  room: AlertRoom | null;
  night: NightWindow;
  at: number;
}

export async function recipientsOf(db: Queryable, query: RecipientQuery): Promise<StaffMember[]> {
  const domains =
    query.target === 'owners' && query.rootDomainId !== null && query.rootDomainId !== query.domainId ? [query.domainId, query.rootDomainId] : [query.domainId];
  const staff = await staffOf(db, domains);
  const unique = (members: StaffMember[]) => [...new Map(members.map((member) => [member.uid, member])).values()];
  switch (query.target) {
    case 'onDuty': {
      const { day, shift } = shiftAt(query.night, query.at);
      const onDuty = new Set(
        (await assignmentsOf(db, query.domainId, day, shift)).filter((assignment) => covers(assignment, query.room)).map((assignment) => assignment.uid),
      );
      return unique(staff.filter((member) => onDuty.has(member.uid)));
    }
    case 'administrators':
      return unique(staff.filter((member) => member.accessLevel >= ROLE_LEVELS.administrator));
    case 'owners':
      return unique(staff.filter((member) => member.accessLevel >= ROLE_LEVELS.ownerAdministrator));
    case 'allStaff':
      return unique(staff);
  }
}
