/**
 * Live subscriptions over a WebSocket at `GET /api/live` (docs/api.md, "Live subscriptions"): the
 * browser subscribes to records, queries and counts and gets a snapshot at once and after every
 * change of the result (liveResults.ts). The socket acts for the session cookie of its upgrade
 * request (`request.principal`, fixed for the socket's life); signed out, every subscribe answers
 * `unauthenticated`. What every live socket needs (origin, heartbeat, session re-checks, limits,
 * a peer that stops reading) is the socket runtime's (socketRuntime.ts), registered before it.
 */
import fp from 'fastify-plugin';
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError, MESSAGES } from '@nemuri/shared/documents/errors';
import { LIVE_PATH, MAX_SUBSCRIPTIONS_PER_SOCKET, type ServerMessage, type SubscriptionId } from '@nemuri/shared/documents/live';
import { isPlainObject } from '@nemuri/shared/documents/update';
import { LiveResults, type Logger } from './liveResults.ts';
import { SESSION_CHANGED_CLOSE_CODE, type SocketConnection } from './socketRuntime.ts';
import { parseGuardedJson } from '../http/jsonGuard.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The live results of `/api/live` (live/liveResults.ts): what is subscribed (tests, measurements). */
    liveResults: LiveResults;
  }
}

/** Unsent data beyond which a socket counts as not reading. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/** Largest message a client sends: a subscription, far below this. */
const MAX_MESSAGE_BYTES = 64 * 1024;

/** A refusal by the socket limits: not one of the document engine's codes, so typed here. */
type LiveMessage = ServerMessage | { type: 'error'; id: SubscriptionId; code: 'resource-exhausted'; message: string };

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
  if (lastSnapshot === null || lastSnapshot.json !== json || lastSnapshot.head !== head)
    lastSnapshot = { head, json, bytes: Buffer.from(head + json.slice(1)) };
  return lastSnapshot.bytes;
}

/** One socket's subscriptions. */
class LiveConnection {
  readonly #connection: SocketConnection;
  readonly #claims: Claims | null;
  readonly #results: LiveResults;
  readonly #log: Logger;
  readonly #subscriptions = new Map<string, () => void>();

  constructor(connection: SocketConnection, results: LiveResults, log: Logger) {
    this.#connection = connection;
    this.#claims = connection.principal;
    this.#results = results;
    this.#log = log;
  }

  #send(message: LiveMessage | Buffer): void {
    this.#connection.send(Buffer.isBuffer(message) ? message : JSON.stringify(message));
  }

  #error(id: SubscriptionId | null, error: DocumentError): void {
    this.#send({ type: 'error', id, code: error.code, message: error.message });
  }

  receive(text: string): void {
    let message: unknown;
    try {
      message = parseGuardedJson(text);
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
      this.#end(key);
      return;
    }
    try {
      if (this.#claims === null) throw new DocumentError('unauthenticated', MESSAGES.signedOut);
      if (this.#subscriptions.has(key)) throw new DocumentError('invalid-argument', `Subscription id already in use: ${id}`);
      if (this.#subscriptions.size >= MAX_SUBSCRIPTIONS_PER_SOCKET)
        throw new DocumentError('invalid-argument', `At most ${MAX_SUBSCRIPTIONS_PER_SOCKET} subscriptions per connection`);
      const refusal = this.#connection.reserve();
      if (refusal !== null) {
        this.#log.warn({ uid: this.#claims.uid }, `live subscription refused: ${refusal}`);
        this.#send({ type: 'error', id, code: 'resource-exhausted', message: refusal });
        return;
      }
      const head = `{"type":"snapshot","id":${JSON.stringify(id)},`;
      let unsubscribe: () => void;
      try {
        unsubscribe = this.#results.add(this.#claims, message.target, {
          snapshot: (json) => this.#send(snapshotMessage(head, json)),
          fail: (error) => {
            if (this.#subscriptions.delete(key)) this.#connection.release();
            this.#error(id, error);
          },
        });
      } catch (error) {
        this.#connection.release();
        throw error;
      }
      this.#subscriptions.set(key, unsubscribe);
    } catch (error) {
      if (!(error instanceof DocumentError)) throw error;
      // Signed out is the socket's state, not a failing subscription: not worth a warning each.
      if (error.code !== 'unauthenticated')
        this.#log.warn({ uid: this.#claims?.uid, target: message.target, code: error.code }, `live subscription refused: ${error.message}`);
      this.#error(id, error);
    }
  }

  #end(key: string): void {
    const unsubscribe = this.#subscriptions.get(key);
    if (unsubscribe === undefined) return;
    this.#subscriptions.delete(key);
    unsubscribe();
    this.#connection.release();
  }

  /** The socket closed: the runtime has given its subscriptions back to the limits already. */
  close(): void {
    for (const unsubscribe of this.#subscriptions.values()) unsubscribe();
    this.#subscriptions.clear();
  }
}

/** Close code: the session the socket was opened with has ended or its rights changed. */
export const SESSION_ENDED = SESSION_CHANGED_CLOSE_CODE;

// Not encapsulated: `app.liveResults` is the app's (tests read what is subscribed through it).
export const livePlugin = fp(
  async (app) => {
    const results = new LiveResults(app.documents, app.changeFeed, app.log as Logger);
    app.decorate('liveResults', results);
    app.addHook('onClose', async () => {
      results.close();
    });

    app.live.serve(app, LIVE_PATH, {
      name: 'live',
      summary: 'Live subscriptions to records, queries and counts (WebSocket)',
      description:
        'Upgrades to a WebSocket carrying live subscriptions: a snapshot at once, then one whenever the result changes. Messages: docs/api.md "Live subscriptions (WebSocket)".',
      maxMessageBytes: MAX_MESSAGE_BYTES,
      maxBufferedBytes: MAX_BUFFERED_BYTES,
      whenBehind: 'close',
      open: (connection, request) => {
        const live = new LiveConnection(connection, results, request.log as Logger);
        return { message: (text) => live.receive(text), close: () => live.close() };
      },
    });
  },
  { name: 'liveDocuments', dependencies: ['documents', 'live'] },
);
