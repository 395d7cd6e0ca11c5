/**
 * Live subscriptions over a WebSocket at `GET /api/live` (docs/api.md, "Live subscriptions"): the
 * browser subscribes to records, queries and counts and gets a snapshot at once and after every
 * change of the result (liveResults.ts). The socket acts for the session cookie of its upgrade
 * request (`request.principal`, fixed for the socket's life); signed out, every subscribe answers
 * `unauthenticated`. Needs @fastify/websocket registered before it (app.ts).
 *
 * A ping every 30 seconds keeps proxies from closing a quiet socket and finds dead peers: a socket
 * that has not answered the previous ping is closed. A peer that stops reading is closed too,
 * rather than letting snapshots pile up in memory. At each ping the socket's session is read
 * again: once it has ended (signed out, expired, revoked) or belongs to someone else, the socket
 * closes with code 4401, and the client's new socket acts for whatever session it has then.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { WebSocket } from 'ws';
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError, MESSAGES } from '@nemuri/shared/documents/errors';
import { LIVE_PATH, MAX_SUBSCRIPTIONS_PER_SOCKET, type ServerMessage, type SubscriptionId } from '@nemuri/shared/documents/live';
import { isPlainObject } from '@nemuri/shared/documents/update';
import type { Auth } from '../auth/auth.ts';
import { webHeaders } from '../auth/http.ts';
import type { Database } from '../database/database.ts';
import { changeFeedOf } from '../documents/changeFeed.ts';
import { DocumentStore } from '../documents/store.ts';
import { LiveResults, type Logger } from './liveResults.ts';

export interface LivePluginOptions {
  database: Database;
  /** To check at each ping that the socket's session still holds. */
  auth: Auth | Promise<Auth>;
  /** Between pings (default 30 s). */
  heartbeatMs?: number;
}

/** Unsent data beyond which a socket counts as not reading. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/** Largest message a client sends: a subscription, far below this. */
const MAX_MESSAGE_BYTES = 64 * 1024;

function isSubscriptionId(value: unknown): value is SubscriptionId {
  return (typeof value === 'string' && value.length <= 200) || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * The last snapshot message as bytes. A result's members get the same snapshot one after another,
 * mostly under the same subscription id (clients number their subscriptions alike), so a thousand
 * sockets showing one answer cost one UTF-8 encoding, not a thousand.
 */
let lastSnapshot: { head: string; json: string; bytes: Buffer } | null = null;

function snapshotMessage(head: string, json: string): Buffer {
  if (lastSnapshot === null || lastSnapshot.json !== json || lastSnapshot.head !== head) lastSnapshot = { head, json, bytes: Buffer.from(head + json.slice(1)) };
  return lastSnapshot.bytes;
}

/** One socket's subscriptions. */
class LiveConnection {
  readonly #socket: WebSocket;
  readonly #claims: Claims | null;
  readonly #results: LiveResults;
  readonly #log: Logger;
  readonly #subscriptions = new Map<string, () => void>();

  constructor(socket: WebSocket, claims: Claims | null, results: LiveResults, log: Logger) {
    this.#socket = socket;
    this.#claims = claims;
    this.#results = results;
    this.#log = log;
  }

  #send(message: ServerMessage | Buffer): void {
    if (this.#socket.readyState !== this.#socket.OPEN) return;
    if (this.#socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.#socket.close(1008, 'not reading');
      return;
    }
    if (Buffer.isBuffer(message)) this.#socket.send(message, { binary: false });
    else this.#socket.send(JSON.stringify(message));
  }

  #error(id: SubscriptionId | null, error: DocumentError): void {
    this.#send({ type: 'error', id, code: error.code, message: error.message });
  }

  receive(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      message = undefined;
    }
    if (!isPlainObject(message) || !isSubscriptionId(message.id) || (message.type !== 'subscribe' && message.type !== 'unsubscribe')) {
      const id = isPlainObject(message) && isSubscriptionId(message.id) ? message.id : null;
      this.#error(id, new DocumentError('invalid-argument', MESSAGES.invalidData('subscribe')));
      return;
    }
    const id = message.id;
    const key = `${typeof id}:${id}`;
    if (message.type === 'unsubscribe') {
      this.#subscriptions.get(key)?.();
      this.#subscriptions.delete(key);
      return;
    }
    try {
      if (this.#claims === null) throw new DocumentError('unauthenticated', MESSAGES.signedOut);
      if (this.#subscriptions.has(key)) throw new DocumentError('invalid-argument', `Subscription id already in use: ${id}`);
      if (this.#subscriptions.size >= MAX_SUBSCRIPTIONS_PER_SOCKET) throw new DocumentError('invalid-argument', `At most ${MAX_SUBSCRIPTIONS_PER_SOCKET} subscriptions per connection`);
      const head = `{"type":"snapshot","id":${JSON.stringify(id)},`;
      const unsubscribe = this.#results.add(this.#claims, message.target, {
        snapshot: (json) => this.#send(snapshotMessage(head, json)),
        fail: (error) => {
          this.#subscriptions.delete(key);
          this.#error(id, error);
        },
      });
      this.#subscriptions.set(key, unsubscribe);
    } catch (error) {
      if (!(error instanceof DocumentError)) throw error;
      // Signed out is the socket's state, not a failing subscription: not worth a warning each.
      if (error.code !== 'unauthenticated') this.#log.warn({ uid: this.#claims?.uid, target: message.target, code: error.code }, `live subscription refused: ${error.message}`);
      this.#error(id, error);
    }
  }

  close(): void {
    for (const unsubscribe of this.#subscriptions.values()) unsubscribe();
    this.#subscriptions.clear();
  }
}

const resultsByDatabase = new WeakMap<Database, LiveResults>();

/** The live results over this database, to see what is subscribed (tests, measurements). */
export function liveResultsOf(database: Database): LiveResults | undefined {
  return resultsByDatabase.get(database);
}

/** Close code: the session the socket was opened with has ended. */
export const SESSION_ENDED = 4401;

export const livePlugin: FastifyPluginAsync<LivePluginOptions> = async (app, { database, auth, heartbeatMs = 30_000 }) => {
  const feed = changeFeedOf(database);
  const results = new LiveResults(new DocumentStore(database, app.log), feed, app.log as Logger);
  resultsByDatabase.set(database, results);

  // Other processes' changes (PostgreSQL): listening starts with the server and ends before the
  // database closes (server.ts closes the app first).
  app.addHook('onReady', async () => {
    await feed.start(app.log);
  });
  app.addHook('onClose', async () => {
    results.close();
    await feed.stop();
  });

  app.get(LIVE_PATH, { websocket: true }, (socket, request) => {
    const claims = request.principal;
    const connection = new LiveConnection(socket, claims, results, request.log as Logger);
    const headers = webHeaders(request.headers);
    const sessionHolds = async (): Promise<boolean> => {
      const session = await (await auth).api.getSession({ headers });
      return session?.user.id === claims?.uid;
    };
    let alive = true;
    const heartbeat = setInterval(() => {
      if (!alive) {
        socket.terminate();
        return;
      }
      alive = false;
      socket.ping();
      if (claims === null) return;
      sessionHolds().then(
        (holds) => {
          if (!holds) socket.close(SESSION_ENDED, 'session ended');
        },
        (error: unknown) => request.log.warn({ err: error }, 'live: could not check the session; checking again at the next ping'),
      );
    }, heartbeatMs);
    heartbeat.unref();
    socket.on('pong', () => {
      alive = true;
    });
    socket.on('message', (data, isBinary) => {
      alive = true;
      const size = Array.isArray(data) ? data.reduce((sum, part) => sum + part.length, 0) : data.byteLength;
      if (isBinary || size > MAX_MESSAGE_BYTES) {
        socket.close(1003, 'expected JSON text messages');
        return;
      }
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
      try {
        connection.receive(text);
      } catch (error) {
        request.log.warn({ err: error }, 'live message failed');
      }
    });
    socket.on('close', () => {
      clearInterval(heartbeat);
      connection.close();
    });
  });
};
