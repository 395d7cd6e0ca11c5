/**
 * The `ingest` service (docs/architecture.md, "Services"): device frames in, as `app.ingest` — the
 * pipeline that authenticates nothing itself, decodes each message and routes its frames to the
 * `signals` service (rings, live hub, storage) and tells the `devices` service whose frames came
 * (online status, `lastSeenAt`). The MQTT broker (server.ts) and the HTTP ingest route (ingestPlugin.ts)
 * hand it their messages.
 */
import fp from 'fastify-plugin';
import { IngestPipeline } from './pipeline.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Device frames in: decoding and routing (ingest/pipeline.ts). */
    ingest: IngestPipeline;
  }
}

export interface IngestServicePluginOptions {
  /** Made before the app (server.ts: devices are taken before the app is built); absent: made here. */
  pipeline?: IngestPipeline;
  /** SIGNAL_RETENTION_DAYS, for a pipeline made here. */
  retentionDays?: number;
}

export const ingestServicePlugin = fp<IngestServicePluginOptions>(
  async (app, { pipeline, retentionDays }) => {
    app.decorate(
      'ingest',
      pipeline ??
        new IngestPipeline({
          database: app.database,
          signals: app.signals,
          status: app.devices.status,
          log: app.log,
          ...(retentionDays === undefined ? {} : { retentionDays }),
        }),
    );
  },
  { name: 'ingest', dependencies: ['database', 'signals', 'devices'] },
);
