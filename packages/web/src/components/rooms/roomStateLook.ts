/**
 * How a room's live state looks at a glance, calm at 3 a.m.: one colour and icon per state, readable
 * in the dark theme; alarming colours only for what needs someone now.
 */
import { IconArmchair, IconBed, IconClockExclamation, IconMoonStars, IconPlugConnectedX, IconUrgent, IconWalk } from '@tabler/icons-react';
import type { RoomStateName } from '@nemuri/shared/monitoring';

export interface StateLook {
  color: string;
  icon: typeof IconBed;
}

export const STATE_LOOKS: Record<RoomStateName | 'noDevice', StateLook> = {
  asleep: { color: 'indigo', icon: IconMoonStars },
  awake: { color: 'teal', icon: IconBed },
  outOfBed: { color: 'yellow', icon: IconWalk },
  // Sitting up before leaving the bed: the step before 離床, in its colour's lighter neighbour.
  sittingUp: { color: 'lime', icon: IconArmchair },
  noBreathing: { color: 'red', icon: IconUrgent },
  // Data still comes, only late: the state cannot be vouched for, nothing is known to be wrong.
  late: { color: 'orange', icon: IconClockExclamation },
  offline: { color: 'gray', icon: IconPlugConnectedX },
  noDevice: { color: 'gray', icon: IconPlugConnectedX },
};

/** Order for "by state": what needs attention first. */
export const STATE_ORDER: readonly (RoomStateName | 'noDevice')[] = ['noBreathing', 'outOfBed', 'sittingUp', 'awake', 'asleep', 'late', 'offline', 'noDevice'];

/** "12分" / "3時間5分": how long a state has lasted. */
export function durationMinutes(sinceMs: number, nowMs: number): number {
  return Math.max(0, Math.floor((nowMs - sinceMs) / 60_000));
}
