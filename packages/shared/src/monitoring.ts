/**
 * Live room states (PRODUCT.md sections 8 and 9): what the server's state estimator says about each
 * monitored room once a second, as the home lists, the monitoring grid and the alerts see it.
 */
import { z } from 'zod/v3';

/**
 * `sittingUp` (起きあがり): in bed with the trunk upright (the chest sensor's acceleration), the posture
 * before leaving the bed, as 眠りSCAN reports it.
 * `late` (遅延): the device's data still comes but further behind real time than the tolerance allows
 * (or has paused for less than the domain's offline minutes); `offline` only after the domain's
 * `deviceOfflineMin` without any data.
 */
export const ROOM_STATE_NAMES = ['offline', 'late', 'outOfBed', 'sittingUp', 'awake', 'asleep', 'noBreathing'] as const;
export type RoomStateName = (typeof ROOM_STATE_NAMES)[number];

/**
 * How far behind real time a device's samples may be delivered (network, broker, a busy server) while
 * the room's state is still shown as computed; further behind, the room reads `late`. States are
 * computed on the devices' sample timestamps, so lateness within this never changes a state.
 * The server's setting MONITORING_LATE_TOLERANCE_SEC overrides it.
 */
export const LATE_TOLERANCE_SEC = 10;

export const liveRoomStateSchema = z
  .object({
    roomId: z.string(),
    domainId: z.string(),
    rootDomainId: z.string().nullable(),
    /** The device assigned to the room. */
    serial: z.string(),
    state: z.enum(ROOM_STATE_NAMES),
    /** When the current state began, ms since the epoch. */
    since: z.number(),
    /** Breaths/min, null when unknown. */
    respirationRate: z.number().nullable(),
    /** Beats/min, null when unknown. */
    heartRate: z.number().nullable(),
    /** Movement of the last second in g, null without acceleration. */
    movement: z.number().nullable(),
    /** °C, null when none arrived in the last minute. */
    temperature: z.number().nullable(),
    /** Last nurse-call button press, ms since the epoch. */
    lastButtonAt: z.number().nullable(),
    /** When this state was evaluated, ms since the epoch. */
    at: z.number(),
    /** End of the newest device sample the state was computed from (device time), null before any. */
    dataAt: z.number().nullable().optional(),
  })
  .strict();
export type LiveRoomState = z.infer<typeof liveRoomStateSchema>;

/** A room's state without the resident's vitals: what the agency levels see of their partners' rooms. */
export function withoutVitals(state: LiveRoomState): LiveRoomState {
  return { ...state, respirationRate: null, heartRate: null, movement: null, temperature: null, lastButtonAt: null };
}

/**
 * Alert types (the `alerts.type` of PRODUCT.md section 5) and their severity, as in ThingsBoard's alarms:
 * `critical` needs someone at the bedside now (no breathing, no normal heart rhythm — 心拍異常: flutter,
 * fibrillation or asystole in the ECG of a person in bed — and the nurse call), `major` soon, `minor` at
 * the next round, `warning` concerns the equipment. The station orders and colours alerts by it.
 */
export const ALERT_TYPE_NAMES = [
  'noBreathing',
  'heartRhythm',
  'button',
  'heartRateHigh',
  'heartRateLow',
  'respirationHigh',
  'respirationLow',
  'longOutOfBed',
  'outOfBed',
  'sittingUp',
  'temperatureHigh',
  'deviceOffline',
] as const;
export type AlertTypeName = (typeof ALERT_TYPE_NAMES)[number];

export const ALERT_SEVERITIES = ['critical', 'major', 'minor', 'warning'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

export const ALERT_SEVERITY: Readonly<Record<AlertTypeName, AlertSeverity>> = {
  noBreathing: 'critical',
  heartRhythm: 'critical',
  button: 'critical',
  heartRateHigh: 'major',
  heartRateLow: 'major',
  respirationHigh: 'major',
  respirationLow: 'major',
  longOutOfBed: 'major',
  outOfBed: 'minor',
  sittingUp: 'minor',
  temperatureHigh: 'minor',
  deviceOffline: 'warning',
};

/** Smaller first: the order in which alerts need attention. */
export function severityRank(type: string): number {
  const severity = (ALERT_SEVERITY as Readonly<Record<string, AlertSeverity>>)[type];
  return severity === undefined ? ALERT_SEVERITIES.length : ALERT_SEVERITIES.indexOf(severity);
}

/**
 * An alert's place in its lifecycle (ThingsBoard's ACTIVE/CLEARED × ACK/UNACK): `endedAt` is set when its
 * condition ended (cleared), `acknowledgedAt` when a person confirmed it. The station shows every alert
 * that is active or not yet acknowledged; a cleared one nobody confirmed reads 終了・未確認.
 */
export type AlertStatus = 'activeUnacknowledged' | 'activeAcknowledged' | 'endedUnacknowledged' | 'endedAcknowledged';

export function alertStatus(alert: { endedAt?: string | null; acknowledgedAt?: string | null }): AlertStatus {
  const ended = typeof alert.endedAt === 'string' && alert.endedAt !== '';
  const acknowledged = typeof alert.acknowledgedAt === 'string' && alert.acknowledgedAt !== '';
  if (ended) return acknowledged ? 'endedAcknowledged' : 'endedUnacknowledged';
  return acknowledged ? 'activeAcknowledged' : 'activeUnacknowledged';
}

/** Whether the nurse station lists the alert: until it has both ended and been acknowledged. */
export function onStation(alert: { endedAt?: string | null; acknowledgedAt?: string | null }): boolean {
  return alertStatus(alert) !== 'endedAcknowledged';
}

/** WebSocket `/api/monitoring/live`: client → server. */
export type MonitoringClientMessage = { type: 'subscribe-rooms' } | { type: 'unsubscribe-rooms' };

/** Server → client: every second the states of the rooms in the user's scope. */
export type MonitoringServerMessage = { type: 'rooms'; at: number; rooms: LiveRoomState[] } | { type: 'error'; code: string; message: string };

export const MONITORING_LIVE_PATH = '/api/monitoring/live';
export const MONITORING_ROOMS_PATH = '/api/monitoring/rooms';

/** `GET /api/monitoring/rooms`: the rooms of the caller's scope as of `at` (ms since the epoch). */
export const monitoringRoomsResponseSchema = z.object({ at: z.number(), rooms: z.array(liveRoomStateSchema) }).strict();
export type MonitoringRoomsResponse = z.infer<typeof monitoringRoomsResponseSchema>;
