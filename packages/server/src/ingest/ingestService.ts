/**
 * The `ingest` service (docs/architecture.md, "Services"): device frames in, as `app.ingest` — the
 * pipeline that authenticates nothing itself, decodes each message and routes its frames to the
 * `signals` service (rings, live hub, storage) and tells the `devices` service whose frames came
 * (online status, `lastSeenAt`). The MQTT broker (server.ts) and the HTTP ingest route (ingestPlugin.ts)
 * hand it their messages.
 */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { IngestPipeline } from './pipeline.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Device frames in: decoding and routing (ingest/pipeline.ts). */
    ingest: IngestPipeline;
  }
}

export type IngestServiceMade =
  /** Made before the app (server.ts: devices are taken before the app is built). */
  | { pipeline: IngestPipeline }
  /** Made here from the app's services; SIGNAL_RETENTION_DAYS when set. */
  | { retentionDays?: number };

/** The `ingest` service plugin. A test replaces it with another plugin named `ingest` (app.ts). */
export function ingestServicePlugin(made: IngestServiceMade = {}): FastifyPluginAsync {
  return fp(
    async (app) => {
      app.decorate(
        'ingest',
        'pipeline' in made
          ? made.pipeline
          : new IngestPipeline({
              database: app.database,
              signals: app.signals,
              status: app.devices.status,
              log: app.log,
              ...(made.retentionDays === undefined ? {} : { retentionDays: made.retentionDays }),
            }),
      );
    },
    { name: 'ingest', dependencies: ['database', 'signals', 'devices'] },
  );
}
