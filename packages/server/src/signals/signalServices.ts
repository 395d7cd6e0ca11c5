/**
 * The `signals` service (docs/architecture.md, "Services"): where device frames are kept and given
 * out, as `app.signals` — the stored frames (signalStore.ts: staging, minute chunks, reads), the
 * last minute of each device channel (frameRings.ts) and the live fan-out to subscribers
 * (liveHub.ts), and their upkeep (signalUpkeep.ts: compaction of complete minutes, retention).
 * Ingest fills them; the signal API, the room-state estimator, the morning analysis and the imports
 * read or add to them.
 */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../database/database.ts';
import { FrameRings } from './frameRings.ts';
import { LiveHub } from './liveHub.ts';
import { SignalStore, type SignalStoreOptions } from './signalStore.ts';
import { SignalUpkeep, type SignalUpkeepOptions, type UpkeepLogger } from './signalUpkeep.ts';

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
  /** Compaction and retention of the stored frames: started with ingest (server.ts), stopped with the app. */
  upkeep: SignalUpkeep;
}

export function createSignalServices(database: Database, log: UpkeepLogger, options: SignalStoreOptions & SignalUpkeepOptions = {}): SignalServices {
  const store = new SignalStore(database, options);
  return { store, rings: new FrameRings(), hub: new LiveHub(), upkeep: new SignalUpkeep(database, store, log, options) };
}

/**
 * The `signals` service plugin over `made` (server.ts makes it before the app, with the ingest
 * pipeline), or over services made here on `app.database` (with `options`, e.g. SIGNAL_RETENTION_DAYS). A test replaces it with another plugin
 * named `signals` (app.ts).
 */
export function signalServicesPlugin(made?: SignalServices, options: SignalUpkeepOptions = {}): FastifyPluginAsync {
  return fp(
    async (app) => {
      const signals = made ?? createSignalServices(app.database, app.log, options);
      app.decorate('signals', signals);
      app.addHook('onClose', async () => {
        await signals.upkeep.stop();
      });
    },
    { name: 'signals', dependencies: ['database'] },
  );
}
