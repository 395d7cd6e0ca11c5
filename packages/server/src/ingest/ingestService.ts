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

/**
 * The `ingest` service plugin over `made` (server.ts: devices are taken before the app is built), or
 * over a pipeline made here from the app's services. A test replaces it with another plugin named
 * `ingest` (app.ts).
 */
export function ingestServicePlugin(made?: IngestPipeline): FastifyPluginAsync {
  return fp(
    async (app) => {
      app.decorate('ingest', made ?? new IngestPipeline({ signals: app.signals, status: app.devices.status, log: app.log }));
    },
    { name: 'ingest', dependencies: ['database', 'signals', 'devices'] },
  );
}
