/**
 * The `signals` service (docs/architecture.md, "Services"): where device frames are kept and given
 * out, as `app.signals` — the stored frames (signalStore.ts: staging, minute chunks, reads), the
 * last minute of each device channel (frameRings.ts) and the live fan-out to subscribers
 * (liveHub.ts). Ingest fills them; the signal API, the room-state estimator, the morning analysis
 * and the imports read or add to them.
 */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../database/database.ts';
import { FrameRings } from './frameRings.ts';
import { LiveHub } from './liveHub.ts';
import { SignalStore, type SignalStoreOptions } from './signalStore.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Stored frames, recent frames and the live fan-out (signals/signalServices.ts). */
    signals: SignalServices;
  }
}

export interface SignalServices {
  store: SignalStore;
  rings: FrameRings;
  hub: LiveHub;
}

export function createSignalServices(database: Database, options: SignalStoreOptions = {}): SignalServices {
  return { store: new SignalStore(database, options), rings: new FrameRings(), hub: new LiveHub() };
}

/**
 * The `signals` service plugin over `made` (server.ts makes it before the app, with the ingest
 * pipeline), or over services made here on `app.database`. A test replaces it with another plugin
 * named `signals` (app.ts).
 */
export function signalServicesPlugin(made?: SignalServices): FastifyPluginAsync {
  return fp(
    async (app) => {
      app.decorate('signals', made ?? createSignalServices(app.database));
    },
    { name: 'signals', dependencies: ['database'] },
  );
}
