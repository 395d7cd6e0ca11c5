/**
 * One runtime for the server's three live WebSockets (`/api/live`, `/api/signals/live`,
 * `/api/monitoring/live`): each channel says what its messages mean, and the runtime does what
 * every socket needs, the same way for all three (docs/security.md, "Live sockets"):
 * - the upgrade is refused (403) unless its `Origin` is the server's own (PUBLIC_URL, or
 *   127.0.0.1/localhost on the listening port, as sign-in trusts them) or absent: browsers always
 *   send it on a WebSocket handshake (RFC 6455 section 4.1), so a page of another site cannot
 *   hide where it comes from, and a program without one holds the cookie itself;
 * - messages are small JSON text (ws refuses anything above MAX_SOCKET_MESSAGE_BYTES before it
 *   is buffered whole; each channel has its own, smaller limit);
 * - a ping every 30 s, and a socket that did not answer the previous one is cut;
 * - a peer that stops reading is not buffered for without end (`send` says when it is behind);
 * - what one socket is sent in one event-loop turn leaves in one write (turnCork.ts);
 * - the session is checked again every 5 s for every socket at once (one query), and at once when
 *   sign-in changes something (any successful POST under /api/auth: sign-out, revoking sessions,
 *   second factors) or the staff rules change a member (`userChanged`: disabled, level): a socket
 *   whose session is gone, or whose user now has another level, domain or root domain than at the
 *   upgrade, is closed with SESSION_CHANGED_CLOSE_CODE and the client opens a new one with the
 *   rights it has now;
 * - per-user and per-tenant limits on sockets and subscriptions (SOCKET_LIMITS).
 *
 * The `live` service (docs/architecture.md, "Services"), registered once as `app.live`; it registers
 * @fastify/websocket itself, and the three channels serve through it.
 */
import websocket from '@fastify/websocket';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AddressInfo } from 'node:net';
import type { WebSocket } from 'ws';
import { errorResponses } from '@nemuri/shared/apiErrors';
import { POLICY_CLOSE_CODE, SESSION_CHANGED_CLOSE_CODE } from '@nemuri/shared/liveSockets';
import type { Auth } from '../auth/auth.ts';
import { AUTH_BASE_PATH } from '../auth/http.ts';
import { sessionOf } from '../auth/principal.ts';
import { claimsOfAuthUser, type SecondFactorPolicy } from '../auth/secondFactorPolicy.ts';
import type { Principal } from '../auth/signedInUser.ts';
import type { Queryable } from '../database/database.ts';
import { sendError } from '../http/errors.ts';
import { corkForTurn } from './turnCork.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The live WebSockets' runtime (live/socketRuntime.ts). */
    live: SocketRuntime;
  }
}

export interface SocketLimits {
  /** Open sockets of one signed-in user, over the three channels. */
  socketsPerUser: number;
  /**
   * Open signed-out sockets from one client address (trustProxy applied): they can do nothing but
   * be told to sign in, so pages before sign-in need a few (several people behind one address more),
   * and a flood of them is refused.
   */
  signedOutSocketsPerAddress: number;
  /** Live subscriptions of one user over all their sockets (a record, query or count; a device; the room states). */
  subscriptionsPerUser: number;
  /** Live subscriptions of all users of one tenant (root domain) together. */
  subscriptionsPerTenant: number;
}

/**
 * A browser tab holds one socket per channel (three), and a person a few tabs; the screens with
 * the most subscriptions (the tenancy of a facility's home lists and room grid) hold well under
 * 200. A tenant's cap lets about ten such users at their limit, and keeps one tenant from taking
 * the live results' memory and evaluation from the others (issue 17, finding 11).
 */
export const SOCKET_LIMITS: Readonly<SocketLimits> = {
  socketsPerUser: 8,
  signedOutSocketsPerAddress: 32,
  subscriptionsPerUser: 200,
  subscriptionsPerTenant: 2_000,
};

/** Largest message any channel takes; ws closes the socket (1009) beyond it without buffering more. */
export const MAX_SOCKET_MESSAGE_BYTES = 64 * 1024;
export const HEARTBEAT_MS = 30_000;
export const SESSION_RECHECK_MS = 5_000;

export { POLICY_CLOSE_CODE, SESSION_CHANGED_CLOSE_CODE };

/** What a channel does with its sockets: the runtime calls it once per accepted socket. */
export interface LiveChannel {
  /** For log lines, e.g. 'live', 'signals', 'monitoring'. */
  name: string;
  /** The OpenAPI document's line for the socket, and where its messages are described (docs/api.md). */
  summary?: string;
  description?: string;
  /** Largest text message this channel takes; larger ones close the socket (1009). */
  maxMessageBytes: number;
  /** Unsent bytes beyond which the peer counts as not reading. */
  maxBufferedBytes: number;
  /** A peer not reading: 'close' the socket (1008), or 'skip' what is sent meanwhile. */
  whenBehind: 'close' | 'skip';
  open(connection: SocketConnection, request: FastifyRequest): ChannelSocket;
}

export interface ChannelSocket {
  /** One text message (binary ones close the socket before it gets here). */
  message(text: string): void;
  /** The socket has closed (its subscriptions are already released from the limits). */
  close(): void;
}

/** Logger methods the runtime uses (Fastify's have them). */
interface Log {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** One accepted socket, as a channel sees it. */
export class SocketConnection {
  /** Who the socket acts for, fixed for its life (a change closes it). */
  readonly principal: Principal | null;
  /** Better Auth's session token of the upgrade, to check it again; null when signed out. */
  readonly sessionToken: string | null;
  /** The channel's name (LiveChannel.name), for the per-channel figures of /metrics. */
  readonly channel: string;
  readonly socket: WebSocket;
  readonly log: Log;
  /** Subscriptions this socket holds against the limits. */
  subscriptions = 0;
  /** Whether the peer answered (pong or message) since the last ping. */
  alive = true;
  readonly #runtime: SocketRuntime;
  readonly #maxBuffered: number;
  readonly #closeWhenBehind: boolean;

  constructor(runtime: SocketRuntime, socket: WebSocket, principal: Principal | null, sessionToken: string | null, channel: LiveChannel, log: Log) {
    this.#runtime = runtime;
    this.socket = socket;
    this.principal = principal;
    this.sessionToken = sessionToken;
    this.channel = channel.name;
    this.log = log;
    this.#maxBuffered = channel.maxBufferedBytes;
    this.#closeWhenBehind = channel.whenBehind === 'close';
  }

  /** Sends unless the socket is closed or behind (see LiveChannel.whenBehind); false when not sent. */
  send(data: string | Buffer, binary = false): boolean {
    const socket = this.socket;
    if (socket.readyState !== socket.OPEN) return false;
    if (socket.bufferedAmount > this.#maxBuffered) {
      if (this.#closeWhenBehind) socket.close(POLICY_CLOSE_CODE, 'not reading');
      return false;
    }
    corkForTurn(socket);
    socket.send(data, { binary });
    return true;
  }

  /**
   * Takes one subscription from the user's and the tenant's allowance: null when taken, else why
   * not (an English message for a `resource-exhausted` error). Signed-out sockets subscribe to
   * nothing, so they take nothing.
   */
  reserve(): string | null {
    const refusal = this.#runtime.reserve(this.principal);
    if (refusal === null) this.subscriptions++;
    return refusal;
  }

  /** Gives back one subscription taken with `reserve`. */
  release(): void {
    if (this.subscriptions === 0) return;
    this.subscriptions--;
    this.#runtime.release(this.principal, 1);
  }

  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }
}

export interface SocketRuntimeOptions {
  auth: Auth | Promise<Auth>;
  /** Where sessions and users are read again. */
  database: Queryable;
  /** Whether a user's domain requires a second factor (the level in force). */
  secondFactor: SecondFactorPolicy;
}

interface SessionRow {
  token: string;
  id: string;
  accessLevel: number | null;
  domainId: string | null;
  rootDomainId: string | null;
  twoFactorEnabled: boolean | null;
  secondFactorEnrolledAt: Date | null;
}

function samePrincipal(a: Principal, b: Principal): boolean {
  return a.uid === b.uid && a.accessLevel === b.accessLevel && a.domainId === b.domainId && a.rootDomainId === b.rootDomainId;
}

/** The tenant a user's subscriptions count against: their root domain, or the user alone without one. */
function tenantOf(principal: Principal): string {
  return principal.rootDomainId ?? principal.domainId ?? `user:${principal.uid}`;
}

function add<K>(map: Map<K, number>, key: K, delta: number): void {
  const next = (map.get(key) ?? 0) + delta;
  if (next <= 0) map.delete(key);
  else map.set(key, next);
}

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let set = map.get(key);
  if (set === undefined) map.set(key, (set = new Set()));
  set.add(value);
}

function removeFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set === undefined) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}

/** Session tokens named in a Cookie header: Better Auth's session cookie is `<token>.<signature>`. */
function tokensIn(cookie: string | undefined): string[] {
  if (cookie === undefined) return [];
  const tokens: string[] = [];
  for (const pair of cookie.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0) continue;
    let value = pair.slice(at + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      continue;
    }
    const dot = value.indexOf('.');
    if (dot > 0) tokens.push(value.slice(0, dot));
  }
  return tokens;
}

export class SocketRuntime {
  limits: SocketLimits = { ...SOCKET_LIMITS };
  readonly #auth: Auth | Promise<Auth>;
  readonly #database: Queryable;
  readonly #secondFactor: SecondFactorPolicy;
  readonly #log: Log;
  readonly #connections = new Set<SocketConnection>();
  readonly #byUser = new Map<string, Set<SocketConnection>>();
  readonly #signedOutByAddress = new Map<string, Set<SocketConnection>>();
  readonly #byToken = new Map<string, Set<SocketConnection>>();
  readonly #userSubscriptions = new Map<string, number>();
  readonly #tenantSubscriptions = new Map<string, number>();
  readonly #sessionTokens = new WeakMap<FastifyRequest, string | null>();
  #origins: Promise<ReadonlySet<string>> | null = null;
  #listeningPort: () => number;
  #heartbeatMs = HEARTBEAT_MS;
  #recheckMs = SESSION_RECHECK_MS;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #recheck: ReturnType<typeof setInterval> | undefined;
  #checking: Promise<void> = Promise.resolve();

  constructor({ auth, database, secondFactor }: SocketRuntimeOptions, log: Log, listeningPort: () => number) {
    this.#auth = auth;
    this.#database = database;
    this.#secondFactor = secondFactor;
    this.#log = log;
    this.#listeningPort = listeningPort;
  }

  /** Changes the intervals or limits (tests, benchmarks); timers restart with the new intervals. */
  configure({ heartbeatMs, recheckMs, limits }: { heartbeatMs?: number; recheckMs?: number; limits?: Partial<SocketLimits> }): void {
    if (heartbeatMs !== undefined) this.#heartbeatMs = heartbeatMs;
    if (recheckMs !== undefined) this.#recheckMs = recheckMs;
    if (limits !== undefined) this.limits = { ...this.limits, ...limits };
    if (this.#heartbeat !== undefined) {
      this.stop();
      this.start();
    }
  }

  start(): void {
    this.#heartbeat = setInterval(() => this.#ping(), this.#heartbeatMs);
    this.#heartbeat.unref();
    this.#recheck = setInterval(() => void this.#checkTokens([...this.#byToken.keys()]), this.#recheckMs);
    this.#recheck.unref();
  }

  stop(): void {
    clearInterval(this.#heartbeat);
    clearInterval(this.#recheck);
    this.#heartbeat = undefined;
    this.#recheck = undefined;
  }

  /** Open sockets and subscriptions held, for tests and measurements. */
  get stats(): { sockets: number; users: number; subscriptions: number } {
    let subscriptions = 0;
    for (const count of this.#userSubscriptions.values()) subscriptions += count;
    return { sockets: this.#connections.size, users: this.#byUser.size, subscriptions };
  }

  /** Open sockets and the subscriptions they hold, per channel name (/metrics). */
  get channelStats(): Map<string, { sockets: number; subscriptions: number }> {
    const byChannel = new Map<string, { sockets: number; subscriptions: number }>();
    for (const connection of this.#connections) {
      let figures = byChannel.get(connection.channel);
      if (figures === undefined) byChannel.set(connection.channel, (figures = { sockets: 0, subscriptions: 0 }));
      figures.sockets++;
      figures.subscriptions += connection.subscriptions;
    }
    return byChannel;
  }

  /**
   * The user's sessions or rights may have changed (staff record applied, second factor reset):
   * their sockets are checked now rather than at the next round.
   */
  userChanged(uid: string): Promise<void> {
    const tokens = new Set<string>();
    for (const connection of this.#byUser.get(uid) ?? []) if (connection.sessionToken !== null) tokens.add(connection.sessionToken);
    return this.#checkTokens([...tokens]);
  }

  /** Serves a channel at `path` on `app` (the channel's own plugin, so the route is its). */
  serve(app: FastifyInstance, path: string, channel: LiveChannel): void {
    app.get(
      path,
      {
        websocket: true,
        schema: {
          summary: channel.summary ?? `${path} (WebSocket)`,
          description: `${channel.description ?? 'Upgrades to a WebSocket.'} The socket acts for the session cookie of the upgrade request; a page of another origin is refused (403).`,
          response: errorResponses(403),
        },
        onRequest: (request, reply) => this.#checkOrigin(request, reply),
        // After the app's own preHandler has resolved `request.principal` from the same session.
        preHandler: async (request, reply) => {
          const session = request.principal === null ? null : await sessionOf(this.#auth, request, reply);
          this.#sessionTokens.set(request, session?.session.token ?? null);
        },
      },
      (socket, request) => this.#accept(socket, request, channel),
    );
  }

  reserve(principal: Principal | null): string | null {
    if (principal === null) return null;
    const { subscriptionsPerUser, subscriptionsPerTenant } = this.limits;
    if ((this.#userSubscriptions.get(principal.uid) ?? 0) >= subscriptionsPerUser)
      return `At most ${subscriptionsPerUser} live subscriptions per user: end some (close other tabs) first`;
    const tenant = tenantOf(principal);
    if ((this.#tenantSubscriptions.get(tenant) ?? 0) >= subscriptionsPerTenant)
      return `Your organisation holds ${subscriptionsPerTenant} live subscriptions, the most allowed: try again later`;
    add(this.#userSubscriptions, principal.uid, 1);
    add(this.#tenantSubscriptions, tenant, 1);
    return null;
  }

  release(principal: Principal | null, count: number): void {
    if (principal === null || count === 0) return;
    add(this.#userSubscriptions, principal.uid, -count);
    add(this.#tenantSubscriptions, tenantOf(principal), -count);
  }

  /** A successful POST under /api/auth may have ended or changed the sessions of its cookie's user. */
  authChanged(cookie: string | undefined): void {
    const uids = new Set<string>();
    for (const token of tokensIn(cookie))
      for (const connection of this.#byToken.get(token) ?? []) if (connection.principal !== null) uids.add(connection.principal.uid);
    for (const uid of uids) void this.userChanged(uid);
  }

  #allowedOrigins(): Promise<ReadonlySet<string>> {
    this.#origins ??= (async () => {
      const auth = await this.#auth;
      const port = this.#listeningPort();
      return new Set([new URL(auth.options.baseURL).origin, `http://127.0.0.1:${port}`, `http://localhost:${port}`]);
    })();
    this.#origins.catch(() => (this.#origins = null));
    return this.#origins;
  }

  async #checkOrigin(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const origin = request.headers.origin;
    if (origin === undefined) return undefined;
    let normalized: string | null;
    try {
      normalized = new URL(origin).origin;
    } catch {
      normalized = null;
    }
    if (normalized !== null && normalized !== 'null' && (await this.#allowedOrigins()).has(normalized)) return undefined;
    request.log.info({ origin, url: request.url }, 'live socket refused: foreign origin');
    return sendError(reply, 403, 'permission-denied', 'Live connections are only accepted from this server’s own pages');
  }

  #accept(socket: WebSocket, request: FastifyRequest, channel: LiveChannel): void {
    const principal = request.principal;
    const token = this.#sessionTokens.get(request) ?? null;
    const log = request.log;
    if (principal !== null && (this.#byUser.get(principal.uid)?.size ?? 0) >= this.limits.socketsPerUser) {
      log.info({ uid: principal.uid, channel: channel.name }, 'live socket refused: too many sockets for the user');
      socket.close(POLICY_CLOSE_CODE, `at most ${this.limits.socketsPerUser} live connections per user`);
      return;
    }
    const address = request.ip;
    if (principal === null && (this.#signedOutByAddress.get(address)?.size ?? 0) >= this.limits.signedOutSocketsPerAddress) {
      log.info({ address, channel: channel.name }, 'live socket refused: too many signed-out sockets from the address');
      socket.close(POLICY_CLOSE_CODE, `at most ${this.limits.signedOutSocketsPerAddress} signed-out live connections per address`);
      return;
    }
    const connection = new SocketConnection(this, socket, principal, token, channel, log);
    this.#connections.add(connection);
    if (principal !== null) addTo(this.#byUser, principal.uid, connection);
    else addTo(this.#signedOutByAddress, address, connection);
    if (token !== null) addTo(this.#byToken, token, connection);
    const handlers = channel.open(connection, request);
    socket.on('pong', () => {
      connection.alive = true;
    });
    socket.on('message', (data, isBinary) => {
      connection.alive = true;
      if (isBinary) {
        socket.close(1003, 'expected JSON text messages');
        return;
      }
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
      if (bytes.length > channel.maxMessageBytes) {
        socket.close(1009, `messages are at most ${channel.maxMessageBytes} bytes`);
        return;
      }
      try {
        handlers.message(bytes.toString('utf8'));
      } catch (error) {
        log.warn({ err: error, channel: channel.name }, 'live socket message failed');
      }
    });
    socket.on('close', () => {
      this.#connections.delete(connection);
      if (principal !== null) removeFrom(this.#byUser, principal.uid, connection);
      else removeFrom(this.#signedOutByAddress, address, connection);
      if (token !== null) removeFrom(this.#byToken, token, connection);
      this.release(principal, connection.subscriptions);
      connection.subscriptions = 0;
      handlers.close();
    });
  }

  #ping(): void {
    for (const connection of this.#connections) {
      if (!connection.alive) {
        connection.socket.terminate();
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
    }
  }

  /** Checks these sessions' sockets, one query for all; checks run one after another. */
  #checkTokens(tokens: string[]): Promise<void> {
    if (tokens.length === 0) return this.#checking;
    this.#checking = this.#checking.then(() =>
      this.#check(tokens).catch((error: unknown) =>
        this.#log.warn({ err: error }, 'live sockets: sessions could not be checked; trying again at the next round'),
      ),
    );
    return this.#checking;
  }

  async #check(tokens: string[]): Promise<void> {
    const policy = this.#secondFactor;
    const { rows } = await this.#database.query<SessionRow>(
      `select s.token, u.id, u."accessLevel", u."domainId", u."rootDomainId", u."twoFactorEnabled", u."secondFactorEnrolledAt"
         from "session" s join "user" u on u.id = s."userId"
        where s.token = any($1::text[]) and s."expiresAt" > now()`,
      [tokens],
    );
    const now = new Map<string, Principal>();
    for (const row of rows) now.set(row.token, await claimsOfAuthUser(row, policy));
    for (const token of tokens) {
      const principal = now.get(token);
      for (const connection of this.#byToken.get(token) ?? []) {
        if (connection.principal === null) continue;
        if (principal === undefined) connection.close(SESSION_CHANGED_CLOSE_CODE, 'session ended');
        else if (!samePrincipal(principal, connection.principal)) connection.close(SESSION_CHANGED_CLOSE_CODE, 'rights changed');
      }
    }
  }
}

export interface SocketRuntimePluginOptions {
  auth: Auth | Promise<Auth>;
  /** Overrides of the intervals (tests). */
  heartbeatMs?: number;
  recheckMs?: number;
  /** Overrides of SOCKET_LIMITS (a deployment or test with other limits). */
  limits?: Partial<SocketLimits>;
}

/** The WebSocket close code of a server going down (RFC 6455: "going away"). */
const GOING_AWAY_CLOSE_CODE = 1001;
/** How long sockets have at shutdown to complete the closing handshake. */
const SHUTDOWN_GRACE_MS = 500;

/** Registers @fastify/websocket and decorates the app with `live`, before the channels. */
export const socketRuntimePlugin = fp<SocketRuntimePluginOptions>(
  async (app, { auth, heartbeatMs, recheckMs, limits }) => {
    await app.register(websocket, {
      options: { maxPayload: MAX_SOCKET_MESSAGE_BYTES },
      // At shutdown every socket is told (1001, the page reconnects to another process or to this one
      // once back); one whose peer does not answer the closing handshake (a vanished browser) would
      // hold the server's close for ws's 30 s timeout, so it is cut after a short grace.
      preClose(done) {
        const server = this.websocketServer as { clients: Set<WebSocket>; close(callback?: () => void): void };
        for (const client of server.clients) client.close(GOING_AWAY_CLOSE_CODE, 'server shutting down');
        server.close();
        if (server.clients.size === 0) return done();
        const cut = setTimeout(() => {
          for (const client of server.clients) client.terminate();
          done();
        }, SHUTDOWN_GRACE_MS);
        cut.unref();
      },
    });
    const runtime = new SocketRuntime(
      { auth, database: app.database, secondFactor: app.secondFactor },
      app.log,
      () => (app.server.address() as AddressInfo).port,
    );
    runtime.configure({
      ...(heartbeatMs === undefined ? {} : { heartbeatMs }),
      ...(recheckMs === undefined ? {} : { recheckMs }),
      ...(limits === undefined ? {} : { limits }),
    });
    app.decorate('live', runtime);
    // Sign-out, revoked sessions, a changed password or second factor: whoever held the cookie is
    // checked at once. Better Auth answers an error with a status of 400 and above.
    app.addHook('onResponse', async (request, reply) => {
      if (request.method === 'POST' && reply.statusCode < 400 && request.url.startsWith(`${AUTH_BASE_PATH}/`)) runtime.authChanged(request.headers.cookie);
    });
    app.addHook('onReady', async () => runtime.start());
    app.addHook('onClose', async () => runtime.stop());
  },
  { name: 'live', dependencies: ['database', 'secondFactor'] },
);
