/**
 * Live room states (PRODUCT.md sections 8 and 9): what the server's state estimator says about each
 * monitored room once a second, as the home lists, the monitoring grid and the alerts see it.
 */

export const ROOM_STATE_NAMES = ['offline', 'outOfBed', 'awake', 'asleep', 'noBreathing'] as const;
export type RoomStateName = (typeof ROOM_STATE_NAMES)[number];

export interface LiveRoomState {
  roomId: string;
  domainId: string;
  rootDomainId: string | null;
  /** The device assigned to the room. */
  serial: string;
  state: RoomStateName;
  /** When the current state began, ms since the epoch. */
  since: number;
  /** Breaths/min, null when unknown. */
  respirationRate: number | null;
  /** Beats/min, null when unknown. */
  heartRate: number | null;
  /** Movement of the last second in g, null without acceleration. */
  movement: number | null;
  /** °C, null when none arrived in the last minute. */
  temperature: number | null;
  /** Last nurse-call button press, ms since the epoch. */
  lastButtonAt: number | null;
  /** When this state was evaluated, ms since the epoch. */
  at: number;
}

/** A room's state without the resident's vitals: what the agency levels see of their partners' rooms. */
export function withoutVitals(state: LiveRoomState): LiveRoomState {
  return { ...state, respirationRate: null, heartRate: null, movement: null, temperature: null, lastButtonAt: null };
}

/** WebSocket `/api/monitoring/live`: client → server. */
export type MonitoringClientMessage = { type: 'subscribe-rooms' } | { type: 'unsubscribe-rooms' };

/** Server → client: every second the states of the rooms in the user's scope. */
export type MonitoringServerMessage = { type: 'rooms'; at: number; rooms: LiveRoomState[] } | { type: 'error'; code: string; message: string };

export const MONITORING_LIVE_PATH = '/api/monitoring/live';
export const MONITORING_ROOMS_PATH = '/api/monitoring/rooms';
