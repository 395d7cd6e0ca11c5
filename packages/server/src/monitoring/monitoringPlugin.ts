/**
 * Live room states for the home lists and the monitoring grid (docs/api.md, "Monitoring"):
 * - `GET /api/monitoring/rooms` → `{ at, rooms: LiveRoomState[] }`, the rooms in the caller's scope;
 * - WebSocket `/api/monitoring/live`: `{type:'subscribe-rooms'}` → every second
 *   `{type:'rooms', at, rooms}` with the rooms in the caller's scope (re-read every 30 s, so that
 *   rooms given or taken away follow).
 * - the alert history and its CSV (alertHistoryRoutes.ts), and the night summaries.
 * The service runs while the server does (started when it is ready, stopped when it closes). Origin,
 * heartbeat, session re-checks and limits of the socket are the socket runtime's (live/socketRuntime.ts).
 */
import fp from 'fastify-plugin';
import { inScope, isAgencyLevel, levelAllows, readsWhole, type Claims, type DataScope } from '@nemuri/shared/documents/access';
import { collectionByName } from '@nemuri/shared/documents/collections';
import { errorResponses } from '@nemuri/shared/apiErrors';
import {
  MONITORING_LIVE_PATH,
  MONITORING_ROOMS_PATH,
  monitoringRoomsResponseSchema,
  withoutVitals,
  type LiveRoomState,
  type MonitoringServerMessage,
} from '@nemuri/shared/monitoring';
import { sendError } from '../http/errors.ts';
import type { SocketConnection } from '../live/socketRuntime.ts';
import { alertHistoryRoutes } from './alertHistoryRoutes.ts';
import { RoomStateService } from './roomStateService.ts';
import type { RoomStateSharing } from './roomStateSharing.ts';
import { parseGuardedJson } from '../http/jsonGuard.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Live room states and alerts (monitoring/roomStateService.ts). */
    monitoring: RoomStateService;
  }
}

export interface MonitoringPluginOptions {
  /** How far behind real time device data may come before rooms read 遅延; default MONITORING_LATE_TOLERANCE_SEC or LATE_TOLERANCE_SEC (10 s). */
  lateToleranceSec?: number;
  /** Several server processes: this one computes the states of the rooms whose devices it owns (roomStateSharing.ts). */
  sharing?: RoomStateSharing | null;
}

/** The server's setting MONITORING_LATE_TOLERANCE_SEC (seconds, 1–300); unset or invalid: the shared default. */
export function lateToleranceFrom(env: Record<string, string | undefined>): number | undefined {
  const value = Number(env.MONITORING_LATE_TOLERANCE_SEC);
  return env.MONITORING_LATE_TOLERANCE_SEC !== undefined && Number.isFinite(value) && value >= 1 && value <= 300 ? value : undefined;
}

const ROOMS = collectionByName('rooms');
const SCOPE_REREAD_MS = 30_000;
/** A socket that has this much unsent is skipped for a second rather than buffered without end. */
const MAX_BUFFERED_BYTES = 1 << 20;
/** Largest message a client sends: `{"type":"subscribe-rooms"}`. */
const MAX_MESSAGE_BYTES = 1024;

/**
 * The rooms of the caller's scope as the caller may see them: an agency sees its partners' rooms'
 * status (state, device), never the residents' vitals (data minimisation, security issue 17).
 */
function roomsIn(claims: Claims, scope: DataScope, states: readonly LiveRoomState[]): LiveRoomState[] {
  const rooms = states.filter((state) => inScope(scope, { domainId: state.domainId, rootDomainId: state.rootDomainId, roomId: state.roomId }));
  return isAgencyLevel(claims) ? rooms.map((state) => (readsWhole(claims, state.domainId) ? state : withoutVitals(state))) : rooms;
}

// Not encapsulated, so that `app.monitoring` is the server's (tests and the sleep and import plugins reach the service through it).
export const monitoringPlugin = fp<MonitoringPluginOptions>(
  async (app, { lateToleranceSec, sharing = null }) => {
    const { database } = app;
    const store = app.documents;
    const service = new RoomStateService({
      documents: store,
      hub: app.signals.hub,
      log: app.log,
      lateToleranceSec: lateToleranceSec ?? lateToleranceFrom(process.env),
      sharing,
    });
    app.decorate('monitoring', service);
    app.addHook('onReady', () => service.start());
    app.addHook('onClose', () => service.stop());

    const scopeFor = async (claims: Claims | null): Promise<DataScope | 'unauthenticated' | 'denied'> => {
      if (claims === null) return 'unauthenticated';
      if (ROOMS === undefined || !levelAllows(ROOMS, 'list', claims.accessLevel)) return 'denied';
      return store.scopeOf(claims, database, ROOMS);
    };

    app.get(
      MONITORING_ROOMS_PATH,
      { schema: { summary: "Live states of the caller's rooms", response: { 200: monitoringRoomsResponseSchema, ...errorResponses(401, 403) } } },
      async (request, reply) => {
        const claims = request.principal;
        const scope = await scopeFor(claims);
        if (scope === 'unauthenticated' || claims === null) return sendError(reply, 401, 'unauthenticated', 'Sign in to see the rooms');
        if (scope === 'denied') return sendError(reply, 403, 'permission-denied', 'Missing or insufficient permissions.');
        reply.header('cache-control', 'no-store');
        return { at: Date.now(), rooms: roomsIn(claims, scope, service.states) };
      },
    );

    const roomsSocket = (connection: SocketConnection) => {
      const claims = connection.principal;
      let scope: DataScope | null = null;
      let scopeReadAt = 0;
      let stopListening: (() => void) | null = null;
      const send = (message: MonitoringServerMessage) => connection.send(JSON.stringify(message));
      const refreshScope = async (): Promise<boolean> => {
        const found = await scopeFor(claims);
        if (found === 'unauthenticated' || found === 'denied') {
          send({
            type: 'error',
            code: found === 'denied' ? 'permission-denied' : 'unauthenticated',
            message: found === 'denied' ? 'Missing or insufficient permissions.' : 'Sign in to see the rooms',
          });
          return false;
        }
        scope = found;
        scopeReadAt = Date.now();
        return true;
      };
      const unsubscribe = () => {
        if (stopListening === null) return;
        stopListening();
        stopListening = null;
        connection.release();
      };
      const subscribe = async () => {
        if (stopListening !== null || !(await refreshScope()) || stopListening !== null) return;
        const refusal = connection.reserve();
        if (refusal !== null) {
          send({ type: 'error', code: 'resource-exhausted', message: refusal });
          return;
        }
        const deliver = (states: readonly LiveRoomState[], at: number) => {
          if (scope === null) return;
          if (claims === null) return;
          send({ type: 'rooms', at, rooms: roomsIn(claims, scope, states) });
          if (Date.now() - scopeReadAt > SCOPE_REREAD_MS) {
            scopeReadAt = Date.now();
            void refreshScope().catch((error: unknown) => app.log.warn({ err: error }, 'monitoring: scope could not be read again'));
          }
        };
        deliver(service.states, Date.now());
        stopListening = service.onStates(deliver);
      };
      return {
        message: (text: string) => {
          let message: unknown;
          try {
            message = parseGuardedJson(text);
          } catch {
            message = null;
          }
          const type = typeof message === 'object' && message !== null ? (message as { type?: unknown }).type : undefined;
          if (type === 'subscribe-rooms') void subscribe().catch((error: unknown) => app.log.warn({ err: error }, 'monitoring: subscription failed'));
          else if (type === 'unsubscribe-rooms') unsubscribe();
          else send({ type: 'error', code: 'invalid-argument', message: 'Expected {"type":"subscribe-rooms"} or {"type":"unsubscribe-rooms"}' });
        },
        // The runtime has given the subscription back to the limits already.
        close: () => stopListening?.(),
      };
    };

    alertHistoryRoutes(app, { store, timeZoneOf: (domainId) => service.directory.nightOf(domainId).timeZone });

    app.live.serve(app, MONITORING_LIVE_PATH, {
      name: 'monitoring',
      summary: 'Live states of the caller’s rooms, every second (WebSocket)',
      description:
        'Upgrades to a WebSocket: send `{"type":"subscribe-rooms"}`, receive `{"type":"rooms","at","rooms":[…]}` every second. Messages: docs/api.md "Monitoring".',
      maxMessageBytes: MAX_MESSAGE_BYTES,
      maxBufferedBytes: MAX_BUFFERED_BYTES,
      // The next second's states replace what a slow reader missed.
      whenBehind: 'skip',
      open: roomsSocket,
    });
  },
  { name: 'monitoring', dependencies: ['documents', 'signals', 'live', 'principal'] },
);
