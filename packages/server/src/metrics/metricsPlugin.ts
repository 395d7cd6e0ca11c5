/**
 * GET /metrics: the server's figures in Prometheus' text format (prom-client), for a scraper or an
 * operator. Every figure is read when scraped from counts the server keeps anyway (the ingest
 * pipeline's stats, the live sockets, the room states, the PostgreSQL pool): nothing is added to
 * the per-frame work. Each app has a registry of its own, so several servers in one process (tests)
 * do not share or collide.
 *
 * Who may read it: a request with `Authorization: Bearer <METRICS_TOKEN>` (compared in constant
 * time), or a signed-in user at the system administrator level (200). Anyone else gets the same
 * JSON 404 as an unknown path, so that the endpoint's existence is not advertised (docs/security.md).
 */
import fp from 'fastify-plugin';
import { createHash, timingSafeEqual } from 'node:crypto';
import { errorResponses } from '@nemuri/shared/apiErrors';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { ROOM_STATE_NAMES } from '@nemuri/shared/monitoring';
import type { FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { Database } from '../database/database.ts';
import { checkpointStatsOf } from '../database/pglite.ts';
import { poolStatsOf } from '../database/postgresql.ts';
import { DiskSpaceProbe, type DiskSpace } from '../health/diskSpace.ts';
import { readinessReport } from '../health/health.ts';
import { Readiness } from '../health/readiness.ts';
import { sendNotFound } from '../http/errors.ts';
import type { FastifyInstance } from 'fastify';

export interface MetricsPluginOptions {
  /** The readiness checks (/api/health/ready's), exposed as gauges; absent: nothing left to start and nothing watched. */
  readiness?: Readiness;
  /** DATA_DIR: its disk's free space. */
  dataDir?: string;
  /** METRICS_TOKEN; null or absent: only a signed-in system administrator reads the figures. */
  token?: string | null;
}

export const METRICS_PATH = '/metrics';

/**
 * Whether `presented` is the token. Both sides are hashed first, so that the comparison takes the
 * same time whatever the lengths and wherever the first difference is (no prefix or length oracle).
 */
export function tokenMatches(presented: string, token: string): boolean {
  const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(token));
}

/** The token of `Authorization: Bearer <token>`, or null. */
function bearerOf(request: FastifyRequest): string | null {
  const match = /^Bearer ([\x21-\x7e]+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1] ?? null;
}

/** The app's registry with every metric; `collect` callbacks read the live figures at each scrape. */
export function metricsRegistry(app: FastifyInstance, database: Database, readiness: Readiness = new Readiness(), dataDir?: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'nemuri-monitor' });
  // CPU, memory, heap, handles, GC and event-loop delay (nodejs_eventloop_lag_* from perf_hooks).
  collectDefaultMetrics({ register: registry });

  const ingestCounter = (name: string, help: string, read: () => number): void => {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  };
  const stats = app.ingest.stats;
  ingestCounter('nemuri_ingest_messages_total', 'Device messages received (MQTT and HTTP).', () => stats.messages);
  ingestCounter('nemuri_ingest_frames_total', 'Frames of accepted messages kept (ring buffer, live, storage).', () => stats.frames);
  ingestCounter('nemuri_ingest_bytes_total', 'Bytes of accepted device messages.', () => stats.bytes);
  ingestCounter('nemuri_ingest_rejected_messages_total', 'Device messages the parser rejected (dropped as a whole).', () => stats.rejectedMessages);
  ingestCounter('nemuri_ingest_storage_errors_total', 'Device messages whose frames could not be stored (not acknowledged).', () => stats.storageErrors);
  ingestCounter(
    'nemuri_ingest_dropped_messages_total',
    'Device messages dropped because the retry backlog was full on a clean MQTT session.',
    () => stats.droppedMessages,
  );
  ingestCounter('nemuri_ingest_retried_messages_total', 'Device messages tried again after a failed lookup or write.', () => stats.retriedMessages);
  ingestCounter(
    'nemuri_ingest_joined_frames_total',
    'Frames received again while a write carrying them was under way: they waited for it instead of being written twice.',
    () => stats.joinedFrames,
  );

  // Readiness as /api/health/ready answers it, one check per label: an alert on nemuri_ready == 0
  // and the failing check's label say what is wrong without a second request.
  new Gauge({
    name: 'nemuri_ready',
    help: 'Whether /api/health/ready answers 200 (1) or 503 (0).',
    registers: [registry],
    async collect() {
      const report = await readinessReport(database, readiness);
      this.set(report.ready ? 1 : 0);
      readyChecks.reset();
      for (const [check, state] of Object.entries(report.checks)) readyChecks.set({ check }, state === 'ok' ? 1 : 0);
    },
  });
  const readyChecks = new Gauge({
    name: 'nemuri_ready_check',
    help: 'Each readiness check: 1 ok, 0 pending or down (migrations, signIn, demoData, broker, database, storage, disk).',
    labelNames: ['check'],
    registers: [registry],
  });
  const backlog = app.ingest.backlog;
  const backlogGauge = (name: string, help: string, read: () => number): void => {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  };
  backlogGauge('nemuri_ingest_backlog_frames', 'Device frames waiting for their commit to storage.', () => backlog.frames);
  backlogGauge('nemuri_ingest_backlog_bytes', 'Bytes of the frames waiting for their commit.', () => backlog.bytes);
  backlogGauge(
    'nemuri_ingest_retry_messages',
    'Device messages held to be stored again after a failed lookup or write (external broker).',
    () => backlog.retryMessages,
  );
  backlogGauge('nemuri_ingest_retry_bytes', 'Bytes of the messages held to be stored again.', () => backlog.retryBytes);
  backlogGauge(
    'nemuri_ingest_last_stored_timestamp_seconds',
    'When device frames were last committed (Unix time; 0: not since the start).',
    () => backlog.lastStoredAt / 1000,
  );
  if (dataDir !== undefined) {
    const disk = new DiskSpaceProbe(dataDir);
    const diskGauge = (name: string, help: string, read: (space: DiskSpace) => number): void => {
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          // A data directory not made yet (a test app) has no figure.
          const space = await disk.read().catch(() => null);
          if (space !== null) this.set(read(space));
        },
      });
    };
    diskGauge('nemuri_disk_free_bytes', "Free bytes on the data directory's disk (for the server's user).", (space) => space.freeBytes);
    diskGauge('nemuri_disk_size_bytes', "Size of the data directory's disk.", (space) => space.sizeBytes);
  }

  new Gauge({
    name: 'nemuri_live_sockets',
    help: 'Open live WebSockets, per channel.',
    labelNames: ['channel'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [channel, figures] of app.live.channelStats) this.set({ channel }, figures.sockets);
    },
  });
  new Gauge({
    name: 'nemuri_live_subscriptions',
    help: 'Live subscriptions held by the open WebSockets, per channel.',
    labelNames: ['channel'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [channel, figures] of app.live.channelStats) this.set({ channel }, figures.subscriptions);
    },
  });
  new Gauge({
    name: 'nemuri_live_users',
    help: 'Signed-in users with at least one open live WebSocket.',
    registers: [registry],
    collect() {
      this.set(app.live.stats.users);
    },
  });

  new Gauge({
    name: 'nemuri_rooms',
    help: 'Monitored rooms, per live state.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const counts = new Map<string, number>(ROOM_STATE_NAMES.map((state) => [state, 0]));
      for (const room of app.monitoring.states) counts.set(room.state, (counts.get(room.state) ?? 0) + 1);
      for (const [state, count] of counts) this.set({ state }, count);
    },
  });

  /** Gauges read from one of the database's figures, which only one kind of database has. */
  const gaugesOf =
    <Stats>(stats: () => Stats | null) =>
    (name: string, help: string, read: (stats: Stats) => number): void => {
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          const now = stats();
          if (now !== null) this.set(read(now));
        },
      });
    };
  // PGlite has one connection and no pool: these three are only there on PostgreSQL.
  if (poolStatsOf(database) !== null) {
    const poolGauge = gaugesOf(() => poolStatsOf(database));
    poolGauge('nemuri_db_pool_connections', 'PostgreSQL pool connections open.', (pool) => pool.total);
    poolGauge('nemuri_db_pool_idle', 'PostgreSQL pool connections idle.', (pool) => pool.idle);
    poolGauge('nemuri_db_pool_waiting', 'Queries waiting for a PostgreSQL pool connection.', (pool) => pool.waiting);
  }
  // The embedded database's checkpoints hold its one connection: ingest and requests wait meanwhile.
  if (checkpointStatsOf(database) !== null) {
    const checkpointGauge = gaugesOf(() => checkpointStatsOf(database));
    checkpointGauge('nemuri_pglite_checkpoints', 'Checkpoints of the embedded database since start.', (stats) => stats.count);
    checkpointGauge(
      'nemuri_pglite_checkpoint_last_seconds',
      'How long the last checkpoint held the embedded database (timed on its thread).',
      (stats) => stats.lastMs / 1000,
    );
    checkpointGauge('nemuri_pglite_checkpoint_max_seconds', 'The longest checkpoint of the embedded database since start.', (stats) => stats.maxMs / 1000);
    checkpointGauge('nemuri_pglite_checkpoint_seconds_total', 'Time checkpoints held the embedded database since start.', (stats) => stats.totalMs / 1000);
  }
  return registry;
}

/**
 * Registered after the plugins whose figures it reads (ingest, live sockets, monitoring) and before
 * the web app's fallback, which would otherwise answer /metrics with its JSON 404.
 */
export const metricsPlugin = fp<MetricsPluginOptions>(
  async (app, { readiness, dataDir, token = null }) => {
    const { database } = app;
    // Made at the first allowed scrape: the default metrics start an event-loop monitor and a GC
    // observer that live as long as the process, which a server never scraped (tests) need not pay for.
    let registry: Registry | null = null;
    /** The token, or a signed-in system administrator (`request.principal`, as on /api: a second factor the domain requires counts). */
    function allowed(request: FastifyRequest): boolean {
      const presented = bearerOf(request);
      if (token !== null && presented !== null && tokenMatches(presented, token)) return true;
      return (request.principal?.accessLevel ?? 0) >= ROLE_LEVELS.systemAdmin;
    }

    app.get(
      METRICS_PATH,
      {
        schema: {
          summary: 'Prometheus metrics (text exposition format 0.0.4), for METRICS_TOKEN or a signed-in system administrator',
          produces: ['text/plain'],
          // Anyone else is answered as if there were no such path.
          response: errorResponses(404),
        },
      },
      async (request, reply) => {
        if (!allowed(request)) return sendNotFound(request, reply);
        registry ??= metricsRegistry(app, database, readiness, dataDir);
        const body = await registry.metrics();
        return reply.header('cache-control', 'no-store').type(registry.contentType).send(body);
      },
    );
  },
  { name: 'metrics', dependencies: ['database', 'ingest', 'live', 'monitoring', 'principal'], encapsulate: true },
);
