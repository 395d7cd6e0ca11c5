/**
 * The HTTP application: every plugin is registered here, in one place. Building it touches no
 * network; `startServer` (server.ts) opens the database, listens and then completes sign-in.
 */
import fastifyCompress from '@fastify/compress';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accountPlugin } from './account/accountPlugin.ts';
import { agencyPlugin } from './agency/agencyPlugin.ts';
import { appInfoPlugin } from './appInfo/appInfo.ts';
import type { Auth } from './auth/auth.ts';
import { authPlugin } from './auth/authPlugin.ts';
import { principalPlugin } from './auth/principal.ts';
import { borrowsPlugin } from './borrows/borrowsPlugin.ts';
import type { Config } from './config.ts';
import type { Database } from './database/database.ts';
import { devicesPlugin } from './devices/devicesPlugin.ts';
import { documentsPlugin } from './documents/documentsPlugin.ts';
import { healthPlugin } from './health/health.ts';
import { Readiness, readinessGatePlugin } from './health/readiness.ts';
import { importsPlugin } from './imports/importsPlugin.ts';
import { ingestPlugin } from './ingest/ingestPlugin.ts';
import { IngestPipeline } from './ingest/pipeline.ts';
import { errorsPlugin } from './http/errors.ts';
import { fairSharePlugin } from './http/fairShare.ts';
import { jsonGuardPlugin } from './http/jsonGuard.ts';
import { securityHeadersPlugin } from './http/securityHeaders.ts';
import { livePlugin } from './live/livePlugin.ts';
import { metricsPlugin } from './metrics/metricsPlugin.ts';
import { socketRuntimePlugin } from './live/socketRuntime.ts';
import type { Mailer } from './mail/mail.ts';
import { outboxPlugin } from './mail/outbox.ts';
import { monitoringPlugin } from './monitoring/monitoringPlugin.ts';
import { reportsPlugin } from './reports/reportsPlugin.ts';
import { sessionPlugin } from './session/session.ts';
import { signalsPlugin } from './signals/signalsPlugin.ts';
import { sleepPlugin } from './sleep/sleepPlugin.ts';
import { staffPlugin } from './staff/staffPlugin.ts';
import { webAppPlugin } from './webApp/webApp.ts';

/** Where log lines (JSON, one per line) go instead of standard output. */
export interface LogDestination {
  write(line: string): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Device frames: MQTT/HTTP ingest, ring buffers, live fan-out, storage (ingest/pipeline.ts). */
    ingest: IngestPipeline;
  }
}

export interface BuildAppOptions {
  config: Pick<Config, 'webDist' | 'logLevel'> & Partial<Pick<Config, 'oauthProviders' | 'signalRetentionDays' | 'trustProxy' | 'metricsToken'>>;
  database: Database;
  /**
   * Sign-in (auth.ts). A promise while the server does not know its port yet (PORT=0): requests
   * that need it wait until it resolves.
   */
  auth: Auth | Promise<Auth>;
  /** Outgoing mail for the plugins that send some outside sign-in (agency partner requests); server.ts resolves it with sign-in. */
  mail?: Promise<Mailer>;
  /** true or absent: log to standard output at config.logLevel; false: no logging; or a destination. */
  logger?: boolean | LogDestination;
  /** Where uploaded recordings are kept (DATA_DIR/uploads); absent: a temporary directory, as for an in-memory database. */
  uploadDir?: string;
  /** The start steps server.ts completes after building the app; absent: nothing left to start. */
  readiness?: Readiness;
}

/** Content types worth compressing per request: text, JSON, XML, JavaScript, SVG; not binary. */
const COMPRESSIBLE_TYPES = /^text\/(?!event-stream)|[/+]json(?:;|$)|[/+]xml(?:;|$)|^application\/javascript|^image\/svg\+xml/;

/**
 * A client's or proxy's X-Request-Id is kept when it is a sane token (so one id follows a request
 * through the reverse proxy and our logs); anything else, e.g. too long or with characters that
 * could forge log lines, is replaced by a new one.
 */
export const REQUEST_ID_HEADER = 'x-request-id';
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

export async function buildApp({ config, database, auth, mail, logger = true, uploadDir, readiness = new Readiness() }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // A number of hops becomes proxy-addr's trust function: the nearest n addresses are proxies.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : (config.trustProxy ?? false),
    logger: logger === false ? false : { level: config.logLevel, ...(logger === true ? {} : { stream: logger }) },
    // A line per request drowns what matters at info level; debug and trace bring them back.
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
    // Checked by requestIdOf rather than taken as it comes (Fastify's requestIdHeader would).
    requestIdHeader: false,
    genReqId: (request) => requestIdOf(request.headers[REQUEST_ID_HEADER]),
  });
  // Every answer, errors and 404s included, says which request it was (request.log's reqId).
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });

  // API answers above 1 kB, compressed per request (the web app's files come compressed from the
  // build). Only text types: signal frames (application/octet-stream, which the plugin would take by
  // default) are dense already and read as they stream, and WebSocket frames never pass through a
  // reply. Request bodies are not inflated: a small compressed upload must not become a large one
  // behind the body limits.
  await app.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip'], customTypes: COMPRESSIBLE_TYPES, globalDecompression: false });
  // mime-db calls application/octet-stream compressible, and the plugin falls back to it for types
  // the list above leaves out; its only per-answer opt-out is the client's x-no-compression header.
  // App-level onSend hooks run before the plugin's route-level one.
  app.addHook('onSend', async (request, reply) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && !COMPRESSIBLE_TYPES.test(type)) request.headers['x-no-compression'] = '1';
  });
  await app.register(securityHeadersPlugin);
  await app.register(errorsPlugin);
  // Before every plugin: each one's JSON bodies, URL parameters and queries pass the same guard.
  await app.register(jsonGuardPlugin);
  // Before every plugin with routes: routes declaring `config.fairShare` take turns per user, tenant and process.
  await app.register(fairSharePlugin, { databaseKind: database.kind });
  // Before every plugin with routes: API requests answer 503 at once while the start completes.
  await app.register(readinessGatePlugin, { readiness });
  await app.register(healthPlugin, { database, readiness });
  await app.register(appInfoPlugin, { database, socialProviders: (config.oauthProviders ?? []).map((provider) => provider.id) });
  // Before every plugin with routes that need `request.principal`.
  await app.register(principalPlugin, { auth, database });
  // Before authPlugin: it watches sign-in's answers (sign-out) to check the live sockets at once.
  // Registers @fastify/websocket; every live channel below serves through it (app.liveSockets).
  await app.register(socketRuntimePlugin, { auth, database });
  await app.register(authPlugin, { auth });
  await app.register(sessionPlugin, { auth, database });
  await app.register(documentsPlugin, { database });
  // Phone number and photo of /account-info (account/accountPlugin.ts).
  await app.register(accountPlugin, { database });
  await app.register(livePlugin, { database });
  await app.register(outboxPlugin, { database });
  // Device frames in (HTTP; MQTT is started by server.ts) and signals out (read API, live WebSocket).
  const ingest = new IngestPipeline({ database, log: app.log, ...(config.signalRetentionDays === undefined ? {} : { retentionDays: config.signalRetentionDays }) });
  app.decorate('ingest', ingest);
  await app.register(ingestPlugin, { pipeline: ingest });
  await app.register(signalsPlugin, { pipeline: ingest });
  // Device registration by facilities: secrets and rooms (devices/devicesPlugin.ts).
  await app.register(devicesPlugin, { database, registry: ingest.registry });
  // Lending devices to domains and taking them back (borrows/borrowsPlugin.ts).
  await app.register(borrowsPlugin, { database, registry: ingest.registry });
  // The agency area: partners, devices, statistics and monthly bills with PDF invoices (agency/agencyPlugin.ts).
  await app.register(agencyPlugin, { database, ...(mail === undefined ? {} : { mail }) });
  // Staff: accounts follow their staff records; second-factor reset (staff/staffPlugin.ts).
  await app.register(staffPlugin, { database });
  // Live room states and alerts, from the same frames.
  await app.register(monitoringPlugin, { database, pipeline: ingest });
  // Each morning's sleep records from the stored signals (sleep/sleepPlugin.ts).
  await app.register(sleepPlugin, { database, pipeline: ingest });
  // Recordings uploaded to rooms, imported into sleep days (imports/importsPlugin.ts).
  await app.register(importsPlugin, { database, ...(uploadDir === undefined ? { uploadDir: join(tmpdir(), `nemuri-uploads-${randomUUID()}`), temporary: true } : { uploadDir }) });
  // Sleep reports: the /report data, PDF and CSV downloads, report links (reports/reportsPlugin.ts).
  await app.register(reportsPlugin, { database });
  // GET /metrics (metrics/metricsPlugin.ts): after the plugins whose figures it reads, before the web app's fallback.
  await app.register(metricsPlugin, { database, token: config.metricsToken ?? null });
  // Last: it answers everything the plugins above do not.
  await app.register(webAppPlugin, { webDist: config.webDist });
  return app;
}
