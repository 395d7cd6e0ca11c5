/**
 * Starting and stopping one server: open the database, migrate it, record the start, build the
 * app, listen, and then complete sign-in, which needs the real port when PORT is 0 (its URL and
 * trusted origins): create Better Auth (and its tables) and, in demo mode, the demo accounts.
 * Requests arriving meanwhile wait for it. Used by main.ts and by tests, which listen on port 0.
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildAppOptions } from './app.ts';
import type { Auth } from './auth/auth.ts';
import { publicUrlOf } from './auth/http.ts';
import { resolveDemo, resolveSimulate, SIGNAL_CHANNELS, type Config } from './config.ts';
import { hasDemoData, markDemoData, recordStart, type StartRecord } from './database/appMeta.ts';
import type { Database } from './database/database.ts';
import { migrate } from './database/migrate.ts';
import { Readiness, START_STEPS } from './health/readiness.ts';
import { openDatabase } from './database/open.ts';
import { connectExternalBroker, startEmbeddedBroker, type DeviceBroker } from './ingest/broker.ts';
import { startDemoSimulation, type DemoSimulation } from './ingest/demoSimulation.ts';
import { createMailer, senderOf, type Mailer } from './mail/mail.ts';

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  /** Where the server answers, e.g. `http://127.0.0.1:3000` (the real port when PORT is 0). */
  url: string;
  port: number;
  /** PUBLIC_URL, or `http://localhost:<port>`: where sign-in links point. */
  publicUrl: string;
  start: StartRecord;
  /** Whether the demo data set is due at this start (so far: the demo accounts). */
  demo: boolean;
  auth: Auth;
  /** The embedded MQTT broker's port (when MQTT_PORT's was taken, the free one it took instead); null with MQTT_URL. */
  mqttPort: number | null;
  /** Where devices publish: the embedded broker (`mqtt://127.0.0.1:<port>`) or MQTT_URL. */
  mqttUrl: string;
  /** The simulated demo devices, when they run (demo mode, SIMULATE not 0). */
  simulation: DemoSimulation | null;
  /** The start steps; all done once startServer resolves, and not ready again once stopping. */
  readiness: Readiness;
  /** Stops accepting, waits for requests in flight, then closes the database. Safe to call twice. */
  stop(): Promise<void>;
}

export interface StartServerOptions {
  /** See BuildAppOptions.logger. */
  logger?: BuildAppOptions['logger'];
}

export async function startServer(config: Config, options: StartServerOptions = {}): Promise<RunningServer> {
  const database = await openDatabase(config);
  let app: FastifyInstance | undefined;
  let broker: DeviceBroker | undefined;
  let simulation: DemoSimulation | null = null;
  const readiness = new Readiness(START_STEPS);
  try {
    await migrate(database);
    readiness.done('migrations');
    const start = await recordStart(database);
    const demo = resolveDemo(config.demo, { embedded: database.kind === 'pglite', firstStart: start.firstStart });
    const authReady = deferred<Auth>();
    const mailReady = deferred<Mailer>();
    // Uploaded files live beside a kept database; with an in-memory one they are temporary too.
    const keepsData = !(config.database.kind === 'pglite' && config.database.dataDir === null);
    app = await buildApp({ config, database, auth: authReady.promise, mail: mailReady.promise, readiness, ...(keepsData ? { uploadDir: join(config.dataDir, 'uploads') } : {}), ...(options.logger === undefined ? {} : { logger: options.logger }) });
    await listen(app, config);
    // Device frames over MQTT (early, so that a taken MQTT_PORT fails the start at once).
    const pipeline = app.ingest;
    pipeline.warmUp();
    broker = config.mqttUrl
      ? await connectExternalBroker({ pipeline, log: app.log, url: config.mqttUrl, sharedGroup: config.mqttSharedGroup, clientId: config.mqttClientId })
      : await startEmbeddedBroker({ pipeline, log: app.log, host: config.host, port: config.mqttPort, portExplicit: config.mqttPortExplicit });
    // Ready only while frames can arrive: the embedded broker listens, the external one is connected.
    const watched = broker;
    readiness.watchBroker(() => watched.connected);
    pipeline.start();
    const { port } = app.server.address() as AddressInfo;
    const url = `http://${displayHost(config.host)}:${port}`;
    const running = app;
    const authConfig = { publicUrl: config.publicUrl, authSecret: config.authSecret, authRateLimitMax: config.authRateLimitMax, authAccountLock: config.authAccountLock, oauthProviders: config.oauthProviders, ssoTrustedOrigins: config.ssoTrustedOrigins, port };
    let auth: Auth;
    try {
      // Loaded only now: Better Auth takes a second or two to load, and a start that fails
      // earlier (port taken, data directory in use) should say so at once.
      const [{ createAuth }, { createDemoAccounts }] = await Promise.all([import('./auth/auth.ts'), import('./auth/demoAccounts.ts')]);
      const mail = createMailer({ smtpUrl: config.smtpUrl, database, from: senderOf(publicUrlOf(authConfig)), logger: app.log });
      mailReady.resolve(mail);
      auth = await createAuth({ config: authConfig, database, mail, logger: app.log });
      if (config.authRateLimitMax !== null) app.log.warn(`sign-in rate limits replaced by AUTH_RATE_LIMIT_MAX: ${config.authRateLimitMax} requests per client and minute`);
      if (demo) {
        const created = await createDemoAccounts(auth);
        await markDemoData(database);
        app.log.info(`demo accounts: ${created} created`);
        await (await import('./demo/seedDemoData.ts')).loadDemoDataAtStart(database, app.log);
      }
      authReady.resolve(auth);
      readiness.done('signIn');
      readiness.done('demoData');
    } catch (error) {
      authReady.reject(new Error('sign-in could not start', { cause: error }));
      throw error;
    }
    // The simulated devices, once the demo data (devices and their secrets) exists.
    const simulate = resolveSimulate(config.simulate, demo || (await hasDemoData(database)));
    // EIT is most of the volume (about 0.9 MB a minute per device): 24 simulated devices would store
    // 30 GB a day. So unless SIGNAL_STORED_CHANNELS says otherwise, the demo keeps EIT live only.
    const stored = config.signalStoredChannels ?? (simulate ? SIGNAL_CHANNELS.filter((channel) => channel !== 'eit') : null);
    pipeline.storeChannels(stored);
    if (stored !== null) app.log.info({ channels: stored }, 'stored signal channels (the others are live only)');
    if (simulate) simulation = await startDemoSimulation({ brokerUrl: broker.url, log: app.log });
    const deviceBroker = broker;
    const publicUrl = publicUrlOf(authConfig);
    let stopping: Promise<void> | undefined;
    const stop = (): Promise<void> => {
      stopping ??= (async () => {
        readiness.stop();
        try {
          // Devices first (nothing new is acknowledged), then HTTP, then what the pipeline holds.
          await simulation?.stop();
          await deviceBroker.close();
          await running.close();
          await pipeline.stop();
        } finally {
          await database.close();
        }
      })();
      return stopping;
    };
    return { app: running, database, url, port, publicUrl, start, demo, auth, mqttPort: deviceBroker.port, mqttUrl: deviceBroker.url, simulation, readiness, stop };
  } catch (error) {
    await simulation?.stop().catch(() => undefined);
    await broker?.close().catch(() => undefined);
    app?.ingest.stopTimers();
    await app?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw error;
  }
}

async function listen(app: FastifyInstance, config: Pick<Config, 'host' | 'port'>): Promise<void> {
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new Error(`port ${config.port} on ${config.host} is already in use: stop the other server or set PORT`, { cause: error });
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new Error(`cannot listen on HOST ${config.host}: no such address here`, { cause: error });
    if (code === 'EACCES') throw new Error(`not allowed to listen on port ${config.port}: use a port above 1023`, { cause: error });
    throw error;
  }
}

/** The host to show in URLs: a wildcard address means "this machine". */
export function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]') return 'localhost';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: Error): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Nobody may be waiting when it fails: startServer reports the failure itself.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
