/**
 * The HTTP application: every plugin is registered here, in one place. Building it touches no
 * network; `startServer` (server.ts) opens the database, listens and then completes sign-in.
 *
 * The core services come first, each a named plugin (fastify-plugin) that decorates the app:
 * `database` → `secondFactor`, `documents` (the one document store and its change feed) →
 * `signals` (stored frames, rings, live hub) → `ingest` (decoding and routing) → `live` (the socket
 * runtime). The capability plugins after them take what they need from the app (`app.documents`,
 * `app.signals`, `app.live`, …) and name it in their `dependencies`, so that Fastify refuses to
 * start when one is registered before what it uses. docs/architecture.md, "Services", draws the graph.
 * Each core service but `database` can be replaced by another plugin of the same name (`services`):
 * server.ts hands over the ones it made before the app, a test one that records or pretends.
 */
import fastifyCompress from '@fastify/compress';
import Fastify, { LogController, type FastifyInstance, type FastifyPluginAsync } from 'fastify';
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
import { databasePlugin } from './database/databasePlugin.ts';
import { deviceServicesPlugin } from './devices/deviceServices.ts';
import { documentServicesPlugin } from './documents/documentServices.ts';
import { devicesPlugin } from './devices/devicesPlugin.ts';
import { documentsPlugin } from './documents/documentsPlugin.ts';
import { healthPlugin } from './health/health.ts';
import { Readiness, readinessGatePlugin } from './health/readiness.ts';
import { importsPlugin } from './imports/importsPlugin.ts';
import { integrationsPlugin } from './integrations/integrationsPlugin.ts';
import { ingestPlugin } from './ingest/ingestPlugin.ts';
import { ingestServicePlugin } from './ingest/ingestService.ts';
import { secondFactorPlugin } from './auth/secondFactorPolicy.ts';
import { signalServicesPlugin } from './signals/signalServices.ts';
import { errorsPlugin } from './http/errors.ts';
import { fairSharePlugin } from './http/fairShare.ts';
import { jsonGuardPlugin } from './http/jsonGuard.ts';
import { zodRouteSchemasPlugin } from './http/zodRouteSchemas.ts';
import { securityHeadersPlugin } from './http/securityHeaders.ts';
import { livePlugin } from './live/livePlugin.ts';
import { metricsPlugin } from './metrics/metricsPlugin.ts';
import { socketRuntimePlugin, type SocketRuntimePluginOptions } from './live/socketRuntime.ts';
import type { Mailer } from './mail/mail.ts';
import { outboxPlugin } from './mail/outbox.ts';
import { monitoringPlugin } from './monitoring/monitoringPlugin.ts';
import type { RoomStateSharing } from './monitoring/roomStateSharing.ts';
import { collectRoutes, openApiPlugin } from './openapi/openapi.ts';
import { notificationsPlugin } from './notifications/notificationsPlugin.ts';
import { reportsPlugin } from './reports/reportsPlugin.ts';
import { auditLogPlugin } from './auditLog/auditLogPlugin.ts';
import { sessionPlugin } from './session/session.ts';
import { signalsPlugin } from './signals/signalsPlugin.ts';
import { sleepPlugin } from './sleep/sleepPlugin.ts';
import { staffPlugin } from './staff/staffPlugin.ts';
import { webAppPlugin } from './webApp/webApp.ts';

/** Where log lines (JSON, one per line) go instead of standard output. */
export interface LogDestination {
  write(line: string): void;
}

/** The core services that another plugin may stand in for (docs/architecture.md, "Services"). */
export type CoreServiceName = 'secondFactor' | 'documents' | 'signals' | 'devices' | 'ingest' | 'live';

/**
 * Core services replaced by other plugins. Each is a fastify-plugin plugin named as the service it
 * replaces, so that the plugins naming that service in their `dependencies` still find it, and
 * Fastify still checks the replacement's own `dependencies` when the app starts.
 */
export type CoreServicePlugins = Partial<Record<Exclude<CoreServiceName, 'live'>, FastifyPluginAsync>> & {
  /** Registered with what the default is given (`{ auth }`), so that it can serve sockets the same way. */
  live?: FastifyPluginAsync<SocketRuntimePluginOptions>;
};

const PLUGIN_META = Symbol.for('plugin-meta');

/** The replacement for `name`, refused at once when it is not a plugin of that name. */
function replacementOf<Name extends CoreServiceName>(services: CoreServicePlugins, name: Name): CoreServicePlugins[Name] | undefined {
  const plugin = services[name];
  if (plugin === undefined) return undefined;
  // fastify-plugin keeps the name it was given under this symbol (Fastify reads it the same way).
  const meta = (plugin as unknown as Record<symbol, { name?: string } | undefined>)[PLUGIN_META];
  if (meta?.name !== name)
    throw new Error(
      `the replacement for the ${name} service must be a fastify-plugin plugin named '${name}' (it is ${meta?.name === undefined ? 'unnamed' : `'${meta.name}'`})`,
    );
  return plugin;
}

export interface BuildAppOptions {
  config: Pick<Config, 'webDist' | 'logLevel'> & Partial<Pick<Config, 'oauthProviders' | 'signalRetentionDays' | 'trustProxy' | 'metricsToken' | 'dataDir'>>;
  database: Database;
  /**
   * Sign-in (auth.ts). A promise while the server does not know its port yet (PORT=0): requests
   * that need it wait until it resolves.
   */
  auth: Auth | Promise<Auth>;
  /** Outgoing mail for the plugins that send some outside sign-in (agency partner requests); server.ts resolves it with sign-in. */
  mail?: Promise<Mailer>;
  /** The address people open (PUBLIC_URL or the listening one), for links in notifications; server.ts resolves it with sign-in. */
  publicUrl?: Promise<string>;
  /** true or absent: log to standard output at config.logLevel; false: no logging; or a destination. */
  logger?: boolean | LogDestination;
  /** Where uploaded recordings are kept (DATA_DIR/uploads); absent: a temporary directory, as for an in-memory database. */
  uploadDir?: string;
  /** The start steps server.ts completes after building the app; absent: nothing left to start. */
  readiness?: Readiness;
  /** Core services replaced by other plugins (server.ts: the ones it made before the app; tests); absent: the app makes them. */
  services?: CoreServicePlugins;
  /** Several server processes on one broker (MQTT_SHARED_GROUP): who computes which room's state (ingest/processGroup.ts); absent: this process computes all. */
  roomStateSharing?: RoomStateSharing | null;
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

export async function buildApp({
  config,
  database,
  auth,
  mail,
  publicUrl,
  logger = true,
  uploadDir,
  readiness = new Readiness(),
  services = {},
  roomStateSharing = null,
}: BuildAppOptions): Promise<FastifyInstance> {
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
  // First, so that every route registered below is in the OpenAPI document.
  const routes = collectRoutes(app);
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
  // The core services (see the header): every plugin below finds them on the app.
  await app.register(databasePlugin, { database });
  await app.register(replacementOf(services, 'secondFactor') ?? secondFactorPlugin);
  await app.register(replacementOf(services, 'documents') ?? documentServicesPlugin());
  await app.register(
    replacementOf(services, 'signals') ??
      signalServicesPlugin(undefined, config.signalRetentionDays === undefined ? {} : { retentionDays: config.signalRetentionDays }),
  );
  await app.register(replacementOf(services, 'devices') ?? deviceServicesPlugin());
  await app.register(replacementOf(services, 'ingest') ?? ingestServicePlugin());

  await app.register(securityHeadersPlugin);
  await app.register(errorsPlugin);
  // Before every plugin: each one's JSON bodies, URL parameters and queries pass the same guard.
  await app.register(jsonGuardPlugin);
  // Before every plugin with routes: route schemas are zod schemas, run before the handler.
  await app.register(zodRouteSchemasPlugin);
  // Before every plugin with routes: routes declaring `config.fairShare` take turns per user, tenant and process.
  await app.register(fairSharePlugin, { databaseKind: database.kind });
  // Before every plugin with routes: API requests answer 503 at once while the start completes.
  await app.register(readinessGatePlugin, { readiness });
  await app.register(healthPlugin, { readiness });
  await app.register(appInfoPlugin, { socialProviders: (config.oauthProviders ?? []).map((provider) => provider.id) });
  // Before every plugin with routes that need `request.principal`.
  await app.register(principalPlugin, { auth });
  // The `live` service. Before authPlugin: it watches sign-in's answers (sign-out) to check the live
  // sockets at once. Registers @fastify/websocket; every live channel below serves through it (app.live).
  const live = replacementOf(services, 'live');
  await (live === undefined ? app.register(socketRuntimePlugin, { auth }) : app.register(live, { auth }));
  await app.register(authPlugin, { auth });
  await app.register(sessionPlugin, { auth });
  await app.register(documentsPlugin);
  // Phone number and photo of /account-info (account/accountPlugin.ts).
  await app.register(accountPlugin);
  await app.register(livePlugin);
  await app.register(outboxPlugin);
  // Device frames in over HTTP (MQTT is started by server.ts) and signals out (read API, live WebSocket).
  await app.register(ingestPlugin);
  await app.register(signalsPlugin);
  // Device registration by facilities: secrets and rooms (devices/devicesPlugin.ts).
  await app.register(devicesPlugin);
  // Lending devices to domains and taking them back (borrows/borrowsPlugin.ts).
  await app.register(borrowsPlugin);
  // The agency area: partners, devices, statistics and monthly bills with PDF invoices (agency/agencyPlugin.ts).
  await app.register(agencyPlugin, { ...(mail === undefined ? {} : { mail }) });
  // Staff: accounts follow their staff records; second-factor reset (staff/staffPlugin.ts).
  await app.register(staffPlugin);
  // Live room states and alerts, from the same frames.
  await app.register(monitoringPlugin, { sharing: roomStateSharing });
  // Alerts to staff away from the station: push, mail, LINE, webhooks, escalation (notifications/notificationsPlugin.ts).
  await app.register(notificationsPlugin, { ...(mail === undefined ? {} : { mail }), ...(publicUrl === undefined ? {} : { publicUrl }) });
  // Each morning's sleep records from the stored signals (sleep/sleepPlugin.ts).
  await app.register(sleepPlugin);
  // Recordings uploaded to rooms, imported into sleep days (imports/importsPlugin.ts).
  await app.register(importsPlugin, {
    ...(uploadDir === undefined ? { uploadDir: join(tmpdir(), `nemuri-uploads-${randomUUID()}`), temporary: true } : { uploadDir }),
  });
  // Sleep reports: the /report data, PDF and CSV downloads, report links (reports/reportsPlugin.ts).
  await app.register(reportsPlugin);
  // Integration API keys, alert acknowledgement and the FHIR export (integrations/integrationsPlugin.ts).
  await app.register(integrationsPlugin);
  // The audit log for levels 4 and above, in their scope (auditLog/).
  await app.register(auditLogPlugin);
  // GET /metrics (metrics/metricsPlugin.ts): after the plugins whose figures it reads, before the web app's fallback.
  await app.register(metricsPlugin, { readiness, ...(config.dataDir === undefined ? {} : { dataDir: config.dataDir }), token: config.metricsToken ?? null });
  // Last: it answers everything the plugins above do not.
  await app.register(openApiPlugin, { routes });
  await app.register(webAppPlugin, { webDist: config.webDist });
  return app;
}
