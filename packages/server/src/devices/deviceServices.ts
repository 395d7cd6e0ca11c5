/**
 * The `devices` service (docs/architecture.md, "Services"): what the server knows of each device,
 * as `app.devices` — the device records and their secrets as the broker and HTTP ingest check them
 * (deviceRegistry.ts: a short cache over the `devices/{serial}` records, last good reads during a
 * database outage) and whether each device is online (deviceStatus.ts: from its last frame, with
 * `lastSeenAt` written to its record and status changes sent to live viewers through the `signals`
 * hub). Ingest reports the frames it takes; device registration, lending and the signal API read
 * or reset what is kept here.
 */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../database/database.ts';
import type { DocumentStore } from '../documents/store.ts';
import type { LiveHub } from '../signals/liveHub.ts';
import { DeviceRegistry } from './deviceRegistry.ts';
import { DeviceStatusTracker, type Logger } from './deviceStatus.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Device records and secrets, and whether each device is online (devices/deviceServices.ts). */
    devices: DeviceServices;
  }
}

export interface DeviceServices {
  registry: DeviceRegistry;
  status: DeviceStatusTracker;
}

export function createDeviceServices(database: Database, documents: DocumentStore, hub: LiveHub, log: Logger): DeviceServices {
  return { registry: new DeviceRegistry(database), status: new DeviceStatusTracker(documents, (event) => hub.status(event), log) };
}

/**
 * The `devices` service plugin over `made` (server.ts makes it before the app, with the ingest
 * pipeline), or over services made here from the app's. A test replaces it with another plugin
 * named `devices` (app.ts).
 */
export function deviceServicesPlugin(made?: DeviceServices): FastifyPluginAsync {
  return fp(
    async (app) => {
      app.decorate('devices', made ?? createDeviceServices(app.database, app.documents, app.signals.hub, app.log));
    },
    { name: 'devices', dependencies: ['database', 'documents', 'signals'] },
  );
}
