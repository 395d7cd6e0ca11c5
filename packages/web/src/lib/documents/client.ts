/**
 * The document engine from the browser: reads, queries, counts, writes and transactions over
 * `/api/documents` (docs/api.md "Documents"), and live subscriptions over one shared WebSocket
 * (`/api/live`, docs/api.md "Live subscriptions").
 *
 * The client is plain TypeScript over two small seams, `fetch` and `openSocket`, so that the same
 * code runs in the browser (documents.ts gives the page's instance) and in Node against a real
 * server in the server's tests. Errors are the engine's `DocumentError` with the API's code and
 * English message.
 *
 * The socket opens with the first subscription, closes a while after the last one ends, and after
 * a lost connection reopens with growing delays and subscribes again: the server then sends every
 * subscription's current snapshot, so nothing missed while away stays missed.
 */
import { ApiError } from '../http/apiError.ts';
import { createHttpClient, type FetchLike, type HttpClient, type HttpMethod } from '../http/httpClient.ts';
import { LiveSocket, type SocketLike } from '../live/liveSocket.ts';
import type { ReconnectPolicy } from '../live/reconnect.ts';
import { DocumentError, type DocumentErrorCode, type DocumentIssue } from '@nemuri/shared/documents/errors';
import { LIVE_PATH, type LiveTarget, type ServerMessage } from '@nemuri/shared/documents/live';
import type { Query } from '@nemuri/shared/documents/query';
import { runTransaction as runWithRetries, type Transaction } from '@nemuri/shared/documents/transaction';
import { DELETE_FIELD, isPlainObject, type Data } from '@nemuri/shared/documents/update';
import type { AnyRecord, Chosen, QueryInput, RecordAt, RecordOfQuery } from './records.ts';

/** The part of `fetch` the client uses. */
export type { FetchLike } from '../http/httpClient.ts';

/** The part of a WebSocket the client uses. */
export type { SocketLike } from '../live/liveSocket.ts';

export interface DocumentsClientOptions {
  /** Where the server is: '' for the page's own origin, or e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** The WebSocket URL of `/api/live` (default: baseUrl with ws: or wss:). */
  liveUrl?: string;
  /** The page's fetch unless given (the server's tests add a cookie). */
  fetch?: FetchLike;
  openSocket(url: string): SocketLike;
  /** The waits before reconnecting: LIVE_RECONNECT (lib/live/reconnect.ts, shared by every live socket) unless given (tests). */
  reconnect?: Partial<ReconnectPolicy>;
  /** How long the socket stays open after its last subscription ended (ms). */
  idleCloseMs?: number;
  /**
   * The server closed the socket because its session ended or the user's rights changed
   * (SESSION_CHANGED_CLOSE_CODE): e.g. re-read who is signed in. The socket reopens either way.
   */
  onSessionChanged?(): void;
}

export interface Listener<T> {
  next(value: T): void;
  error?(error: DocumentError): void;
}

export type Unsubscribe = () => void;

/** A field set to `undefined` is removed (PRODUCT.md section 6); JSON drops undefined, so say so. */
function encodeWrite(data: Data): Data {
  const out: Data = {};
  for (const [key, value] of Object.entries(data)) out[key] = value === undefined ? DELETE_FIELD : isPlainObject(value) ? encodeWrite(value) : value;
  return out;
}

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function errorOf(status: number, body: unknown): DocumentError {
  if (isPlainObject(body) && typeof body.code === 'string' && typeof body.message === 'string') {
    return new DocumentError(body.code as DocumentErrorCode, body.message, Array.isArray(body.issues) ? (body.issues as DocumentIssue[]) : []);
  }
  return new DocumentError(status === 401 ? 'unauthenticated' : status === 403 ? 'permission-denied' : 'aborted', `The server answered ${status}`);
}

export class DocumentsClient {
  readonly #http: HttpClient;
  readonly live: LiveChannel;

  constructor(options: DocumentsClientOptions) {
    this.#http = createHttpClient({ baseUrl: options.baseUrl, ...(options.fetch === undefined ? {} : { fetch: options.fetch }) });
    const liveUrl = options.liveUrl ?? `${options.baseUrl.replace(/^http/, 'ws')}${LIVE_PATH}`;
    this.live = new LiveChannel(liveUrl, options);
  }

  /**
   * One call through the page's HTTP client; a refusal becomes the engine's DocumentError. No
   * answer at all stays the client's network ApiError: that is not the engine's refusal.
   */
  async #ok(method: HttpMethod, path: string, body?: unknown, { idempotent = false }: { idempotent?: boolean } = {}): Promise<Data> {
    let answer: unknown;
    try {
      answer = await this.#http.json<unknown>(method, path, { body, idempotent });
    } catch (error) {
      throw error instanceof ApiError && !error.isNetworkFailure ? errorOf(error.status, error.body) : error;
    }
    return isPlainObject(answer) ? answer : {};
  }

  /** The record with its version (for transactions); null when there is none. */
  async getWithVersion<T = AnyRecord>(path: string): Promise<{ document: T; version: number } | null> {
    let answer: Data;
    try {
      answer = await this.#ok('GET', `/api/documents/${encodePath(path)}`);
    } catch (error) {
      if (error instanceof DocumentError && error.code === 'not-found') return null;
      throw error;
    }
    return { document: answer.document as T, version: Number(answer.version) };
  }

  /** The record at the path; null when there is none. */
  async get<T = never, P extends string = string>(path: P): Promise<Chosen<T, RecordAt<P>> | null> {
    return (await this.getWithVersion<Chosen<T, RecordAt<P>>>(path))?.document ?? null;
  }

  /** At most the query's limit (default 50) of the records it matches, in the caller's scope. */
  async query<T = never, const Q extends QueryInput = QueryInput>(query: Q): Promise<Chosen<T, RecordOfQuery<Q>>[]> {
    return (await this.#ok('POST', '/api/documents/query', { query }, { idempotent: true })).documents as Chosen<T, RecordOfQuery<Q>>[];
  }

  async count(query: QueryInput): Promise<number> {
    return (await this.#ok('POST', '/api/documents/count', { query }, { idempotent: true })).count as number;
  }

  /** Creates or replaces the record; with `merge`, merges into it. Returns the record written. */
  async set<T = never, P extends string = string>(path: P, data: Data, { merge = false }: { merge?: boolean } = {}): Promise<Chosen<T, RecordAt<P>>> {
    return (await this.#ok('PUT', `/api/documents/${encodePath(path)}`, { data: encodeWrite(data), merge })).document as Chosen<T, RecordAt<P>>;
  }

  /**
   * Changes the named fields (dot paths reach into objects; `undefined` removes a field). A missing
   * record is not-found; an empty record id is refused by the server quietly (null).
   */
  async update<T = never, P extends string = string>(path: P, fields: Data): Promise<Chosen<T, RecordAt<P>> | null> {
    return (
      ((await this.#ok('PATCH', `/api/documents/${encodePath(path)}`, { data: encodeWrite(fields) })).document as Chosen<T, RecordAt<P>> | undefined) ?? null
    );
  }

  /** Deletes the record (nothing to do when there is none). */
  async remove(path: string): Promise<void> {
    await this.#ok('DELETE', `/api/documents/${encodePath(path)}`);
  }

  /** The first record of the collection (or group) whose field equals the value; null if none. */
  async lookup<T = never, const C extends string = string>(
    collection: C,
    field: string,
    value: unknown,
    { collectionGroup = false }: { collectionGroup?: boolean } = {},
  ): Promise<Chosen<T, RecordAt<C>> | null> {
    return (
      ((await this.#ok('POST', '/api/documents/lookup', { collection, field, value, collectionGroup }, { idempotent: true })).document as Chosen<
        T,
        RecordAt<C>
      > | null) ?? null
    );
  }

  /**
   * Runs `fn` as a transaction: its reads note record versions, its writes commit together only if
   * none of those records changed meanwhile; otherwise it runs again, up to `maxAttempts` (default 5;
   * below 1: `Max attempts must be at least 1`).
   */
  runTransaction<R>(fn: (tx: Transaction) => Promise<R>, options: { maxAttempts?: number } = {}): Promise<R> {
    return runWithRetries(
      {
        get: async (path) => {
          const found = await this.getWithVersion<Data>(path);
          return found === null ? { document: null, version: 0 } : found;
        },
        commit: async (request) => {
          await this.#ok('POST', '/api/documents/commit', {
            ...request,
            writes: request.writes.map((write) => (write.op === 'delete' ? write : { ...write, data: encodeWrite(write.data) })),
          });
        },
      },
      fn,
      options,
    );
  }

  /** The record now and after every change (null while there is none). */
  subscribeDocument<T = never, P extends string = string>(path: P, listener: Listener<Chosen<T, RecordAt<P>> | null>): Unsubscribe {
    return this.live.subscribe(
      { document: path },
      (message) => listener.next(('document' in message ? message.document : null) as Chosen<T, RecordAt<P>> | null),
      listener.error,
    );
  }

  /** The query's records now and after every change of the result. */
  subscribeQuery<T = never, const Q extends QueryInput = QueryInput>(query: Q, listener: Listener<Chosen<T, RecordOfQuery<Q>>[]>): Unsubscribe {
    return this.live.subscribe(
      { query: query as Query },
      (message) => listener.next(('documents' in message ? message.documents : []) as Chosen<T, RecordOfQuery<Q>>[]),
      listener.error,
    );
  }

  /** How many records the query matches, now and after every change. */
  subscribeCount(query: QueryInput, listener: Listener<number>): Unsubscribe {
    return this.live.subscribe({ count: query as Query }, (message) => listener.next('count' in message ? message.count : 0), listener.error);
  }
}

type Snapshot = Extract<ServerMessage, { type: 'snapshot' }>;

interface LiveSubscription {
  target: LiveTarget;
  onSnapshot(message: Snapshot): void;
  onError: ((error: DocumentError) => void) | undefined;
}

/** The one WebSocket of a client, shared by all its subscriptions (the page's socket rules: lib/live/liveSocket.ts). */
export class LiveChannel {
  readonly #socket: LiveSocket;
  readonly #idleCloseMs: number;
  readonly #subscriptions = new Map<number, LiveSubscription>();
  #nextId = 1;
  #idle: ReturnType<typeof setTimeout> | undefined;

  constructor(url: string, options: Pick<DocumentsClientOptions, 'openSocket' | 'reconnect' | 'idleCloseMs' | 'onSessionChanged'>) {
    this.#socket = new LiveSocket({
      url,
      openSocket: options.openSocket,
      ...(options.reconnect === undefined ? {} : { reconnect: options.reconnect }),
      wanted: () => this.#subscriptions.size > 0,
      onOpen: () => {
        for (const [id, subscription] of this.#subscriptions) this.#socket.send({ type: 'subscribe', id, target: subscription.target });
      },
      onMessage: (data) => this.#receive(data),
      ...(options.onSessionChanged === undefined ? {} : { onSessionChanged: options.onSessionChanged }),
    });
    this.#idleCloseMs = options.idleCloseMs ?? 10_000;
  }

  /** Whether the socket is open now (for tests and a connection indicator). */
  get connected(): boolean {
    return this.#socket.connected;
  }

  subscribe(target: LiveTarget, onSnapshot: (message: Snapshot) => void, onError?: (error: DocumentError) => void): Unsubscribe {
    const id = this.#nextId++;
    this.#subscriptions.set(id, { target, onSnapshot, onError });
    clearTimeout(this.#idle);
    // Sent now when open; otherwise with every subscription once the socket opens.
    this.#socket.send({ type: 'subscribe', id, target });
    this.#socket.connect();
    return () => {
      if (!this.#subscriptions.delete(id)) return;
      this.#socket.send({ type: 'unsubscribe', id });
      if (this.#subscriptions.size === 0) {
        clearTimeout(this.#idle);
        this.#idle = setTimeout(() => this.#closeIdle(), this.#idleCloseMs);
      }
    };
  }

  /**
   * Opens a new socket now and subscribes again, e.g. after signing in or out: the socket acts for
   * the session it opened with.
   */
  reconnect(): void {
    this.#socket.reopen();
  }

  /** Closes the socket and forgets every subscription. */
  close(): void {
    this.#subscriptions.clear();
    clearTimeout(this.#idle);
    this.#socket.dispose();
  }

  #closeIdle(): void {
    if (this.#subscriptions.size === 0) this.#socket.close();
  }

  #receive(data: unknown): void {
    let message: ServerMessage;
    try {
      message = JSON.parse(String(data)) as ServerMessage;
    } catch {
      return;
    }
    if (typeof message.id !== 'number') return;
    const subscription = this.#subscriptions.get(message.id);
    if (subscription === undefined) return;
    if (message.type === 'snapshot') {
      subscription.onSnapshot(message);
      return;
    }
    // The server dropped the subscription (PRODUCT.md section 6).
    this.#subscriptions.delete(message.id);
    const error = new DocumentError(message.code, message.message);
    if (subscription.onError === undefined) console.warn(`live subscription failed: ${error.code}: ${error.message}`);
    else subscription.onError(error);
  }
}
