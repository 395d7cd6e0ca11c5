/**
 * Starting and stopping one server: open the database, migrate it, record the start, build the
 * app, listen, and then complete sign-in, which needs the real port when PORT is 0 (its URL and
 * trusted origins): create Better Auth (and its tables) and, in demo mode, the demo accounts.
 * Requests arriving meanwhile wait for it. Used by main.ts and by tests, which listen on port 0.
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { BuildAppOptions, CoreServicePlugins } from './app.ts';
import type { Auth } from './auth/auth.ts';
import { publicUrlOf } from './auth/http.ts';
import { resolveDemo, resolveSimulate, SIGNAL_CHANNELS, type Config } from './config.ts';
import { hasDemoData, markDemoData, recordStart, type StartRecord } from './database/appMeta.ts';
import type { Database } from './database/database.ts';
import { startCheckpoints, type Checkpoints } from './database/checkpoints.ts';
import { migrate } from './database/migrate.ts';
import { openWithoutLeftovers, prepareDataDir } from './health/dataDir.ts';
import { DiskSpaceProbe, isNearlyFull } from './health/diskSpace.ts';
import { Readiness, START_STEPS } from './health/readiness.ts';
import { openDatabase } from './database/open.ts';
import type { DeviceBroker } from './ingest/broker.ts';
import type { DemoSimulation } from './ingest/demoSimulation.ts';
import { LateLogger } from './ingest/lateLogger.ts';
import type { IngestPipeline } from './ingest/pipeline.ts';
import type { SignalServices } from './signals/signalServices.ts';
import type { StallWatch } from './ingest/stallAlerts.ts';
import type { Mailer } from './mail/mail.ts';
import { withDeadline } from './support/withDeadline.ts';
import { deferred } from './deferred.ts';

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
  /** The device broker: with MQTT_SHARED_GROUP its process group and the device shares held here. */
  deviceBroker: DeviceBroker;
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
  /**
   * Replacements of the core services the server does not make before the app (tests; see
   * BuildAppOptions.services). The `live` replacement is registered with `{ auth }`, as the default is.
   */
  services?: Pick<CoreServicePlugins, 'secondFactor' | 'live'>;
}

export async function startServer(config: Config, options: StartServerOptions = {}): Promise<RunningServer> {
  const timing = new StartTiming();
  // Before anything is written: a read-only, full or foreign DATA_DIR fails here with its cause.
  await prepareDataDir(config.dataDir);
  timing.step('data directory checked');
  const embeddedDir = config.database.kind === 'pglite' ? config.database.dataDir : null;
  const opening = embeddedDir === null ? openDatabase(config) : openWithoutLeftovers(embeddedDir, () => openDatabase(config));
  // Issue 25 (start fast after a crash): the embedded database opens in a thread of its own (seconds:
  // WebAssembly, then recovery after a crash), and this thread loads the code meanwhile instead of
  // after it: the ingest modules, then the app's. A failed start waits for neither.
  const ingestModules = Promise.all([
    import('./ingest/broker.ts'),
    import('./ingest/pipeline.ts'),
    import('./documents/documentServices.ts'),
    import('./signals/signalServices.ts'),
    import('./devices/deviceServices.ts'),
    import('./ingest/ingestService.ts'),
  ]);
  const appModule = ingestModules.then(() => import('./app.ts'));
  ingestModules.catch(() => undefined);
  appModule.catch(() => undefined);
  const database = await opening;
  timing.step('database opened');
  let app: FastifyInstance | undefined;
  let broker: DeviceBroker | undefined;
  let simulation: DemoSimulation | null = null;
  let pipeline: IngestPipeline | undefined;
  let signals: SignalServices | undefined;
  let checkpoints: Checkpoints | undefined;
  let stallWatch: StallWatch | undefined;
  const early = new LateLogger();
  const readiness = new Readiness(START_STEPS);
  try {
    await migrate(database);
    readiness.done('migrations');
    timing.step('migrated');
    checkpoints = startCheckpoints(database, early);
    // Devices first (issue 25: after a crash the broker took 48 s to listen): the pipeline and the
    // broker need only the database, so they start before the rest of the app is even loaded, and
    // a taken MQTT_PORT fails the start at once. Their log lines reach the app's logger once it exists.
    const [
      { connectExternalBroker, startEmbeddedBroker },
      { IngestPipeline },
      { createDocumentServices, documentServicesPlugin },
      { createSignalServices, signalServicesPlugin },
      { createDeviceServices, deviceServicesPlugin },
      { ingestServicePlugin },
    ] = await ingestModules;
    timing.step('ingest loaded');
    // The core services the devices need, made now and handed to the app (app.ts) as its service plugins.
    const documents = createDocumentServices(database, early);
    signals = createSignalServices(database, early, config.signalRetentionDays === undefined ? {} : { retentionDays: config.signalRetentionDays });
    const devices = createDeviceServices(database, documents.store, signals.hub, early);
    pipeline = new IngestPipeline({ signals, status: devices.status, log: early });
    const ingest = pipeline;
    ingest.warmUp();
    timing.step('parser loaded');
    broker = config.mqttUrl
      ? await connectExternalBroker({
          pipeline: ingest,
          registry: devices.registry,
          watchers: signals.hub,
          changes: documents.changeFeed,
          log: early,
          url: config.mqttUrl,
          sharedGroup: config.mqttSharedGroup,
          clientId: config.mqttClientId,
          deviceAccounts: config.mqttDeviceAccounts,
        })
      : await startEmbeddedBroker({
          pipeline: ingest,
          registry: devices.registry,
          log: early,
          host: config.host,
          port: config.mqttPort,
          portExplicit: config.mqttPortExplicit,
        });
    timing.step(config.mqttUrl ? 'broker connected' : 'broker listening');
    // Ready only while frames can arrive: the embedded broker listens, the external one is connected.
    const watched = broker;
    readiness.watchBroker(() => watched.connected);
    readiness.watch('storage', () => ingest.backlog.state());
    const disk = new DiskSpaceProbe(config.dataDir);
    readiness.watch('disk', async () => {
      const space = await disk.read();
      if (!isNearlyFull(space)) return { state: 'ok' };
      return { state: 'down', reason: `the data disk is nearly full (${Math.floor(space.freeBytes / 1024 / 1024)} MiB free in ${config.dataDir})` };
    });
    const start = await recordStart(database);
    const demo = resolveDemo(config.demo, { embedded: database.kind === 'pglite', firstStart: start.firstStart });
    const authReady = deferred<Auth>();
    const mailReady = deferred<Mailer>();
    const publicUrlReady = deferred<string>();
    // Uploaded files live beside a kept database; with an in-memory one they are temporary too.
    const keepsData = !(config.database.kind === 'pglite' && config.database.dataDir === null);
    timing.step('start recorded');
    const { buildApp } = await appModule;
    timing.step('app loaded');
    app = await buildApp({
      config,
      database,
      services: {
        ...options.services,
        documents: documentServicesPlugin(documents),
        signals: signalServicesPlugin(signals),
        devices: deviceServicesPlugin(devices),
        ingest: ingestServicePlugin(ingest),
      },
      roomStateSharing: broker.group,
      auth: authReady.promise,
      mail: mailReady.promise,
      publicUrl: publicUrlReady.promise,
      readiness,
      ...(keepsData ? { uploadDir: join(config.dataDir, 'uploads') } : {}),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    });
    early.attach(app.log);
    timing.step('app built');
    await listen(app, config);
    ingest.start();
    signals.upkeep.start();
    timing.step('HTTP listening');
    const { port } = app.server.address() as AddressInfo;
    const url = `http://${displayHost(config.host)}:${port}`;
    const running = app;
    const authConfig = {
      publicUrl: config.publicUrl,
      authSecret: config.authSecret,
      authRateLimitMax: config.authRateLimitMax,
      authAccountLock: config.authAccountLock,
      oauthProviders: config.oauthProviders,
      ssoTrustedOrigins: config.ssoTrustedOrigins,
      port,
    };
    let auth: Auth;
    try {
      // Loaded only now: Better Auth takes a second or two to load, and a start that fails
      // earlier (port taken, data directory in use) should say so at once.
      const [{ createAuth }, { createDemoAccounts }] = await Promise.all([import('./auth/auth.ts'), import('./auth/demoAccounts.ts')]);
      const { createMailer, senderOf } = await import('./mail/mail.ts');
      const mail = createMailer({ smtpUrl: config.smtpUrl, database, from: senderOf(publicUrlOf(authConfig)), logger: app.log });
      mailReady.resolve(mail);
      publicUrlReady.resolve(publicUrlOf(authConfig));
      auth = await createAuth({ config: authConfig, database, documents: app.documents, secondFactor: app.secondFactor, mail, logger: app.log });
      if (config.authRateLimitMax !== null)
        app.log.warn(`sign-in rate limits replaced by AUTH_RATE_LIMIT_MAX: ${config.authRateLimitMax} requests per client and minute`);
      if (demo) {
        const created = await createDemoAccounts(auth);
        await markDemoData(database);
        app.log.info(`demo accounts: ${created} created`);
        await (await import('./demo/seedDemoData.ts')).loadDemoDataAtStart(app.documents, app.log);
      }
      authReady.resolve(auth);
      readiness.done('signIn');
      readiness.done('demoData');
      timing.step(demo ? 'sign-in and demo data ready' : 'sign-in ready');
    } catch (error) {
      authReady.reject(new Error('sign-in could not start', { cause: error }));
      throw error;
    }
    // The simulated devices, once the demo data (devices and their secrets) exists.
    const simulate = resolveSimulate(config.simulate, demo || (await hasDemoData(database)));
    // EIT is most of the volume (about 0.9 MB a minute per device): 24 simulated devices would store
    // 30 GB a day. So unless SIGNAL_STORED_CHANNELS says otherwise, the demo keeps EIT live only.
    const stored = config.signalStoredChannels ?? (simulate ? SIGNAL_CHANNELS.filter((channel) => channel !== 'eit') : null);
    ingest.storeChannels(stored);
    if (stored !== null) app.log.info({ channels: stored }, 'stored signal channels (the others are live only)');
    if (simulate) simulation = await (await import('./ingest/demoSimulation.ts')).startDemoSimulation({ brokerUrl: broker.url, log: app.log });
    // The administrators' alert when a domain's ingest stops (loaded now: not needed to take devices).
    stallWatch = new (await import('./ingest/stallAlerts.ts')).StallWatch({ database, log: app.log, storage: () => ingest.backlog.state() });
    const watch = stallWatch;
    // Where a slow start spends its time (issue 25): each step with the time since the process started.
    app.log.info({ steps: timing.steps }, `start-up: ${timing.summary()}`);
    const deviceBroker = broker;
    const publicUrl = publicUrlOf(authConfig);
    let stopping: Promise<void> | undefined;
    const stop = (): Promise<void> => {
      stopping ??= (async () => {
        readiness.stop();
        // Each step has a share of the budget: one that hangs (a device or browser that vanished
        // without a word, a database that stopped answering) is left behind and the next one runs,
        // so the process always ends within main.ts's limit. Nothing acknowledged is lost by that:
        // a message is acknowledged only once stored, and staged frames are compacted after the
        // next start.
        const started = Date.now();
        const log = running.log;
        const step = async (name: string, work: () => Promise<unknown>, ms: number): Promise<void> => {
          const at = Date.now();
          const outcome = await withDeadline(work(), ms, `no end within ${ms} ms`).then(
            () => 'done',
            (error: unknown) => {
              log.warn({ err: error, step: name }, `shutdown: ${name} did not finish (${error instanceof Error ? error.message : String(error)}); going on`);
              return 'left';
            },
          );
          log.info({ step: name, ms: Date.now() - at, outcome }, `shutdown: ${name}`);
        };
        try {
          // Devices first (nothing new is acknowledged), then HTTP and live sockets, then what the pipeline holds.
          await step('simulated devices', async () => simulation?.stop(), SHUTDOWN_STEPS_MS.devices);
          await step('MQTT broker', () => deviceBroker.close(), SHUTDOWN_STEPS_MS.broker);
          await step('HTTP and live sockets', () => running.close(), SHUTDOWN_STEPS_MS.http);
          await step('frames in flight', () => ingest.stop(), SHUTDOWN_STEPS_MS.frames);
        } finally {
          watch.stop();
          checkpoints?.stop();
          await step('database', () => database.close(), SHUTDOWN_STEPS_MS.database);
          log.info({ ms: Date.now() - started }, 'shutdown complete');
        }
      })();
      return stopping;
    };
    return {
      app: running,
      database,
      url,
      port,
      publicUrl,
      start,
      demo,
      auth,
      mqttPort: deviceBroker.port,
      mqttUrl: deviceBroker.url,
      deviceBroker,
      simulation,
      readiness,
      stop,
    };
  } catch (error) {
    await simulation?.stop().catch(() => undefined);
    await broker?.close().catch(() => undefined);
    pipeline?.stopTimers();
    await signals?.upkeep.stop();
    checkpoints?.stop();
    stallWatch?.stop();
    if (app === undefined) early.drainToStderr();
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

/**
 * The longest each shutdown step may take: together under main.ts's 10 s limit, with room for the
 * process to exit. A step left unfinished is logged.
 */
export const SHUTDOWN_STEPS_MS = {
  devices: 1000,
  // With several processes: the shares' hand-over (ingest/deviceShares.ts, HAND_OVER_MS) and the drain after it.
  broker: 2200,
  http: 2000,
  frames: 2500,
  database: 1500,
};

/** The start's steps, each with its time since the process started and its own duration (ms). */
class StartTiming {
  readonly steps: { step: string; atMs: number; ms: number }[] = [];
  #last = performance.now();

  step(name: string): void {
    const now = performance.now();
    this.steps.push({ step: name, atMs: Math.round(now), ms: Math.round(now - this.#last) });
    this.#last = now;
  }

  summary(): string {
    return this.steps.map(({ step, atMs, ms }) => `${step} at ${atMs} ms (+${ms})`).join(', ');
  }
}
