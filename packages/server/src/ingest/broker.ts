/**
 * Device messages over MQTT (docs/device-protocol.md, "Connecting"): topic `devices/{serial}/frames`,
 * QoS 1, MQTT 3.1.1. Either
 * - the embedded broker (Aedes, the default): devices sign in with username = serial, client id =
 *   serial and password = their secret; a device may publish only to its own topic and nobody may
 *   subscribe to device frames; packet sizes and what a connection may cost before it is
 *   authenticated are limited (mqttLimits.ts); or
 * - an external broker (MQTT_URL: Mosquitto, an EMQX cluster …): it authenticates the devices, and the
 *   server subscribes to `devices/+/frames` (or, with MQTT_SHARED_GROUP, to
 *   `$share/<group>/devices/<serial>/frames` of each device it owns, so that several server processes
 *   divide the devices: deviceShares.ts) and drops frames of serials it does not know, and
 *   messages above the embedded broker's packet limit (the broker's own max_packet_size should
 *   refuse them first: docs/operations.md).
 * In both cases a QoS 1 message is acknowledged only once its frames are committed to the database,
 * so that an acknowledged frame survives a restart; a message the parser rejects is acknowledged and
 * dropped (resending it would not make it valid).
 */
import { createServer, type Server } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import mqtt, { type IClientOptions, type IPublishPacket, type MqttClient } from 'mqtt';
import { ParseError } from '@nemuri/parser/errors';
import type { ChangeFeed } from '../documents/changeFeed.ts';
import type { LiveHub } from '../signals/liveHub.ts';
import { MosquittoDeviceAccounts } from './brokerAccounts.ts';
import type { DeviceRegistry, KnownDevice } from '../devices/deviceRegistry.ts';
import { MQTT_LIMITS, MqttConnectionGuard, type GuardedConnection, type MqttLimits } from './mqttLimits.ts';
import type { IngestPipeline, IngestResult, IngestRoutes, PipelineLogger } from './pipeline.ts';
import { ProcessGroup, storesTopic } from './processGroup.ts';
import { DeviceShares } from './deviceShares.ts';
import { DeferredAcks } from './deferredAcks.ts';
import { withDeadline } from '../support/withDeadline.ts';

export const FRAMES_TOPIC_FILTER = 'devices/+/frames';
const FRAMES_TOPIC = /^devices\/([^/]+)\/frames$/;

export interface DeviceBroker {
  /** The port of the embedded broker; null with an external broker. */
  readonly port: number | null;
  /** What the simulator and devices connect to, e.g. `mqtt://127.0.0.1:1883`. */
  readonly url: string;
  /** Whether devices' frames can arrive now: the embedded broker listens, or the external one is connected (readiness). */
  readonly connected: boolean;
  /** With MQTT_SHARED_GROUP: the processes of the group, which divide the devices (processGroup.ts); null otherwise. */
  readonly group: ProcessGroup | null;
  /** With MQTT_SHARED_GROUP: the devices' shares this process holds (deviceShares.ts); null otherwise. */
  readonly shares: DeviceShares | null;
  close(): Promise<void>;
}

/** Backoff of a message whose device lookup or write failed (external broker). */
const RETRY_FIRST_MS = 500;
const RETRY_LAST_MS = 5_000;
/**
 * The most bytes of messages held in memory for another try. Past it a persistent session's
 * messages are left to the broker (a reconnection has them delivered again); a clean session's are
 * dropped, loudly, since nobody else holds them.
 */
export const RETRY_CAP_BYTES = 64 * 1024 * 1024;

/** How long a process leaving its shares waits for what was already on its way to it (after the hand-over, within server.ts's shutdown step). */
const SHARE_DRAIN_MS = 800;
/** No message for this long after leaving: the broker's queue for this session is empty. */
const SHARE_DRAIN_QUIET_MS = 150;

/** Not authorized (MQTT 3.1.1 CONNACK return code 5). */
const NOT_AUTHORIZED = 5;

export interface EmbeddedBrokerOptions {
  pipeline: IngestPipeline;
  /** Who may connect: the `devices` service's records and secrets. */
  registry: DeviceRegistry;
  log: PipelineLogger;
  host: string;
  port: number;
  /** MQTT_PORT was given: a taken port fails the start instead of falling back to a free port. */
  portExplicit: boolean;
  /** MQTT_LIMITS unless given (tests use small ones). */
  limits?: Partial<MqttLimits>;
}

export interface EmbeddedBroker extends DeviceBroker {
  readonly port: number;
  /** The limits in force and what they refused. */
  readonly guard: MqttConnectionGuard;
}

export async function startEmbeddedBroker({ pipeline, registry, log, host, port, portExplicit, limits }: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const devices = new WeakMap<Client, KnownDevice>();
  const guard = new MqttConnectionGuard({ ...MQTT_LIMITS, ...limits }, log);
  const connections = new WeakMap<object, GuardedConnection>();
  const acks = new DeferredAcks({
    window: { messages: guard.limits.unacknowledgedMessages, bytes: guard.limits.unacknowledgedBytes },
    hold: (client, held) => connections.get(client.conn)?.hold(held),
  });
  const broker = await Aedes.createBroker({
    connectTimeout: guard.limits.connectTimeoutMs,
    authenticate(client, username, password, done) {
      const serial = username ?? '';
      const refuse = (why: string): void => {
        log.warn({ serial, clientId: client.id }, `MQTT connection refused: ${why}`);
        const error = Object.assign(new Error('not authorized'), { returnCode: NOT_AUTHORIZED }) as AuthenticateError;
        done(error, false);
      };
      if (password === undefined || serial === '') return refuse('unknown device or wrong secret');
      // A second connection with a client id takes over the first (MQTT 3.1.1 section 3.1.4): with
      // another device's serial as its id, a device holding valid credentials of its own could keep
      // that device off the broker. So the client id is the authenticated serial, nothing else.
      if (client.id !== serial) return refuse('the client id must be the serial (the username)');
      registry.authenticate(serial, password.toString('utf8')).then(
        (device) => {
          if (device === null) return refuse('unknown device or wrong secret');
          devices.set(client, device);
          connections.get(client.conn)?.authenticated();
          done(null, true);
        },
        (error: unknown) => {
          log.error({ serial, err: error }, 'MQTT authentication failed');
          done(Object.assign(new Error('server unavailable'), { returnCode: 3 }) as AuthenticateError, false);
        },
      );
    },
    authorizePublish(client, packet, callback) {
      const device = client ? devices.get(client) : undefined;
      if (client === null || device === undefined || packet.topic !== `devices/${device.serial}/frames`) {
        log.warn({ serial: device?.serial, topic: packet.topic }, 'MQTT publish refused: a device may publish only to devices/{its serial}/frames');
        return callback(new Error('not authorized to publish there'));
      }
      const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
      // Frames are not for keeping in the broker.
      packet.retain = false;
      // QoS 1, the devices' level: acknowledged after the commit by `acks`, while Aedes reads on.
      const messageId = packet.messageId;
      const deferred = packet.qos === 1 && messageId !== undefined;
      if (deferred) packet.qos = 0;
      let durable: Promise<void>;
      try {
        durable = pipeline.ingest(device, payload).durable;
      } catch (error) {
        if (!(error instanceof ParseError)) return callback(error as Error);
        // Rejected as a whole: acknowledged, so that the device does not send it again.
        durable = Promise.resolve();
      }
      // Otherwise Aedes acknowledges (QoS 2) when this callback is called: after the commit.
      if (deferred) {
        acks.take(client, messageId, payload.byteLength, durable);
        callback(null);
      } else durable.then(() => callback(null), callback);
    },
    authorizeSubscribe(client, subscription, callback) {
      const device = client ? devices.get(client) : undefined;
      // Devices may use their own topics other than frames (e.g. commands later); nobody reads device frames here.
      const own =
        device !== undefined &&
        subscription.topic.startsWith(`devices/${device.serial}/`) &&
        !subscription.topic.includes('+') &&
        !subscription.topic.includes('#');
      if (!own || subscription.topic === `devices/${device.serial}/frames`) {
        log.warn({ serial: device?.serial, topic: subscription.topic }, 'MQTT subscription refused');
        return callback(null, null);
      }
      callback(null, subscription);
    },
    // Frames are consumed in authorizePublish; nothing needs routing to other clients.
    authorizeForward(_client, packet) {
      return FRAMES_TOPIC.test(packet.topic) ? null : packet;
    },
  });
  broker.on('clientError', (client, error) => log.info({ clientId: client.id, err: error.message }, 'MQTT client error'));
  broker.on('connectionError', (client, error) => log.info({ clientId: client.id, err: error.message }, 'MQTT connection error'));

  const server = createServer((socket) => {
    const connection = guard.admit(socket);
    if (connection === null) return;
    connections.set(socket, connection);
    broker.handle(socket);
  });
  // `localhost` would bind one of 127.0.0.1 and ::1 only; devices and the simulator use 127.0.0.1.
  const bindHost = host === 'localhost' ? '127.0.0.1' : host;
  let actual: number;
  try {
    actual = await listen(server, bindHost, port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (portExplicit) {
      await closeBroker(broker);
      throw new Error(`MQTT_PORT ${port} on ${bindHost} is already in use (another MQTT broker?): stop it, choose another MQTT_PORT, or use it with MQTT_URL`, {
        cause: error,
      });
    }
    actual = await listen(server, bindHost, 0);
    log.warn(
      { wanted: port, port: actual },
      `MQTT port ${port} is already in use (another MQTT broker?): the embedded broker listens on port ${actual} instead; set MQTT_PORT to choose, or MQTT_URL to use that broker`,
    );
  }
  log.info({ port: actual, host: bindHost }, 'embedded MQTT broker listening');
  const urlHost = bindHost === '0.0.0.0' || bindHost === '::' ? '127.0.0.1' : bindHost.includes(':') ? `[${bindHost}]` : bindHost;
  return {
    port: actual,
    url: `mqtt://${urlHost}:${actual}`,
    get connected() {
      return server.listening;
    },
    group: null,
    shares: null,
    guard,
    async close() {
      await closeBroker(broker);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

function closeBroker(broker: Aedes): Promise<void> {
  return new Promise((resolve) => broker.close(() => resolve()));
}

export interface ExternalBrokerOptions {
  pipeline: IngestPipeline;
  /** Which serials are devices (and, with device accounts, whose broker account follows a new secret): the `devices` service's registry. */
  registry: DeviceRegistry;
  /** The live fan-out (`app.signals.hub`): with a shared subscription, the devices browsers watch are subscribed to here. */
  watchers: LiveHub;
  /** The document change feed (`app.changeFeed`): device accounts follow retired and deleted devices. */
  changes: ChangeFeed;
  log: PipelineLogger;
  url: string;
  /** MQTT_SHARED_GROUP: subscribe through `$share/<group>/…` (MQTT 5 shared subscriptions, which Mosquitto and EMQX also offer to 3.1.1 clients). */
  sharedGroup: string | null;
  /** A persistent session under this id (MQTT_CLIENT_ID, or derived from the host: config.ts); null: a random id and a clean session. */
  clientId?: string | null;
  /** The most bytes of messages held for another try (RETRY_CAP_BYTES unless given: tests). */
  retryCapBytes?: number;
  /** MQTT_DEVICE_ACCOUNTS: `dynsec` keeps the devices' accounts in Mosquitto's dynamic security plugin (brokerAccounts.ts). */
  deviceAccounts?: 'dynsec' | null;
}

export async function connectExternalBroker({
  pipeline,
  registry,
  watchers,
  changes,
  log,
  url,
  sharedGroup,
  clientId = null,
  retryCapBytes = RETRY_CAP_BYTES,
  deviceAccounts = null,
}: ExternalBrokerOptions): Promise<DeviceBroker> {
  // With a persistent session the broker keeps what the server has not acknowledged (a failed write, a
  // restart) and delivers it again on reconnection; with a clean session that is lost.
  const persistent = clientId !== null;
  if (!persistent) {
    log.warn(
      { url: redact(url) },
      '!!! MQTT: a clean session (MQTT_PERSISTENT_SESSION=0, or PORT=0 so that no stable client id could be derived): ' +
        'frames devices send while this server is down or restarting are LOST. Set MQTT_CLIENT_ID (one per server process) to keep them.',
    );
  }
  const unknownLogged = new Map<string, number>();
  const shared = sharedGroup !== null;

  /**
   * Takes a client's frame messages into the pipeline. mqtt.js handles one incoming packet at a time
   * and sends the PUBACK when handleMessage calls back; waiting there for the commit would let one
   * message in per database write. So handleMessage takes the message synchronously and calls back
   * with an error marker, which makes mqtt.js move on without acknowledging, and the PUBACK is sent
   * here once the frames are committed (in arrival order, as MQTT 3.1.1 section 4.6 asks, since
   * commits complete in order; a message tried again after a failure is acknowledged when stored,
   * which brokers accept).
   */
  interface PacketSender {
    _sendPacket(packet: { cmd: 'puback'; messageId: number }): void;
  }
  const sendPuback = (client: MqttClient, messageId: number): void => {
    // mqtt.js has no public API for a deferred PUBACK: its internal sender, typed as much as we use.
    (client as unknown as PacketSender)._sendPacket({ cmd: 'puback', messageId });
  };
  let closing = false;
  /** Messages of the storing subscription taken and not yet acknowledged (or given up), and when the last came: for the drain at close. */
  let storingUnacknowledged = 0;
  let storingLastMessageAt = 0;
  // An outage fails every message in flight: one line every few seconds says so.
  let failureLoggedAt = 0;
  const logFailure = (object: object, message: string): void => {
    const now = Date.now();
    if (now - failureLoggedAt < 5000) return;
    failureLoggedAt = now;
    log.error({ ...object, retriedMessages: pipeline.stats.retriedMessages }, message);
  };
  /** Ends the connection (mqtt.js reconnects after reconnectPeriod); once per connection. */
  const reconnecting = new WeakSet<object>();
  const reconnect = (client: MqttClient): void => {
    const stream = client.stream;
    if (reconnecting.has(stream)) return;
    reconnecting.add(stream);
    stream.destroy();
  };
  const takeFrames = (client: MqttClient, routesOf: (serial: string) => IngestRoutes | null, other?: (packet: IPublishPacket) => void): void => {
    const DEFERRED = new Error('acknowledged later');
    client.handleMessage = (packet: IPublishPacket, callback: (error?: Error) => void): void => {
      const serial = FRAMES_TOPIC.exec(packet.topic)?.[1];
      if (serial === undefined) {
        other?.(packet);
        callback();
        return;
      }
      const routes = routesOf(serial);
      // A device neither watched nor followed any more (an unsubscription under way).
      if (routes === null) {
        callback();
        return;
      }
      const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
      // The broker's max_packet_size should have refused it; if it is not set, such a message is
      // still not for the pipeline. Acknowledged, so that it is not delivered again.
      if (payload.byteLength > MQTT_LIMITS.maxPacketBytes) {
        callback();
        pipeline.stats.rejectedMessages++;
        log.warn(
          { serial, bytes: payload.byteLength, max: MQTT_LIMITS.maxPacketBytes },
          "MQTT message above the packet size limit dropped (set the broker's max_packet_size)",
        );
        return;
      }
      callback(packet.qos === 1 ? DEFERRED : undefined);
      deliver(client, serial, payload, routes, packet.qos === 1 ? packet.messageId : undefined);
    };
  };

  /**
   * Looks the device up and stores the message, then acknowledges it. A failure (the database is
   * down) is not the message's fault: it is tried again with backoff until stored, and acknowledged
   * then, so that no message stays without PUBACK and fills the broker's in-flight window for good.
   * A write that is only slow is not a failure: the message waits for it (IngestResult.stored), and a
   * copy the broker delivers again meanwhile joins it in the pipeline (its in-flight set).
   * The PUBACK goes only to the connection the message came on: after a reconnection a persistent
   * session gets the message again from the broker, so this attempt gives up (the broker's copy is
   * stored instead); a clean session's broker has forgotten it, so this attempt goes on until stored.
   */
  const deliver = (client: MqttClient, serial: string, payload: Buffer, routes: IngestRoutes, messageId: number | undefined): void => {
    const stream = client.stream;
    const onSameConnection = (): boolean => client.stream === stream && client.connected;
    const counted = messageId !== undefined && routes.store !== false;
    let settled = false;
    const settle = (): void => {
      if (!counted || settled) return;
      settled = true;
      storingUnacknowledged--;
    };
    if (counted) {
      storingUnacknowledged++;
      storingLastMessageAt = Date.now();
    }
    let delayMs = RETRY_FIRST_MS;
    let seenLive = false;
    // Set while this message is held in memory for another try (counted against the retry cap).
    let release: (() => void) | undefined;
    const ack = (): void => {
      release?.();
      settle();
      if (messageId !== undefined && onSameConnection()) sendPuback(client, messageId);
    };
    const attempt = (): void => {
      // Unknown serials are dropped; the lookup is cached, so this is rarely a query.
      registry.find(serial).then(
        (device) => {
          if (device === null || device.status === 'retired') {
            const now = Date.now();
            if (now - (unknownLogged.get(serial) ?? 0) > 60_000) {
              unknownLogged.set(serial, now);
              log.warn({ serial }, 'MQTT frames of an unregistered or retired device dropped');
            }
            return ack();
          }
          let result: IngestResult;
          try {
            // A retried message was shown live the first time: now it is only stored.
            result = pipeline.ingest(device, payload, Date.now(), seenLive ? { live: false, allDevices: false, store: routes.store ?? true } : routes);
            seenLive = true;
          } catch (error) {
            if (error instanceof ParseError) return ack();
            logFailure({ serial, err: error }, 'MQTT message could not be ingested: it is tried again');
            return retry();
          }
          // Past the in-flight limit the write may still be under way (a slow database): this
          // message is tried again only once that write has failed, and acknowledged if it commits.
          // Handing it to storage again meanwhile would only queue a second copy behind the first.
          result.durable.then(ack, () => result.stored.then(ack, retry));
        },
        (error: unknown) => {
          logFailure({ serial, err: error }, 'device lookup failed: the message is tried again');
          retry();
        },
      );
    };
    const giveUp = (): void => {
      release?.();
      release = undefined;
      settle();
    };
    const retry = (): void => {
      // A live-only copy (QoS 0, shared subscriptions) is not worth keeping.
      if (routes.store === false) return giveUp();
      if (closing || (persistent && messageId !== undefined && !onSameConnection())) return giveUp();
      if (release === undefined) {
        const backlog = pipeline.backlog;
        if (backlog.retryBytes + payload.byteLength > retryCapBytes) {
          if (persistent && messageId !== undefined) {
            // The broker still holds it: a new connection gets it (and every other unacknowledged
            // message) delivered again, instead of this process holding more and more of them.
            logFailure(
              { serial, retryBytes: backlog.retryBytes, cap: retryCapBytes },
              'MQTT retry backlog full: reconnecting so that the broker delivers the unacknowledged messages again',
            );
            reconnect(client);
          } else {
            pipeline.stats.droppedMessages++;
            logFailure(
              { serial, retryBytes: backlog.retryBytes, cap: retryCapBytes, droppedMessages: pipeline.stats.droppedMessages },
              'MQTT retry backlog full on a clean session: message DROPPED (use a persistent session)',
            );
          }
          return;
        }
        release = backlog.holdForRetry(payload.byteLength);
      }
      pipeline.stats.retriedMessages++;
      setTimeout(attempt, delayMs).unref();
      delayMs = Math.min(delayMs * 2, RETRY_LAST_MS);
    };
    attempt();
  };

  // Without a shared subscription one client takes every device's frames, for storage, live and room
  // state. With one, this process holds the shares of the devices it owns (deviceShares.ts): it
  // stores their messages, computes their rooms and feeds its viewers from that copy; a second client
  // (QoS 0, clean) carries the group's messages and plain copies of the devices its browsers watch
  // that it does not own, and of its own while another session also holds their share.
  // With a persistent session the process id follows the client id, so that a process started again
  // owns the devices it owned (and its session's shares still hold).
  const processId = persistent && clientId !== null ? createHash('sha256').update(clientId).digest('hex').slice(0, 12) : randomBytes(6).toString('hex');
  const group = sharedGroup !== null ? new ProcessGroup({ group: sharedGroup, processId, log }) : null;
  const storing = await connectClient(
    url,
    {
      clientId: clientId ?? `nemuri-server-${randomBytes(6).toString('hex')}`,
      clean: !persistent,
      // A clean session's shares end with its connection: so does what it said of them.
      ...(sharedGroup !== null && !persistent
        ? { will: { topic: storesTopic(sharedGroup, processId), payload: Buffer.alloc(0), qos: 1 as const, retain: true } }
        : {}),
    },
    (client) =>
      takeFrames(
        client,
        group ? (serial) => ({ store: true, live: group.watches(serial) && group.alone(serial), allDevices: group.owns(serial) }) : () => ({}),
      ),
  );
  const watching = group
    ? await connectClient(url, { clientId: `nemuri-live-${processId}`, clean: true, ...group.connectOptions }, (client) =>
        takeFrames(
          client,
          (serial) => {
            // The share brings every message of the device here: this copy is not needed.
            if (group.alone(serial)) return null;
            const live = group.watches(serial);
            const allDevices = group.follows(serial);
            return live || allDevices ? { live, allDevices, store: false } : null;
          },
          (packet) => group.message(packet),
        ),
      ).catch(async (error: unknown) => {
        await storing.endAsync(true);
        throw error;
      })
    : null;
  for (const client of [storing, watching]) client?.on('error', (error) => log.warn({ err: error.message }, 'MQTT broker connection error'));
  const sharedTopic = shared ? `$share/${sharedGroup}/${FRAMES_TOPIC_FILTER}` : null;
  let shares: DeviceShares | null = null;
  if (watching && group && sharedGroup !== null) {
    try {
      await group.join(watching);
      shares = new DeviceShares({ client: storing, group, groupName: sharedGroup, registry, changes, log });
      // An earlier version held one share of every device under this session: left once the devices' own are held.
      await shares.start(persistent ? sharedTopic : null);
    } catch (error) {
      await watching.endAsync(true);
      await storing.endAsync(true);
      throw error;
    }
    const taking = shares;
    registry.beforeProvision = (serial) => taking.take(serial);
    watchers.onWatch = (serial, watched) => group.watch(serial, watched);
    for (const serial of watchers.watched()) group.watch(serial, true);
  } else {
    await storing.subscribeAsync(FRAMES_TOPIC_FILTER, { qos: 1 });
  }
  log.info(
    { url: redact(url), topic: shared ? `$share/${sharedGroup}/devices/<serial>/frames` : FRAMES_TOPIC_FILTER, persistent, process: group?.processId },
    'subscribed to device frames on the MQTT broker',
  );
  const accounts =
    deviceAccounts === 'dynsec'
      ? await MosquittoDeviceAccounts.connect(url, log).catch(async (error: unknown) => {
          await watching?.endAsync(true);
          await storing.endAsync(true);
          throw error;
        })
      : null;
  if (accounts) {
    registry.accounts = accounts;
    accounts.follow(changes, registry);
  }
  /**
   * Leaves the group (the others own every device from now on), hands the shares this session holds
   * over as the others take them (deviceShares.ts), then waits until every message that reached this
   * process is acknowledged and none has come for SHARE_DRAIN_QUIET_MS, at most SHARE_DRAIN_MS. What
   * nobody took over (this process was alone) stays in the persistent session, given again when the
   * same client id connects (docs/operations.md, "Several processes").
   */
  const handOver = async (held: DeviceShares, member: ProcessGroup): Promise<void> => {
    await member.leave();
    const kept = await held.handOver();
    const until = Date.now() + SHARE_DRAIN_MS;
    while (Date.now() < until && (storingUnacknowledged > 0 || (kept === 0 && Date.now() - storingLastMessageAt < SHARE_DRAIN_QUIET_MS)))
      await new Promise((resolve) => setTimeout(resolve, 20));
    // A clean session's shares end with it (a will is not sent on a clean disconnect): it says so.
    await withDeadline(held.flush(!persistent), 500).catch(() => undefined);
    if (kept > 0)
      log.info(
        { kept, persistent },
        persistent
          ? 'MQTT: device shares nobody took over stay in this session; the broker keeps their messages until it connects again'
          : 'MQTT: device shares nobody took over end with this clean session',
      );
    else log.info({ unacknowledged: storingUnacknowledged }, 'MQTT: handed the device shares over');
  };
  return {
    port: null,
    url,
    get connected() {
      return storing.connected;
    },
    group,
    shares,
    async close() {
      // A share's broker goes on handing this session its messages while it is away (Mosquitto queues
      // them for the persistent session until the same client id connects again): a process stopped
      // for good would strand its devices' messages. So it hands its shares over first, and takes in
      // what was already on its way to it.
      if (shares && group && storing.connected) await handOver(shares, group);
      else await group?.leave();
      closing = true;
      watchers.onWatch = undefined;
      registry.beforeProvision = null;
      if (accounts) registry.accounts = null;
      await accounts?.close();
      await watching?.endAsync();
      await storing.endAsync();
    },
  };
}

/**
 * A connected client whose message handling was set up before connecting: a persistent session
 * delivers what it kept right after CONNACK.
 */
async function connectClient(
  url: string,
  options: { clientId: string; clean: boolean } & Pick<IClientOptions, 'keepalive' | 'will'>,
  setUp: (client: MqttClient) => void,
): Promise<MqttClient> {
  const client = mqtt.connect(url, { protocolVersion: 4, reconnectPeriod: 1000, connectTimeout: 10_000, manualConnect: true, ...options });
  setUp(client);
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error): void => {
      clearTimeout(timer);
      client.end(true);
      reject(new Error(`cannot connect to the MQTT broker ${redact(url)}: ${error.message}`, { cause: error }));
    };
    // A refused TCP connection is retried silently: give up after a while.
    const timer = setTimeout(() => onError(new Error('no answer within 15 s')), 15_000);
    client.once('error', onError);
    client.once('connect', () => {
      clearTimeout(timer);
      client.off('error', onError);
      resolve();
    });
    client.connect();
  });
  return client;
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}
