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
import { jsonRequest, type FetchLike } from '../jsonRequest.ts';
import { DocumentError, type DocumentErrorCode, type DocumentIssue } from '@nemuri/shared/documents/errors';
import { LIVE_PATH, type LiveTarget, type ServerMessage } from '@nemuri/shared/documents/live';
import { POLICY_CLOSE_CODE, SESSION_CHANGED_CLOSE_CODE } from '@nemuri/shared/liveSockets';
import type { Query } from '@nemuri/shared/documents/query';
import { runTransaction as runWithRetries, type Transaction } from '@nemuri/shared/documents/transaction';
import { DELETE_FIELD, isPlainObject, type Data } from '@nemuri/shared/documents/update';
import type { AnyRecord, Chosen, QueryInput, RecordAt, RecordOfQuery } from './records.ts';

/** The part of `fetch` the client uses. */
export type { FetchLike } from '../jsonRequest.ts';

/** The part of a WebSocket (the browser's, or the `ws` package's) the client uses. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

const OPEN = 1;

export interface DocumentsClientOptions {
  /** Where the server is: '' for the page's own origin, or e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** The WebSocket URL of `/api/live` (default: baseUrl with ws: or wss:). */
  liveUrl?: string;
  fetch: FetchLike;
  openSocket(url: string): SocketLike;
  /** Delays before reconnecting: the first, doubled per failure up to the last (ms). */
  reconnectDelayMs?: { first: number; max: number };
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
  readonly #options: DocumentsClientOptions;
  readonly live: LiveChannel;

  constructor(options: DocumentsClientOptions) {
    this.#options = options;
    const liveUrl = options.liveUrl ?? `${options.baseUrl.replace(/^http/, 'ws')}${LIVE_PATH}`;
    this.live = new LiveChannel(liveUrl, options);
  }

  async #call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const reply = await jsonRequest(method, `${this.#options.baseUrl}${path}`, body, this.#options.fetch);
    // An empty or non-JSON answer is no body at all to the engine's error mapping.
    return { status: reply.status, body: reply.body ?? undefined };
  }

  async #ok(method: string, path: string, body?: unknown): Promise<Data> {
    const reply = await this.#call(method, path, body);
    if (reply.status < 200 || reply.status > 299) throw errorOf(reply.status, reply.body);
    return isPlainObject(reply.body) ? reply.body : {};
  }

  /** The record with its version (for transactions); null when there is none. */
  async getWithVersion<T = AnyRecord>(path: string): Promise<{ document: T; version: number } | null> {
    const reply = await this.#call('GET', `/api/documents/${encodePath(path)}`);
    if (reply.status === 404 && isPlainObject(reply.body) && reply.body.code === 'not-found') return null;
    if (reply.status !== 200 || !isPlainObject(reply.body)) throw errorOf(reply.status, reply.body);
    return { document: reply.body.document as T, version: Number(reply.body.version) };
  }

  /** The record at the path; null when there is none. */
  async get<T = never, P extends string = string>(path: P): Promise<Chosen<T, RecordAt<P>> | null> {
    return (await this.getWithVersion<Chosen<T, RecordAt<P>>>(path))?.document ?? null;
  }

  /** At most the query's limit (default 50) of the records it matches, in the caller's scope. */
  async query<T = never, const Q extends QueryInput = QueryInput>(query: Q): Promise<Chosen<T, RecordOfQuery<Q>>[]> {
    return (await this.#ok('POST', '/api/documents/query', { query })).documents as Chosen<T, RecordOfQuery<Q>>[];
  }

  async count(query: QueryInput): Promise<number> {
    return (await this.#ok('POST', '/api/documents/count', { query })).count as number;
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
    return ((await this.#ok('PATCH', `/api/documents/${encodePath(path)}`, { data: encodeWrite(fields) })).document as Chosen<T, RecordAt<P>> | undefined) ?? null;
  }

  /** Deletes the record (nothing to do when there is none). */
  async remove(path: string): Promise<void> {
    await this.#ok('DELETE', `/api/documents/${encodePath(path)}`);
  }

  /** The first record of the collection (or group) whose field equals the value; null if none. */
  async lookup<T = never, const C extends string = string>(collection: C, field: string, value: unknown, { collectionGroup = false }: { collectionGroup?: boolean } = {}): Promise<Chosen<T, RecordAt<C>> | null> {
    return ((await this.#ok('POST', '/api/documents/lookup', { collection, field, value, collectionGroup })).document as Chosen<T, RecordAt<C>> | null) ?? null;
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
          await this.#ok('POST', '/api/documents/commit', { ...request, writes: request.writes.map((write) => (write.op === 'delete' ? write : { ...write, data: encodeWrite(write.data) })) });
        },
      },
      fn,
      options,
    );
  }

  /** The record now and after every change (null while there is none). */
  subscribeDocument<T = never, P extends string = string>(path: P, listener: Listener<Chosen<T, RecordAt<P>> | null>): Unsubscribe {
    return this.live.subscribe({ document: path }, (message) => listener.next(('document' in message ? message.document : null) as Chosen<T, RecordAt<P>> | null), listener.error);
  }

  /** The query's records now and after every change of the result. */
  subscribeQuery<T = never, const Q extends QueryInput = QueryInput>(query: Q, listener: Listener<Chosen<T, RecordOfQuery<Q>>[]>): Unsubscribe {
    return this.live.subscribe({ query: query as Query }, (message) => listener.next(('documents' in message ? message.documents : []) as Chosen<T, RecordOfQuery<Q>>[]), listener.error);
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

/** The one WebSocket of a client, shared by all its subscriptions. */
export class LiveChannel {
  readonly #url: string;
  readonly #openSocket: (url: string) => SocketLike;
  readonly #delays: { first: number; max: number };
  readonly #onSessionChanged: (() => void) | undefined;
  readonly #idleCloseMs: number;
  readonly #subscriptions = new Map<number, LiveSubscription>();
  #nextId = 1;
  #socket: SocketLike | null = null;
  #failures = 0;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #idle: ReturnType<typeof setTimeout> | undefined;

  constructor(url: string, options: Pick<DocumentsClientOptions, 'openSocket' | 'reconnectDelayMs' | 'idleCloseMs' | 'onSessionChanged'>) {
    this.#url = url;
    this.#openSocket = options.openSocket;
    this.#delays = options.reconnectDelayMs ?? { first: 500, max: 30_000 };
    this.#onSessionChanged = options.onSessionChanged;
    this.#idleCloseMs = options.idleCloseMs ?? 10_000;
  }

  /** Whether the socket is open now (for tests and a connection indicator). */
  get connected(): boolean {
    return this.#socket?.readyState === OPEN;
  }

  subscribe(target: LiveTarget, onSnapshot: (message: Snapshot) => void, onError?: (error: DocumentError) => void): Unsubscribe {
    const id = this.#nextId++;
    this.#subscriptions.set(id, { target, onSnapshot, onError });
    clearTimeout(this.#idle);
    if (this.#socket === null) this.#connect();
    else this.#send({ type: 'subscribe', id, target });
    return () => {
      if (!this.#subscriptions.delete(id)) return;
      this.#send({ type: 'unsubscribe', id });
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
    const socket = this.#socket;
    this.#socket = null;
    this.#detach(socket);
    socket?.close();
    clearTimeout(this.#retry);
    this.#failures = 0;
    if (this.#subscriptions.size > 0) this.#connect();
  }

  /** Closes the socket and forgets every subscription. */
  close(): void {
    this.#subscriptions.clear();
    clearTimeout(this.#retry);
    clearTimeout(this.#idle);
    const socket = this.#socket;
    this.#socket = null;
    this.#detach(socket);
    socket?.close();
  }

  #closeIdle(): void {
    if (this.#subscriptions.size > 0) return;
    const socket = this.#socket;
    this.#socket = null;
    this.#detach(socket);
    socket?.close();
  }

  #detach(socket: SocketLike | null): void {
    if (socket === null) return;
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = null;
  }

  #send(message: unknown): void {
    if (this.#socket?.readyState === OPEN) this.#socket.send(JSON.stringify(message));
  }

  #connect(): void {
    clearTimeout(this.#retry);
    let socket: SocketLike;
    try {
      socket = this.#openSocket(this.#url);
    } catch {
      this.#scheduleReconnect();
      return;
    }
    this.#socket = socket;
    socket.onopen = () => {
      this.#failures = 0;
      for (const [id, subscription] of this.#subscriptions) this.#send({ type: 'subscribe', id, target: subscription.target });
    };
    socket.onmessage = (event) => this.#receive(event.data);
    // A failed socket also closes; reconnecting is done there.
    socket.onerror = () => undefined;
    socket.onclose = (event) => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      const code = typeof event === 'object' && event !== null && 'code' in event && typeof event.code === 'number' ? event.code : null;
      // Re-scoped, not failed: back at once with the rights the session has now. A limit does
      // not lift in a moment: wait the longest delay.
      if (code === SESSION_CHANGED_CLOSE_CODE) this.#failures = 0;
      else if (code === POLICY_CLOSE_CODE) this.#failures = Math.max(this.#failures + 1, Math.ceil(Math.log2(this.#delays.max / this.#delays.first)) + 1);
      else this.#failures++;
      if (code === SESSION_CHANGED_CLOSE_CODE) this.#onSessionChanged?.();
      if (this.#subscriptions.size > 0) this.#scheduleReconnect();
    };
  }

  #scheduleReconnect(): void {
    const delay = Math.min(this.#delays.first * 2 ** Math.max(0, this.#failures - 1), this.#delays.max);
    // Jitter: after a server restart, not every page at the same instant.
    this.#retry = setTimeout(() => this.#connect(), delay * (0.75 + Math.random() / 2));
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
