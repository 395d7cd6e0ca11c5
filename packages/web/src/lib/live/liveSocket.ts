/**
 * The one socket client of the page's live channels (`/api/live` for documents, `/api/signals/live`
 * for device signals, `/api/monitoring/live` for room states), so that they all keep the same
 * connection rules (issue 23):
 * - open while someone needs it (`wanted`), closed when nobody does;
 * - after a lost connection, try again with the page's one backoff (reconnect.ts: exponential,
 *   jittered, under 2 s; the long wait after a refusal by policy, POLICY_CLOSE_CODE);
 * - the network back (`online`) or the page shown again: try at once instead of waiting the backoff
 *   out; the network gone (`offline`): drop the socket, so the screens stop presenting old data as live;
 * - closed by the server with SESSION_CHANGED_CLOSE_CODE (4401: signed out, disabled, rights
 *   changed): re-read who is signed in (`onSessionChanged`) and come back at once, for the session
 *   as it is now;
 * - optionally, silence longer than `staleAfterMs` counts as a lost connection (a channel whose server
 *   speaks every second, where a vanished network may leave the socket looking open).
 *
 * The channel's own protocol (what to send on open, what a message means) stays with the channel.
 * Plain TypeScript over one seam, `openSocket`, so the documents client runs in Node in the server's
 * tests; browserLiveSocket.ts gives the page's sockets.
 */
import { POLICY_CLOSE_CODE, SESSION_CHANGED_CLOSE_CODE } from '@nemuri/shared/liveSockets';
import { Backoff, type ReconnectPolicy } from './reconnect.ts';

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

export interface LiveSocketOptions {
  url: string;
  openSocket(url: string): SocketLike;
  /** Whether anyone needs the connection now (subscriptions, watchers, listeners). */
  wanted(): boolean;
  /** The socket opened: send the subscriptions. */
  onOpen(): void;
  onMessage(data: unknown): void;
  /** The connection is gone (lost, dropped, or closed to reopen): mark what is shown as not live. */
  onDown?(): void;
  /** The server closed with SESSION_CHANGED_CLOSE_CODE: e.g. re-read who is signed in. The socket reopens either way. */
  onSessionChanged?(): void;
  /** The waits before reconnecting: LIVE_RECONNECT unless given (tests). */
  reconnect?: Partial<ReconnectPolicy>;
  /** Silence this long (ms) drops the socket and opens another; none when absent. */
  staleAfterMs?: number;
  /** The server is silent on purpose now (e.g. after a refusal): silence then is no lost connection. */
  silenceIsExpected?(): boolean;
}

function closeCodeOf(event: unknown): number | null {
  return typeof event === 'object' && event !== null && 'code' in event && typeof event.code === 'number' ? event.code : null;
}

export class LiveSocket {
  readonly #options: LiveSocketOptions;
  readonly #backoff: Backoff;
  readonly #stopWatchingNetwork: () => void;
  #socket: SocketLike | null = null;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #watchdog: ReturnType<typeof setInterval> | undefined;
  /** Clock of the latest message, or of the socket's opening before the first. */
  #heardAt = 0;
  #healthy = false;

  constructor(options: LiveSocketOptions) {
    this.#options = options;
    this.#backoff = new Backoff(options.reconnect);
    this.#stopWatchingNetwork = watchNetwork(
      () => this.#wake(),
      () => this.#drop(),
    );
  }

  /** Whether the socket is open now. */
  get connected(): boolean {
    return this.#socket?.readyState === OPEN;
  }

  /** Opens the socket now if it is needed and none is open or opening. */
  connect(): void {
    if (this.#socket !== null || !this.#options.wanted()) return;
    clearTimeout(this.#retry);
    this.#retry = undefined;
    let socket: SocketLike;
    try {
      socket = this.#options.openSocket(this.#options.url);
    } catch {
      this.#scheduleRetry();
      return;
    }
    this.#socket = socket;
    this.#healthy = false;
    this.#heardAt = Date.now();
    this.#startWatchdog();
    socket.onopen = () => {
      this.#heardAt = Date.now();
      this.#options.onOpen();
    };
    socket.onmessage = (event) => {
      this.#heardAt = Date.now();
      // Only an answer proves the way back works; an open socket alone may lead nowhere.
      if (!this.#healthy) {
        this.#healthy = true;
        this.#backoff.succeeded();
      }
      this.#options.onMessage(event.data);
    };
    // A failed socket also closes; reconnecting is done there.
    socket.onerror = () => undefined;
    socket.onclose = (event) => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      this.#stopWatchdog();
      const code = closeCodeOf(event);
      // Re-scoped, not failed: back at once with the rights the session has now. A limit does not
      // lift in a moment: wait the longest delay.
      if (code === SESSION_CHANGED_CLOSE_CODE) {
        this.#backoff.succeeded();
        this.#options.onSessionChanged?.();
      } else if (code === POLICY_CLOSE_CODE) this.#backoff.refused();
      this.#options.onDown?.();
      this.#scheduleRetry();
    };
  }

  /** Sends a JSON message if the socket is open (the subscriptions are sent again on every open). */
  send(message: unknown): boolean {
    if (this.#socket?.readyState !== OPEN) return false;
    this.#socket.send(JSON.stringify(message));
    return true;
  }

  /** Closes the socket and opens a new one now (e.g. another user signed in: a socket acts for the session it opened with). */
  reopen(): void {
    const had = this.#socket !== null;
    this.#closeSocket();
    this.#backoff.succeeded();
    if (had) this.#options.onDown?.();
    this.connect();
  }

  /** Closes the socket without reopening it (nobody needs it). */
  close(): void {
    this.#closeSocket();
  }

  /** Closes for good: no wake-ups either. */
  dispose(): void {
    this.#closeSocket();
    this.#stopWatchingNetwork();
  }

  #closeSocket(): void {
    clearTimeout(this.#retry);
    this.#retry = undefined;
    this.#stopWatchdog();
    const socket = this.#socket;
    this.#socket = null;
    if (socket === null) return;
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = null;
    socket.close();
  }

  #scheduleRetry(): void {
    clearTimeout(this.#retry);
    this.#retry = undefined;
    if (!this.#options.wanted()) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.connect();
    }, this.#backoff.next());
  }

  /** Gives up the socket (gone silent, or the browser went offline) and tries again with the backoff. */
  #drop(): void {
    if (this.#socket === null) return;
    this.#closeSocket();
    this.#options.onDown?.();
    this.#scheduleRetry();
  }

  /** The network is back or the page is shown again: if not open, try now rather than after the backoff. */
  #wake(): void {
    if (!this.#options.wanted() || this.connected) return;
    if (this.#socket === null && this.#retry === undefined) return;
    this.#closeSocket();
    this.#backoff.succeeded();
    this.connect();
  }

  #startWatchdog(): void {
    const staleAfterMs = this.#options.staleAfterMs;
    if (staleAfterMs === undefined) return;
    this.#stopWatchdog();
    this.#watchdog = setInterval(() => {
      if (this.#options.silenceIsExpected?.() === true) return;
      if (Date.now() - this.#heardAt > staleAfterMs) this.#drop();
    }, 1000);
  }

  #stopWatchdog(): void {
    clearInterval(this.#watchdog);
    this.#watchdog = undefined;
  }
}

/**
 * Calls `wake` when the browser says the network is back (`online`) or the page is shown again, and
 * `sleep` when it says the network is gone. Returns the function that stops listening; nothing
 * outside a browser.
 */
function watchNetwork(wake: () => void, sleep: () => void): () => void {
  if (typeof window === 'undefined' || typeof document === 'undefined') return () => undefined;
  const onVisible = (): void => {
    if (document.visibilityState === 'visible') wake();
  };
  window.addEventListener('online', wake);
  window.addEventListener('offline', sleep);
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    window.removeEventListener('online', wake);
    window.removeEventListener('offline', sleep);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
